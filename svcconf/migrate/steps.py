"""The conversion table: one step per (group, version, kind), chained until the target release's newest.

A step declares its operations (`Rename`, `Remove`, `SetIfAbsent`, `Move`, or `Custom` code), which
edit a document through the map helpers of `ops`.

Tables in `svcconf/migrate/conversions/` register steps at import; `chain` walks them, stopping before
a version the target release does not serve yet (flowcontrol v1beta1 on 1.27 goes to v1beta3).
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Callable
from typing import Any, NamedTuple

from ..model import Path
from .ops import Context, Review, get, insert, leaves, move, new_map, new_seq, pop, quoted, rename, walk

GVK = tuple  # (group, version, kind), upstream spelling


class Op:
    """One declared edit of a conversion step; `safe` False means it needs --unsafe."""

    safe = True

    def review(self, doc: dict, ctx: Context) -> list[Review]:
        return []

    def apply(self, doc: dict, ctx: Context) -> None:  # pragma: no cover - interface
        raise NotImplementedError


class Rename(Op):
    """Rename key `old` to `new` in every map at `parent` (a path; `*` for every item)."""

    def __init__(self, parent: Path, old: str, new: str) -> None:
        self.parent, self.old, self.new = tuple(parent), old, new

    def apply(self, doc: dict, ctx: Context) -> None:
        for _path, mapping in walk(doc, self.parent):
            if isinstance(mapping, dict) and self.old in mapping and self.new not in mapping:
                rename(mapping, self.old, self.new, ctx)


class Remove(Op):
    """Delete key `key` from every map at `parent`, naming the dropped value in a note.

    `warn` False: the value carried nothing the new version needs (server-managed): an info note.
    """

    def __init__(self, parent: Path, key: str, why: str, safe: bool = True, warn: bool = True) -> None:
        self.parent, self.key, self.why, self.safe, self.warn = tuple(parent), key, why, safe, warn

    def apply(self, doc: dict, ctx: Context) -> None:
        for path, mapping in walk(doc, self.parent):
            if isinstance(mapping, dict) and self.key in mapping:
                value, _comment = pop(mapping, self.key)
                dropped = tuple(leaves(value))
                if self.warn:
                    ctx.note((*path, self.key), self.why, dropped)
                else:
                    ctx.note((*path, self.key), f"{self.why} (was {', '.join(str(v) for v in dropped)})")


class SetIfAbsent(Op):
    """Write an old default explicitly where a field is absent, so the new default does not apply.

    A list value is written in flow style with double-quoted strings (`["v1beta1"]`), as the
    reference writes such defaults.
    """

    def __init__(self, parent: Path, key: str, value: Any, why: str, when: Callable[[dict], bool] | None = None):
        self.parent, self.key, self.value, self.why, self.when = tuple(parent), key, value, why, when

    def apply(self, doc: dict, ctx: Context) -> None:
        for path, mapping in walk(doc, self.parent):
            if not isinstance(mapping, dict) or self.key in mapping or (self.when and not self.when(mapping)):
                continue
            value = self.value
            if isinstance(value, list):
                value = new_seq(mapping, [quoted(mapping, v) if isinstance(v, str) else v for v in value], flow=True)
            insert(mapping, len(mapping), self.key, value)
            ctx.note((*path, self.key), self.why)


class Move(Op):
    """Move `key` of the map at `source` to `new_key` of the map at `target` (created at the end when absent)."""

    def __init__(self, source: Path, key: str, target: Path, new_key: str) -> None:
        self.source, self.key, self.target, self.new_key = tuple(source), key, tuple(target), new_key

    def apply(self, doc: dict, ctx: Context) -> None:
        holder = get(doc, *self.source)
        if not isinstance(holder, dict) or self.key not in holder:
            return
        destination: Any = doc
        for segment in self.target:
            if not isinstance(destination.get(segment), dict):
                insert(destination, len(destination), segment, new_map(destination))
            destination = destination[segment]
        if self.new_key not in destination:
            move(holder, self.key, destination, self.new_key, ctx)


class Custom(Op):
    """A restructure that tables cannot say: `apply(doc, ctx)` and optional `review(doc, ctx)`."""

    def __init__(self, apply: Callable[[dict, Context], None], review: Callable[[dict, Context], list[Review]] | None = None, safe=True):
        self._apply, self._review, self.safe = apply, review, safe

    def review(self, doc: dict, ctx: Context) -> list[Review]:
        return self._review(doc, ctx) if self._review else []

    def apply(self, doc: dict, ctx: Context) -> None:
        self._apply(doc, ctx)


class Step(NamedTuple):
    source: GVK
    target: GVK
    ops: tuple[Op, ...] = ()


_STEPS: dict[GVK, Step] = {}


def split(api_version: str) -> tuple[str, str]:
    group, _, version = api_version.rpartition("/")
    return group, version


def step(source: str, kind: str, target: str, *ops: Op, to_kind: str | None = None) -> Step:
    """Declare `source` (group/version) `kind` -> `target` with the operations that convert it."""
    made = Step((*split(source), kind), (*split(target), to_kind or kind), tuple(ops))
    _STEPS[made.source] = made
    return made


def same_shape(source: str, kinds: str, target: str) -> None:
    """Declare kinds whose shape is identical in both versions: only apiVersion changes."""
    for kind in kinds.split():
        step(source, kind, target)


@functools.lru_cache(maxsize=1)
def table() -> dict[GVK, Step]:
    from . import conversions

    for module in pkgutil.iter_modules(conversions.__path__):
        importlib.import_module(f"{conversions.__name__}.{module.name}")
    return _STEPS


def chain(gvk: GVK, target_release: tuple) -> list[Step]:
    """The steps from gvk towards the newest version the target release serves."""
    from ..known.catalog import lifecycle

    lifecycle_table = lifecycle()
    steps: list[Step] = []
    current = gvk
    seen = {current}
    while (next_step := table().get(current)) is not None:
        row = lifecycle_table.row(*next_step.target)
        if row is not None and row.introduced is not None and row.introduced > target_release:
            break
        steps.append(next_step)
        current = next_step.target
        if current in seen:  # pragma: no cover - a table mistake
            break
        seen.add(current)
    return steps


def fix_for(gvk: GVK, target_release: tuple) -> str | None:
    """The conversion migrate applies to gvk, worded as the fix of a `removed-api-version` finding (None: manual)."""
    from ..known.catalog import lifecycle

    steps = chain(gvk, target_release)
    final = lifecycle().row(*steps[-1].target) if steps else None
    if not steps or (final is not None and final.removed is not None and target_release >= final.removed):
        return None
    group, version, kind = steps[-1].target
    target = f"{group}/{version}" if group else version
    restructured = any(step.ops for step in steps)
    how = "with the field conversions it needs" if restructured else "only the apiVersion changes"
    return f"`svcconf migrate --write` rewrites it as {target} {kind} ({how})"
