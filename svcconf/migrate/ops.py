"""Small edit operations on a document's mappings that keep key order and the comments of moved keys.

Every operation works on plain dicts (to plan a conversion cheaply) and on ruamel round-trip
maps (to rewrite it): comments exist only on the latter and are carried along where they exist.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any, NamedTuple

from ..model import Path

STAR = "*"


class Review(NamedTuple):
    """A reason a document cannot be converted without a person deciding: field, reason, what to do."""

    path: Path
    reason: str
    todo: str
    unsafe_fix: bool = False  # --unsafe applies a documented best-effort conversion
    warn: bool = True  # False: reported as info (the document still works as it is)


class Note(NamedTuple):
    """Something a conversion did that the user should know: a pinned default, a dropped field."""

    path: Path
    text: str
    dropped: tuple = ()  # leaf values that no longer appear in the output
    warn: bool = False  # behaviour may differ: reported as a warning


class Added(NamedTuple):
    """A document a conversion appends to the file: its kind, and the fields moved into it, as written."""

    kind: str
    moved: tuple[tuple[Path, Path], ...]  # (path in the new document, path in the converted one)


class Context:
    """What an operation sees besides its document: siblings, notes, comment fixes, the target release."""

    def __init__(self, target: tuple, unsafe: bool = False, siblings: list | None = None) -> None:
        self.target = target
        self.unsafe = unsafe
        self.siblings = siblings or []  # (kind, data) of the other documents being converted in this file
        self.stash: dict[str, Any] = {}  # values carried between documents of one file
        self.notes: list[Note] = []
        self.comment_fixes: list[tuple[str, str, int, str]] = []  # (comment text, "gap"|"column", n, key on its line or "")
        self.lines: list[str] = []  # source lines of the document being rewritten (comment columns)
        self.added: list[Added] = []  # documents to append to the file
        self.can_add = False  # the file can take another document (a YAML file; the object is a whole document)

    def note(self, path: Path, text: str, dropped: tuple = (), warn: bool = False) -> None:
        self.notes.append(Note(tuple(path), text, tuple(dropped), warn))


# --------------------------------------------------------------------------- maps of either kind


def round_trip(node: Any) -> bool:
    return hasattr(node, "ca")


def new_map(like: Any, items: list | None = None, flow: bool = False) -> dict:
    if round_trip(like):
        from ruamel.yaml.comments import CommentedMap

        made = CommentedMap(items or [])
        if flow:
            made.fa.set_flow_style()
        return made
    return dict(items or [])


def new_seq(like: Any, items: list | None = None, flow: bool = False) -> list:
    if round_trip(like):
        from ruamel.yaml.comments import CommentedSeq

        made = CommentedSeq(items or [])
        if flow:
            made.fa.set_flow_style()
        return made
    return list(items or [])


def is_flow(node: Any) -> bool:
    return round_trip(node) and node.fa.flow_style() is True


def insert(mapping: dict, position: int, key: str, value: Any) -> None:
    """Put key at position (keys after it shift), keeping order in plain dicts too."""
    mapping.pop(key, None)
    if round_trip(mapping):
        mapping.insert(min(position, len(mapping)), key, value)
        return
    items = list(mapping.items())
    items.insert(min(position, len(items)), (key, value))
    mapping.clear()
    mapping.update(items)


def index_of(mapping: dict, key: str) -> int:
    return list(mapping).index(key) if key in mapping else len(mapping)


def insert_after(mapping: dict, after: str | tuple, key: str, value: Any) -> None:
    """Insert key right after the first existing key of `after` (else at the end)."""
    anchors = (after,) if isinstance(after, str) else after
    for anchor in anchors:
        if anchor in mapping:
            insert(mapping, index_of(mapping, anchor) + 1, key, value)
            return
    insert(mapping, len(mapping), key, value)


def comment_of(mapping: dict, key: str) -> Any:
    if round_trip(mapping):
        return mapping.ca.items.get(key)
    return None


def set_comment(mapping: dict, key: str, comment: Any, ctx: Context | None = None, policy: tuple | None = None) -> None:
    """Attach a key's comment entry; policy ("gap"|"column", n) tells the emitter where it goes."""
    if comment is None or not round_trip(mapping):
        return
    mapping.ca.items[key] = comment
    token = comment[2] if len(comment) > 2 else None
    if ctx is not None and policy is not None and token is not None:
        ctx.comment_fixes.append((token.value.split("\n", 1)[0].strip(), policy[0], policy[1], ""))


def pop(mapping: dict, key: str) -> tuple[Any, Any]:
    """Remove a key: (value, its comment entry)."""
    comment = mapping.ca.items.pop(key, None) if round_trip(mapping) else None
    return mapping.pop(key), comment


def rename(mapping: dict, old: str, new: str, ctx: Context | None = None) -> None:
    """Rename a key in place: same position, same value, same comment (a scalar's comment keeps its gap)."""
    if old not in mapping:
        return
    position = index_of(mapping, old)
    same_line = not isinstance(mapping[old], (dict, list)) or is_flow(mapping[old])
    gap = comment_gap(mapping, old, ctx) if ctx is not None and same_line else None
    value, comment = pop(mapping, old)
    insert(mapping, position, new, value)
    set_comment(mapping, new, comment, ctx, ("gap", gap) if gap is not None else None)


def keep_gaps(node: Any, ctx: Context) -> None:
    """Comments inside a subtree that moved to another depth keep their distance from the text before them."""
    stack = [node]
    while stack:
        current = stack.pop()
        if not round_trip(current):
            continue
        for entry in current.ca.items.values():
            for token in entry if isinstance(entry, list) else [entry]:
                if token is None or isinstance(token, list) or not hasattr(token, "start_mark"):
                    continue
                line_no, column = token.start_mark.line, token.start_mark.column
                if line_no < len(ctx.lines) and not token.value.startswith("\n"):
                    before = ctx.lines[line_no][:column]
                    if before.strip():
                        ctx.comment_fixes.append((token.value.split("\n", 1)[0].strip(), "gap", len(before) - len(before.rstrip()), ""))
        stack.extend(current.values() if isinstance(current, dict) else current)


def comment_gap(mapping: dict, key: str, ctx: Context, lines: list[str] | None = None) -> int | None:
    """Spaces between a scalar's end and its end-of-line comment in the source (None: unknown)."""
    comment = comment_of(mapping, key)
    if not comment or len(comment) < 3 or comment[2] is None:
        return None
    token = comment[2]
    lines = ctx.lines if lines is None else lines
    line = lines[token.start_mark.line] if token.start_mark.line < len(lines) else ""
    before = line[: token.start_mark.column]
    return len(before) - len(before.rstrip())


def move(src: dict, key: str, dst: dict, new_key: str, ctx: Context, position: int | None = None, keep: str = "gap") -> None:
    """Move a key (value and comment) to another map; the comment keeps its gap (or column)."""
    gap = comment_gap(src, key, ctx)
    value, comment = pop(src, key)
    insert(dst, len(dst) if position is None else position, new_key, value)
    policy = None
    if comment is not None and len(comment) > 2 and comment[2] is not None:
        policy = ("gap", gap if gap is not None else 1) if keep == "gap" else ("column", comment[2].start_mark.column)
    set_comment(dst, new_key, comment, ctx, policy)
    if isinstance(value, (dict, list)):
        keep_gaps(value, ctx)


def walk(node: Any, path: Path) -> Iterator[tuple[Path, Any]]:
    """Every (concrete path, node) matching a path whose segments may be `*` (each list item or map value)."""
    if not path:
        yield (), node
        return
    head, rest = path[0], path[1:]
    if head == STAR:
        if isinstance(node, list):
            for index, item in enumerate(node):
                for sub, found in walk(item, rest):
                    yield (index, *sub), found
        elif isinstance(node, dict):
            for key, item in list(node.items()):
                for sub, found in walk(item, rest):
                    yield (key, *sub), found
        return
    if isinstance(node, dict) and head in node or isinstance(node, list) and isinstance(head, int) and 0 <= head < len(node):
        for sub, found in walk(node[head], rest):
            yield (head, *sub), found


def get(node: Any, *path: Any, default: Any = None) -> Any:
    for segment in path:
        if isinstance(node, dict) and segment in node or isinstance(node, list) and isinstance(segment, int) and 0 <= segment < len(node):
            node = node[segment]
        else:
            return default
    return node


def clone(value: Any, memo: dict | None = None) -> Any:
    """A deep copy; `memo` (as copy.deepcopy fills it) tells which copy each map and list became."""
    return copy.deepcopy(value, memo)


def leaves(node: Any) -> Iterator[Any]:
    if isinstance(node, dict):
        for value in node.values():
            yield from leaves(value)
    elif isinstance(node, list):
        for value in node:
            yield from leaves(value)
    else:
        yield node


def bare_copy(value: Any) -> Any:
    """A deep copy without comments (a copied label map must not repeat the original's comments)."""
    made = copy.deepcopy(value)
    stack = [made]
    while stack:
        node = stack.pop()
        if round_trip(node):
            node.ca.items.clear()
            node.ca.comment = None
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return made


def insert_before(mapping: dict, before: str, key: str, value: Any) -> None:
    """Insert key right before `before` (else at the end)."""
    insert(mapping, index_of(mapping, before), key, value)


def gather(mapping: dict, into: str, moves: list[tuple[str, str]], ctx: Context, first: list | None = None) -> dict | None:
    """Move keys of `mapping` into a new map `into`, placed where the first of them was."""
    present = [(old, new) for old, new in moves if old in mapping]
    if not present and not first:
        return None
    made = new_map(mapping, list(first or []))
    insert(mapping, index_of(mapping, present[0][0]) if present else len(mapping), into, made)
    for old, new in present:
        move(mapping, old, made, new, ctx)
    return made


def replace_value(mapping: dict, key: str, value: Any, ctx: Context) -> None:
    """Replace a scalar value; its end-of-line comment follows at most three spaces after it."""
    gap = comment_gap(mapping, key, ctx)
    if round_trip(mapping) and isinstance(value, str):
        from ruamel.yaml.scalarstring import PlainScalarString

        value = PlainScalarString(value)
    mapping[key] = value
    comment = comment_of(mapping, key)
    if gap is not None and comment and comment[2] is not None:
        ctx.comment_fixes.append((comment[2].value.split("\n", 1)[0].strip(), "gap", min(gap, 3), ""))


def quoted(like: Any, text: str) -> Any:
    """A double-quoted string in round-trip output (plain data: the string itself)."""
    if round_trip(like):
        from ruamel.yaml.scalarstring import DoubleQuotedScalarString

        return DoubleQuotedScalarString(text)
    return text


def to_node(like: Any, value: Any) -> Any:
    """Plain data (parsed JSON) as maps and lists of the same kind as `like`."""
    if isinstance(value, dict):
        return new_map(like, [(key, to_node(like, item)) for key, item in value.items()])
    if isinstance(value, list):
        return new_seq(like, [to_node(like, item) for item in value])
    return value
