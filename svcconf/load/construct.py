"""Composed YAML nodes to plain values, typed as the API server's YAML reader types them.

The server turns YAML into JSON with a YAML 1.1 reader (go-yaml v2), so `on`, `yes` and `y` are
booleans and `010` is octal there, while YAML 1.2 tools read them as strings or decimals. The
types below follow the server; scalars the two readings disagree on are remembered so that a
rule can point at them. libyaml (C) composes the nodes; a small builder converts them.
"""

from __future__ import annotations

import math
import re
from typing import Any, NamedTuple

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..model import Path, Severity

MAX_EXPANDED_NODES = 500_000  # nodes aliases may add to a file, beyond one per character of its text
# Bytes aliases may add to a file: each alias is a copy for every reader after the YAML one (the
# schema check, JSON output, the server's own YAML-to-JSON step), however few nodes it adds.
MAX_ALIAS_BYTES = 8 * 1024 * 1024
# Python refuses to print integers of more than 4,300 digits (converting them is quadratic); a
# number past this many bits (~3,000 digits) fits no Go numeric type and is read as infinite.
MAX_INTEGER_BITS = 10_000

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


PLAIN_TAG = "!svcconf-plain"  # a plain scalar whose type is decided when (and if) it is used
SEQ_TAG = "tag:yaml.org,2002:seq"
MAP_TAG = "tag:yaml.org,2002:map"

# Implicit types exactly as go-yaml v2 resolves plain scalars (no timestamps, no base 60).
_IMPLICIT = (
    (BOOL_TAG, re.compile("^(?:" + "|".join(_BOOLS) + ")$")),
    (NULL_TAG, re.compile(r"^(?:~|null|Null|NULL|)$")),
    (INT_TAG, re.compile(r"^[-+]?(?:0b[01_]+|0o[0-7_]+|0x[0-9a-fA-F_]+|0[0-7_]*|[1-9][0-9_]*)$")),
    (FLOAT_TAG, re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")),
    (MERGE_TAG, re.compile(r"^<<$")),
)
_PLAIN_CACHE: dict[str, str] = {}


def plain_tag(value: str) -> str:
    """The tag the server's reader gives a plain scalar (cached: values repeat a lot)."""
    tag = _PLAIN_CACHE.get(value)
    if tag is None:
        tag = STR_TAG
        if value[:1] in "-+0123456789.~<yYnNtTfFoO" or value == "":
            for candidate, pattern in _IMPLICIT:
                if pattern.match(value):
                    tag = candidate
                    break
        if len(_PLAIN_CACHE) < 100_000:
            _PLAIN_CACHE[value] = tag
    return tag


def integer_value(text: str) -> int | float | str:
    """An integer scalar as the server reads it: an int, +-inf past MAX_INTEGER_BITS, or the text when it is none."""
    digits = text.replace("_", "")
    sign = -1 if digits.startswith("-") else 1
    body = digits.lstrip("+-")
    try:
        value = int(body, 8 if len(body) > 1 and body[0] == "0" and body[1] in "01234567" else 0)
    except ValueError:
        if not body.isdigit():
            return text
        value = None  # a decimal past the digits Python converts
    if value is None or value.bit_length() > MAX_INTEGER_BITS:
        # The server reads it as a JSON number no field can hold: every typed field refuses it.
        return sign * math.inf
    return sign * value


class ServerResolver:
    """Defers the typing of plain scalars to the builder: keys and unused values never pay for it.

    libyaml asks the resolver for every node; answering with a constant is the cheapest answer.
    """

    def descend_resolver(self, current_node, current_index) -> None:
        pass

    def ascend_resolver(self) -> None:
        pass

    def resolve(self, kind, value, implicit):
        if kind is ScalarNode:
            return PLAIN_TAG if implicit[0] else STR_TAG
        return SEQ_TAG if kind is SequenceNode else MAP_TAG


try:
    from yaml.cyaml import CParser as _CParser
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    _CParser = None

if _CParser is not None:

    class NodeLoader(ServerResolver, _CParser):  # type: ignore[misc, valid-type]
        def __init__(self, stream: str) -> None:
            _CParser.__init__(self, stream)

else:  # pragma: no cover - only without libyaml

    class NodeLoader(  # type: ignore[no-redef]
        ServerResolver, yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, yaml.composer.Composer
    ):
        def __init__(self, stream: str) -> None:
            yaml.reader.Reader.__init__(self, stream)
            yaml.scanner.Scanner.__init__(self)
            yaml.parser.Parser.__init__(self)
            yaml.composer.Composer.__init__(self)


class KeyProblem(NamedTuple):
    """A problem found while building a document, placed at a node (duplicate keys, ambiguous scalars)."""

    rule: str
    path: Path
    message: str
    line: int
    column: int
    severity: Severity = Severity.ERROR


class AliasBomb(Exception):
    pass


class AliasTooLarge(Exception):
    """An alias whose expansion would take the file past MAX_ALIAS_BYTES; `node` is the anchored node (None: it holds itself)."""

    def __init__(self, node: Node, size: float) -> None:
        super().__init__(node)
        self.node, self.size = node, size


class Builder:
    """Turns composed nodes into plain JSON-like values, as the server's YAML-to-JSON step does.

    Paths are not tracked while building (that would cost a tuple per node); the rare nodes that
    need one (duplicate keys, ambiguous scalars) are remembered and placed afterwards.
    """

    __slots__ = ("ambiguous", "budget", "duplicates")

    def __init__(self, budget: int = MAX_EXPANDED_NODES) -> None:
        self.duplicates: list[tuple[Node, Node]] = []  # (mapping node, second key node)
        self.ambiguous: list[tuple[Node, Any]] = []
        self.budget = budget  # nodes left to build; the file's documents share one budget

    def build(self, node: Node) -> Any:
        cls = node.__class__
        if cls is ScalarNode:
            return self.scalar(node)
        if cls is MappingNode:
            return self.mapping(node)
        return [self.build(child) for child in node.value]

    def scalar(self, node: ScalarNode) -> Any:
        tag = node.tag
        text = node.value
        plain = tag == PLAIN_TAG
        if plain:
            tag = plain_tag(text)
        if tag == STR_TAG:
            return text
        if tag == NULL_TAG:
            return None
        if tag == BOOL_TAG:
            value = _BOOLS.get(text)
            if value is None:  # an explicit !!bool with an odd spelling
                return text
            if plain and text not in _YAML12_BOOLS:
                self.ambiguous.append((node, value))
            return value
        if tag == INT_TAG:
            return self.integer(node, text, plain)
        if tag == FLOAT_TAG:
            return _float(text)
        return text

    def integer(self, node: ScalarNode, text: str, plain: bool) -> Any:
        value = integer_value(text)
        if not isinstance(value, int):
            return value
        written = text.lstrip("+-")
        # YAML 1.2 reads plain decimals, 0x and 0o the same way, but 010, 0b1 and 1_000 differently.
        canonical = written.isdigit() and (written == "0" or written[0] != "0")
        if plain and not canonical and not written.startswith(("0x", "0o")):
            self.ambiguous.append((node, value))
        return value

    def mapping(self, node: MappingNode) -> dict:
        result: dict = {}
        merges = None
        nulls = None
        build = self.build
        for key_node, value_node in node.value:
            if key_node.__class__ is ScalarNode:
                key = key_node.value
                if key == "<<" and key_node.tag == PLAIN_TAG:
                    if merges is None:
                        merges = []
                    merges.append(value_node)
                    continue
            else:
                key = str(build(key_node))
            if key in result or (nulls is not None and key in nulls):
                self.duplicates.append((node, key_node))
            value = build(value_node)
            if value is None:
                # null is the zero value: the server treats the field as absent.
                result.pop(key, None)
                if nulls is None:
                    nulls = set()
                nulls.add(key)
            else:
                result[key] = value
        if merges:
            explicit = set(result) | (nulls or set())
            for merge in merges:
                for source in merge.value if merge.__class__ is SequenceNode else [merge]:
                    merged = build(source)
                    if isinstance(merged, dict):
                        for key, value in merged.items():
                            if key not in explicit:
                                result.setdefault(key, value)
        return result


class BudgetBuilder(Builder):
    """A Builder that counts the nodes it builds against the file's budget, and the bytes each alias
    copies against the file's byte budget before building it: for documents with anchors, the only
    ones that can expand through aliases."""

    __slots__ = ("built", "bytes_left", "copying", "sizes")

    def __init__(self, budget: int = MAX_EXPANDED_NODES, bytes_left: float = MAX_ALIAS_BYTES) -> None:
        super().__init__(budget)
        self.bytes_left = bytes_left  # bytes aliases may still add; the file's documents share them
        self.built: set[int] = set()  # nodes built once: meeting one again is an alias
        self.sizes: dict[int, float] = {}
        self.copying = 0  # > 0 while building an alias's copy, whose size was counted as a whole

    def build(self, node: Node) -> Any:
        self.budget -= 1
        if self.budget < 0:
            raise AliasBomb
        if self.copying:
            return Builder.build(self, node)
        key = id(node)
        if key not in self.built:
            self.built.add(key)
            return Builder.build(self, node)
        scalar = node.__class__ is ScalarNode
        size = len(node.value) + 1 if scalar else self.sizes.get(key) or expanded_size(node, self.sizes)
        self.bytes_left -= size
        if self.bytes_left < 0:
            raise AliasTooLarge(node, size)
        if scalar:  # a copy of a scalar holds no alias: nothing to count inside it
            return self.scalar(node)
        self.copying += 1
        try:
            return Builder.build(self, node)
        finally:
            self.copying -= 1


def expanded_size(root: Node, sizes: dict[int, float]) -> float:
    """About the bytes of JSON a node expands to, aliases followed (infinite for a node that holds itself).

    A scalar counts its text, every node one byte more; sizes of nodes met before are kept in `sizes`.
    Iterative: a deep document must not exhaust the stack here.
    """
    open_nodes: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if key in sizes:
            continue
        if node.__class__ is ScalarNode:
            sizes[key] = len(node.value) + 1
            continue
        children = [part for pair in node.value for part in pair] if node.__class__ is MappingNode else node.value
        if children_done:
            open_nodes.discard(key)
            sizes[key] = 1 + sum(sizes[id(child)] for child in children)
            continue
        if key in open_nodes:
            sizes[key] = math.inf  # reached again inside itself: it never ends
            continue
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in children if id(child) not in sizes)
    return sizes[id(root)]


_Link = tuple | None  # (parent link, segment): a path kept as a chain of its prefixes


def _paths_of(root: Node, wanted: set[int]) -> dict[int, Path]:
    """The path of each wanted node (by id), found by one walk of the tree.

    The walk links each node to its parent's entry and spells out a path only for a wanted node,
    so a deep document costs no more than a shallow one.
    """
    found: dict[int, Path] = {}
    stack: list[tuple[Node, _Link]] = [(root, None)]
    visited: set[int] = set()
    while stack and len(found) < len(wanted):
        node, link = stack.pop()
        if id(node) in wanted and id(node) not in found:
            found[id(node)] = _spelled(link)
        if id(node) in visited:
            continue
        visited.add(id(node))
        if node.__class__ is MappingNode:
            for key_node, value_node in node.value:
                child = (link, key_node.value if key_node.__class__ is ScalarNode else "?")
                if id(key_node) in wanted and id(key_node) not in found:
                    found[id(key_node)] = _spelled(child)
                stack.append((value_node, child))
        elif node.__class__ is SequenceNode:
            stack.extend((child, (link, i)) for i, child in enumerate(node.value))
    return found


def _spelled(link: _Link) -> Path:
    segments = []
    while link is not None:
        link, segment = link
        segments.append(segment)
    return tuple(reversed(segments))


def placed_problems(root: Node, builder: Builder) -> tuple[list[KeyProblem], list[tuple[Path, str, Any, int, int]]]:
    """Duplicate keys and ambiguous scalars with their paths and positions."""
    if not builder.duplicates and not builder.ambiguous:
        return [], []
    wanted = {id(key) for _m, key in builder.duplicates} | {id(node) for node, _v in builder.ambiguous}
    paths = _paths_of(root, wanted)
    problems = []
    for _mapping, key_node in builder.duplicates:
        mark = key_node.start_mark
        # A key that is itself a list or mapping is named "?", as in its path: its content is never quoted.
        name = key_node.value if key_node.__class__ is ScalarNode else "?"
        path = paths.get(id(key_node), (name,))
        problems.append(KeyProblem("duplicate-field", path, f'duplicate field "{name}"', mark.line + 1, mark.column + 1))
    ambiguous = []
    for node, value in builder.ambiguous:
        if id(node) in paths:
            mark = node.start_mark
            ambiguous.append((paths[id(node)], node.value, value, mark.line + 1, mark.column + 1))
    return problems, ambiguous


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
