"""Unified diffs of what migrate changes, with the values of secret fields masked on every printed line.

Secret values are found by reading the file (the fields `secrets.is_secret` names, wherever they
are) and masked by their character spans, so a line keeps its key, indentation and comment and
the diff applies wherever no secret is shown. Lines are matched in linear time.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..known.secrets import REDACTION as REDACTED
from ..known.secrets import is_secret
from ..load.source import decode, leading_mark, parse
from .match import opcodes

CONTEXT = 3


def unified(name: str, original: bytes, output: bytes) -> Iterator[str]:
    """The lines of a unified diff from `original` to `output` (as `diff -u`), secret values masked.

    A hunk that shows a masked value would not apply (its lines must match the file, and an added
    line would write the mask): it is printed after the patch as comment lines, with the reason.
    """
    old, new = _text(original), _text(output)
    old_lines, new_lines = _lines(old), _lines(new)
    old_shown, new_shown = masked(old, old_lines), masked(new, new_lines)
    hunks = [_hunk(group, old_lines, new_lines, old_shown, new_shown) for group in _groups(list(opcodes(old_lines, new_lines)))]
    if any(secret is None for _lines_of, secret in hunks):
        yield f"--- a/{name}\n"
        yield f"+++ b/{name}\n"
        for lines, secret in hunks:
            if secret is None:
                yield from lines
    for lines, secret in hunks:
        if secret is not None:
            yield from not_appliable(name, lines, secret)


def _hunk(
    group: list, old_lines: list[str], new_lines: list[str], old_shown: list[str], new_shown: list[str]
) -> tuple[list[str], str | None]:
    """A hunk's lines, and where it shows a masked secret (None: nowhere, it applies)."""
    first, last = group[0], group[-1]
    out = [f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@\n"]
    secret = None
    for tag, i1, i2, j1, j2 in group:
        shown = [("-", old_shown[i], old_lines[i], f"line {i + 1}") for i in range(i1, i2)]
        if tag == "equal":
            shown = [(" ", old_shown[i], old_lines[i], f"line {i + 1}") for i in range(i1, i2)]
        else:
            shown += [("+", new_shown[j], new_lines[j], f"line {j + 1} of the result") for j in range(j1, j2)]
        for mark, line, real, where in shown:
            if line != real and secret is None:
                secret = where
            out.extend(_line(mark, line))
    return out, secret


def not_appliable(name: str, lines: list[str], where: str) -> Iterator[str]:
    """A hunk as comment lines that no patch tool applies, after the reason it is left out of the patch."""
    yield (
        f"# svcconf: this change to {name} is not in the patch: {where} holds a secret value, shown as {REDACTED}, "
        "so the patch could not match the file; make it by hand\n"
    )
    for line in "".join(lines).splitlines(keepends=True):
        yield "# " + line


def masked(text: str, lines: list[str]) -> list[str]:
    """`lines` (the text split at newlines) with the characters of every secret value replaced by REDACTED."""
    offset = len(leading_mark(text))
    spans = sorted({(start + offset, end + offset) for start, end in _secret_spans(text[offset:])})
    if not spans:
        return lines
    starts, position = [], 0
    for line in lines:
        starts.append(position)
        position += len(line)
    cuts: dict[int, list[tuple[int, int]]] = {}  # line number: (left, right) to replace on it
    row = 0
    for start, end in spans:
        while row + 1 < len(starts) and starts[row + 1] <= start:
            row += 1
        line_no = row
        while line_no < len(lines) and starts[line_no] < end:
            line = lines[line_no]
            left = max(start - starts[line_no], 0) or len(line) - len(line.lstrip(" \t"))  # a continuation keeps its indentation
            right = min(end - starts[line_no], len(line.rstrip("\r\n")))
            if left < right and line[left:right].strip():
                cuts.setdefault(line_no, []).append((left, right))
            line_no += 1
    out = list(lines)
    for line_no, ranges in cuts.items():
        line = out[line_no]
        for left, right in sorted(ranges, reverse=True):
            line = line[:left] + REDACTED + line[right:]
        out[line_no] = line
    return out


def _secret_spans(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of the text of every value whose field is secret."""
    source = parse("-", text)
    for document in source.documents:
        seen: set[int] = set()
        stack: list[tuple[Node, tuple]] = [(document.root, ())]
        while stack:
            node, path = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            if isinstance(node, MappingNode):
                for key, value in node.value:
                    child = (*path, key.value if isinstance(key, ScalarNode) else "?")
                    if is_secret(child):
                        yield value.start_mark.index, value.end_mark.index
                    else:
                        stack.append((value, child))
            elif isinstance(node, SequenceNode):
                stack.extend((item, (*path, index)) for index, item in enumerate(node.value))


def _text(data: bytes) -> str:
    """The text a diff shows: UTF-8 as is (a byte-order mark stays, so the diff applies), other encodings decoded."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):  # also the UTF-32 marks
        text, _problem = decode("-", data)
        if text is not None:
            return text
    return data.decode("utf-8", errors="replace")


def _lines(text: str) -> list[str]:
    """Lines split at newlines only, as diff and patch split them (not at other Unicode line breaks)."""
    parts = text.split("\n")
    return [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def _line(mark: str, line: str) -> Iterator[str]:
    yield mark + line
    if not line.endswith("\n"):
        yield "\n\\ No newline at end of file\n"


def _range(start: int, stop: int) -> str:
    """A hunk range as unified diffs write it: first line (1-based) and length, the length omitted when 1."""
    length = stop - start
    if length == 1:
        return str(start + 1)
    return f"{start if length == 0 else start + 1},{length}"


def _groups(codes: list[tuple[str, int, int, int, int]]) -> Iterator[list[tuple[str, int, int, int, int]]]:
    """Changes with up to CONTEXT unchanged lines around them, close changes in one hunk."""
    if not any(tag != "equal" for tag, *_rest in codes):
        return
    tag, i1, i2, j1, j2 = codes[0]
    if tag == "equal":
        codes[0] = tag, max(i1, i2 - CONTEXT), i2, max(j1, j2 - CONTEXT), j2
    tag, i1, i2, j1, j2 = codes[-1]
    if tag == "equal":
        codes[-1] = tag, i1, min(i2, i1 + CONTEXT), j1, min(j2, j1 + CONTEXT)
    group: list[tuple[str, int, int, int, int]] = []
    for tag, i1, i2, j1, j2 in codes:
        if tag == "equal" and i2 - i1 > 2 * CONTEXT:
            group.append((tag, i1, min(i2, i1 + CONTEXT), j1, min(j2, j1 + CONTEXT)))
            yield group
            group = []
            i1, j1 = max(i1, i2 - CONTEXT), max(j1, j2 - CONTEXT)
        group.append((tag, i1, i2, j1, j2))
    if group and not (len(group) == 1 and group[0][0] == "equal"):
        yield group
