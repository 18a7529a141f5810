"""Line and column of a path in a document: from its composed nodes, or from its span of the text.

Composed nodes take about 40 bytes per byte of text, so a large file keeps none
(source.KEEP_NODES_UP_TO). Each of its documents keeps a Span instead: where its text starts,
and where its root and top-level keys are. Findings at the top level (most of them) are placed
from that; a deeper one composes the document's span again, once, and checks that its root
lands where it did within the file.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..model import Anchor, Path
from .construct import PLAIN_TAG, NodeLoader

LINE_BREAK = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")  # what libyaml counts as one line break


class Locator:
    """Line and column of paths in one composed document.

    A mapping is indexed (its own keys, then the keys it merges) the first time a path passes
    through it, so each finding costs one look-up per path segment however wide the mapping is.
    """

    __slots__ = ("_indexes", "line_offset", "root")

    def __init__(self, root: Node, line_offset: int = 0) -> None:
        self.root = root
        self.line_offset = line_offset  # lines of the file before the text the root was composed from
        self._indexes: dict[int, dict[str, tuple[Node, Node]]] = {}

    def position(self, path: Path, anchor: Anchor = Anchor.VALUE) -> tuple[int, int]:
        """1-based line and column for a path: its value, its key, or the nearest enclosing node."""
        node = self.root
        for depth, segment in enumerate(path):
            key_node, child = self._lookup(node, segment)
            if child is None:
                # Missing: point at the enclosing object (its key if it has one).
                break
            last = depth == len(path) - 1
            if last and anchor is not Anchor.VALUE and key_node is not None:
                node = key_node
                break
            node = child
        mark = node.start_mark
        return mark.line + 1 + self.line_offset, mark.column + 1

    def lines_along(self, path: Path) -> list[int]:
        """The 1-based line of each key and list item along a path, outermost first, as far as the path exists."""
        lines = []
        node = self.root
        for segment in path:
            key_node, child = self._lookup(node, segment)
            if child is None:
                break
            lines.append((key_node or child).start_mark.line + 1 + self.line_offset)
            node = child
        return lines

    def _lookup(self, node: Node, segment: Any) -> tuple[Node | None, Node | None]:
        """The (key node, value node) for one path segment."""
        if isinstance(node, MappingNode) and isinstance(segment, str):
            return self._keys(node).get(segment, (None, None))
        if isinstance(node, SequenceNode) and isinstance(segment, int) and 0 <= segment < len(node.value):
            return None, node.value[segment]
        return None, None

    def _keys(self, node: MappingNode) -> dict[str, tuple[Node, Node]]:
        """Key -> (key node, value node): the last of a repeated key, a merged key only when not written."""
        index = self._indexes.get(id(node))
        if index is not None:
            return index
        index = self._indexes[id(node)] = {}  # registered first: a merge that leads back here stops
        own: dict[str, tuple[Node, Node]] = {}
        merges = []
        for key_node, value_node in node.value:
            if key_node.tag == PLAIN_TAG and key_node.value == "<<":
                merges.append(value_node)
            elif isinstance(key_node, ScalarNode):
                own[key_node.value] = (key_node, value_node)
        for merge in merges:
            for source in merge.value if isinstance(merge, SequenceNode) else [merge]:
                if isinstance(source, MappingNode):
                    for key, entry in self._keys(source).items():
                        index.setdefault(key, entry)
        index.update(own)
        return index


def position(root: Node, path: Path, anchor: Anchor = Anchor.VALUE) -> tuple[int, int]:
    """1-based line and column for one path (for many paths in a document, keep a Locator)."""
    return Locator(root).position(path, anchor)


# --------------------------------------------------------------------------- documents without nodes


class Span(NamedTuple):
    """Where a document's text is (from the start of the line after the previous document, past
    `...` and comment lines, to where the next one's span starts) and where its top level is."""

    start: int  # character offset
    line: int  # 0-based line of `start`
    root: tuple[int, int]  # 0-based line and column of the root node
    keys: dict[str, tuple[int, int, int, int]] | None  # top-level key -> its line, column and its value's; None: not a plain mapping


def span_of(root: Node, start: int, line: int) -> Span:
    keys: dict[str, tuple[int, int, int, int]] | None = None
    if root.__class__ is MappingNode:
        keys = {}
        for key_node, value_node in root.value:
            if key_node.tag == PLAIN_TAG and key_node.value == "<<":
                keys = None  # merged keys: placed by a Locator on the document composed again
                break
            if key_node.__class__ is ScalarNode:  # the last of a repeated key, as Locator has it
                key, value = key_node.start_mark, value_node.start_mark
                keys[key_node.value] = (key.line, key.column, value.line, value.column)
    mark = root.start_mark
    return Span(start, line, (mark.line, mark.column), keys)


def span_start(text: str, end: Any) -> tuple[int, int]:
    """(offset, line) of the first line after a document's root (end: its end mark) that a document
    can start on: past the rest of the root's last line and any blank, comment and "..." lines."""
    index, line = end.index, end.line
    if end.column:
        found = LINE_BREAK.search(text, index)
        if found is None:
            return len(text), line
        index, line = found.end(), line + 1
    while found := LINE_BREAK.search(text, index):
        if not _skipped(text, index, found.start()):
            break
        index, line = found.end(), line + 1
    return index, line


def _skipped(text: str, start: int, stop: int) -> bool:
    """Whether the line text[start:stop] is blank, a comment or a document end marker."""
    at = start
    while at < stop and text[at] in " \t":
        at += 1
    if at == stop or text[at] == "#":
        return True
    return text.startswith("...", start, stop) and (start + 3 == stop or text[start + 3] in " \t")


class SpanLocator:
    """Positions in a document whose nodes were not kept: the top level from its Span, deeper
    paths from the document composed again on first need."""

    __slots__ = ("_locator", "end", "position_in_file", "span", "text")

    def __init__(self, text: str, span: Span, end: int | None, position_in_file: int) -> None:
        self.text = text  # the file's text as composed
        self.span = span
        self.end = end  # where the next document's span starts (None: the end of the text)
        self.position_in_file = position_in_file
        self._locator: Locator | None = None

    @property
    def root(self) -> Node:
        """The document's root node, as Locator.root (composed again on first use)."""
        return self._composed().root

    def position(self, path: Path, anchor: Anchor = Anchor.VALUE) -> tuple[int, int]:
        """As Locator.position."""
        span = self.span
        if not path or (len(path) == 1 and span.keys is not None):
            entry = span.keys.get(path[0]) if path and isinstance(path[0], str) else None  # type: ignore[union-attr]
            if entry is None:  # the root, or a missing key: the enclosing object
                return span.root[0] + 1, span.root[1] + 1
            if anchor is not Anchor.VALUE:
                return entry[0] + 1, entry[1] + 1
            return entry[2] + 1, entry[3] + 1
        return self._composed().position(path, anchor)

    def lines_along(self, path: Path) -> list[int]:
        """As Locator.lines_along."""
        if len(path) == 1 and self.span.keys is not None:
            entry = self.span.keys.get(path[0]) if isinstance(path[0], str) else None
            return [] if entry is None else [entry[0] + 1]
        return self._composed().lines_along(path) if path else []

    def _composed(self) -> Locator:
        if self._locator is None:
            self._locator = self._compose()
        return self._locator

    def _compose(self) -> Locator:
        span = self.span
        try:
            root = _first_root(self.text[span.start : self.end])
        except (yaml.YAMLError, RecursionError):
            root = None
        if root is not None and (root.start_mark.line + span.line, root.start_mark.column) == span.root:
            return Locator(root, span.line)
        # The span did not compose as the document did within the file: compose the file up to it.
        loader = NodeLoader(self.text)
        try:
            for _document in range(self.position_in_file + 1):
                loader.check_node()
                root = loader.get_node()
            return Locator(root)
        finally:
            loader.dispose()


def _first_root(text: str) -> Node | None:
    loader = NodeLoader(text)
    try:
        return loader.get_node() if loader.check_node() else None
    finally:
        loader.dispose()
