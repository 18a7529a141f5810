"""`svcconf validate --add-suppressions`: write `# svcconf: ignore[rule-id]` on each finding's line, never changing a file's data.

A comment is added only where YAML reads it as a comment: never inside a block scalar or a
string that spans lines. After the edit the file is read again with svcconf's own loader and
written (atomically, keeping line endings, byte-order mark and mode) only if every document holds
the same data as before.
"""

from __future__ import annotations

import bisect
import codecs
import os
import stat
from collections.abc import Iterable
from typing import NamedTuple

from ..load.files import TooLarge, read_limited
from ..load.positions import LINE_BREAK
from ..model import Diagnostic
from . import suppression

# Where YAML ends a line (libyaml and PyYAML alike): diagnostics count lines the same way.
# Reported after inline suppressions are applied: a comment cannot hide them.
NOT_INLINE = frozenset({"unused-suppression", "unknown-rule", "invalid-suppression"})


class Outcome(NamedTuple):
    suppressed: set[Diagnostic]  # the findings a comment now covers
    added: int  # rule ids written (a line may take several)
    files: int  # files written
    notes: list[str]  # what was left, and why, one line each


def add_suppressions(diagnostics: Iterable[Diagnostic], max_size: int, stdin: str) -> Outcome:
    """Add a suppression for each finding placed in a document, file by file (never to `stdin`, the name stdin's findings go by)."""
    by_file: dict[str, list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        # Findings without a document (syntax errors, unreadable files) have no line to hold a comment.
        if diagnostic.document is not None and diagnostic.rule not in NOT_INLINE and diagnostic.file != stdin:
            by_file.setdefault(diagnostic.file, []).append(diagnostic)
    outcome = Outcome(set(), 0, 0, [])
    for name, found in by_file.items():
        suppressed, added, notes = _suppress_file(name, found, max_size)
        outcome.suppressed.update(suppressed)
        outcome.notes.extend(notes)
        outcome = outcome._replace(added=outcome.added + added, files=outcome.files + bool(added))
    return outcome


def _suppress_file(name: str, found: list[Diagnostic], max_size: int) -> tuple[list[Diagnostic], int, list[str]]:
    """(findings suppressed, rule ids added, notes) for one file; the file is written only when its data stays the same."""
    from ..load.atomic import write_atomic
    from ..load.source import parse

    def left(why: str) -> tuple[list[Diagnostic], int, list[str]]:
        return [], 0, [f"{name}: {len(found)} finding{'s' if len(found) != 1 else ''} not suppressed: {why}"]

    read = _read_text(name, max_size)
    if isinstance(read, str):
        return left(read)
    bom, text = read
    original = parse(name, text, keep_nodes=False)
    if original.problems:
        return left("the file is no longer well-formed YAML")
    strings = _multiline_strings(text)
    if strings is None:
        return left("the file is not well-formed YAML")
    edited, suppressed, added, notes = _commented(name, text, strings, _holder_lines(original), found)
    if not added:
        return suppressed, 0, notes
    again = parse(name, edited, keep_nodes=False)
    if again.problems or [repr(d.data) for d in again.documents] != [repr(d.data) for d in original.documents]:
        return left("a comment would change the file's data")
    try:
        write_atomic(name, bom + edited.encode("utf-8"))
    except OSError as err:
        return left(f"cannot write it: {(err.strerror or str(err)).lower()}")
    return suppressed, added, notes


def _read_text(name: str, max_size: int) -> tuple[bytes, str] | str:
    """(byte-order mark, text) of a file svcconf may add comments to; else why not."""
    if name.endswith(".json"):
        return "JSON files cannot hold comments"
    if os.path.islink(name):
        return "it is a symlink, and svcconf does not write through symlinks"
    try:
        if not stat.S_ISREG(os.stat(name).st_mode):
            return "it is not a regular file"
        data = read_limited(name, max_size)
    except TooLarge:
        return "the file is too large"
    except OSError as err:
        return f"cannot read it: {(err.strerror or str(err)).lower()}"
    bom = codecs.BOM_UTF8 if data.startswith(codecs.BOM_UTF8) else b""
    try:
        return bom, data[len(bom) :].decode("utf-8")
    except UnicodeDecodeError:
        return "svcconf adds comments to UTF-8 files only"


def _commented(name: str, text: str, strings, line_of, found: list[Diagnostic]) -> tuple[str, list[Diagnostic], int, list[str]]:
    """(the text with a suppression comment on each finding's line, findings suppressed, rule ids added, notes)."""
    pieces = LINE_BREAK.split(text)  # line contents; their breaks are found again below
    breaks = [match.group() for match in LINE_BREAK.finditer(text)] + [""]
    rules: dict[int, list[Diagnostic]] = {}
    for diagnostic in found:
        rules.setdefault(line_of(diagnostic), []).append(diagnostic)
    suppressed: list[Diagnostic] = []
    added = 0
    notes: list[str] = []
    for line, here in sorted(rules.items()):
        names = sorted({d.rule for d in here})
        if not 0 < line <= len(pieces) or pieces[line - 1].lstrip().startswith("#"):
            notes.append(f"{name}:{line}: [{', '.join(names)}] not suppressed: no line of data to hold a comment")
        elif _inside(strings, line - 1):
            notes.append(
                f"{name}:{line}: [{', '.join(names)}] not suppressed: the line is inside a multi-line string, where a comment is text"
            )
        else:
            pieces[line - 1], count = _with_suppression(pieces[line - 1], names)
            if not count:  # named already, yet reported: that comment is text (inside a string), not a comment
                notes.append(f"{name}:{line}: [{', '.join(names)}] not suppressed: the line already names it")
                continue
            added += count
            suppressed.extend(here)
    return "".join(piece + end for piece, end in zip(pieces, breaks)), suppressed, added, notes


def _holder_lines(source):
    """The line a finding's comment goes on: its own, except for a value that starts below the key (or list
    item) holding it, such as a mapping, where the comment goes on that key's line (`- aescbc:`, not the
    `keys:` under it). A suppression on a key's line covers what the key holds.
    """
    from ..model import Anchor

    positions = {document.index + 1: position for position, document in enumerate(source.documents)}
    locators: dict[int, object] = {}

    def line(diagnostic: Diagnostic) -> int:
        position = positions.get(diagnostic.document)  # type: ignore[arg-type]
        if position is None or not diagnostic.path:
            return diagnostic.line
        locator = locators.get(position) or locators.setdefault(position, source.locator(position))
        along = locator.lines_along(diagnostic.path)  # type: ignore[attr-defined]
        starts = locator.position(diagnostic.path, Anchor.VALUE)[0]  # type: ignore[attr-defined]
        if len(along) == len(diagnostic.path) and diagnostic.line == starts > along[-1]:
            return along[-1]
        return diagnostic.line

    return line


def suppressed_line(name: str, text: str, diagnostic: Diagnostic) -> tuple[int, str] | None:
    """The line (1-based) that --add-suppressions would write a diagnostic's suppression on, and that line with it
    (the editor's quick fix); None where a comment cannot go or would change the file's data."""
    from ..load.source import parse

    pieces = LINE_BREAK.split(text)
    original = parse(name, text, keep_nodes=False)
    line = _holder_lines(original)(diagnostic)
    if name.endswith(".json") or original.problems or not 0 < line <= len(pieces) or pieces[line - 1].lstrip().startswith("#"):
        return None
    strings = _multiline_strings(text)
    if strings is None or _inside(strings, line - 1):
        return None
    content, count = _with_suppression(pieces[line - 1], [diagnostic.rule])
    if not count:
        return None
    breaks = [match.group() for match in LINE_BREAK.finditer(text)] + [""]
    pieces[line - 1] = content
    edited = "".join(piece + end for piece, end in zip(pieces, breaks))
    again = parse(name, edited, keep_nodes=False)
    if again.problems or [repr(d.data) for d in again.documents] != [repr(d.data) for d in original.documents]:
        return None
    return line, content


def _with_suppression(content: str, names: list[str]) -> tuple[str, int]:
    """The line with `names` added to its `# svcconf: ignore[...]` comment, or with a new one; and how many were added."""
    for existing in suppression.find(content):
        if existing.whole_file or existing.invalid:
            continue
        written = {written for written, _column in existing.names}
        if not existing.names:  # a bare ignore already covers every rule
            return content, 0
        new = [name for name in names if name not in written]
        close = content.find("]", existing.column)
        return content[:close] + "".join(f", {name}" for name in new) + content[close:], len(new)
    return content.rstrip(" \t") + f"  # svcconf: ignore[{', '.join(names)}]", len(names)


def _multiline_strings(text: str) -> list[tuple[int, int]] | None:
    """The 0-based (first, last) lines where a comment would be part of a string: block scalars' content
    and every line but the last of a quoted or plain string that spans lines. None when the text does not scan."""
    import yaml
    from yaml.tokens import ScalarToken

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    spans = []
    try:
        for token in yaml.scan(text, Loader=loader):
            if token.__class__ is not ScalarToken:
                continue
            start, end = token.start_mark, token.end_mark
            if token.style in ("|", ">"):  # the indicator's line may hold a comment; the content may not
                first, last = start.line + 1, end.line - (end.column == 0)
            else:  # after the closing quote (or the last word) a comment is a comment
                first, last = start.line, end.line - 1
            if first <= last:
                spans.append((first, last))
    except yaml.YAMLError:
        return None
    return spans


def _inside(spans: list[tuple[int, int]], line: int) -> bool:
    at = bisect.bisect_right(spans, (line, float("inf"))) - 1
    return at >= 0 and spans[at][1] >= line
