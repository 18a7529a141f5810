"""Why a document cannot be converted safely: its text and its data disagree, or a reader would fail on it.

migrate reads a document twice, as plain data (to plan) and with ruamel (to rewrite), and YAML
readers differ on duplicate keys, on explicit tags and on how deep they can nest. A document
that would make them disagree is reported and its file left unchanged instead of converted.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..load.construct import (
    BOOL_TAG,
    FLOAT_TAG,
    INT_TAG,
    MAP_TAG,
    MAX_INTEGER_BITS,
    NULL_TAG,
    PLAIN_TAG,
    SEQ_TAG,
    STR_TAG,
    integer_value,
    plain_tag,
)
from ..load.source import Document
from ..model import Path

# Nested maps and lists, counting through aliases. Real configuration files stay far below; the
# readers and the conversion recurse once per level and must not run out of stack.
MAX_DEPTH = 100

# An explicit scalar tag is standard when the value reads as that type without it, so that
# every reader (the server's, PyYAML, ruamel) gives the same value.
_TYPED = {INT_TAG: (INT_TAG,), FLOAT_TAG: (FLOAT_TAG, INT_TAG), BOOL_TAG: (BOOL_TAG,), NULL_TAG: (NULL_TAG,)}
_TYPE_NAMES = {INT_TAG: "an integer", FLOAT_TAG: "a number", BOOL_TAG: "a boolean", NULL_TAG: "null"}


class Blocker(NamedTuple):
    """Where and why a document is left unconverted."""

    line: int
    column: int
    path: Path
    reason: str


def shown(text: str, limit: int = 40) -> str:
    """A value from the input quoted for a message, shortened (reports escape what cannot be printed)."""
    cut = text if len(text) <= limit else text[:limit] + "..."
    return '"' + cut.replace("\\", "\\\\").replace('"', '\\"') + '"'


def read_blocker(document: Document) -> Blocker | None:
    """Duplicate keys or nesting too deep: the plan cannot trust the document's data (checked before planning)."""
    for problem in document.problems:
        if problem.rule == "duplicate-field":
            reason = (
                f"{problem.message}: YAML readers disagree on which value counts, so a conversion could change"
                " one while the file keeps the other; remove the duplicate, then run migrate again"
            )
            return Blocker(problem.line, problem.column, problem.path, reason)
    deep = _too_deep(document.root)
    if deep is not None:
        node, path = deep
        reason = f"nested more than {MAX_DEPTH} levels deep; migrate converts documents up to that depth"
        return Blocker(node.start_mark.line + 1, node.start_mark.column + 1, path, reason)
    return None


def tag_blocker(nodes: Iterator[tuple[Node, Path]]) -> Blocker | None:
    """The first node whose explicit tag readers do not agree on (`!!omap`, `!!binary`, `!custom`, `!!int 1e5`)."""
    for node, path in nodes:
        reason = _tag_problem(node)
        if reason is not None:
            return Blocker(node.start_mark.line + 1, node.start_mark.column + 1, path, reason)
    return None


def nodes(root: Node) -> Iterator[tuple[Node, Path]]:
    """Every node of a document once (an aliased node at its first path), keys included."""
    seen: set[int] = set()
    stack: list[tuple[Node, Path]] = [(root, ())]
    while stack:
        node, path = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        yield node, path
        if isinstance(node, MappingNode):
            for key, value in reversed(node.value):
                name = key.value if isinstance(key, ScalarNode) else "?"
                stack.append((value, (*path, name)))
                stack.append((key, (*path, name)))
        elif isinstance(node, SequenceNode):
            stack.extend((child, (*path, index)) for index, child in reversed(list(enumerate(node.value))))


# The fewest characters of an integer past MAX_INTEGER_BITS (hexadecimal: 4 bits a digit).
_HUGE_INTEGER_LENGTH = MAX_INTEGER_BITS // 4


def _tag_problem(node: Node) -> str | None:
    tag = node.tag
    if isinstance(node, ScalarNode):
        if len(node.value) > _HUGE_INTEGER_LENGTH and _huge_integer(node):
            # The plan reads it as infinite (as the server does) and ruamel as an integer Python cannot print.
            return f"the number {shown(node.value)} ({len(node.value)} characters) is larger than any field holds; correct it"
        if tag in (PLAIN_TAG, STR_TAG):
            return None
        if tag in _TYPED:
            if plain_tag(node.value) in _TYPED[tag]:
                return None
            return f"{_short(tag)} {shown(node.value)} is not {_TYPE_NAMES[tag]} YAML readers agree on; write the value without the tag"
    elif tag == (MAP_TAG if isinstance(node, MappingNode) else SEQ_TAG):
        return None
    return f"the tag {_short(tag)} has no JSON equivalent and YAML readers treat it differently; write the value without it"


def _huge_integer(node: ScalarNode) -> bool:
    tag = plain_tag(node.value) if node.tag == PLAIN_TAG else node.tag
    return tag == INT_TAG and isinstance(integer_value(node.value), float)


def _short(tag: str) -> str:
    prefix = "tag:yaml.org,2002:"
    return "!!" + tag[len(prefix) :] if tag.startswith(prefix) else tag


def _too_deep(root: Node) -> tuple[Node, Path] | None:
    """The first node found deeper than MAX_DEPTH (following aliases), with its path.

    A node is walked again only when reached deeper than before, so the work stays within
    MAX_DEPTH walks of the document even when aliases share nodes; paths are built only once a
    node too deep is known to exist.
    """
    if not _deeper_than_limit(root):
        return None
    deepest: dict[int, int] = {}
    stack: list[tuple[Node, int, Path]] = [(root, 0, ())]
    while stack:
        node, depth, path = stack.pop()
        if deepest.get(id(node), -1) >= depth:
            continue
        deepest[id(node)] = depth
        for child, segment in _children(node):
            if depth == MAX_DEPTH:
                return child, (*path, segment)
            stack.append((child, depth + 1, (*path, segment)))
    return None  # pragma: no cover - _deeper_than_limit found one


def _deeper_than_limit(root: Node) -> bool:
    deepest: dict[int, int] = {}
    stack: list[tuple[Node, int]] = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        if node.__class__ is ScalarNode or deepest.get(id(node), -1) >= depth:
            continue
        deepest[id(node)] = depth
        if node.__class__ is MappingNode:
            children = [value for key, value in node.value] + [key for key, _value in node.value if key.__class__ is not ScalarNode]
        else:
            children = node.value
        if depth == MAX_DEPTH and children:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def _children(node: Node) -> list[tuple[Node, str | int]]:
    """The nodes one level below (values, and keys that are maps or lists) with their path segments."""
    if isinstance(node, MappingNode):
        out: list[tuple[Node, str | int]] = []
        for key, value in node.value:
            name = key.value if isinstance(key, ScalarNode) else "?"
            out.append((value, name))
            if not isinstance(key, ScalarNode):
                out.append((key, name))
        return out
    if isinstance(node, SequenceNode):
        return list(zip(node.value, range(len(node.value))))
    return []
