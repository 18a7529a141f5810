"""Where each value of a converted document came from in the document as written, by path.

A conversion works on a deep copy of the document's data: every map and list of the copy is
traced to the one it copies (the copy's memo), and a scalar is the very object the reader made
(copies share strings and numbers), so a moved or renamed value is found where it was written.
A value the conversion made up (a pinned default, a new holder map) has no origin: its finding is
placed at the nearest holder that has one, and a field added at the top of the document at its
apiVersion.
"""

from __future__ import annotations

from typing import Any

from ..model import Anchor, Path

# Objects every reader shares (small numbers, booleans, None): their identity says nothing of where they were written.
_SHARED = (bool, type(None))


class Origin:
    """Maps paths of a converted document to the paths of the written one they come from."""

    __slots__ = ("_containers", "_converted", "_copies", "_memos", "_scalars", "_written")

    def __init__(self, written: Any, converted: Any, copies: list[dict]) -> None:
        self._written = written
        self._converted = converted
        self._memos = copies
        self._containers: dict[int, Path] = {}  # id of a written map or list -> its path
        self._scalars: dict[int, list[tuple[Path, Anchor]]] = {}  # id of a written key or value -> where
        self._copies: dict[int, Path] | None = None  # id of a copy -> the written path it copies; built on first need

    def _indexed(self) -> dict[int, Path]:
        """The copies' origins: the memos map a written object's id to its copy, turned around (built once, when a finding needs it)."""
        if self._copies is None:
            self._index(self._written)
            self._copies = {}
            for memo in self._memos:
                for original, copy in memo.items():
                    path = self._containers.get(original)
                    if path is not None and isinstance(copy, (dict, list)):
                        self._copies[id(copy)] = path
        return self._copies

    def _index(self, root: Any) -> None:
        stack: list[tuple[Any, Path]] = [(root, ())]
        while stack:
            node, path = stack.pop()
            if isinstance(node, dict):
                if id(node) in self._containers:
                    continue  # an alias: the first path holds it
                self._containers[id(node)] = path
                for key, value in node.items():
                    self._note(key, (*path, key), Anchor.KEY)
                    stack.append((value, (*path, key)))
            elif isinstance(node, list):
                if id(node) in self._containers:
                    continue
                self._containers[id(node)] = path
                stack.extend((value, (*path, index)) for index, value in enumerate(node))
            else:
                self._note(node, path, Anchor.VALUE)

    def _note(self, value: Any, path: Path, anchor: Anchor) -> None:
        if not isinstance(value, _SHARED) and not (isinstance(value, int) and -5 <= value <= 256):
            self._scalars.setdefault(id(value), []).append((path, anchor))

    def source(self, path: Path, anchor: Anchor = Anchor.VALUE) -> tuple[Path, Anchor] | None:
        """The written path (and anchor) a converted path comes from; None when the conversion added it at the top."""
        self._indexed()
        chain = _chain(self._converted, path)
        if len(chain) == len(path) + 1:
            found = self._value(chain[-1])
            if found is not None:
                return found if anchor is Anchor.VALUE or found[1] is Anchor.KEY else (found[0], anchor)
        # The nearest holder that came from the written document; the rest of the path under it.
        for depth in range(len(chain) - 1, -1, -1):
            holder = self._holder(chain[depth], path[:depth])
            if holder is None:
                continue
            if depth == 0 and not _exists(self._written, path[:1]) and path:
                return None  # added at the top of the document
            return (*holder, *path[depth:]), anchor
        return None

    def _value(self, node: Any) -> tuple[Path, Anchor] | None:
        """Where a converted value was written: the map or list it copies, or the one key or value that is this very object."""
        if isinstance(node, (dict, list)):
            holder = self._indexed().get(id(node))
            if holder is not None:
                return holder, Anchor.VALUE
            leaves = _leaves(node)  # a holder the conversion made: placed where its first traceable value was written
            return next((found for leaf in leaves if (found := self._unique(leaf)) is not None), None)
        return self._unique(node)

    def _unique(self, value: Any) -> tuple[Path, Anchor] | None:
        places = self._scalars.get(id(value)) if not isinstance(value, (dict, list)) else None
        return places[0] if places and len(places) == 1 else None

    def _holder(self, node: Any, path: Path) -> Path | None:
        """The written path of a converted map or list: its copy's origin, else the same path when it holds the same kind of value."""
        if not path:
            return ()
        holder = self._indexed().get(id(node))
        if holder is not None:
            return holder
        written = _chain(self._written, path)
        if len(written) == len(path) + 1 and isinstance(written[-1], type(node)) and isinstance(node, (dict, list)):
            return path
        return None


def _chain(root: Any, path: Path) -> list[Any]:
    """The nodes along a path from the root, as far as it exists."""
    nodes = [root]
    node = root
    for segment in path:
        if isinstance(node, dict) and segment in node or isinstance(node, list) and isinstance(segment, int) and 0 <= segment < len(node):
            node = node[segment]
        else:
            break
        nodes.append(node)
    return nodes


def _exists(root: Any, path: Path) -> bool:
    return len(_chain(root, path)) == len(path) + 1


def _leaves(node: Any, limit: int = 16) -> list[Any]:
    """Up to `limit` scalars under a node, in order."""
    found: list[Any] = []
    stack = [node]
    while stack and len(found) < limit:
        current = stack.pop()
        if isinstance(current, dict):
            # Values first: a key the conversion wrote ("name", "value") is its own text, a value was read.
            stack.extend(reversed([*current.values(), *current.keys()]))
        elif isinstance(current, list):
            stack.extend(reversed(current))
        else:
            found.append(current)
    return found
