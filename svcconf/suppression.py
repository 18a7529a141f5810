"""Inline suppressions: `# svcconf: ignore[rule-id]` on a line, `# svcconf: ignore-file[rule-id]` anywhere."""

from __future__ import annotations

import re

from .model import Diagnostic, Severity

# The rule list `[...]` is matched by hand: a regular expression that looks for its `]` at every
# `#svcconf:ignore[` of a line without one would rescan the rest of the line each time.
_COMMENT = re.compile(r"#\s*svcconf:\s*(ignore-file|ignore)\b")


class Suppression:
    __slots__ = ("column", "line", "rules", "used", "whole_file")

    def __init__(self, line: int, column: int, whole_file: bool, rules: frozenset[str]) -> None:
        self.line = line
        self.column = column
        self.whole_file = whole_file
        self.rules = rules  # empty: every rule
        self.used: set[str] = set()


def find(text: str) -> list[Suppression]:
    if "svcconf:" not in text:
        return []
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if "svcconf:" not in line:
            continue
        start = 0
        close = -1  # the first `]` after `start` (len(line): none), searched again only once passed
        while (match := _COMMENT.search(line, start)) is not None:
            start = match.end()
            names = ""
            if line.startswith("[", start):
                if close < start:
                    close = line.find("]", start)
                    close = len(line) if close < 0 else close
                if close < len(line):
                    names = line[start + 1 : close]
                    start = close + 1
            rules = frozenset(name.strip() for name in names.split(",") if name.strip())
            found.append(Suppression(number, match.start() + 1, match.group(1) == "ignore-file", rules))
    return found


def apply(file: str, text: str, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Drop suppressed diagnostics; warn about suppressions that matched nothing."""
    suppressions = find(text)
    if not suppressions:
        return diagnostics
    # The first suppression (in file order) that covers a diagnostic takes it: index them by
    # (line or None for the whole file, rule or None for every rule) to find it in four look-ups.
    first: dict[tuple[int | None, str | None], int] = {}
    for order, suppression in enumerate(suppressions):
        line = None if suppression.whole_file else suppression.line
        for rule in suppression.rules or (None,):
            first.setdefault((line, rule), order)
    kept = []
    for diagnostic in diagnostics:
        keys = ((None, diagnostic.rule), (None, None), (diagnostic.line, diagnostic.rule), (diagnostic.line, None))
        order = min((first[key] for key in keys if key in first), default=None)
        if order is None:
            kept.append(diagnostic)
        else:
            suppressions[order].used.add(diagnostic.rule)
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
