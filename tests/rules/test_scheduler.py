"""KubeSchedulerConfiguration: upstream wording, defaulting before validation, release-dependent rules."""

from __future__ import annotations

import pytest

from svcconf.known.catalog import parse_release
from svcconf.lint.check import check_text
from svcconf.rules.components.base import format_duration, parse_duration
from svcconf.settings.options import ValidateOptions

HEAD = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"


def messages(body: str, target: str | None = None, head: str = HEAD, domain: str = "k8s.io") -> list[tuple[str, str, str]]:
    options = ValidateOptions(target=parse_release(target) if target else None, api_domain=domain)
    result = check_text(head + body, options)
    return [(d.rule, d.path_text, d.message) for d in result.diagnostics]


def only(body: str, **kw) -> tuple[str, str, str]:
    found = messages(body, **kw)
    assert len(found) == 1, found
    return found[0]


def test_minimal_config_is_clean() -> None:
    assert messages("profiles:\n- schedulerName: default-scheduler\n") == []
    assert messages("") == []


@pytest.mark.parametrize(
    "body,expected",
    [
        ("parallelism: 0\n", ("parallelism", "Invalid value: 0: should be an integer value greater than zero")),
        ("percentageOfNodesToScore: 101\n", ("percentageOfNodesToScore", "Invalid value: 101: not in valid range [0-100]")),
        ("percentageOfNodesToScore: -1\n", ("percentageOfNodesToScore", "Invalid value: -1: not in valid range [0-100]")),
        (
            "leaderElection: {resourceLock: configmap}\n",
            ("leaderElection.resourceLock", 'Invalid value: "configmap": resourceLock value must be "leases"'),
        ),
        ("podInitialBackoffSeconds: 0\n", ("podInitialBackoffSeconds", "Invalid value: 0: must be greater than 0")),
        (
            "podInitialBackoffSeconds: 5\npodMaxBackoffSeconds: 2\n",
            ("podMaxBackoffSeconds", "Invalid value: 2: must be greater than or equal to PodInitialBackoffSeconds"),
        ),
        (
            "podInitialBackoffSeconds: 20\n",
            ("podMaxBackoffSeconds", "Invalid value: 10: must be greater than or equal to PodInitialBackoffSeconds"),
        ),
        ("clientConnection: {burst: -1}\n", ("clientConnection.burst", "Invalid value: -1: must be non-negative")),
        (
            "leaderElection: {leaseDuration: 10s, renewDeadline: 10s}\n",
            ("leaderElection.leaseDuration", 'Invalid value: "10s": must be greater than `RenewDeadline`'),
        ),
        (
            "leaderElection: {leaseDuration: 5s}\n",
            ("leaderElection.leaseDuration", 'Invalid value: "10s": must be greater than `RenewDeadline`'),
        ),
        ("leaderElection: {retryPeriod: -45s}\n", ("leaderElection.retryPeriod", 'Invalid value: "-45s": must be greater than zero')),
        (
            "extenders:\n- {urlPrefix: 'https://x.example.com', prioritizeVerb: p, weight: -1}\n",
            ("extenders[0].weight", "Invalid value: -1: must have a positive weight applied to it"),
        ),
    ],
)
def test_upstream_wording(body: str, expected: tuple[str, str]) -> None:
    _rule, path, message = only(body)
    assert (path, message) == expected


def test_component_base_wording_before_1_34() -> None:
    _rule, path, message = only("leaderElection: {leaseDuration: 10s, renewDeadline: 10s}\n", target="1.33")
    assert (path, message) == ("leaderElection.leaseDuration", 'Invalid value: "10s": LeaseDuration must be greater than RenewDeadline')


def test_zero_durations_take_the_defaults() -> None:
    # A zero value is "unset": 0s becomes 15s / 10s / 2s, so nothing is wrong (8.6 B10 is a unit-test-only case).
    assert messages("leaderElection: {leaseDuration: 0s, renewDeadline: 0s, retryPeriod: 0s}\n") == []


def test_empty_resource_name_is_defaulted_for_the_scheduler() -> None:
    # 8.1 S3/S4 YAML: the scheduler fills kube-scheduler and kube-system before validation.
    assert messages('leaderElection: {resourceName: "", resourceNamespace: ""}\n') == []


def test_removed_plugin_message_names_the_written_version_and_kind() -> None:
    body = "profiles:\n- plugins:\n    filter:\n      enabled:\n      - name: EBSLimits\n"
    assert only(body)[2] == (
        'Invalid value: "EBSLimits": was invalid in version "kubescheduler.config.k8s.io/v1" '
        '(KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1")'
    )
    svc = "apiVersion: svcscheduler.config.example.com/v1\nkind: SvcSchedulerConfiguration\n"
    assert only(body, head=svc, domain="example.com")[2] == (
        'Invalid value: "EBSLimits": was invalid in version "svcscheduler.config.example.com/v1" '
        '(SvcSchedulerConfiguration is version "svcscheduler.config.example.com/v1")'
    )


@pytest.mark.parametrize("target,rules", [("1.30", []), ("1.31", ["deprecated-scheduler-plugin"]), ("1.32", ["removed-scheduler-plugin"])])
def test_volume_limit_plugins_by_release(target: str, rules: list[str]) -> None:
    body = "profiles:\n- plugins:\n    filter:\n      enabled:\n      - name: EBSLimits\n"
    assert [rule for rule, _p, _m in messages(body, target=target)] == rules


@pytest.mark.parametrize("target,rules", [("1.28", ["removed-scheduler-plugin"]), ("1.29", ["removed-scheduler-plugin"])])
def test_selector_spread_is_refused_before_and_after_its_removal(target: str, rules: list[str]) -> None:
    body = "profiles:\n- plugins:\n    score:\n      enabled:\n      - name: SelectorSpread\n"
    found = messages(body, target=target)
    assert [rule for rule, _p, _m in found] == rules
    assert ("was invalid in version" in found[0][2]) == (target == "1.28")


def test_queue_sort_and_binder_counts_at_start_up() -> None:
    body = "profiles:\n- plugins:\n    queueSort:\n      enabled:\n      - name: CustomSort\n"
    found = [m for m in messages(body) if m[0] == "queue-sort-plugin-count"]
    assert found == [
        (
            "queue-sort-plugin-count",
            "profiles[0].plugins.queueSort",
            'only one queue sort plugin required for profile with scheduler name "default-scheduler", but got 2',
        )
    ]
    # Disabling the defaults leaves exactly the custom plugin.
    clean = body + "      disabled:\n      - name: '*'\n"
    assert [m[0] for m in messages(clean)] == ["unknown-scheduler-plugin"]


def test_unknown_multipoint_plugin_skips_the_count_checks() -> None:
    body = "profiles:\n- plugins:\n    multiPoint:\n      enabled:\n      - name: Coscheduling\n    queueSort:\n      enabled:\n      - name: Coscheduling\n"
    assert [m[0] for m in messages(body)] == ["unknown-scheduler-plugin", "unknown-scheduler-plugin"]


def test_default_plugin_reenabled_with_a_weight_is_not_a_duplicate() -> None:
    body = "profiles:\n- plugins:\n    multiPoint:\n      enabled:\n      - name: ImageLocality\n        weight: 5\n"
    assert messages(body) == []


def test_plugin_args_without_apiversion_and_kind_use_the_plugin_kind() -> None:
    body = "profiles:\n- pluginConfig:\n  - name: InterPodAffinity\n    args:\n      hardPodAffinityWeight: 101\n"
    assert only(body) == (
        "plugin-args-out-of-range",
        "profiles[0].pluginConfig[0].args.hardPodAffinityWeight",
        "Invalid value: 101: not in valid range [0, 100]",
    )


def test_unknown_field_inside_args_is_reported_at_its_path() -> None:
    body = "profiles:\n- pluginConfig:\n  - name: VolumeBinding\n    args:\n      bindTimeout: 5\n"
    rule, path, _message = only(body)
    assert (rule, path) == ("unknown-field", "profiles[0].pluginConfig[0].args.bindTimeout")


def test_out_of_tree_plugin_args_are_opaque() -> None:
    body = "profiles:\n- plugins:\n    score:\n      enabled:\n      - name: Trimaran\n  pluginConfig:\n  - name: Trimaran\n    args: {anything: [1, 2]}\n"
    assert [m[0] for m in messages(body)] == ["unknown-scheduler-plugin"]


def test_leftover_v1beta3_args_version_is_refused() -> None:
    body = "profiles:\n- pluginConfig:\n  - name: DefaultPreemption\n    args:\n      apiVersion: kubescheduler.config.k8s.io/v1beta3\n"
    rule, path, _message = only(body)
    assert (rule, path) == ("plugin-args-kind-mismatch", "profiles[0].pluginConfig[0].args.apiVersion")


def test_fit_args_wording() -> None:
    body = "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: Foo\n"
    assert only(body)[2] == 'Unsupported value: "Foo": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"'


def test_fit_ratio_required_only_from_1_34() -> None:
    body = "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: RequestedToCapacityRatio\n"
    assert [m[0] for m in messages(body, target="1.33")] == []
    assert only(body)[2] == "Required value: must be specified when type is RequestedToCapacityRatio"


def test_volume_binding_shape_gate_name_by_release() -> None:
    body = "profiles:\n- pluginConfig:\n  - name: VolumeBinding\n    args:\n      shape: [{utilization: 0, score: 0}]\n"
    assert only(body)[2] == (
        'Invalid value: [{"Utilization":0,"Score":0}]: unexpected field `shape`, remove it or turn on the feature gate StorageCapacityScoring'
    )
    assert only(body, target="1.32")[2].endswith("feature gate VolumeCapacityPriority")
    assert messages(body, target="1.37") == []


def test_keydata_is_never_echoed() -> None:
    secret = "-----BEGIN PRIVATE KEY-----MIIEvQIBADANBg"
    body = f"extenders:\n- urlPrefix: https://x.example.com\n  filterVerb: f\n  tlsConfig:\n    caFile: /ca\n    keyData: '{secret}'\n"
    found = messages(body)
    assert [m[0] for m in found] == ["extender-tls-data-not-base64"]
    assert "PRIVATE" not in found[0][2] and "MIIE" not in found[0][2]


def test_extension_points_by_release() -> None:
    body = "profiles:\n- plugins:\n    placementScore: {}\n    podGroupPostFilter: {}\n"
    assert [m[1] for m in messages(body, target="1.35")] == ["profiles[0].plugins.placementScore", "profiles[0].plugins.podGroupPostFilter"]
    assert [m[1] for m in messages(body, target="1.36")] == ["profiles[0].plugins.podGroupPostFilter"]
    assert messages(body, target="1.37") == []


@pytest.mark.parametrize(
    "text,ns", [("10s", 10_000_000_000), ("1m30s", 90_000_000_000), ("-45s", -45_000_000_000), ("0", 0), ("1.5h", 5_400_000_000_000)]
)
def test_parse_duration(text: str, ns: int) -> None:
    assert parse_duration(text) == ns


@pytest.mark.parametrize(
    "ns,text", [(0, "0s"), (600_000_000_000, "10m0s"), (500_000_000, "500ms"), (-45_000_000_000, "-45s"), (5_400_000_000_000, "1h30m0s")]
)
def test_format_duration_like_go(ns: int, text: str) -> None:
    assert format_duration(ns) == text


def test_invalid_duration_is_reported_by_the_schema() -> None:
    rule, path, message = only("leaderElection: {leaseDuration: 15}\n")
    assert (rule, path) == ("wrong-type", "leaderElection.leaseDuration")
    rule, path, message = only("leaderElection: {leaseDuration: 15 seconds}\n")
    assert (rule, path, message) == ("invalid-value", "leaderElection.leaseDuration", 'Invalid value: "15 seconds": time: invalid duration')


@pytest.mark.parametrize(
    "body,since",
    [("delayCacheUntilActive: true\n", "1.28"), ("profiles:\n- schedulerName: a\n  percentageOfNodesToScore: 10\n", "1.27")],
)
def test_fields_newer_than_the_target_are_unknown(body: str, since: str) -> None:
    older = f"1.{int(since.split('.')[1]) - 1}"
    rule, _path, message = only(body, target=older)
    assert rule == "unknown-field" and f"from {since} on" in message
    assert [m for m in messages(body, target=since) if m[0] == "unknown-field"] == []
