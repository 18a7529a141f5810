"""AuthenticationConfiguration: upstream wording byte for byte, release-dependent rules, and CEL loaded only when needed."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from tests.conftest import ROOT
from tests.helpers import run

HEADER = "apiVersion: apiserver.config.k8s.io/{version}\nkind: AuthenticationConfiguration\n"
B = """\
jwt:
  - issuer:
      url: {url}
      audiences: [audience]
    claimMappings:
      username: {{claim: sub, prefix: prefix}}
"""


def messages(tmp_path, body: str, version: str = "v1", target: str | None = None) -> list[str]:
    path = tmp_path / "authn.yaml"
    path.write_text(HEADER.format(version=version) + textwrap.dedent(body), encoding="utf-8")
    args = ["validate", "--format", "json", str(path)] + (["--target-version", target] if target else [])
    result = run(*args)
    return [f"{d['path']}: {d['message']}" for d in result.json()["diagnostics"]]


def test_known_answers_issuer(tmp_path) -> None:
    assert messages(tmp_path, B.format(url="invalid-url")) == ['jwt[0].issuer.url: Invalid value: "invalid-url": URL scheme must be https']
    assert messages(tmp_path, B.format(url="https://issuer-url:invalid-port")) == [
        'jwt[0].issuer.url: Invalid value: "https://issuer-url:invalid-port": parse "https://issuer-url:invalid-port": invalid port ":invalid-port" after host'
    ]
    assert messages(tmp_path, B.format(url="https://issuer-url") + B.format(url="https://issuer-url")[5:]) == [
        'jwt[1].issuer.url: Duplicate value: "https://issuer-url"'
    ]


def test_required_wording_changed_in_1_34(tmp_path) -> None:
    body = B.format(url='""')
    assert messages(tmp_path, body, target="1.34") == ["jwt[0].issuer.url: Required value"]
    assert messages(tmp_path, body, "v1beta1", target="1.33") == ["jwt[0].issuer.url: Required value: URL is required"]


def test_audiences_required_detail_embeds_the_path(tmp_path) -> None:
    body = B.format(url="https://issuer-url").replace("[audience]", "[]")
    assert messages(tmp_path, body) == ["jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required"]


def test_claim_rule_messages(tmp_path) -> None:
    body = B.format(url="https://issuer-url") + textwrap.indent(
        "claimValidationRules:\n  - {claim: claim, message: message}\n  - {expression: foo.bar}\n  - {expression: claims.foo}\n", "    "
    )
    assert messages(tmp_path, body) == [
        'jwt[0].claimValidationRules[0].message: Invalid value: "message": may not be specified when claim is set',
        (
            'jwt[0].claimValidationRules[1].expression: Invalid value: "foo.bar": compilation failed: ERROR: <input>:1:1: '
            "undeclared reference to 'foo' (in container '')\n | foo.bar\n | ^"
        ),
        'jwt[0].claimValidationRules[2].expression: Invalid value: "claims.foo": must evaluate to bool',
    ]
    assert messages(tmp_path, body, "v1beta1", target="1.33")[0] == (
        'jwt[0].claimValidationRules[0].message: Invalid value: "message": message can\'t be set when claim is set'
    )


def test_email_rule_message(tmp_path) -> None:
    body = B.format(url="https://issuer-url").replace("{claim: sub, prefix: prefix}", "{expression: claims.email}")
    assert messages(tmp_path, body) == [
        (
            'jwt[0].claimMappings.username.expression: Invalid value: "claims.email": claims.email_verified must be used in '
            "claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression "
            "when claims.email is used in claimMappings.username.expression"
        )
    ]


def test_extra_key_messages(tmp_path) -> None:
    body = B.format(url="https://issuer-url") + "      extra:\n        - {key: example.org/Foo, valueExpression: claims.a}\n"
    assert messages(tmp_path, body) == ['jwt[0].claimMappings.extra[0].key: Invalid value: "example.org/Foo": must be lowercase']
    assert messages(tmp_path, body, "v1beta1", target="1.33") == [
        'jwt[0].claimMappings.extra[0].key: Invalid value: "example.org/Foo": key must be lowercase'
    ]


def test_anonymous_message_prints_go_struct(tmp_path) -> None:
    body = "anonymous:\n  enabled: false\n  conditions:\n    - path: /livez\n"
    assert messages(tmp_path, body) == [
        'anonymous.conditions: Invalid value: [{"Path":"/livez"}]: enabled should be set to true when conditions are defined'
    ]


def test_one_authenticator_in_1_29(tmp_path) -> None:
    body = B.format(url="https://a") + B.format(url="https://b")[5:]
    assert "jwt: Too many: 2: must have at most 1 items" in messages(tmp_path, body, "v1alpha1", target="1.29")
    assert not [m for m in messages(tmp_path, body, "v1beta1", target="1.30") if "Too many" in m]


def test_certificate_authority_is_never_echoed(tmp_path) -> None:
    body = B.format(url="https://issuer-url").replace("audiences:", "certificateAuthority: secret-looking-text\n      audiences:")
    found = messages(tmp_path, body)
    assert found == [
        'jwt[0].issuer.certificateAuthority: Invalid value: "<omitted>": data does not contain any valid RSA or ECDSA certificates'
    ]


@pytest.mark.parametrize(
    ("case", "loads_cel"),
    [
        ("fixtures/examples/audit-policy.yaml", False),
        ("fixtures/authn/issuer-url-problems.yaml", False),
        ("fixtures/authn/email-verified.yaml", True),
    ],
)
def test_cel_is_imported_only_for_files_with_expressions(case: str, loads_cel: bool) -> None:
    code = f"import sys; from svcconf.cli import main; main(['validate', {case!r}]); print('svcconf.cel' in sys.modules)"
    root = ROOT
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=root).stdout
    assert out.strip().splitlines()[-1] == str(loads_cel)
