"""Bytes to documents: decoding, YAML composition with positions, and scalars read as the server reads them.

The server turns YAML into JSON with a YAML 1.1 reader (go-yaml v2), so `on`, `yes` and `y` are
booleans and `010` is octal there, while YAML 1.2 tools read them as strings or decimals. The
resolver below follows the server; scalars the two readings disagree on are remembered so that a
rule can point at them. Documents are composed with libyaml (C) and converted by a small
constructor; positions come from the composed nodes only when a finding needs one.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .model import Anchor, Path, Severity

DEFAULT_MAX_FILE_SIZE = 8 * 1024 * 1024
# An alias may expand a document to at most this many nodes (the "billion laughs" guard).
MAX_EXPANDED_NODES = 500_000

_BOOL_TRUE = ("y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON")
_BOOL_FALSE = ("n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF")
_BOOLS = {**{s: True for s in _BOOL_TRUE}, **{s: False for s in _BOOL_FALSE}}
_YAML12_BOOLS = frozenset(("true", "True", "TRUE", "false", "False", "FALSE"))

INT_TAG = "tag:yaml.org,2002:int"
FLOAT_TAG = "tag:yaml.org,2002:float"
BOOL_TAG = "tag:yaml.org,2002:bool"
NULL_TAG = "tag:yaml.org,2002:null"
STR_TAG = "tag:yaml.org,2002:str"
MERGE_TAG = "tag:yaml.org,2002:merge"


class ServerResolver(yaml.resolver.BaseResolver):
    """Implicit types exactly as go-yaml v2 resolves plain scalars (no timestamps, no base 60)."""


for _tag, _pattern, _first in (
    (BOOL_TAG, "|".join(_BOOLS), "yYnNtTfFoO"),
    (NULL_TAG, r"~|null|Null|NULL|", ["~", "n", "N", ""]),
    (INT_TAG, r"[-+]?(?:0b[01_]+|0o[0-7_]+|0x[0-9a-fA-F_]+|0[0-7_]*|[1-9][0-9_]*)", "-+0123456789"),
    (FLOAT_TAG, r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)", "-+0123456789."),
    (MERGE_TAG, r"<<", "<"),
):
    ServerResolver.add_implicit_resolver(_tag, re.compile(rf"^(?:{_pattern})$"), list(_first))


try:
    from yaml.cyaml import CParser as _CParser
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    _CParser = None

if _CParser is not None:

    class NodeLoader(_CParser, ServerResolver):  # type: ignore[misc, valid-type]
        def __init__(self, stream: str) -> None:
            _CParser.__init__(self, stream)
            ServerResolver.__init__(self)

else:  # pragma: no cover - only without libyaml

    class NodeLoader(  # type: ignore[no-redef]
        yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, yaml.composer.Composer, ServerResolver
    ):
        def __init__(self, stream: str) -> None:
            yaml.reader.Reader.__init__(self, stream)
            yaml.scanner.Scanner.__init__(self)
            yaml.parser.Parser.__init__(self)
            yaml.composer.Composer.__init__(self)
            ServerResolver.__init__(self)


@dataclass(frozen=True)
class FileProblem:
    """A problem with a whole file or with its YAML syntax: one diagnostic, at a position."""

    rule: str
    message: str
    line: int = 1
    column: int = 1
    severity: Severity = Severity.ERROR


@dataclass(frozen=True)
class KeyProblem:
    """A problem found while building a document, placed at a node (duplicate keys, ambiguous scalars)."""

    rule: str
    path: Path
    message: str
    line: int
    column: int
    severity: Severity = Severity.ERROR


@dataclass
class Document:
    index: int
    data: Any
    root: Node
    problems: list[KeyProblem] = field(default_factory=list)
    ambiguous: list[tuple[Path, str, Any, int, int]] = field(default_factory=list)


@dataclass
class SourceFile:
    name: str
    text: str = ""
    documents: list[Document] = field(default_factory=list)
    problems: list[FileProblem] = field(default_factory=list)


class AliasBomb(Exception):
    pass


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


def decode(name: str, data: bytes, max_size: int = DEFAULT_MAX_FILE_SIZE) -> tuple[str | None, FileProblem | None]:
    """Decode file bytes to text, or explain in one problem why the file cannot be read."""
    if len(data) > max_size:
        return None, FileProblem(
            "file-too-large",
            f"file is {len(data):,} bytes, over the {max_size:,}-byte limit; not checked (see --max-file-size)",
            severity=Severity.WARNING,
        )
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom) :].decode(encoding), None
            except UnicodeDecodeError as err:
                return None, FileProblem("encoding-error", f"file starts with a {encoding} byte-order mark but is not valid {encoding}: {err.reason}")
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


# --------------------------------------------------------------------------- construction


class _Builder:
    """Turns composed nodes into plain JSON-like values, as the server's YAML-to-JSON step does."""

    __slots__ = ("problems", "ambiguous", "expanded", "sizes")

    def __init__(self) -> None:
        self.problems: list[KeyProblem] = []
        self.ambiguous: list[tuple[Path, str, Any, int, int]] = []
        self.expanded = 0
        self.sizes: dict[int, int] = {}

    def build(self, node: Node, path: Path) -> Any:
        seen = self.sizes.get(id(node))
        if seen is not None:
            # An alias: expanding it costs as much as the node it names.
            self.expanded += seen
            if self.expanded > MAX_EXPANDED_NODES:
                raise AliasBomb
        start = self.expanded
        self.expanded += 1
        if node.__class__ is ScalarNode:
            value = self.scalar(node, path)
        elif node.__class__ is MappingNode:
            value = self.mapping(node, path)
        elif node.__class__ is SequenceNode:
            value = [self.build(child, path + (i,)) for i, child in enumerate(node.value)]
        else:  # pragma: no cover - composer only yields the three kinds
            value = None
        if node.__class__ is not ScalarNode:
            self.sizes[id(node)] = self.expanded - start
            if self.expanded > MAX_EXPANDED_NODES:
                raise AliasBomb
        return value

    def scalar(self, node: ScalarNode, path: Path) -> Any:
        tag = node.tag
        text = node.value
        if tag == STR_TAG:
            return text
        plain = not node.style  # None from the Python parser, "" from libyaml
        if tag == NULL_TAG:
            return None
        if tag == BOOL_TAG:
            value = _BOOLS.get(text)
            if value is None:  # an explicit !!bool with odd spelling
                return text
            if plain and text not in _YAML12_BOOLS:
                self.note_ambiguous(node, path, value)
            return value
        if tag == INT_TAG:
            return self.integer(node, path, text, plain)
        if tag == FLOAT_TAG:
            return _float(text)
        return text

    def integer(self, node: ScalarNode, path: Path, text: str, plain: bool) -> Any:
        digits = text.replace("_", "")
        sign = -1 if digits.startswith("-") else 1
        body = digits.lstrip("+-")
        try:
            if len(body) > 1 and body[0] == "0" and body[1] in "01234567_":
                value = sign * int(body, 8)
            else:
                value = sign * int(body, 0)
        except ValueError:
            return text
        written = text.lstrip("+-")
        # YAML 1.2 reads 0x and 0o the same way, but 010, 0b1 and 1_000 differently.
        if plain and written != str(abs(value)) and not written.startswith(("0x", "0o")):
            self.note_ambiguous(node, path, value)
        return value

    def note_ambiguous(self, node: ScalarNode, path: Path, value: Any) -> None:
        mark = node.start_mark
        self.ambiguous.append((path, node.value, value, mark.line + 1, mark.column + 1))

    def mapping(self, node: MappingNode, path: Path) -> dict:
        result: dict = {}
        merges = []
        seen_at: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == MERGE_TAG:
                merges.append(value_node)
                continue
            key = key_node.value if key_node.__class__ is ScalarNode else str(self.build(key_node, path))
            if key in seen_at:
                mark = key_node.start_mark
                self.problems.append(
                    KeyProblem("duplicate-field", path + (key,), f'duplicate field "{key}"', mark.line + 1, mark.column + 1)
                )
            seen_at[key] = key_node
            value = self.build(value_node, path + (key,))
            if value is None:
                result.pop(key, None)  # null is the zero value: the server treats it as absent
            else:
                result[key] = value
        for merge in merges:
            sources = merge.value if merge.__class__ is SequenceNode else [merge]
            for source in sources:
                merged = self.build(source, path)
                if isinstance(merged, dict):
                    for key, value in merged.items():
                        if key not in seen_at:
                            result.setdefault(key, value)
        return result


def _float(text: str) -> float | str:
    lowered = text.lower()
    if lowered.endswith("inf"):
        return float("-inf") if lowered.startswith("-") else float("inf")
    if lowered == ".nan":
        return float("nan")
    try:
        return float(text)
    except ValueError:
        return text


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
    index = 0
    try:
        while loader.check_node():
            root = loader.get_node()
            if root is None:  # pragma: no cover
                break
            builder = _Builder()
            try:
                data = builder.build(root, ())
            except AliasBomb:
                mark = root.start_mark
                source.problems.append(
                    FileProblem(
                        "alias-expansion-limit",
                        f"document {index + 1} expands through aliases to more than {MAX_EXPANDED_NODES:,} nodes; not checked",
                        mark.line + 1,
                        mark.column + 1,
                    )
                )
                index += 1
                continue
            source.documents.append(Document(index, data, root, builder.problems, builder.ambiguous))
            index += 1
    except yaml.YAMLError as err:
        source.problems.append(_syntax_problem(err, text))
    except RecursionError:
        source.problems.append(FileProblem("yaml-syntax", "nesting is too deep to read"))
    finally:
        loader.dispose()
    return source


def load_bytes(name: str, data: bytes, *, max_size: int = DEFAULT_MAX_FILE_SIZE) -> SourceFile:
    text, problem = decode(name, data, max_size)
    if problem is not None:
        return SourceFile(name, problems=[problem])
    assert text is not None
    return parse(name, text, json_like=name.endswith(".json"))


# --------------------------------------------------------------------------- positions


def _lookup(node: Node, segment: Any) -> tuple[Node | None, Node | None]:
    """The (key node, value node) for one path segment, following merge keys."""
    if isinstance(node, MappingNode) and isinstance(segment, str):
        found: tuple[Node | None, Node | None] = (None, None)
        merges = []
        for key_node, value_node in node.value:
            if key_node.tag == MERGE_TAG:
                merges.append(value_node)
            elif isinstance(key_node, ScalarNode) and key_node.value == segment:
                found = (key_node, value_node)
        if found[0] is not None:
            return found
        for merge in merges:
            for source in merge.value if isinstance(merge, SequenceNode) else [merge]:
                key_node, value_node = _lookup(source, segment)
                if value_node is not None:
                    return key_node, value_node
    elif isinstance(node, SequenceNode) and isinstance(segment, int) and 0 <= segment < len(node.value):
        return None, node.value[segment]
    return None, None


def position(root: Node, path: Path, anchor: Anchor = Anchor.VALUE) -> tuple[int, int]:
    """1-based line and column for a path: its value, its key, or the nearest enclosing node."""
    node = root
    key_node = None
    for depth, segment in enumerate(path):
        key_node, child = _lookup(node, segment)
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
