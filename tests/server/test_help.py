"""Hover and completion answers at a chosen target release, computed in-process (the protocol is tested in test_server.py)."""

from __future__ import annotations

from svcconf.server import fields
from svcconf.server.completion import completions
from svcconf.server.hover import api_version_help
from svcconf.settings.options import ValidateOptions


def _labels(text: str, row: int, column: int, target: tuple) -> list[str]:
    return [item.label for item in completions(text.split("\n"), row, column, ValidateOptions(target=target))]


def test_kinds_offered_are_those_the_target_release_serves() -> None:
    # kubescheduler.config.k8s.io/v1 is first served in 1.25 (lifecycle.tsv; the scheduler's v1 graduation)
    assert "KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1)" in _labels("\n", 0, 0, (1, 25))
    assert "KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1)" not in _labels("\n", 0, 0, (1, 24))
    kinds = _labels("apiVersion: kubescheduler.config.k8s.io/v1\nkind: \n", 1, 6, (1, 36))
    assert "KubeSchedulerConfiguration" in kinds and "Policy" not in kinds  # the kinds of the apiVersion written


def test_an_api_version_is_described_at_the_target_release() -> None:
    policy = fields.kind_of("audit.k8s.io/v1beta1", "Policy", "k8s.io")
    # deprecated in 1.21 and removed in 1.24 in favour of audit.k8s.io/v1 (lifecycle.tsv)
    assert api_version_help(policy, (1, 22)) == (
        "**audit.k8s.io/v1beta1 Policy**: served by 1.22, deprecated since 1.21, removed in 1.24; "
        "migrate to audit.k8s.io/v1 (`svcconf migrate`) (target release 1.22)"
    )
    scheduler = fields.kind_of("kubescheduler.config.k8s.io/v1", "KubeSchedulerConfiguration", "k8s.io")
    # kubescheduler.config.k8s.io/v1 is first served in 1.25
    assert api_version_help(scheduler, (1, 24)).endswith("not served by 1.24: first served in 1.25 (target release 1.24)")


def test_columns_are_counted_in_the_clients_units() -> None:
    from lsprotocol.types import PositionEncodingKind

    from svcconf.server.convert import characters, units

    line = 'name: "😋é" # x'
    # the closing quote is character 9: after 10 UTF-16 code units (the emoji takes two) and 13 UTF-8 bytes (7 + 4 + 2)
    assert [units(line, 9, e) for e in (PositionEncodingKind.Utf16, PositionEncodingKind.Utf8, PositionEncodingKind.Utf32)] == [10, 13, 9]
    assert [characters(line, n, e) for e, n in ((PositionEncodingKind.Utf16, 10), (PositionEncodingKind.Utf8, 13))] == [9, 9]
