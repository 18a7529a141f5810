"""Inline suppressions fail closed: a comment that starts `svcconf:` in no known form is an error and hides nothing."""

from __future__ import annotations

import time

import pytest

from svcconf.lint.check import check_text
from svcconf.model import Severity

# rules[1] can never match (rules[0] takes every request): unreachable-audit-rule (warning) at 5:5.
POLICY = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n  - level: None{comment}\n    verbs: [watch]\n"


def found(comment: str) -> list[tuple[int, int, str, str]]:
    return sorted((d.line, d.column, d.rule, str(d.severity)) for d in check_text(POLICY.format(comment=comment)).diagnostics)


UNREACHABLE = (5, 5, "unreachable-audit-rule", "warning")


@pytest.mark.parametrize(
    "comment",
    [
        "# svcconf: ignore [unreachable-audit-rule]",
        "# svcconf: ignore[unreachable-audit-rule",
        "# svcconf: ignore(unreachable-audit-rule)",
        "# svcconf: ignore: unreachable-audit-rule",
        "# svcconf: ignore unreachable-audit-rule",
        "# svcconf: ignore[]",
        "# svcconf: ignore[ , ]",
        "# svcconf: ignore[unreachable-audit-rule]X",
        "# svcconf: ignored",
        "# svcconf: ignore-files[unreachable-audit-rule]",
        "# svcconf: disable",
        "# svcconf:",
        "#svcconf:ignore{unreachable-audit-rule}",
    ],
)
def test_a_near_miss_suppresses_nothing_and_is_an_error(comment: str) -> None:
    at = len("  - level: None") + 3  # the `#` after two spaces
    assert found("  " + comment) == [UNREACHABLE, (5, at, "invalid-suppression", "error")]


@pytest.mark.parametrize(
    "comment",
    [
        "# svcconf: ignore[unreachable-audit-rule]",
        "#svcconf:ignore[unreachable-audit-rule]",
        "# svcconf:  ignore[ unreachable-audit-rule , unreachable-audit-rule ]",
        "# svcconf: ignore[unreachable-audit-rule]  kept until the policy is split",
        "# svcconf: ignore[unreachable-audit-rule]  see [the ticket]",  # a `]` in the reason ends no list
        "# svcconf: ignore",
        "# svcconf: ignore   ",
        "# svcconf: ignore  # the whole line",
        "# svcconf: ignore[audit]",
    ],
)
def test_the_known_forms_still_suppress(comment: str) -> None:
    assert found("  " + comment) == []


def test_a_suppression_right_after_a_malformed_one_on_its_line_still_counts() -> None:
    at = len("  - level: None") + 3
    assert found("  # svcconf: ignore[x]#svcconf: ignore[unreachable-audit-rule]") == [(5, at, "invalid-suppression", "error")]


def test_a_malformed_suppression_on_a_line_of_its_own_covers_nothing() -> None:
    text = POLICY.format(comment="").replace("  - level: None", "  # svcconf: ignore (every rule)\n  - level: None")
    diagnostics = sorted(check_text(text).diagnostics, key=lambda d: d.line)
    assert sorted((d.line, d.rule, d.severity) for d in diagnostics) == [
        (5, "invalid-suppression", Severity.ERROR),
        (6, "unreachable-audit-rule", Severity.WARNING),
    ]
    assert "'# svcconf: ignore (every rule)' is not a suppression svcconf reads" in diagnostics[0].message


def test_svcconf_inside_a_string_is_text_not_a_suppression() -> None:
    text = POLICY.format(comment="") + 'omitStages: ["# svcconf: ignore [x]"]\n'
    assert not any(d.rule == "invalid-suppression" for d in check_text(text).diagnostics)


@pytest.mark.parametrize(
    "line",
    [
        "a: 1 " + "# svcconf: ignore " * 20_000,
        "a: 1 " + "#svcconf:ignore[x" * 20_000,
        "a: 1 " + "#svcconf:ignore-file" * 20_000,
        "a: 1 # svcconf: ignore" + " " * 200_000 + "x",
        "a: 1 # svcconf: ignore[" + "a," * 100_000 + "x",
        "a: 1 " + "#svcconf:" * 30_000,
    ],
)
def test_a_line_of_many_near_misses_is_read_in_linear_time(line: str) -> None:
    started = time.process_time()
    diagnostics = check_text(POLICY.format(comment="") + line + "\n").diagnostics
    assert time.process_time() - started < 10  # quadratic work on these lines takes minutes
    assert "unreachable-audit-rule" in {d.rule for d in diagnostics}  # nothing on another line was hidden


def test_ignore_file_without_rules_is_reported_at_its_comment_and_hides_nothing() -> None:
    text = "# svcconf: ignore-file\n" + POLICY.format(comment="")
    diagnostics = sorted(check_text(text, name="policy.yaml").diagnostics, key=lambda d: d.line)
    assert [(d.file, d.line, d.column, d.rule, d.severity) for d in diagnostics] == [
        ("policy.yaml", 1, 1, "unknown-rule", Severity.WARNING),
        ("policy.yaml", 6, 5, "unreachable-audit-rule", Severity.WARNING),
    ]
    # The message says what to write instead, and that the comment hid nothing.
    assert diagnostics[0].message.startswith("ignore-file must name the rules it suppresses, e.g. `# svcconf: ignore-file[")
    assert diagnostics[0].message.endswith("; it suppresses nothing")
    assert "unused-suppression" not in {d.rule for d in diagnostics}  # said once


def test_a_bare_ignore_that_hides_nothing_is_reported_as_unused_for_any_rule() -> None:
    text = POLICY.format(comment="").replace("kind: Policy", "kind: Policy  # svcconf: ignore")
    diagnostics = sorted(check_text(text, name="policy.yaml").diagnostics, key=lambda d: d.line)
    assert [(d.file, d.line, d.column, d.rule, d.severity) for d in diagnostics] == [
        ("policy.yaml", 2, 15, "unused-suppression", Severity.WARNING),
        ("policy.yaml", 5, 5, "unreachable-audit-rule", Severity.WARNING),
    ]
    # A bare `ignore` names no rule: the message says it stands for any rule, and what to do.
    assert diagnostics[0].message.startswith("suppression for any rule matches no diagnostic")
    assert diagnostics[0].message.endswith("; remove it")


def test_a_suppression_written_right_after_a_quoted_value_is_a_comment() -> None:
    # YAML reads `"None"#...` as a value and a comment: the comment starts where the string ends, outside it.
    text = POLICY.format(comment="").replace("level: None", 'level: "None"# svcconf: ignore[unreachable-audit-rule]')
    assert check_text(text).diagnostics == []
