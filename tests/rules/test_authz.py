"""AuthorizationConfiguration: upstream wording byte for byte, the real `.webhook` path, and release-dependent fields."""

from __future__ import annotations

import textwrap

from tests.helpers import run

HEADER = "apiVersion: apiserver.config.k8s.io/{version}\nkind: AuthorizationConfiguration\n"
WEBHOOK = """\
authorizers:
  - type: Webhook
    name: hook
    webhook:
      timeout: {timeout}
      subjectAccessReviewVersion: v1
      matchConditionSubjectAccessReviewVersion: v1
      failurePolicy: NoOpinion
      connectionInfo: {{type: KubeConfigFile, kubeConfigFile: /etc/hook.yaml}}
      matchConditions:
        - expression: {expression}
  - {{type: RBAC, name: rbac}}
"""


def diagnostics(tmp_path, body: str, version: str = "v1", target: str | None = None) -> list[dict]:
    path = tmp_path / "authz.yaml"
    path.write_text(HEADER.format(version=version) + textwrap.dedent(body), encoding="utf-8")
    args = ["validate", "--format", "json", str(path)] + (["--target-version", target] if target else [])
    return run(*args).json()["diagnostics"]


def messages(tmp_path, body: str, **kwargs) -> list[str]:
    return [f"{d['path']}: {d['message']}" for d in diagnostics(tmp_path, body, **kwargs)]


def test_webhook_paths_keep_webhook_segment(tmp_path) -> None:
    found = diagnostics(tmp_path, WEBHOOK.format(timeout="60s", expression="request.user == 'a'"))
    assert [(d["line"], d["column"], d["path"], d["message"]) for d in found] == [
        (7, 16, "authorizers[0].webhook.timeout", 'Invalid value: "1m0s": must be > 0s and <= 30s')
    ]


def test_match_condition_messages(tmp_path) -> None:
    assert messages(tmp_path, WEBHOOK.format(timeout="5s", expression="test")) == [
        (
            'authorizers[0].webhook.matchConditions[0].expression: Invalid value: "test": compilation failed: '
            "ERROR: <input>:1:1: undeclared reference to 'test' (in container '')\n | test\n | ^"
        )
    ]
    assert messages(tmp_path, WEBHOOK.format(timeout="5s", expression="request.user")) == [
        'authorizers[0].webhook.matchConditions[0].expression: Invalid value: "request.user": must evaluate to bool but got string'
    ]
    assert messages(tmp_path, WEBHOOK.format(timeout="5s", expression="\"request.user = 'test'\"")) == [
        (
            "authorizers[0].webhook.matchConditions[0].expression: Invalid value: \"request.user = 'test'\": compilation failed: "
            "ERROR: <input>:1:14: Syntax error: token recognition error at: '= '\n | request.user = 'test'\n | .............^\n"
            "ERROR: <input>:1:16: Syntax error: extraneous input ''test'' expecting <EOF>\n | request.user = 'test'\n | ...............^"
        )
    ]


def test_type_and_name_messages(tmp_path) -> None:
    body = "authorizers:\n  - {type: Foo, name: foo}\n  - {type: Node, name: FOO.example.domain}\n  - {type: RBAC, name: foo}\n"
    assert messages(tmp_path, body) == [
        'authorizers[0].type: Unsupported value: "Foo": supported values: "ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook"',
        (
            'authorizers[1].name: Invalid value: "FOO.example.domain": authorizer name is invalid: a lowercase RFC 1123 subdomain must consist '
            "of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', "
            "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
        ),
        "authorizers[2].name: expected name rbac for authorizer RBAC instead of foo",
    ]


def test_connection_type_prints_internal_struct(tmp_path) -> None:
    body = WEBHOOK.format(timeout="5s", expression="request.user == 'a'").replace(
        "{type: KubeConfigFile, kubeConfigFile: /etc/hook.yaml}", "{type: ExternalClusterConfig}"
    )
    assert messages(tmp_path, body) == [
        (
            'authorizers[0].webhook.connectionInfo.type: Unsupported value: {"Type":"ExternalClusterConfig","KubeConfigFile":null}: '
            'supported values: "InClusterConfig", "KubeConfigFile"'
        )
    ]


def test_empty_file_needs_an_authorizer(tmp_path) -> None:
    assert messages(tmp_path, "") == ["authorizers: Required value: at least one authorization mode must be defined"]


def test_selector_fields_follow_the_release(tmp_path) -> None:
    body = WEBHOOK.format(timeout="5s", expression="has(request.resourceAttributes.labelSelector)")
    assert messages(tmp_path, body, version="v1", target="1.32") == []
    found = messages(tmp_path, body, version="v1beta1", target="1.31")
    assert len(found) == 1 and "undefined field 'labelSelector'" in found[0]


def test_deny_on_only_authorizer_is_a_warning(tmp_path) -> None:
    body = WEBHOOK.format(timeout="5s", expression="request.user == 'a'").replace("NoOpinion", "Deny")
    assert diagnostics(tmp_path, body) == []
    body = body.replace("  - {type: RBAC, name: rbac}\n", "")
    assert [(d["rule"], d["severity"]) for d in diagnostics(tmp_path, body)] == [("deny-on-only-authorizer", "warning")]


def test_rule_docs_are_listed() -> None:
    result = run("rules", "deny-on-only-authorizer")
    assert result.code == 0 and "failurePolicy Deny" in result.out
