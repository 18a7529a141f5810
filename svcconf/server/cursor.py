"""Where the cursor is in a YAML file: its document, the path of the field under it, the keys around it.

Hover reads the composed nodes of the last check. Completion reads the lines, since the text being
typed is seldom valid YAML: block mappings and sequences by their indentation, as written in
configuration files. Each question walks the lines of one document at most once.
"""

from __future__ import annotations

from typing import NamedTuple

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..load.source import SourceFile

MARKERS = ("---", "...")


def _is_marker(line: str) -> bool:
    return line.startswith(MARKERS) and line[3:4] in ("", " ", "\t")


def document_lines(lines: list[str], row: int) -> tuple[int, int]:
    """The first and last line (0-based, inclusive) of the document holding `row`, its markers excluded."""
    first = row
    while first > 0 and not _is_marker(lines[first - 1]):
        first -= 1
    last = row
    while last + 1 < len(lines) and not _is_marker(lines[last + 1]):
        last += 1
    return first, last


def _scalar(text: str) -> str:
    value = text.split(" #", 1)[0].strip()
    return value[1:-1] if len(value) > 1 and value[0] == value[-1] and value[0] in "'\"" else value


def header(lines: list[str], first: int, last: int) -> tuple[str | None, str | None]:
    """The apiVersion and kind a document's top-level lines give."""
    found: dict[str, str] = {}
    for line in lines[first : last + 1]:
        for key in ("apiVersion", "kind"):
            if line.startswith(key + ":"):
                found.setdefault(key, _scalar(line[len(key) + 1 :]))
    return found.get("apiVersion") or None, found.get("kind") or None


class Entry(NamedTuple):
    """A line of a block collection: its indentation, where its key starts, and the key (None: no `key:`)."""

    indent: int
    column: int  # of the key, after a `- `
    item: bool  # the line starts a sequence item
    key: str | None
    opens: bool  # the key's value starts on the next lines


def entry(line: str) -> Entry | None:
    """A line as an entry of a block collection; None for a blank line or a comment."""
    content = line.lstrip(" ")
    if not content or content.startswith("#"):
        return None
    indent = len(line) - len(content)
    item = content[:1] == "-" and content[1:2] in ("", " ", "\t")
    if item:
        inner = content[1:].lstrip(" \t")
        column, content = indent + len(content) - len(inner), inner
    else:
        column = indent
    key, colon, rest = content.partition(":")
    if not colon or (rest and rest[0] not in " \t") or not key.strip():
        return Entry(indent, column, item, None, False)
    rest = rest.split(" #", 1)[0].strip()
    return Entry(indent, column, item, key.strip().strip("'\""), rest in ("", "|", ">", "|-", ">-"))


def parents(lines: list[str], first: int, row: int, indent: int, item: bool) -> tuple:
    """The path of the mapping a key on line `row` belongs to: the line is indented by `indent` and may start a list item."""
    path: list = [0] if item else []
    want = indent
    in_sequence = item
    for number in range(row - 1, first - 1, -1):
        if want <= 0 and not in_sequence:
            break
        found = entry(lines[number])
        if found is None:
            continue
        if found.item:
            if in_sequence and found.indent == want:
                continue  # an earlier item of the same list
            if found.column == want and not in_sequence:
                path.insert(0, 0)  # the first line of the list item our mapping is in
                want, in_sequence = found.indent, True
            elif found.column < want and found.key is not None and found.opens:
                path[0:0] = [0, found.key]
                want, in_sequence = found.indent, True
            continue
        if found.indent < want or (in_sequence and found.indent == want):
            if found.key is None:
                break
            path.insert(0, found.key)
            want, in_sequence = found.indent, False
    return tuple(path)


def present_keys(lines: list[str], first: int, last: int, row: int, column: int) -> set[str]:
    """The keys of the mapping whose keys start at `column`, around line `row`."""
    keys: set[str] = set()
    for step in (-1, 1):
        number = row + step
        while first <= number <= last:
            found = entry(lines[number])
            number += step
            if found is None:
                continue
            if found.item and found.indent < column:
                if step < 0 and found.column == column and found.key:
                    keys.add(found.key)  # the first line of our list item
                break
            if found.column < column:
                break
            if found.column == column and found.key:
                keys.add(found.key)
    return keys


# --------------------------------------------------------------------------- composed nodes


def _contains(node: Node, offset: int, row: int, column: int) -> bool:
    start, end = node.start_mark, node.end_mark
    return (start.line + offset, start.column) <= (row, column) <= (end.line + offset, end.column)


def node_at(source: SourceFile, offsets: list[int], row: int, column: int) -> tuple[int, tuple, bool] | None:
    """(document position, path, on a key) of the field at a 0-based position, from the composed nodes."""
    for position, document in enumerate(source.documents):
        offset = offsets[position] if offsets else 0
        node = document.root
        if node is None or not _contains(node, offset, row, column):
            continue
        path: tuple = ()
        while True:
            if isinstance(node, MappingNode):
                for key, value in node.value:
                    name = key.value if isinstance(key, ScalarNode) else "?"
                    if _contains(key, offset, row, column):
                        return position, (*path, name), True
                    if _contains(value, offset, row, column):
                        path, node = (*path, name), value
                        break
                else:
                    return position, path, False
            elif isinstance(node, SequenceNode):
                for index, item in enumerate(node.value):
                    if _contains(item, offset, row, column):
                        path, node = (*path, index), item
                        break
                else:
                    return position, path, False
            else:
                return position, path, False
    return None
