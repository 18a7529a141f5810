"""Inline suppressions: `# svcconf: ignore[rule-id]` on a line, `# svcconf: ignore-file[rule-id]` anywhere."""

from __future__ import annotations

import re

from .model import Diagnostic, Severity

_COMMENT = re.compile(r"#\s*svcconf:\s*(ignore-file|ignore)\b(?:\[([^\]]*)\])?")


class Suppression:
    __slots__ = ("column", "line", "rules", "used", "whole_file")

    def __init__(self, line: int, column: int, whole_file: bool, rules: frozenset[str]) -> None:
        self.line = line
        self.column = column
        self.whole_file = whole_file
        self.rules = rules  # empty: every rule
        self.used: set[str] = set()

    def covers(self, diagnostic: Diagnostic) -> bool:
        if not self.whole_file and diagnostic.line != self.line:
            return False
        return not self.rules or diagnostic.rule in self.rules


def find(text: str) -> list[Suppression]:
    if "svcconf:" not in text:
        return []
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if "svcconf:" not in line:
            continue
        for match in _COMMENT.finditer(line):
            names = frozenset(name.strip() for name in (match.group(2) or "").split(",") if name.strip())
            found.append(Suppression(number, match.start() + 1, match.group(1) == "ignore-file", names))
    return found


def apply(file: str, text: str, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Drop suppressed diagnostics; warn about suppressions that matched nothing."""
    suppressions = find(text)
    if not suppressions:
        return diagnostics
    kept = []
    for diagnostic in diagnostics:
        for suppression in suppressions:
            if suppression.covers(diagnostic):
                suppression.used.add(diagnostic.rule)
                break
        else:
            kept.append(diagnostic)
    for suppression in suppressions:
        unused = sorted(suppression.rules - suppression.used) if suppression.rules else ([] if suppression.used else ["*"])
        if unused:
            what = ", ".join(unused) if unused != ["*"] else "any rule"
            kept.append(
                Diagnostic(
                    file,
                    suppression.line,
                    suppression.column,
                    "unused-suppression",
                    Severity.WARNING,
                    f"suppression for {what} matches no diagnostic here; remove it",
                )
            )
    return kept
