"""The conversion table: one step per (group, version, kind), chained until the target release's newest.

Tables in `svcconf/migrate/conversions/` register steps at import; `chain` walks them, stopping before
a version the target release does not serve yet (flowcontrol v1beta1 on 1.27 goes to v1beta3).
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from typing import NamedTuple

from .ops import Op

GVK = tuple  # (group, version, kind), upstream spelling


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
