"""Gitignore patterns matched in time linear in the path, however many `*` and `**` they hold.

Patterns come from strangers' pull requests (`.gitignore`, `exclude`), and Python's `re` backtracks:
translated naively, `**/a/**/a*c` tries every way to split a deep path and costs a quarter of a
second on one 4,000-character path, times every pattern, times every folder of a walk. Here each
pattern becomes a regular expression that commits to one choice wherever one choice is enough:

- the pieces between `**` are runs of whole segments, each of fixed length in segments, so the
  first place a piece fits leaves the most room for the next ones (an atomic group takes it);
- inside a segment, the parts between `*` are of fixed length in characters, so the first place
  each fits is as good as any (atomic again), and the last part sits at the segment's end;
- only the last piece is free to move, and it moves segment by segment.

A match then costs O(path length x pattern length), and a path is matched against the patterns
from the last one back, until one decides. This replaces pathspec, whose translation backtracks; a
test holds the verdicts to what git itself leaves out on random patterns and trees. A path is
given relative to the patterns' folder, in `/` form, without a trailing `/`.
"""

from __future__ import annotations

import re
from typing import NamedTuple


class Rule(NamedTuple):
    pattern: str  # as written
    negated: bool  # `!pattern`: re-includes what an earlier pattern matched
    folders_only: bool  # `pattern/`
    itself: re.Pattern  # matches the path itself
    inside: re.Pattern  # matches a folder the path lies in
    literals: tuple[str, ...]  # text every path it matches contains: a quick no before the regex


def compile_rule(line: str) -> Rule | None:
    """A gitignore line as a Rule; None for a blank line, a comment, or a pattern that matches nothing (git's reading)."""
    parsed = _parse(line)
    if isinstance(parsed, str):
        return None
    negated, dir_only, anchored, segments = parsed
    tokens: list[str] = []
    for segment in segments if anchored else ["**", *segments]:
        if segment.strip("*") == "" and len(segment) > 1:
            segment = "**"  # a run of two or more stars between slashes is `**`
            if tokens[-1:] == ["**"]:
                continue
        tokens.append(segment)
    regex, literals = _translate(tokens)
    return Rule(line, negated, dir_only, re.compile(regex + r"\Z", re.DOTALL), re.compile(regex + "/", re.DOTALL), literals)


def unreadable(line: str) -> str | None:
    """Why a pattern written in a setting can match no path (git reads such a line and never matches it); None when it can."""
    parsed = _parse(line)
    return parsed if isinstance(parsed, str) and parsed else None


def _parse(line: str) -> tuple[bool, bool, bool, list[str]] | str:
    """(negated, folders only, anchored, segments), or why the line matches nothing ("" for a blank line or a comment)."""
    text = _strip_trailing_spaces(line)
    if not text or text.startswith("#"):
        return ""
    negated = text.startswith("!")
    body = text[1:] if negated else text
    if _ends_in_escape(body):
        return "ends in a lone backslash, so it matches nothing"
    dir_only = body.endswith("/")
    body = body[:-1] if dir_only else body
    if not body:
        return "names no file or folder"
    segments = _segments(body)
    anchored = "/" in body  # git looks for any `/`, one inside brackets included
    if len(segments) > 1 and not segments[0]:
        segments = segments[1:]  # `/a`: anchored at the folder of the patterns
    if not all(segments):
        return "has an empty folder name (`//`), so it matches nothing"
    if any(_unclosed_bracket(segment) for segment in segments):
        return "has a `[` that is never closed, so it matches nothing"
    return negated, dir_only, anchored, segments


def _strip_trailing_spaces(line: str) -> str:
    """Trailing spaces are dropped unless the last one is escaped (`a\\ ` keeps one)."""
    stripped = line.rstrip(" ")
    if stripped != line and _ends_in_escape(stripped):
        return stripped + " "
    return stripped


def _ends_in_escape(text: str) -> bool:
    backslashes = len(text) - len(text.rstrip("\\"))
    return backslashes % 2 == 1


def _translate(tokens: list[str]) -> tuple[str, tuple[str, ...]]:
    """The regular expression of a pattern's segments (`**` or a glob each), without its end, and its literal runs."""
    trailing = tokens[-1] == "**" and len(tokens) > 1
    if trailing:
        tokens = tokens[:-1]
    pieces: list[list[str]] = [[]]
    for token in tokens:
        if token == "**":
            pieces.append([])
        else:
            pieces[-1].append(token)
    literals: list[str] = []
    parts = ["(?:"]
    for index, piece in enumerate(pieces):
        last = index == len(pieces) - 1
        body = "/".join(_segment(glob, literals) for glob in piece)
        if index == 0:
            parts.append(body)  # anchored at the start (empty when the pattern starts with `**`)
            continue
        # After `**`: any number of whole segments, then this piece. `before` is what has been matched.
        lead = "(?:[^/]*/)" if parts == ["(?:", ""] else "(?:/[^/]*)"
        sep = "" if parts == ["(?:", ""] else "/"
        if not piece:  # `**` alone, or at the end before a folder mark: any segments at all
            parts.append(f"{lead}*" if sep else ".+")
            continue
        if last:
            parts.append(f"{lead}*{sep}{body}")  # greedy: the deepest place first
        else:
            parts.append(f"(?>{lead}*?{sep}{body})")  # the first place it fits leaves the most room
    parts.append(")")
    if trailing:
        parts.append("/[^/].*")  # `a/**`: everything inside a, never a itself
    return "".join(parts), tuple(run for run in literals if run)


def _segment(glob: str, literals: list[str]) -> str:
    """One segment's glob: `*` never crosses `/`; parts between stars are taken at the first place they fit."""
    parts = _split_stars(glob)
    regexes = [_fixed(part, literals) for part in parts]
    if len(regexes) == 1:
        return regexes[0]
    middle = "".join(f"(?>[^/]*?{regex})" for regex in regexes[1:-1])
    # A segment is never empty: `*` must not match the nothing after a folder's trailing `/`.
    return f"(?=[^/]){regexes[0]}{middle}[^/]*{regexes[-1]}"


def _split_stars(glob: str) -> list[str]:
    """The parts of a glob between runs of unescaped `*` (outside brackets): `a*b**c` -> [a, b, c]."""
    parts, current, at = [], [], 0
    while at < len(glob):
        char = glob[at]
        if char == "\\" and at + 1 < len(glob):
            current.append(glob[at : at + 2])
            at += 2
        elif char == "[" and (end := _class_end(glob, at)) > 0:
            current.append(glob[at : end + 1])
            at = end + 1
        elif char == "*":
            parts.append("".join(current))
            current = []
            while at < len(glob) and glob[at] == "*":
                at += 1
        else:
            current.append(char)
            at += 1
    parts.append("".join(current))
    return parts


def _segments(body: str) -> list[str]:
    """A pattern split at each `/` that is not inside a bracket expression (`[!/a]` is one character, never `/`)."""
    segments, start, at = [], 0, 0
    while at < len(body):
        if body[at] == "\\":
            at += 2
        elif body[at] == "[" and (end := _class_end(body, at)) > 0:
            at = end + 1
        elif body[at] == "/":
            segments.append(body[start:at])
            start = at = at + 1
        else:
            at += 1
    segments.append(body[start:])
    return segments


def _unclosed_bracket(glob: str) -> bool:
    at = 0
    while at < len(glob):
        if glob[at] == "\\":
            at += 2
        elif glob[at] == "[":
            end = _class_end(glob, at)
            if end < 0:
                return True
            at = end + 1
        else:
            at += 1
    return False


def _class_end(glob: str, start: int) -> int:
    """The index of the `]` closing the bracket expression at `start`, or -1 when it is not closed."""
    at = start + 1
    if at < len(glob) and glob[at] in "!^":
        at += 1
    if at < len(glob) and glob[at] == "]":
        at += 1  # a `]` first is a member
    while at < len(glob):
        if glob[at] == "\\":
            at += 2
            continue
        if glob[at] == "]":
            return at
        at += 1
    return -1


def _fixed(part: str, literals: list[str]) -> str:
    """A star-free part of a glob: literals, `?` and bracket expressions, each one character (never `/`)."""
    out, run, at = [], [], 0
    while at < len(part):
        char = part[at]
        if char == "\\" and at + 1 < len(part):
            run.append(part[at + 1])
            out.append(re.escape(part[at + 1]))
            at += 2
            continue
        if char == "?" or (char == "[" and _class_end(part, at) > 0):
            literals.append("".join(run))
            run = []
            if char == "?":
                out.append("[^/]")
                at += 1
            else:
                end = _class_end(part, at)
                out.append(_bracket(part[at + 1 : end]))
                at = end + 1
            continue
        run.append(char)
        out.append(re.escape(char))
        at += 1
    literals.append("".join(run))
    return "".join(out)


def _bracket(inside: str) -> str:
    """A bracket expression's members as a character class that never matches `/` (git matches paths with WM_PATHNAME)."""
    negate = inside[:1] in ("!", "^")
    if negate:
        inside = inside[1:]
    members, at = [], 0
    chars = []
    while at < len(inside):
        if inside[at] == "\\" and at + 1 < len(inside):
            chars.append(inside[at + 1])
            at += 2
        else:
            chars.append(inside[at])
            at += 1
    at = 0
    while at < len(chars):
        if at + 2 < len(chars) and chars[at + 1] == "-":
            low, high = chars[at], chars[at + 2]
            if low <= high:  # a reversed range matches nothing, as in git
                members.append(f"{_class_char(low)}-{_class_char(high)}")
            at += 3
        else:
            members.append(_class_char(chars[at]))
            at += 1
    if negate:
        return f"[^/{''.join(members)}]"
    return f"(?!/)[{''.join(members)}]" if members else "(?!)"


def _class_char(char: str) -> str:
    return "\\" + char if char in "\\]^-[" else char


def ignored(rules: tuple[Rule, ...], path: str, is_dir: bool) -> tuple[bool | None, int | None]:
    """(True: ignored, False: re-included by a negated pattern, None: no pattern matches; the deciding rule's index).

    As git decides: a path in an ignored folder stays ignored, and otherwise the last pattern that
    matches the path itself decides. A folder counts as ignored when the last pattern matching any
    folder the path is in is not negated; git would also ignore `a/b/c` under `a/` then `!a/b/`,
    which is read here as not ignored: a difference only ever towards checking more.
    """
    for index in range(len(rules) - 1, -1, -1):
        rule = rules[index]
        if _may_match(rule, path) and rule.inside.match(path):
            if not rule.negated:
                return True, index
            break
    for index in range(len(rules) - 1, -1, -1):
        rule = rules[index]
        if (is_dir or not rule.folders_only) and _may_match(rule, path) and rule.itself.match(path):
            return not rule.negated, index
    return None, None


def _may_match(rule: Rule, path: str) -> bool:
    return all(literal in path for literal in rule.literals)
