"""Scheduler checks added for issue 4's remaining catalogue rules: messages a user sees."""

from __future__ import annotations

from tests.helpers import run

HEADER = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"


def _messages(body: str, *args: str) -> dict[str, str]:
    result = run("validate", "--format", "json", *args, "-", stdin=(HEADER + body).encode())
    return {d["path"]: d["message"] for d in result.json()["diagnostics"]}


def test_args_kind_name_for_fit_is_refused_with_the_upstream_detail() -> None:
    body = "profiles:\n- pluginConfig:\n  - name: NodeResourcesFitArgs\n    args:\n      scoringStrategy: {type: MostAllocated}\n"
    message = _messages(body)["profiles[0].pluginConfig[0].args"]
    assert message.startswith('Invalid value: {"scoringStrategy":{"type":"MostAllocated"}}: has to match plugin args')
    assert "name: NodeResourcesFit" in message


def test_args_kind_name_without_args_shows_null() -> None:
    message = _messages("profiles:\n- pluginConfig:\n  - name: NodeResourcesFitArgs\n")["profiles[0].pluginConfig[0].args"]
    assert message.startswith("Invalid value: null: has to match plugin args")


def test_other_args_kind_names_point_at_the_plugin() -> None:
    messages = _messages("profiles:\n- pluginConfig:\n  - name: VolumeBindingArgs\n")
    assert "write name: VolumeBinding" in messages["profiles[0].pluginConfig[0].name"]


def test_queue_sort_detail_by_release() -> None:
    body = "profiles:\n- schedulerName: a\n  plugins:\n    queueSort:\n      enabled: [{name: PrioritySort}]\n- schedulerName: b\n"
    new = _messages(body, "--target-version", "1.32")["profiles[1].plugins.queueSort"]
    old = _messages(body, "--target-version", "1.31")["profiles[1].plugins.queueSort"]
    assert new.endswith(": must be the same for all profiles") and "queueSort must" not in new
    assert old.endswith(": queueSort must be the same for all profiles")


def test_weight_beyond_int32_names_the_decoding_error() -> None:
    body = "profiles:\n- plugins:\n    multiPoint:\n      enabled: [{name: ImageLocality, weight: 2147483648}]\n"
    message = _messages(body)["profiles[0].plugins.multiPoint.enabled[0].weight"]
    assert "cannot unmarshal number 2147483648 into Go struct field Plugin.profiles.plugins.multiPoint.enabled.weight of type int32" in (
        message
    )


def test_largest_int32_weights_pass() -> None:
    body = "profiles:\n- plugins:\n    score:\n      enabled: [{name: ImageLocality, weight: 2147483647}, {name: NodeAffinity, weight: 2147483647}]\n"
    assert _messages(body) == {}


def test_negative_extender_timeout_mentions_the_default() -> None:
    body = "extenders:\n- urlPrefix: https://x.example.com\n  filterVerb: filter\n  httpTimeout: -1s\n"
    assert "0 means the default, 5s" in _messages(body)["extenders[0].httpTimeout"]
