"""Secret values never reach any report, whatever the problem with them."""

from __future__ import annotations

import pytest

from svcconf.commands.validate import FORMATS
from tests.helpers import run

SECRETS = {
    "not base64": "s3cr3t-Passw0rd!",
    "wrong length": "c2VjcmV0LXBhc3N3b3Jk",  # "secret-password", 15 bytes
    "in a provider item with two providers": "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWY=",
    "unquoted yes": "yes",
    "a number": "123456789012",
}

DOCUMENT = f"""apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - aescbc:
          keys:
            - name: k1
              secret: {SECRETS["not base64"]}
            - name: k2
              secret: {SECRETS["wrong length"]}
      - identity: {{}}
        aesgcm:
          keys:
            - name: k5
              secret: {SECRETS["in a provider item with two providers"]}
  # Values of the wrong type stop the rules for their entry (the server's decoder stops there), so
  # they have an entry of their own.
  - resources: [configmaps]
    providers:
      - aescbc:
          keys:
            - name: k3
              secret: {SECRETS["unquoted yes"]}
            - name: k4
              secret: {SECRETS["a number"]}
"""


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_secret_in_any_format(tmp_path, fmt: str) -> None:
    path = tmp_path / "enc.yaml"
    path.write_text(DOCUMENT)
    result = run("validate", "--no-config", "--format", fmt, "--fail-on", "info", str(path))
    assert result.code == 1
    output = result.out + result.err
    assert "key-not-base64" in output and "invalid-key-length" in output and "multiple-providers" in output
    for what, secret in SECRETS.items():
        if secret == "yes":
            assert "unquoted yes" not in output, what
        else:
            assert secret not in output, what


# An unquoted number with a leading zero is octal to the server (YAML 1.1): every spelling of it is a leak.
OCTAL = "0731006540020124"
OCTAL_SPELLINGS = (OCTAL, OCTAL.lstrip("0"), str(int(OCTAL, 8)))
# Written twice, the first value is the one the server drops: no wrong-type hides its ambiguous-scalar warning.
PLANTED = {
    "encryption key": f"""apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - aesgcm: {{keys: [{{name: k1, secret: {OCTAL}, secret: c2VjcmV0LXBhc3N3b3JkMTIzNDU2Nzg5MDEyMzQ1Ng==}}]}}
      - identity: {{}}
""",
    "bootstrap token and certificate key": f"""apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
certificateKey: {OCTAL}
certificateKey: "{"ab" * 32}"
bootstrapTokens:
  - token: {OCTAL}
    token: abcdef.0123456789abcdef
""",
    "discovery tokens": f"""apiVersion: kubeadm.k8s.io/v1beta4
kind: JoinConfiguration
discovery:
  bootstrapToken:
    token: {OCTAL}
    token: abcdef.0123456789abcdef
    apiServerEndpoint: cp:6443
    unsafeSkipCAVerification: true
  tlsBootstrapToken: {OCTAL}
  tlsBootstrapToken: abcdef.0123456789abcdef
""",
    "scheduler extender key": f"""apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
extenders:
  - urlPrefix: https://a.example.com
    filterVerb: filter
    tlsConfig:
      keyData: {OCTAL}
      caData: c2VjcmV0
  - urlPrefix: https://b.example.com
    filterVerb: filter
    tlsConfig:
      keyData: {OCTAL}
      keyData: c2VjcmV0
      caData: c2VjcmV0
""",
    "kubelet static pod URL header": f"""apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
staticPodURL: https://pods.example.com
staticPodURLHeader:
  Authorization: [{OCTAL}]
""",
}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", PLANTED)
def test_no_secret_written_as_a_number_in_any_format(tmp_path, case: str, fmt: str) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(PLANTED[case])
    json_result = run("validate", "--no-config", "--format", "json", "--fail-on", "info", str(path))
    reported = {d["rule"] for d in json_result.json()["diagnostics"]}
    assert reported & {"ambiguous-scalar", "wrong-type"}, reported  # the problem is still reported
    result = run("validate", "--no-config", "--format", fmt, "--fail-on", "info", str(path))
    output = result.out + result.err
    for spelling in OCTAL_SPELLINGS:
        assert spelling not in output, (case, spelling)


def test_the_ambiguous_scalar_warning_on_a_secret_says_how_it_is_read(tmp_path) -> None:
    path = tmp_path / "enc.yaml"
    path.write_text(PLANTED["encryption key"])
    result = run("validate", "--no-config", "--format", "json", str(path))
    [warning] = [d for d in result.json()["diagnostics"] if d["rule"] == "ambiguous-scalar"]
    assert warning["path"] == "resources[0].providers[0].aesgcm.keys[0].secret"
    assert warning["message"] == (
        "this value is read by the server (YAML 1.1) as an octal number but by YAML 1.2 tools as a decimal number; quote it"
    )


def test_extender_key_data_is_a_secret_for_the_schema_check_too(tmp_path) -> None:
    path = tmp_path / "sched.yaml"
    path.write_text(PLANTED["scheduler extender key"])
    diagnostics = run("validate", "--no-config", "--format", "json", str(path)).json()["diagnostics"]
    [wrong_type] = [d for d in diagnostics if d["rule"] == "wrong-type"]
    assert (wrong_type["path"], wrong_type["message"]) == (
        "extenders[0].tlsConfig.keyData",
        "cannot unmarshal integer into a field of type string",
    )


def test_a_duplicated_key_that_is_a_collection_is_not_quoted(tmp_path) -> None:
    path = tmp_path / "sched.yaml"
    path.write_text("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n? [hunter2]\n: 1\n? [hunter2]\n: 2\n")
    diagnostics = run("validate", "--no-config", "--format", "json", str(path)).json()["diagnostics"]
    [duplicate] = [d for d in diagnostics if d["rule"] == "duplicate-field"]
    assert duplicate["message"] == 'duplicate field "?"'
    assert "hunter2" not in duplicate["message"]


# --------------------------------------------------------------------------- the one list, used centrally


def test_rule_helpers_mask_values_at_secret_paths() -> None:
    from svcconf.known.secrets import Masked
    from svcconf.rules import duplicate, invalid, not_supported

    key = ("resources", 0, "providers", 0, "aescbc", "keys", 0, "secret")
    assert invalid(key, "hunter2", "bad").message == 'Invalid value: "REDACTED": bad'
    assert not_supported(("tlsConfig", "keyData"), "hunter2", ["a"], "r").message == 'Unsupported value: "REDACTED": supported values: "a"'
    assert duplicate(("staticPodURLHeader", "Authorization", 0), "Bearer hunter2", "r").message == 'Duplicate value: "REDACTED"'
    # A value that holds a secret field shows everything but the secret.
    assert invalid(("keys", 0), {"name": "k1", "secret": "hunter2"}, "bad").message == (
        'Invalid value: {"name":"k1","secret":"REDACTED"}: bad'
    )
    # What a rule has masked itself (a token's public id) is shown as it is.
    assert invalid(("bootstrapTokens", 0, "token"), Masked("abcdef.REDACTED"), "bad").message == 'Invalid value: "abcdef.REDACTED": bad'
    assert invalid(("name",), "k1", "bad").message == 'Invalid value: "k1": bad'


def test_schema_messages_never_quote_an_object_holding_a_secret() -> None:
    from svcconf.known.schema import SchemaChecker

    schema = {"type": "object", "properties": {"keys": {"type": "array", "items": {"not": {"required": ["name"]}}}}}
    [finding] = SchemaChecker(schema).check({"keys": [{"name": "k1", "secret": "hunter2"}]})
    assert finding.path == ("keys", 0) and "hunter2" not in finding.message


def test_explain_claims_never_echoes_a_token_given_as_the_claims_argument(tmp_path) -> None:
    config = tmp_path / "auth.yaml"
    config.write_text("apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\njwt: []\n")
    token = "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJodHRwczovL2kuZXhhbXBsZS5jb20ifQ.c2lnbmF0dXJlLXNlY3JldA"
    result = run("explain-claims", str(config), "--claims", token)
    assert result.code == 2 and result.out == ""
    for part in token.split("."):
        assert part not in result.err
    assert f"the argument is {len(token)} characters, in three dot-separated parts like a compact JWT" in result.err
    # Swapped arguments: the token where the config file belongs.
    result = run("explain-claims", token, "--claims", str(config))
    assert result.code == 2 and token.split(".")[1] not in result.err
