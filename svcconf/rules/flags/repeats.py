"""A flag given more than once, as the component treats it.

pflag calls the flag's Set for every occurrence: a scalar flag (bool, number, duration, string) is
set again, so the last value wins and the earlier ones are not used; a list flag (string slice)
appends, a map flag (key=value pairs, feature gates) merges, so every occurrence counts. Go's flag
package, which etcd uses, sets scalars again too. kubeadm writes a v1beta4 extraArgs list sorted by
name and then value, so there "last" is the value that sorts last, not the last entry of the list.
"""

from __future__ import annotations

from collections.abc import Iterator

from svcconf.known.flags.arguments import Arg, CommandLine
from svcconf.known.flags.table import Flag, lookup
from svcconf.model import Finding, Severity, render_path

# Type words of the references whose values pflag (or Go's flag package) replaces on every Set.
SCALAR_TYPES = frozenset(
    {"", "bool", "int", "int32", "int64", "uint", "uint32", "uint64", "float", "float32", "float64",
     "duration", "string", "ip", "ipport", "quantity", "port-range", "<a string in the form 'N1-N2'>"}
)  # fmt: skip
LIST_TYPES = frozenset({"strings", "stringSlice", "stringArray", "ints", "int32Slice", "cidrs"})
MAP_MARKERS = ("map", "stringToString", "key=value", "key=True", "key=true")
# Flags whose type word hides that they gather: the feature gate set (featuregate.Set merges), the
# certificate list (cliflag.NamedCertKeyArray appends), the kubelet's repeatable lists (their help says so).
GATHERING = {"feature-gates": "map", "tls-sni-cert-key": "list", "reserved-memory": "list", "manifest-url-header": "list"}


def gathering(flag: Flag) -> str | None:
    """What a repeat does to the flag ("scalar", "list" or "map"); None where its type does not tell."""
    if flag.name in GATHERING:
        return GATHERING[flag.name]
    if flag.type in LIST_TYPES:
        return "list"
    if any(marker in flag.type for marker in MAP_MARKERS):
        return "map"
    return "scalar" if flag.type in SCALAR_TYPES else None


def repeated_flags(line: CommandLine) -> Iterator[Finding]:
    groups: dict[str, list[Arg]] = {}
    for arg in line.args:
        flag = lookup(line.component, arg.name)
        if flag is not None:  # an unknown flag is reported as such
            groups.setdefault(flag.name, []).append(arg)
    for name, args in groups.items():
        kind = gathering(lookup(line.component, name)) if len(args) > 1 else None
        if kind == "scalar":
            yield from _overridden(line, name, args)
        elif kind is not None:
            yield _gathered(line, name, args, kind)


def _overridden(line: CommandLine, name: str, args: list[Arg]) -> Iterator[Finding]:
    kept = args[-1]
    order = "kubeadm writes them sorted by value, so " if line.kubeadm else ""
    for arg in args[:-1]:
        if arg.value == kept.value:
            continue  # the same value again changes nothing
        yield Finding(
            "repeated-flag",
            arg.name_path,
            f"--{name} is given {len(args)} times: {order}{line.component} keeps the value at {render_path(kept.value_path)} "
            "and does not use this one",
            Severity.WARNING,
            arg.name_anchor,
        )


def _gathered(line: CommandLine, name: str, args: list[Arg], kind: str) -> Finding:
    how = (
        "adds the items of each to one list" if kind == "list" else "merges their key=value pairs (a key given twice keeps the later value)"
    )
    places = ", ".join(render_path(arg.value_path) for arg in args)
    last = args[-1]
    return Finding(
        "repeated-list-flag",
        last.name_path,
        f"--{name} is given {len(args)} times ({places}): {line.component} {how}, it does not replace the earlier ones",
        Severity.INFO,
        last.name_anchor,
    )
