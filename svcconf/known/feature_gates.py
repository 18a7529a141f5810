"""Kubernetes feature gates by release (data/feature-gates.tsv): which names a release accepts, their defaults and locks."""

from __future__ import annotations

import functools
from typing import NamedTuple

from .catalog import parse_release
from .tsv import read_table

# Every Kubernetes feature gate registry accepts these two switches besides the named gates.
SPECIAL = frozenset({"AllAlpha", "AllBeta"})


class Spec(NamedTuple):
    """One versioned spec of a gate: it applies from `since` until the gate's next spec."""

    since: tuple
    default: bool
    stage: str
    locked: bool


class GateTable(NamedTuple):
    gates: dict[str, list[Spec]]
    complete_for: frozenset  # releases for which a name missing from the table is surely unknown


@functools.lru_cache(maxsize=1)
def gate_table() -> GateTable:
    meta, rows = read_table("feature-gates.tsv")
    complete = {parse_release(v) for v in meta.get("complete-for", "").split(",") if v.strip()}
    gates: dict[str, list[Spec]] = {}
    for row in rows:
        spec = Spec(parse_release(row["version"]), row["default"] == "true", row["stage"], row["locked"] == "true")
        gates.setdefault(row["gate"], []).append(spec)
    for specs in gates.values():
        specs.sort(key=lambda spec: spec.since)
    return GateTable(gates, frozenset(complete))


def spec_at(name: str, target: tuple) -> Spec | None:
    """The spec of a gate in a release, or None when the release does not have the gate."""
    current = None
    for spec in gate_table().gates.get(name, ()):
        if spec.since <= target:
            current = spec
    return None if current is None or current.stage == "removed" else current
