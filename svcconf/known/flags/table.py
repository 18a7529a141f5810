"""The flag tables (svcconf/data/flags/<component>.tsv): each flag's type, default and the releases it lives in.

A table is read the first time a command line of its component is checked, never before, so a
file without extraArgs or static Pods costs nothing here. The tables and their sources are built
by `python -m tests.tools.flag_table`.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from ..catalog import parse_release
from ..tsv import read_table

COMPONENTS = (
    "kube-apiserver",
    "kube-controller-manager",
    "cloud-controller-manager",
    "kube-scheduler",
    "kube-proxy",
    "kubelet",
    "etcd",
)
# Flags every Kubernetes command accepts besides its own (pflag's help; klog's verbosity is in the tables).
BUILT_IN = frozenset({"help", "h"})


class Flag(NamedTuple):
    name: str
    type: str  # the type word of the generated reference (string, int, duration, strings, ...; "" for a bool)
    default: str
    introduced: tuple | None  # None: 1.22 or earlier
    deprecated: tuple | None
    removed: tuple | None
    replacement: str  # what to use instead, in upstream's words where it has them
    renamed_to: str  # an exact rename: the flag migrate writes instead
    source: str  # keys of sources.tsv


class Table(NamedTuple):
    component: str
    flags: dict[str, Flag]
    complete_from: tuple | None  # from this release a name missing from the table is unknown (None: never said)
    complete_through: tuple | None  # the newest release of its sources: past it a missing name may be a newer flag


def _release(text: str) -> tuple | None:
    return parse_release(text) if text else None


@functools.cache
def table(component: str) -> Table:
    meta, rows = read_table("flags", f"{component}.tsv")
    flags = {
        row["flag"]: Flag(
            row["flag"],
            row["type"],
            row["default"],
            _release(row["introduced"]),
            _release(row["deprecated"]),
            _release(row["removed"]),
            row["replacement"],
            row["renamed-to"],
            row["source"],
        )
        for row in rows
    }
    complete_from, complete_through = meta.get("complete-from", "no"), meta.get("complete-through", "no")
    return Table(
        component,
        flags,
        None if complete_from == "no" else parse_release(complete_from),
        None if complete_through == "no" else parse_release(complete_through),
    )


def lookup(component: str, name: str) -> Flag | None:
    """A flag by the name written; the Kubernetes components read `_` as `-` (pflag's WordSepNormalizeFunc), etcd does not."""
    return table(component).flags.get(name if component == "etcd" else name.replace("_", "-"))


def is_bool(flag: Flag) -> bool:
    """pflag's bool flags take no separate value (`--flag value` leaves `value` as an argument)."""
    return flag.type in ("", "bool")


def lives_at(flag: Flag, target: tuple) -> bool:
    return (flag.introduced is None or flag.introduced <= target) and (flag.removed is None or target < flag.removed)


def suggestion(component: str, name: str, target: tuple) -> str | None:
    """The flag of the release whose name is closest to a misspelt one, as a did-you-mean."""
    import difflib

    if len(name) > 100:  # difflib is quadratic in the name: no real flag is this long
        return None
    names = [flag.name for flag in table(component).flags.values() if lives_at(flag, target)]
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.75)
    return close[0] if close else None
