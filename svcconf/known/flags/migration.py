"""What `svcconf migrate` may do to a command line at a target release: the flags upstream renamed exactly, the flags it removed.

Plain data for the migrate engine (which owns the edits): each change names the flag where it is
written, in kubeadm's map or list form or as a word of a static Pod's command.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from svcconf.model import Anchor, Path

from ..catalog import format_release
from .arguments import Arg, CommandLine, cluster_command_lines, node_command_line, pod_command_lines
from .table import Flag, lookup, table

KUBEADM_NODE_KINDS = ("InitConfiguration", "JoinConfiguration")


class FlagChange(NamedTuple):
    arg: Arg
    component: str
    new_name: str | None  # None: removed without a successor: a person decides
    reason: str


def command_lines(doc: dict, kind: str) -> Iterator[CommandLine]:
    if kind == "ClusterConfiguration":
        yield from cluster_command_lines(doc)
    elif kind in KUBEADM_NODE_KINDS:
        line = node_command_line(doc)
        if line is not None:
            yield line
    elif kind == "Pod":
        yield from pod_command_lines(doc)


def _due(flag: Flag, target: tuple) -> bool:
    return (flag.removed is not None and target >= flag.removed) or (flag.deprecated is not None and target >= flag.deprecated)


def changes(doc: dict, kind: str, target: tuple) -> list[FlagChange]:
    """The flags of a document migrate renames (deprecated or removed at the target, with an exact successor) or leaves for review (removed)."""
    found = []
    for line in command_lines(doc, kind):
        flags = table(line.component).flags
        for arg in line.args:
            flag = lookup(line.component, arg.name)
            if flag is None or not _due(flag, target):
                continue
            if flag.renamed_to and flag.renamed_to in flags:
                found.append(FlagChange(arg, line.component, flag.renamed_to, f"--{arg.name} is now --{flag.renamed_to}"))
            elif flag.removed is not None and target >= flag.removed:
                instead = f"; {flag.replacement}" if flag.replacement else ""
                reason = f"{line.component} flag --{arg.name} was removed in {format_release(flag.removed)}{instead}"
                found.append(FlagChange(arg, line.component, None, reason))
    return found


def in_map(arg: Arg) -> bool:
    """The flag is a key of a v1beta3-style extraArgs map (else a list entry's name, or a command word)."""
    return arg.name_anchor == Anchor.KEY


def in_command(arg: Arg) -> bool:
    return arg.name_path[-2:-1] in (("command",), ("args",))


def renamed_word(word: str, old: str, new: str) -> str:
    """`--old=value` -> `--new=value` (and `-old` for etcd's single dash), the rest of the word kept."""
    dashes = word[: len(word) - len(word.lstrip("-"))]
    return dashes + new + word[len(dashes) + len(old) :]


def parent_path(arg: Arg) -> Path:
    return arg.name_path[:-1]
