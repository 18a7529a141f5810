"""kube-proxy featureGates: gate names and locks checked against the Kubernetes gate table of the target release."""

from __future__ import annotations

from collections.abc import Iterator

from svcconf.known.catalog import format_release
from svcconf.known.feature_gates import SPECIAL, gate_table, spec_at
from svcconf.model import Finding, Severity, render_value
from svcconf.rules import Context, advice, invalid, mapping


def _go_bool(value: bool) -> str:
    return "true" if value else "false"


def check_feature_gates(doc: dict, ctx: Context) -> Iterator[Finding]:
    """kube-proxy applies featureGates with SetFromMap, which refuses unknown names and locked gates."""
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
