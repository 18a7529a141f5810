"""Bytes to documents: decoding, composition with positions, and one diagnostic for a file that cannot be read.

Documents are composed by libyaml and built by `construct`; positions come from the composed
nodes only when a finding needs one.
"""

from __future__ import annotations

import codecs
import gc
from typing import Any, NamedTuple

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .construct import MAX_EXPANDED_NODES, PLAIN_TAG, AliasBomb, Builder, NodeLoader, placed_problems
from .model import Anchor, Path, Severity
from .options import DEFAULT_MAX_FILE_SIZE


class FileProblem(NamedTuple):
    """A problem with a whole file or with its YAML syntax: one diagnostic, at a position."""

    rule: str
    message: str
    line: int = 1
    column: int = 1
    severity: Severity = Severity.ERROR


class Document(NamedTuple):
    index: int
    data: Any
    root: Node
    problems: list  # KeyProblem: duplicate keys
    ambiguous: list  # (path, written, value, line, column) of scalars YAML 1.2 reads differently


class SourceFile:
    """A file's text, its documents, and what kept parts of it from being read."""

    __slots__ = ("documents", "name", "problems", "text")

    def __init__(self, name: str, text: str = "", problems: list[FileProblem] | None = None) -> None:
        self.name = name
        self.text = text
        self.documents: list[Document] = []
        self.problems: list[FileProblem] = problems or []


# --------------------------------------------------------------------------- decoding

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def _line_col_of_offset(data: bytes, offset: int) -> tuple[int, int]:
    line = data.count(b"\n", 0, offset) + 1
    start = data.rfind(b"\n", 0, offset) + 1
    return line, offset - start + 1


def too_large(max_size: int, size: int | None = None) -> FileProblem:
    """The problem of a file over the size limit; `size` is None for a stream read only up to the limit."""
    what = f"file is {size:,} bytes, over" if size is not None else "file is over"
    return FileProblem(
        "file-too-large", f"{what} the {max_size:,}-byte limit; not checked (see --max-file-size)", severity=Severity.WARNING
    )


def decode(name: str, data: bytes, max_size: int = DEFAULT_MAX_FILE_SIZE) -> tuple[str | None, FileProblem | None]:
    """Decode file bytes to text, or explain in one problem why the file cannot be read."""
    if len(data) > max_size:
        return None, too_large(max_size, len(data))
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom) :].decode(encoding), None
            except UnicodeDecodeError as err:
                return None, FileProblem(
                    "encoding-error", f"file starts with a {encoding} byte-order mark but is not valid {encoding}: {err.reason}"
                )
    nul = data.find(b"\0", 0, 8192)
    if nul >= 0:
        return None, FileProblem("binary-file", f"binary content (NUL byte at offset {nul}); not YAML or JSON")
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as err:
        line, col = _line_col_of_offset(data, err.start)
        return None, FileProblem(
            "encoding-error",
            f"not valid UTF-8 (byte 0x{data[err.start]:02x} at offset {err.start}); save the file as UTF-8",
            line,
            col,
        )


# --------------------------------------------------------------------------- loading


def _syntax_problem(err: yaml.YAMLError, text: str) -> FileProblem:
    mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
    problem = getattr(err, "problem", None) or str(err)
    context = getattr(err, "context", None)
    message = f"{context}: {problem}" if context else str(problem)
    if mark is None:
        return FileProblem("yaml-syntax", message)
    lines = text.splitlines()
    if mark.line < len(lines) and lines[mark.line][mark.column : mark.column + 1] == "\t":
        message += " (a tab: YAML does not allow tabs for indentation)"
    return FileProblem("yaml-syntax", message, mark.line + 1, mark.column + 1)


def parse(name: str, text: str, *, json_like: bool = False) -> SourceFile:
    """Compose every document of a text, keeping those before a syntax error."""
    source = SourceFile(name, text)
    if json_like and "\t" in text:
        # JSON allows tabs as white space, YAML does not; inside JSON strings they must be escaped.
        text = text.replace("\t", " ")
    loader = NodeLoader(text)
    guard_aliases = "&" in text
    # A document holds at most about one node per character of its text: what aliases add beyond
    # that is counted for the whole file, so many small expansions cannot add up without limit.
    budget = MAX_EXPANDED_NODES + len(text)
    index = 0
    # Composition allocates many small containers and creates no reference cycles; the cyclic
    # collector would only rescan them (measured: ~10% of validate time on the bench corpus).
    collecting = gc.isenabled()
    gc.disable()
    try:
        while loader.check_node():
            root = loader.get_node()
            if root is None:  # pragma: no cover
                break
            builder = Builder(guard_aliases, budget)
            try:
                data = builder.build(root)
            except AliasBomb:
                mark = root.start_mark
                source.problems.append(
                    FileProblem(
                        "alias-expansion-limit",
                        f"document {index + 1} expands through aliases past the file's limit "
                        f"({MAX_EXPANDED_NODES:,} nodes beyond its size); it and any later documents are not checked",
                        mark.line + 1,
                        mark.column + 1,
                    )
                )
                break
            budget = builder.budget
            problems, ambiguous = placed_problems(root, builder)
            source.documents.append(Document(index, data, root, problems, ambiguous))
            index += 1
    except yaml.YAMLError as err:
        source.problems.append(_syntax_problem(err, text))
    except RecursionError:
        source.problems.append(FileProblem("yaml-syntax", "nesting is too deep to read"))
    finally:
        loader.dispose()
        if collecting:
            gc.enable()
    return source


def load_bytes(name: str, data: bytes, *, max_size: int = DEFAULT_MAX_FILE_SIZE) -> SourceFile:
    text, problem = decode(name, data, max_size)
    if problem is not None:
        return SourceFile(name, problems=[problem])
    assert text is not None
    return parse(name, text, json_like=name.endswith(".json"))


# --------------------------------------------------------------------------- positions


class Locator:
    """Line and column of paths in one composed document.

    A mapping is indexed (its own keys, then the keys it merges) the first time a path passes
    through it, so each finding costs one look-up per path segment however wide the mapping is.
    """

    __slots__ = ("_indexes", "root")

    def __init__(self, root: Node) -> None:
        self.root = root
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
        return mark.line + 1, mark.column + 1

    def lines_along(self, path: Path) -> list[int]:
        """The 1-based line of each key and list item along a path, outermost first, as far as the path exists."""
        lines = []
        node = self.root
        for segment in path:
            key_node, child = self._lookup(node, segment)
            if child is None:
                break
            lines.append((key_node or child).start_mark.line + 1)
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
