"""Inline suppressions: `# svcconf: ignore[rule-id]` for a line or a block, `# svcconf: ignore-file[rule-id]` for a file.

`ignore` covers the diagnostics of the line it is written on and of everything the keys (and
list items) of that line hold: on `- kms:` it covers the findings inside that provider. A line
holding only the comment covers the next line that is not a comment. Names are rule ids or areas
(`encryption`: every rule of that area); `ignore` without names covers every rule, `ignore-file`
must name its rules. A name that is no rule or area is reported (`unknown-rule`), as is a
suppression that matches nothing (`unused-suppression`). A comment that starts `svcconf:` in no
known form is an error (`invalid-suppression`) and suppresses nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from ..model import Diagnostic, Severity

# A comment that starts `svcconf:` is a suppression in one of these forms or an error: a near miss
# (`ignore [id]`, `ignore(id)`, `ignore: id`, `ignore id`, `ignore[id`) must never read as a bare
# `ignore`, which covers every rule. The rule list `[...]` is matched by hand: a regular expression
# that looks for its `]` at every `#svcconf:ignore[` of a line without one would rescan the rest of
# the line each time.
_COMMENT = re.compile(r"#[ \t]*svcconf:")
_BLANK = re.compile(r"[ \t]*")
FORMS = "`# svcconf: ignore[rule-id, ...]`, a bare `# svcconf: ignore` or `# svcconf: ignore-file[rule-id, ...]`"
SHOWN = 60  # characters of a malformed suppression quoted in its diagnostic


class Suppression:
    __slots__ = ("column", "invalid", "line", "names", "target", "used", "whole_file")

    def __init__(self, line: int, column: int, whole_file: bool, names: list[tuple[str, int]], invalid: str) -> None:
        self.line = line
        self.column = column
        self.whole_file = whole_file
        self.names = names  # (name, column) as written; empty: every rule
        self.invalid = invalid  # the comment as written when it is in no known form: it suppresses nothing
        self.target = line  # the line it covers: its own, or the next one for a line holding only comments
        self.used: set[str] = set()


def find(text: str) -> list[Suppression]:
    if "svcconf:" not in text:
        return []
    found: list[Suppression] = []
    waiting: list[Suppression] = []  # on lines holding only comments: they cover the next other line
    for number, line in enumerate(text.splitlines(), 1):
        comment_only = line.lstrip().startswith("#")
        if not comment_only:
            for suppression in waiting:
                suppression.target = number
            waiting.clear()
        if "svcconf:" not in line:
            continue
        for suppression in _on_line(line, number):
            found.append(suppression)
            if comment_only and not suppression.invalid:
                waiting.append(suppression)
    if found:
        inside = _inside_scalars(text, [(s.line - 1, s.column - 1) for s in found])
        found = [s for s in found if (s.line - 1, s.column - 1) not in inside]
    return found


def _on_line(line: str, number: int) -> list[Suppression]:
    """Every `# svcconf:` comment of one line, each read as a known form or marked invalid."""
    found = []
    start = 0
    close = -1  # pragma: no mutate - the first `]` after `start` (len(line): none), searched again only once passed
    while (match := _COMMENT.search(line, start)) is not None:
        start = match.end()
        column = match.start() + 1
        at = _BLANK.match(line, start).end()  # type: ignore[union-attr] - `[ \t]*` always matches
        keyword = next((word for word in ("ignore-file", "ignore") if line.startswith(word, at)), None)
        names: list[tuple[str, int]] = []
        valid = False
        if keyword is not None:
            after = at + len(keyword)
            if line.startswith("[", after):
                if close < after:  # pragma: no mutate - never equal: line[after] is the `[`
                    close = line.find("]", after)
                    close = len(line) if close < 0 else close  # pragma: no mutate - find gives -1 or a position past `[`
                if close < len(line):
                    names = _names(line, after + 1, close)
                    # A reason may follow the list, after a space: `ignore[id]  legacy cluster`.
                    valid = bool(names) and (close + 1 == len(line) or line[close + 1] in " \t")
                    start = close + 1
            else:  # a bare `ignore` ends the line (or comes before another comment)
                blank = _BLANK.match(line, after).end()
                valid = keyword == "ignore" and (blank == len(line) or line[blank] == "#")
                valid = valid or (keyword == "ignore-file" and blank == len(line))  # reported as unknown-rule
                start = max(start, after)
        whole_file = keyword == "ignore-file"
        written = "" if valid else line[match.start() : match.start() + SHOWN]
        found.append(Suppression(number, column, whole_file, names if valid else [], written))
    return found


def _inside_scalars(text: str, positions: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """The (line, column) positions, 0-based, that lie inside a scalar: in a quoted string or a block
    scalar `# svcconf: ...` is text, not a comment. One pass of the scanner over the file."""
    import yaml

    pending = sorted(set(positions))
    inside: set[tuple[int, int]] = set()
    at = 0
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # pragma: no mutate - libyaml when built with it: faster, same tokens
    try:
        for token in yaml.scan(text, Loader=loader):
            start = (token.start_mark.line, token.start_mark.column)
            while at < len(pending) and pending[at] < start:  # pragma: no mutate - no token that holds text starts at a `#`
                at += 1
            if at == len(pending):
                break
            if isinstance(token, yaml.ScalarToken):
                end = (token.end_mark.line, token.end_mark.column)
                while at < len(pending) and pending[at] < end:
                    inside.add(pending[at])
                    at += 1
    except yaml.YAMLError:
        pass  # past a syntax error the text cannot be told apart: what looks like a comment counts as one
    return inside


def _names(line: str, start: int, end: int) -> list[tuple[str, int]]:
    """The comma-separated names of line[start:end], each with its 1-based column, repeats dropped."""
    names: dict[str, int] = {}
    for part in line[start:end].split(","):
        name = part.strip()
        if name and name not in names:
            names[name] = start + len(part) - len(part.lstrip()) + 1
        start += len(part) + 1
    return list(names.items())


def apply(
    file: str,
    text: str,
    diagnostics: list[Diagnostic],
    held_by: Callable[[Diagnostic], Iterable[int]],
    suppressed: list[Diagnostic] | None = None,
) -> list[Diagnostic]:
    """Drop suppressed diagnostics (into `suppressed`, when given); report suppressions that name no rule or match nothing.

    `held_by(diagnostic)` gives the lines of the keys and list items that hold its value.
    """
    suppressions = find(text)
    if not suppressions:
        return diagnostics
    problems: list[Diagnostic] = []
    first = _index(file, suppressions, problems)
    kept = []
    for diagnostic in diagnostics:
        taken = None
        held = held_by(diagnostic) if diagnostic.path else ()  # pragma: no mutate - held_by gives no line for an empty path
        for line in (None, diagnostic.line, *held):
            for key in ((line, diagnostic.rule), (line, None)):
                found = first.get(key)
                if found is not None and (taken is None or found[0] < taken[0]):
                    taken = found
        if taken is None:
            kept.append(diagnostic)
        else:
            if suppressed is not None:
                suppressed.append(diagnostic)
            order, name = taken
            suppressions[order].used.add(name or "*")
    return kept + _unused(file, suppressions) + problems


_Index = dict[tuple[int | None, str | None], tuple[int, str | None]]


def _index(file: str, suppressions: list[Suppression], problems: list[Diagnostic]) -> _Index:
    """The first suppression (in file order) that covers a diagnostic takes it: index them by (line, or None for
    the whole file; rule, or None for every rule) to find it in a look-up per line. Unreadable ones go to `problems`."""
    from ..known.docs import rule_areas, rules_of_area, unknown_rule_message

    rules = rule_areas()
    first: _Index = {}
    for order, suppression in enumerate(suppressions):
        scope = None if suppression.whole_file else suppression.target
        if suppression.invalid:
            message = f"{suppression.invalid!r} is not a suppression svcconf reads, so it suppresses nothing; write {FORMS}"
            problems.append(_problem(file, suppression.line, suppression.column, "invalid-suppression", message, Severity.ERROR))
            suppression.used.add("*")
        elif not suppression.names and suppression.whole_file:
            message = "ignore-file must name the rules it suppresses, e.g. `# svcconf: ignore-file[unknown-field]`; it suppresses nothing"
            problems.append(_problem(file, suppression.line, suppression.column, "unknown-rule", message))
            suppression.used.add("*")
        elif not suppression.names:
            first.setdefault((scope, None), (order, None))
        for name, column in suppression.names if not suppression.invalid else ():
            if name in rules:
                first.setdefault((scope, name), (order, name))
            elif (members := rules_of_area(name)) is not None:
                for rule in members:
                    first.setdefault((scope, rule), (order, name))
            else:
                problems.append(
                    _problem(file, suppression.line, column, "unknown-rule", f"suppression names an {unknown_rule_message(name)}")
                )
                suppression.used.add(name)  # said once, as unknown
    return first


def _unused(file: str, suppressions: list[Suppression]) -> list[Diagnostic]:
    out = []
    for suppression in suppressions:
        unused = [name for name, _column in suppression.names if name not in suppression.used] or (
            [] if suppression.names or suppression.used else ["any rule"]
        )
        if unused:
            message = f"suppression for {', '.join(unused)} matches no diagnostic here; remove it"
            out.append(_problem(file, suppression.line, suppression.column, "unused-suppression", message))
    return out


def _problem(file: str, line: int, column: int, rule: str, message: str, severity: Severity = Severity.WARNING) -> Diagnostic:
    return Diagnostic(file, line, column, rule, severity, message)
