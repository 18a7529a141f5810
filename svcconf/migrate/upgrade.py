"""Which documents an upgrade needs rewritten, and to which version: one both releases serve where there is one.

A manifest rewritten before an upgrade must apply to the cluster as it runs now (the `--from`
release) and after the upgrade (the `--to` release). A document is due when the `--to` release
no longer serves its version, or, when deprecated versions are asked for too, when it is
deprecated there or superseded (the lifecycle table names a successor and no deprecation). It is
rewritten along its conversion chain to the newest version both releases serve.
"""

from __future__ import annotations

from typing import NamedTuple

from ..known.catalog import Lifecycle, Release, format_release, lifecycle
from .ops import Note, Review
from .steps import GVK, Step, chain

WHERE = ("apiVersion",)


class Choice(NamedTuple):
    steps: list[Step]  # empty: the document stays as it is
    review: Review | None = None  # why it stays although it is due
    note: Note | None = None  # a conversion that goes past what both releases serve (--unsafe)


def due(row: Lifecycle | None, to: Release, deprecated: bool) -> bool:
    """Whether a document of this version is rewritten for the `to` release."""
    if row is None:
        return True  # an undated kind (a kubeconfig): its steps change only nested versions that stopped working
    if row.removed is not None and to >= row.removed:
        return True
    if not deprecated:
        return False
    if row.deprecated is not None:
        return to >= row.deprecated
    return row.replacement is not None


def choose(gvk: GVK, to: Release, since: Release | None, deprecated: bool, unsafe: bool) -> Choice:
    """The steps that rewrite a document of `gvk` for an upgrade from `since` (None: unknown) to `to`."""
    table = lifecycle()
    row = table.row(*gvk)
    if not due(row, to, deprecated):
        return Choice([])
    steps = chain(gvk, to)
    if since is None or not steps:
        return Choice(steps)
    rows = [table.row(*step.target) for step in steps]
    both = [index for index, found in enumerate(rows) if found is None or (found.served_in(since) and found.served_in(to))]
    if both:
        return Choice(steps[: both[-1] + 1])
    newest, first = _name(steps[-1].target), rows[-1].introduced if rows[-1] else None
    later = f"{newest} is first served in {format_release(first)}" if first else f"{newest} is not served by {format_release(since)}"
    window = f"both {format_release(since)} and {format_release(to)}"
    still_served = row is not None and row.served_in(to)
    if still_served:  # deprecated only: it applies after the upgrade as it is
        reason = f"{_name(gvk)} is deprecated in {format_release(to)}, but no newer version is served by {window} ({later})"
        todo = f"migrate it after the upgrade (--from-version {format_release(to)})"
    else:
        reason = f"{_name(gvk)} is not served by {format_release(to)}, and no version it converts to is served by {window} ({later})"
        todo = f"the document must be applied after the upgrade; --unsafe rewrites it as {newest}"
    if unsafe:
        return Choice(steps, note=Note(WHERE, f"applied under --unsafe: {reason}; the result applies only after the upgrade", warn=True))
    return Choice([], Review(WHERE, reason, todo, True, warn=not still_served))


def _name(gvk: GVK) -> str:
    group, version, kind = gvk
    return f"{group}/{version} {kind}" if group else f"{version} {kind}"
