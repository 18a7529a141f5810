"""What svcconf knows: kinds discovered from schemas/, and the lifecycle table of every group/version.

Both are read lazily: the schema folder listing once per process, a schema file when a document
of its kind first appears, the lifecycle table on first lookup.
"""

from __future__ import annotations

import functools
import json
import os
import re
from typing import NamedTuple

from ..model import Release
from .naming import GroupVersion
from .tsv import read_table

# A patch release names its minor release: every table here changes only between minor releases.
_RELEASE = re.compile(r"^v?([0-9]+)\.([0-9]+)(?:\.[0-9]+)?\Z")


@functools.lru_cache(maxsize=256)  # the tables name the same few releases in row after row
def parse_release(text: str) -> Release:
    """`1.31`, `v1.31` or `1.31.2` as (1, 31)."""
    match = _RELEASE.match(str(text).strip())
    if not match:
        raise ValueError(f"not a release: {text!r} (expected 1.NN, e.g. 1.31)")
    return (int(match.group(1)), int(match.group(2)))


def known_release(text: str) -> Release:
    """A release as parse_release reads it, refused (ValueError) outside the releases the lifecycle table covers."""
    release = parse_release(text)
    table = lifecycle()
    if not table.oldest <= release <= table.latest:
        raise ValueError(
            f"svcconf does not know release {format_release(release)}: it knows {format_release(table.oldest)} "
            f"to {format_release(table.latest)} (newest released: {format_release(table.newest)})"
        )
    return release


def format_release(release: Release) -> str:
    return f"{release[0]}.{release[1]}"


PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # svcconf/


@functools.lru_cache(maxsize=1)
def schema_root() -> str:
    """schemas/ as installed in the wheel (svcconf/schemas) or beside the package in a checkout."""
    packaged = os.path.join(PACKAGE_DIR, "schemas")
    if os.path.isdir(packaged):
        return packaged
    return os.path.join(os.path.dirname(PACKAGE_DIR), "schemas")


@functools.lru_cache(maxsize=1)
def schema_index() -> dict[tuple[str, str, str], str]:
    """Every (group, version, kind) that has a schema file."""
    index = {}
    root = schema_root()
    for group_entry in os.scandir(root):
        if not group_entry.is_dir():
            continue
        group = "" if group_entry.name == "core" else group_entry.name
        for version_entry in os.scandir(group_entry.path):
            if not version_entry.is_dir():
                continue
            for file_entry in os.scandir(version_entry.path):
                if file_entry.name.endswith(".json"):
                    index[(group, version_entry.name, file_entry.name[:-5])] = file_entry.path
    return index


@functools.cache
def load_schema(group: str, version: str, kind: str) -> dict | None:
    path = schema_index().get((group, version, kind))
    if path is None:
        return None
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


@functools.lru_cache(maxsize=1)
def aliases() -> dict[tuple[str, str, str], tuple[str, str, str]]:
    """Other names of a kind: (group, version, kind) as written -> the name svcconf files it under.

    The svc spelling writes some API server kinds under `apiserver.{api_domain}` where upstream registers
    them under `apiserver.config.k8s.io`; both must validate.
    """
    _meta, rows = read_table("aliases.tsv")
    return {(r["group"], r["version"], r["kind"]): (r["canonical_group"], r["canonical_version"], r["canonical_kind"]) for r in rows}


def canonical(group: str, version: str, kind: str) -> tuple[str, str, str]:
    """The name a kind is filed under (itself unless the alias table says otherwise)."""
    return aliases().get((group, version, kind), (group, version, kind))


class Lifecycle(NamedTuple):
    """One row of the lifecycle table."""

    group: str
    version: str
    kind: str
    scope: str  # config | api | payload
    introduced: Release | None
    deprecated: Release | None
    removed: Release | None
    replacement: str | None
    note: str

    @property
    def group_version(self) -> GroupVersion:
        return GroupVersion(self.group, self.version)

    def served_in(self, release: Release) -> bool:
        """Whether `release` serves this version: introduced by then (or undated) and not yet removed."""
        return (self.introduced is None or self.introduced <= release) and (self.removed is None or release < self.removed)


def _release_or_none(text: str) -> Release | None:
    return parse_release(text) if text else None  # read_table's cells are stripped


class LifecycleTable(NamedTuple):
    newest: Release  # the newest release out, the default target
    rows: dict[tuple[str, str, str], Lifecycle]
    group_scope: dict[str, str]
    group_versions: dict[str, frozenset[str]]
    kind_versions: dict[tuple[str, str], list[Lifecycle]]  # (group, kind) -> its rows, one per version
    oldest: Release  # the first and last release any row names: the releases svcconf can check against
    latest: Release
    released: Release  # the newest release Kubernetes has published (newest <= released: svcconf's data may lag)

    def row(self, group: str, version: str, kind: str) -> Lifecycle | None:
        return self.rows.get((group, version, kind))

    def kinds_of(self, group: str, version: str) -> list[str]:
        return sorted(kind for (g, v, kind) in self.rows if g == group and v == version)

    def versions_of_kind(self, group: str, kind: str) -> list[Lifecycle]:
        return self.kind_versions.get((group, kind), [])


@functools.lru_cache(maxsize=1)
def lifecycle() -> LifecycleTable:
    meta, records = read_table("lifecycle.tsv")
    newest: Release = parse_release(meta.get("newest-release", "1.36"))
    released: Release = parse_release(meta.get("released", meta.get("newest-release", "1.36")))
    rows: dict[tuple[str, str, str], Lifecycle] = {}
    for record in records:
        replacement = record["replacement"]
        row = Lifecycle(  # positional: every validate run reads the whole table
            record["group"],
            record["version"],
            record["kind"],
            record["scope"],
            _release_or_none(record["introduced"]),
            _release_or_none(record["deprecated"]),
            _release_or_none(record["removed"]),
            None if replacement in ("", "-") else replacement,
            record["note"],
        )
        rows[(row.group, row.version, row.kind)] = row
    group_scope: dict[str, str] = {}
    group_versions: dict[str, set[str]] = {}
    kind_versions: dict[tuple[str, str], list[Lifecycle]] = {}
    for row in rows.values():
        kind_versions.setdefault((row.group, row.kind), []).append(row)
        # A group is a config group when any of its rows says so.
        if group_scope.get(row.group) != "config":
            group_scope[row.group] = row.scope
        group_versions.setdefault(row.group, set()).add(row.version)
    named = [release for row in rows.values() for release in (row.introduced, row.deprecated, row.removed) if release]
    return LifecycleTable(
        newest,
        rows,
        group_scope,
        {g: frozenset(v) for g, v in group_versions.items()},
        kind_versions,
        min(named),
        max(*named, newest),
        released,
    )
