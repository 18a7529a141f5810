"""The API versions upstream serves, by release (tests/data/upstream-versions.tsv): what a migration must reach.

Read from ../shared/reference/migrations.md and ../shared/spec, never from svcconf's own lifecycle
table, so that a wrong row there cannot make migrate and its test agree.
"""

from __future__ import annotations

import csv
import functools
from pathlib import Path
from typing import Any, NamedTuple

TABLE = Path(__file__).resolve().parent / "data" / "upstream-versions.tsv"
NEWEST = (1, 36)  # the newest release the table knows (migrations.md §0.1: newest GA release = 1.36)
UNKNOWN = "?"
Release = tuple[int, int]


class Row(NamedTuple):
    api_version: str
    kind: str
    introduced: Release | None  # None: before any release a migration targets
    deprecated: Release | str | None  # UNKNOWN: the sources give no release
    removed: Release | str | None
    replacement: str | None  # group/version
    replacement_kind: str | None  # only where the kind changes
    shape: str  # T: apiVersion only; F, D, M, X as migrations.md §1
    source: str


def _release(text: str) -> Release | str | None:
    if text in ("-", UNKNOWN):
        return None if text == "-" else UNKNOWN
    major, minor = text.split(".")
    return int(major), int(minor)


@functools.cache
def table() -> dict[tuple[str, str], Row]:
    with open(TABLE, encoding="utf-8", newline="") as handle:
        lines = [line for line in handle if not line.startswith("#")]
    rows = {}
    for record in csv.DictReader(lines, delimiter="\t"):
        replacement, _, new_kind = record["replacement"].partition(" ")
        for kind in record["kinds"].split(","):
            row = Row(
                record["group/version"],
                kind,
                _release(record["introduced"]),  # type: ignore[arg-type]
                _release(record["deprecated"]),
                _release(record["removed"]),
                None if replacement == "-" else replacement,
                new_kind or None,
                record["class"],
                record["source"],
            )
            assert (row.api_version, kind) not in rows, f"two rows for {row.api_version} {kind}"
            rows[row.api_version, kind] = row
    return rows


def served(row: Row, release: Release) -> bool:
    """Does upstream serve the row's version at `release`? (A removal the sources do not date counts as none.)"""
    return (row.introduced is None or row.introduced <= release) and not (isinstance(row.removed, tuple) and row.removed <= release)


def due(row: Row, release: Release, deprecated: bool) -> bool | None:
    """Must a document of this row move at `release`: True, False, or None where the sources give no release."""
    if isinstance(row.removed, tuple) and row.removed <= release:
        return True
    if deprecated and row.deprecated == UNKNOWN:
        return None
    return deprecated and isinstance(row.deprecated, tuple) and row.deprecated <= release


def targets(row: Row, releases: tuple[Release, ...]) -> set[tuple[str, str]]:
    """The (group/version, kind) pairs down the row's replacements that upstream serves at every one of `releases`."""
    found, seen = set(), set()
    current: Row | None = row
    while current is not None and current.replacement and current.replacement not in seen:
        seen.add(current.replacement)
        kinds = [current.replacement_kind] if current.replacement_kind else [k for (v, k) in table() if v == current.replacement]
        nexts = [table()[current.replacement, k] for k in kinds if (current.replacement, k) in table()]
        found |= {(n.api_version, n.kind) for n in nexts if all(served(n, r) for r in releases)}
        current = next((n for n in nexts if n.kind == current.kind), nexts[0] if nexts else None)
    return found


def versions_in(data: Any) -> list[tuple[str, str]]:
    """The (apiVersion, kind) of a document, then of the objects it carries whole: List items, admission plugins'
    configurations, kubeconfig exec plugins."""
    if not isinstance(data, dict):
        return []
    found = [(data.get("apiVersion"), data.get("kind"))]
    kind = data.get("kind")
    if isinstance(kind, str) and kind.endswith("List") and isinstance(data.get("items"), list):
        found += [(i.get("apiVersion"), i.get("kind")) for i in data["items"] if isinstance(i, dict)]
    if kind == "AdmissionConfiguration" and isinstance(data.get("plugins"), list):
        found += [
            (p["configuration"].get("apiVersion"), p["configuration"].get("kind"))
            for p in data["plugins"]
            if isinstance(p, dict) and isinstance(p.get("configuration"), dict)
        ]
    for user in data.get("users") or [] if kind == "Config" and isinstance(data.get("users"), list) else []:
        exec_ = user.get("user", {}).get("exec") if isinstance(user, dict) and isinstance(user.get("user"), dict) else None
        if isinstance(exec_, dict):
            found.append((exec_.get("apiVersion"), "ExecCredential"))
    return [(v, k) for v, k in found if isinstance(v, str) and isinstance(k, str)]
