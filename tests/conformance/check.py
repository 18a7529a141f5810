"""Run one case through svcconf and compare its errors with the upstream verdict."""

from __future__ import annotations

from svcconf.known.catalog import parse_release
from svcconf.lint.check import check_file
from svcconf.model import Severity
from svcconf.settings.options import ValidateOptions
from tests.conformance.table import Case, Expected


def options(case: Case) -> ValidateOptions:
    flags = case.flags
    return ValidateOptions(
        field_validation=flags.get("field_validation", "Strict"),
        target=parse_release(str(flags["target"])) if "target" in flags else None,
        service_account_issuers=tuple(flags.get("service_account_issuers", [])),
        bootstrap=flags.get("bootstrap"),
    )


def errors(case: Case) -> dict[str, list[str]]:
    """The field paths svcconf reports errors at, each with its messages."""
    found: dict[str, list[str]] = {}
    for diagnostic in check_file(str(case.file), options(case)).diagnostics:
        if diagnostic.severity == Severity.ERROR:
            found.setdefault(diagnostic.path_text, []).append(diagnostic.message)
    return found


def mismatches(expected: tuple[Expected, ...], found: dict[str, list[str]]) -> list[str]:
    """What differs between a verdict and svcconf's errors; empty when they agree.

    Paths must match as sets. Where a verdict carries a message, one of svcconf's messages at that
    path must contain it (upstream tests mostly assert a substring of the error).
    """
    problems = []
    want = {e.path for e in expected}
    for path in sorted(want - set(found)):
        problems.append(f"missing error at {path or '<document>'}")
    for path in sorted(set(found) - want):
        problems.append(f"unexpected error at {path or '<document>'}: {found[path]}")
    for item in expected:
        messages = found.get(item.path)
        if item.message and messages and not any(item.message in m for m in messages):
            problems.append(f"at {item.path}: expected message {item.message!r}, got {messages}")
    return problems


def verdict(case: Case) -> tuple[Expected, ...]:
    """What svcconf should report: upstream's verdict, or the documented one for a deliberate difference."""
    return case.svcconf if case.deliberate and case.svcconf is not None else case.expect


def agrees(case: Case) -> bool:
    return not mismatches(verdict(case), errors(case))
