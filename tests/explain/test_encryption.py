"""`svcconf explain encryption`: the providers that write and read a resource, with upstream's lookup as the known answer.

Known answers: kubernetes/apiserver `pkg/server/options/encryptionconfig/config_test.go`
TestWildcardStructure (which provider's prefix each resource is written with, and the masking error),
with its KMS providers at apiVersion v2 (v1 is refused by default since 1.29).
"""

from __future__ import annotations

import base64

import pytest

from tests.explain_helpers import explainer

KEY_A = base64.b64encode(b"A" * 32).decode()
KEY_B = base64.b64encode(b"B" * 16).decode()


def kms(name: str) -> str:
    return f"      - kms:\n          apiVersion: v2\n          name: {name}\n          endpoint: unix:///tmp/testprovider.sock\n"


WILDCARDS = (
    "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n"
    '  - resources: [configmaps, "*.apps"]\n    providers:\n' + kms("kms")
    + "  - resources: [secrets]\n    providers:\n" + kms("another-kms") + "      - identity: {}\n"
    + '  - resources: ["*."]\n    providers:\n' + kms("fancy")
    + '  - resources: ["*.*"]\n    providers:\n' + kms("yet-another-provider")
)  # fmt: skip


@pytest.fixture
def explain(tmp_path):
    def explain(config: str, resource: str, *args: str):
        return explainer(tmp_path, "encryption", "encryption.yaml", "--resource", resource)(config, *args)

    return explain


@pytest.mark.parametrize(
    ("resource", "provider"),
    [
        ("configmaps", "kms"),
        ("secrets", "another-kms"),
        ("events", "fancy"),
        ("deployments.apps", "kms"),
        ("pods", "fancy"),
        ("pandas", "fancy"),
        ("pandas.bears", "yet-another-provider"),
        ("jobs.apps", "kms"),
    ],
)
def test_wildcard_structure(explain, resource: str, provider: str) -> None:
    result = explain(WILDCARDS, resource, "-f", "json")
    assert result.code == 0, result.err
    writer = result.json()["writer"]
    assert (writer["name"], writer["prefixes"]) == (provider, [f"k8s:enc:kms:v2:{provider}:"])


def test_every_provider_of_the_entry_reads_and_later_wildcards_are_masked(explain) -> None:
    data = explain(WILDCARDS, "secrets", "-f", "json").json()
    assert [(r["entry"], r["index"], r["type"]) for r in data["readers"]] == [(1, 0, "kms"), (1, 1, "identity")]
    assert [(m["resource"], m["takenBy"]["resource"]) for m in data["masked"]] == [("*.", "secrets."), ("*.*", "secrets.")]
    assert data["encrypted"] is True


def test_masking_is_refused_as_the_server_refuses_it(explain) -> None:
    # Printed as the server prints it (grYAMLString): the core resource without a dot, the core wildcard with one.
    config = (
        "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n"
        '  - resources: [configmaps, "*."]\n    providers:\n' + kms("kms")
        + '  - resources: ["*.*", secrets]\n    providers:\n' + kms("kms2") + "      - identity: {}\n"
    )  # fmt: skip
    result = explain(config, "secrets")
    assert (result.code, result.out) == (2, "")
    assert 'error [masked-resource] resources[1].resources[1]: resource "secrets" is masked by earlier rule "*."' in result.err


KEYS = f"""\
apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - aesgcm:
          keys:
            - name: new
              secret: {KEY_A}
            - name: old
              secret: {KEY_B}
      - identity: {{}}
  - resources: [configmaps]
    providers:
      - identity: {{}}
      - secretbox:
          keys:
            - name: box
              secret: {KEY_A}
  - resources: [secrets]
    providers:
      - aescbc:
          keys:
            - name: legacy
              secret: {KEY_A}
"""


def test_text_names_keys_and_never_their_secrets(explain) -> None:
    result = explain(KEYS, "secrets")
    assert result.code == 0
    path = result.out.split('"secrets." (', 1)[1].split(":", 1)[0]
    assert result.out == (
        "resource: secrets (core group)\n"
        f'entries: resources[0] "secrets." ({path}:4), resources[2] "secrets." ({path}:20)\n'
        'writes: resources[0].providers[0] aesgcm, key "new" (prefix k8s:enc:aesgcm:v1:new:)\n'
        "reads:\n"
        f'  resources[0].providers[0] aesgcm ({path}:6): keys "new", "old"\n'
        f"  resources[0].providers[1] identity ({path}:12): unencrypted data\n"
        f'  resources[2].providers[0] aescbc ({path}:22): key "legacy"\n'
    )
    json_out = explain(KEYS, "secrets", "-f", "json").out
    for secret in (KEY_A, KEY_B):
        assert secret not in result.out + json_out


def test_identity_first_writes_unencrypted(explain) -> None:
    data = explain(KEYS, "configmaps", "-f", "json").json()
    assert (data["writer"]["type"], data["encrypted"], data["writeKey"]) == ("identity", False, None)
    assert [r["type"] for r in data["readers"]] == ["identity", "secretbox"]


def test_a_resource_no_entry_names_is_stored_unencrypted(explain) -> None:
    result = explain(KEYS, "pods")
    assert result.code == 0
    assert result.out == (
        "resource: pods (core group)\nentry: none matches, so new data is stored unencrypted and only unencrypted data can be read\n"
    )
    data = explain(KEYS, "pods", "-f", "json").json()
    assert (data["writer"], data["readers"], data["encrypted"]) == (None, [], False)


def test_events_k8s_io_events_are_stored_as_core_events(explain) -> None:
    data = explain(WILDCARDS, "events.events.k8s.io", "-f", "json").json()
    assert (data["resource"], data["group"], data["writer"]["name"]) == ("events", "", "fancy")


@pytest.mark.parametrize("resource", ["pods/log", "*.apps", "*", "secrets/"])
def test_resource_must_name_one_resource(explain, resource: str) -> None:
    result = explain(KEYS, resource)
    assert (result.code, result.out) == (2, "")
    assert "--resource" in result.err


def test_legacy_kind_is_read(explain) -> None:
    legacy = KEYS.replace("apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration", "kind: EncryptionConfig\napiVersion: v1")
    data = explain(legacy, "secrets", "-f", "json").json()
    assert data["writer"]["keys"] == ["new", "old"]
