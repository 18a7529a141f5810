"""Bytes to documents: decoding, composition with positions, and one diagnostic for a file that cannot be read.

Documents are composed by libyaml and built by `construct`; positions come from the composed
nodes only when a finding needs one. Nodes take about 40 bytes per byte of text: under validate a
large file keeps only its text, its values and each document's Span (see positions.py).
"""

from __future__ import annotations

import codecs
import gc
import math
from typing import Any, NamedTuple

import yaml
from yaml.nodes import Node

from ..model import Severity
from .construct import MAX_ALIAS_BYTES, MAX_EXPANDED_NODES, AliasBomb, AliasTooLarge, BudgetBuilder, Builder, NodeLoader, placed_problems
from .files import DEFAULT_MAX_FILE_SIZE
from .positions import Locator, Span, SpanLocator, position, span_of, span_start

__all__ = ["Document", "FileProblem", "Locator", "SourceFile", "decode", "load_bytes", "parse", "position", "too_large"]


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
    root: Node | None  # None when the file was too large to keep its nodes (then span is set)
    problems: list  # KeyProblem: duplicate keys
    ambiguous: list  # (path, written, value, line, column) of scalars YAML 1.2 reads differently
    span: Span | None = None  # where its text and top level are, for SourceFile.locator


class SourceFile:
    """A file's text, its documents, and what kept parts of it from being read."""

    __slots__ = ("composed", "documents", "name", "problems", "text")

    def __init__(self, name: str, text: str = "", problems: list[FileProblem] | None = None) -> None:
        self.name = name
        self.text = text
        self.documents: list[Document] = []
        self.problems: list[FileProblem] = problems or []
        self.composed: str | None = None  # the text as composed, when documents are composed again from it

    def locator(self, position: int) -> Locator | SpanLocator:
        """Positions in the document at `position`, from its nodes or, when they were not kept, from its span."""
        document = self.documents[position]
        if document.root is not None:
            return Locator(document.root)
        following = position + 1 < len(self.documents)
        end = self.documents[position + 1].span.start if following else None  # type: ignore[union-attr]
        return SpanLocator(self.composed or "", document.span, end, position)  # type: ignore[arg-type]


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


def too_large(max_size: int, size: int | None = None, names: str | None = None) -> FileProblem:
    """The problem of a file over the size limit; `size` is None for a stream read only up to the limit.

    `names`: an apiVersion of a group svcconf checks, found in the file's first bytes. Padding a
    failing configuration past the limit must not turn a run green, so such a file is an error.
    """
    what = f"file is {size:,} bytes, over" if size is not None else "file is over"
    if names is None:
        return FileProblem(
            "file-too-large", f"{what} the {max_size:,}-byte limit; not checked (see --max-file-size)", severity=Severity.WARNING
        )
    message = f"{what} the {max_size:,}-byte limit and names {names}, a group svcconf checks; not checked (see --max-file-size)"
    return FileProblem("file-too-large", message, severity=Severity.ERROR)


def leading_mark(text: str) -> str:
    """A byte-order mark still at the start of decoded text (a file's second one: decoding drops the
    first), or "". libyaml skips it without counting it, so its positions are one short of the text's."""
    return "\ufeff" if text.startswith("\ufeff") else ""


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


# Nodes of a file up to this many characters are kept (about 10 MB of them): most configuration
# files are smaller. A larger file keeps each document's Span (positions.py) instead, which places
# findings at the top level and composes a document again for a deeper one.
KEEP_NODES_UP_TO = 1 << 18


def _alias_too_large(text: str, large: AliasTooLarge, index: int) -> FileProblem:
    """The problem of an alias whose copy is too large, at its anchor (whose name the text holds: nodes keep none)."""
    mark = large.node.start_mark
    anchor = text[mark.index : mark.index + 1 + 64].split(None, 1)[0].split(",", 1)[0].rstrip("]}")
    anchor = anchor if anchor.startswith("&") else "the anchor"
    if large.size == math.inf:
        what = f"{anchor} holds an alias of itself: its value never ends"
    else:
        what = f"the aliases of {anchor} copy its {large.size:,.0f} bytes past the {MAX_ALIAS_BYTES:,} bytes aliases may add to a file"
    return FileProblem(
        "alias-expansion-too-large", f"{what}; document {index + 1} and any later documents are not checked", mark.line + 1, mark.column + 1
    )


def parse(name: str, text: str, *, json_like: bool = False, keep_nodes: bool = True) -> SourceFile:
    """Compose every document of a text, keeping those before a syntax error.

    With keep_nodes False, a text over KEEP_NODES_UP_TO characters keeps no nodes (Document.root
    is None): SourceFile.locator composes a document again when a finding needs its positions.
    """
    source = SourceFile(name, text)
    if json_like and "\t" in text:
        # JSON allows tabs as white space, YAML does not; inside JSON strings they must be escaped.
        text = text.replace("\t", " ")
    keep = keep_nodes or len(text) <= KEEP_NODES_UP_TO
    if not keep:
        source.composed = text
    loader = NodeLoader(text)
    guard_aliases = "&" in text
    # A document holds at most about one node per character of its text: what aliases add beyond
    # that is counted for the whole file, so many small expansions cannot add up without limit.
    budget = MAX_EXPANDED_NODES + len(text)
    alias_bytes: float = MAX_ALIAS_BYTES
    index = 0
    start, start_line = 0, 0  # where the span of the next document starts
    # Composition allocates many small containers and creates no reference cycles; the cyclic
    # collector would only rescan them (measured: ~10% of validate time on the bench corpus).
    collecting = gc.isenabled()
    gc.disable()
    try:
        while loader.check_node():
            root = loader.get_node()
            if root is None:  # pragma: no cover
                break
            # Only a document with anchors can expand through aliases; the others skip the count.
            builder = BudgetBuilder(budget, alias_bytes) if guard_aliases else Builder(budget)
            try:
                data = builder.build(root)
            except AliasTooLarge as large:
                source.problems.append(_alias_too_large(text, large, index))
                break
            except AliasBomb:
                source.problems.append(_alias_bomb(root, index))
                break
            budget = builder.budget
            alias_bytes = getattr(builder, "bytes_left", alias_bytes)
            problems, ambiguous = placed_problems(root, builder)
            if keep:
                source.documents.append(Document(index, data, root, problems, ambiguous))
            else:
                source.documents.append(Document(index, data, None, problems, ambiguous, span_of(root, start, start_line)))
                start, start_line = span_start(text, root.end_mark)
                root = builder = None  # freed before the next document is composed
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


def _alias_bomb(root: yaml.Node, index: int) -> FileProblem:
    mark = root.start_mark
    return FileProblem(
        "alias-expansion-limit",
        f"document {index + 1} expands through aliases past the file's limit "
        f"({MAX_EXPANDED_NODES:,} nodes beyond its size); it and any later documents are not checked",
        mark.line + 1,
        mark.column + 1,
    )


def load_bytes(name: str, data: bytes, *, max_size: int = DEFAULT_MAX_FILE_SIZE, keep_nodes: bool = True) -> SourceFile:
    text, problem = decode(name, data, max_size)
    if problem is not None:
        return SourceFile(name, problems=[problem])
    assert text is not None
    return parse(name, text, json_like=name.endswith(".json"), keep_nodes=keep_nodes)
