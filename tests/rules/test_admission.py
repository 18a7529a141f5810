"""AdmissionConfiguration and its plugin configurations: exact upstream messages, embedded positions, file checks."""

from __future__ import annotations

import pytest

from svcconf.go.durations import format_duration as go_duration
from svcconf.go.names import dns1123_label, dns1123_subdomain, qualified_name
from tests.helpers import run

ADMISSION = """apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
  - name: EventRateLimit
    path: no-such-eventconfig.yaml
"""


def messages(result) -> list[tuple[str, str]]:
    return [(d["path"], d["message"]) for d in result.json()["diagnostics"]]


def test_missing_plugin_file_is_resolved_against_the_config_folder(tmp_path) -> None:
    config = tmp_path / "admission.yaml"
    config.write_text(ADMISSION, encoding="utf-8")
    result = run("validate", "-f", "json", str(config))
    assert result.code == 0  # warnings only
    assert result.rules() == [(5, 11, "warning", "plugin-config-file-missing", "plugins[0].path")]
    assert str(tmp_path / "no-such-eventconfig.yaml") in result.json()["diagnostics"][0]["message"]
    (tmp_path / "no-such-eventconfig.yaml").write_text("limits: []\n", encoding="utf-8")
    assert run("validate", "-f", "json", str(config)).rules() == []


def test_file_checks_are_skipped_for_stdin() -> None:
    result = run("validate", "-f", "json", "-", stdin=ADMISSION.replace("no-such", "../elsewhere/no-such").encode())
    assert result.code == 0
    assert result.rules() == []


def test_embedded_findings_point_into_the_embedding_file() -> None:
    text = """apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
  - name: EventRateLimit
    configuration:
      limits:
        - type: Server
          qps: 1
"""
    result = run("validate", "-f", "json", "-", stdin=text.encode())
    assert result.code == 1
    diagnostic = result.json()["diagnostics"][0]
    assert (diagnostic["line"], diagnostic["column"], diagnostic["path"]) == (7, 11, "plugins[0].configuration.limits[0].burst")
    assert diagnostic["message"] == "Invalid value: 0: must be positive"
    # The kind of the embedding document is reported.
    assert diagnostic["kind"] == "AdmissionConfiguration"


EVENT_RATE_LIMIT = """apiVersion: eventratelimit.admission.k8s.io/v1alpha1
kind: Configuration
limits:
  - burst: 10
    qps: -1
    cacheSize: -1
    type: User
  - type: nodes
    qps: 1
    burst: 1
"""


NO_SERVER = (
    "no limit of type Server: the total rate of events the API server accepts is unbounded "
    "(per-namespace and per-user limits do not cap many namespaces or users together)"
)


def test_event_rate_limit_messages() -> None:
    result = run("validate", "-f", "json", "-", stdin=EVENT_RATE_LIMIT.encode())
    assert messages(result) == [
        ("limits", NO_SERVER),
        ("limits[0].qps", "Invalid value: -1: must be positive"),
        ("limits[0].cacheSize", "Invalid value: -1: must not be negative"),
        ("limits[1].type", 'Unsupported value: "nodes": supported values: "Server", "Namespace", "User", "SourceAndObject"'),
    ]  # fmt: skip


def test_empty_event_rate_limit_message() -> None:
    text = "apiVersion: eventratelimit.admission.k8s.io/v1alpha1\nkind: Configuration\n"
    assert messages(run("validate", "-f", "json", "-", stdin=text.encode())) == [("limits", "Invalid value: null: must not be empty")]


@pytest.mark.parametrize("level,expected", [("Strict", "error"), ("Warn", "warning"), ("Ignore", None)])
def test_lenient_unknown_fields_follow_field_validation(level: str, expected: str | None) -> None:
    text = "apiVersion: eventratelimit.admission.k8s.io/v1alpha1\nkind: Configuration\nlimits:\n  - {type: Server, qps: 1, burst: 1, burts: 2}\n"
    result = run("validate", "-f", "json", "--field-validation", level, "-", stdin=text.encode())
    found = [(d["severity"], d["message"]) for d in result.json()["diagnostics"] if d["rule"] == "lenient-unknown-field"]
    assert found == ([] if expected is None else [(expected, 'unknown field "limits[0].burts"')])


def test_image_policy_messages() -> None:
    text = """apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
  - name: ImagePolicyWebhook
    configuration:
      imagePolicy:
        kubeConfigFile: /etc/kubernetes/imagepolicy.kubeconfig
        retryBackoff: 300001
        allowTTL: 1801
        denyTTL: -2
"""
    assert [m for _p, m in messages(run("validate", "-f", "json", "-", stdin=text.encode()))] == [
        "valid value is between 1ns and 5m0s, got 5m0.001s",
        "valid value is between 1s and 30m0s, got 30m1s",
        "valid value is between 1s and 30m0s, got -2s",
    ]


@pytest.mark.parametrize(
    "nanos,text",
    [(-2_000_000, "-2ms"), (1_801_000_000_000, "30m1s"), (300_001_000_000, "5m0.001s"), (150_000_000_000, "2m30s"), (0, "0s"), (1, "1ns")],
)
def test_go_duration(nanos: int, text: str) -> None:
    assert go_duration(nanos) == text


def test_pod_security_messages() -> None:
    text = """apiVersion: pod-security.admission.config.k8s.io/v1
kind: PodSecurityConfiguration
defaults:
  enforce: baslein
  enforce-version: v.122
exemptions:
  namespaces: [a.b]
  usernames: [""]
"""
    assert messages(run("validate", "-f", "json", "-", stdin=text.encode())) == [
        ("defaults.enforce", 'Invalid value: "baslein": must be one of privileged, baseline, restricted'),
        ("defaults.enforce-version", 'Invalid value: "v.122": must be "latest" or "v1.x"'),
        ("exemptions.namespaces[0]", 'Invalid value: "a.b": must not contain dots'),
        ("exemptions.usernames[0]", 'Invalid value: "": username must not be empty'),
    ]


def test_webhook_admission_message() -> None:
    text = "apiVersion: apiserver.config.k8s.io/v1\nkind: WebhookAdmissionConfiguration\nkubeConfigFile: kubeconfig\n"
    assert messages(run("validate", "-f", "json", "-", stdin=text.encode())) == [
        ("kubeConfigFile", 'Invalid value: "kubeconfig": must be an absolute file path')
    ]


def test_name_helpers() -> None:
    assert dns1123_label("t" * 64) == ["must be no more than 63 characters"]
    assert dns1123_label("ok-name") == []
    assert dns1123_subdomain("a.b") == []
    assert qualified_name("example.com/my-controller") == []
    assert qualified_name("my controller")[0].startswith("name part must consist of alphanumeric characters")
    assert qualified_name("/x") == ["prefix part must be non-empty"]


def test_embedded_configs_follow_the_configured_domain() -> None:
    text = """apiVersion: apiserver.config.example.com/v1
kind: AdmissionConfiguration
plugins:
  - name: PodSecurity
    configuration:
      apiVersion: pod-security.admission.config.example.com/v1
      kind: PodSecurityConfiguration
      defaults: {enforce: strict}
  - name: EventRateLimit
    configuration:
      limits: [{type: Server, qps: 1, burst: 1}]
"""
    result = run("validate", "-f", "json", "--api-domain", "example.com", "-", stdin=text.encode())
    assert result.rules() == [(8, 27, "error", "invalid-pod-security-level", "plugins[0].configuration.defaults.enforce")]
