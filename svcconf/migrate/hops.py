"""The minor releases an upgrade passes through, and what the lifecycle table says changes at each.

kubeadm upgrades a control plane one minor release at a time: `EnforceVersionPolicies`
(cmd/kubeadm/app/phases/upgrade/policy.go) refuses a larger step, "Specified version to upgrade to
%q is too high; kubeadm can upgrade only %d minor version at a time", with
`MaximumAllowedMinorVersionUpgradeSkew = 1`. An upgrade from 1.29 to 1.31 is two upgrades, and
the manifests must survive each.
"""

from __future__ import annotations

from typing import NamedTuple

from ..known.catalog import Release, format_release, lifecycle

MAXIMUM_MINOR_SKEW = 1  # MaximumAllowedMinorVersionUpgradeSkew
SAID = (("removed", "removed"), ("deprecated", "deprecated"), ("introduced", "first served"))
LISTED_KINDS = 3  # more kinds of one version are counted, not named


class Hop(NamedTuple):
    before: Release
    after: Release
    changes: tuple[str, ...]  # "removed: networking.k8s.io/v1alpha1 (IPAddress, ServiceCIDR)", ...

    def __str__(self) -> str:
        what = "; ".join(self.changes) if self.changes else "no API version svcconf tracks changes"
        return f"{format_release(self.before)} -> {format_release(self.after)}: {what}"


def hops(since: Release, to: Release) -> list[Hop]:
    """The one-minor steps from `since` to `to` when kubeadm cannot take it in one (empty: it can)."""
    if to[0] != since[0] or to[1] - since[1] <= MAXIMUM_MINOR_SKEW:
        return []
    return [Hop((since[0], minor - 1), (since[0], minor), _changes((since[0], minor))) for minor in range(since[1] + 1, to[1] + 1)]


def _changes(release: Release) -> tuple[str, ...]:
    """What the table records for a release: versions removed and deprecated there, and the config versions it first serves."""
    said = []
    for column, verb in SAID:
        kinds: dict[str, list[str]] = {}
        for row in lifecycle().rows.values():
            if getattr(row, column) != release or row.scope == "payload" or (column == "introduced" and row.scope != "config"):
                continue
            kinds.setdefault(f"{row.group}/{row.version}".lstrip("/"), []).append(row.kind)
        if kinds:
            said.append(f"{verb}: " + ", ".join(f"{gv} ({_kinds(names)})" for gv, names in sorted(kinds.items())))
    return tuple(said)


def _kinds(names: list[str]) -> str:
    names = sorted(names)
    return ", ".join(names) if len(names) <= LISTED_KINDS else f"{len(names)} kinds"


def explain(since: Release, to: Release) -> str | None:
    """The sentence that introduces the hop list (None: a one-minor upgrade or none)."""
    steps = hops(since, to)
    if not steps:
        return None
    path = " -> ".join(format_release(step.before) for step in steps) + f" -> {format_release(to)}"
    return f"kubeadm upgrades a control plane one minor release at a time (it refuses a larger step): {path}"
