"""kube-proxy featureGates: gate names and locks checked against the Kubernetes gate table of the target release."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import NamedTuple

from svcconf.known.catalog import format_release, parse_release
from svcconf.known.tsv import read_table
from svcconf.model import Finding, Severity, render_value
from svcconf.rules import Context, advice, invalid, mapping

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


def _go_bool(value: bool) -> str:
    return "true" if value else "false"


def check_feature_gates(doc: dict, ctx: Context) -> Iterator[Finding]:
    """KP-1: kube-proxy applies featureGates with SetFromMap, which refuses unknown names and locked gates."""
    gates = mapping(doc.get("featureGates"))
    if not gates:
        return
    table = gate_table()
    shown = {k: gates[k] for k in sorted(gates) if isinstance(gates[k], bool)}  # Go marshals maps sorted
    path = ("featureGates",)
    for name, value in gates.items():
        if not isinstance(value, bool) or name in SPECIAL:
            continue  # a non-boolean value is a decoding error, reported by the schema
        spec = spec_at(name, ctx.target)
        if spec is None:
            if name in table.gates or ctx.target in table.complete_for:
                yield invalid(path, shown, f"unrecognized feature gate: {name}", "unknown-feature-gate", subject={name: value})
            else:
                covered = ", ".join(format_release(r) for r in sorted(table.complete_for))
                yield advice(
                    "feature-gate-not-in-table",
                    path,
                    f"Invalid value: {render_value(shown)}: {name} is not a feature gate of Kubernetes {covered}; "
                    f"svcconf's gate table is incomplete for {format_release(ctx.target)}: check the name "
                    f"(kube-proxy refuses unknown gates with `unrecognized feature gate: {name}`)",
                    subject={name: value},
                )
        elif spec.locked and value != spec.default:
            yield invalid(
                path,
                shown,
                f"cannot set feature gate {name} to {_go_bool(value)}, feature is locked to {_go_bool(spec.default)}",
                "locked-feature-gate",
                subject={name: value},
            )
        elif spec.stage in ("ga", "deprecated"):
            word = "GA" if spec.stage == "ga" else "deprecated"
            yield advice(
                "retiring-feature-gate",
                path,
                f"Setting {word} feature gate {name}={_go_bool(value)}. It will be removed in a future release.",
                Severity.INFO,
                subject={name: value},
            )
