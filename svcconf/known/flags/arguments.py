"""Command lines as the components receive them: kubeadm's extraArgs and static Pod manifests, with positions.

kubeadm writes each extraArgs entry as `--name=value` after its own defaults (a v1beta3 map, a
v1beta4 list of {name, value}); a static Pod's container runs `command` + `args`, read the way
pflag (and etcd's Go flag package) reads them: `--name=value`, `--name value` for a flag that is
not a bool, `--` ending the flags.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from svcconf.model import Anchor, Path, items, mapping

from .table import COMPONENTS, Flag, is_bool, lookup


class Arg(NamedTuple):
    name: str  # without its leading dashes
    value: str | None  # None: no value written (a bool flag alone), or a value that is not a string
    name_path: Path
    value_path: Path
    name_anchor: Anchor = Anchor.VALUE


class CommandLine(NamedTuple):
    component: str
    args: list[Arg]  # in the order of the command line
    path: Path  # the extraArgs field or the container
    volumes: Path | None = None  # kubeadm: the component's extraVolumes; None for a Pod or the kubelet
    kubeadm: bool = False  # written by kubeadm from extraArgs or kubeletExtraArgs (else a Pod's own command)


def merged(args: list[Arg]) -> dict[str, Arg]:
    """The last occurrence of each flag on the command line (pflag keeps the last value of a scalar flag)."""
    return {arg.name: arg for arg in args}


# kubeadm fields that hold a component's flags: (path to the args, path to the extraVolumes, component).
CLUSTER_ARGS = (
    (("apiServer", "extraArgs"), ("apiServer", "extraVolumes"), "kube-apiserver"),
    (("controllerManager", "extraArgs"), ("controllerManager", "extraVolumes"), "kube-controller-manager"),
    (("scheduler", "extraArgs"), ("scheduler", "extraVolumes"), "kube-scheduler"),
    (("etcd", "local", "extraArgs"), None, "etcd"),
)
NODE_ARGS = ("nodeRegistration", "kubeletExtraArgs")


def at(doc: Any, path: Path) -> Any:
    """The value at a path of field names and list indexes; None where the document has no such value."""
    for segment in path:
        if isinstance(segment, int):
            doc = doc[segment] if isinstance(doc, list) and 0 <= segment < len(doc) else None
        else:
            doc = mapping(doc).get(segment)
    return doc


def kubeadm_args(path: Path, value: Any) -> list[Arg]:
    """The flags of a v1beta3 map or a v1beta4 list (v1beta2 and v1beta1 wrote maps too)."""
    if isinstance(value, dict):
        return [
            Arg(str(name), text if isinstance(text, str) else None, path + (name,), path + (name,), Anchor.KEY)
            for name, text in value.items()
        ]
    found = []
    for index, entry in items(value):
        entry = mapping(entry)
        name = entry.get("name")
        if isinstance(name, str) and name:
            text = entry.get("value")
            found.append(Arg(name, text if isinstance(text, str) else None, path + (index, "name"), path + (index, "value")))
    # kubeadm writes a list to the command line sorted by name, then by value (cmd/kubeadm/app/util/arguments.go
    # ArgumentsToCommand), so of a repeated flag the component sees last the value that sorts last.
    return sorted(found, key=lambda arg: (arg.name, arg.value or ""))


def cluster_command_lines(doc: dict) -> Iterator[CommandLine]:
    for args_path, volumes, component in CLUSTER_ARGS:
        value = at(doc, args_path)
        if value:
            yield CommandLine(component, kubeadm_args(args_path, value), args_path, volumes, kubeadm=True)


def node_command_line(doc: dict) -> CommandLine | None:
    value = at(doc, NODE_ARGS)
    return CommandLine("kubelet", kubeadm_args(NODE_ARGS, value), NODE_ARGS, kubeadm=True) if value else None


# --------------------------------------------------------------------------- static Pods


def binary(token: Any) -> str | None:
    """The component a command's first word runs (`kube-apiserver`, `/usr/local/bin/etcd`), if any."""
    if not isinstance(token, str):
        return None
    name = token.rpartition("/")[2]
    return name if name in COMPONENTS else None


def container_tokens(container: dict, base: Path) -> list[tuple[Any, Path]]:
    """command then args, each word with its path."""
    return [(word, base + (field, index)) for field in ("command", "args") for index, word in items(container.get(field))]


def component_of(container: dict) -> str | None:
    """The component a container runs, when its command (or, without one, its args) starts with the binary."""
    words = container.get("command") or container.get("args")
    first = words[0] if isinstance(words, list) and words else None
    return binary(first)


def pod_command_lines(doc: dict) -> Iterator[CommandLine]:
    spec = mapping(doc.get("spec"))
    for field in ("initContainers", "containers"):
        for index, container in items(spec.get(field)):
            container = mapping(container)
            component = component_of(container)
            if component:
                base = ("spec", field, index)
                yield CommandLine(component, parse_words(component, container_tokens(container, base)[1:]), base)


def parse_words(component: str, words: list[tuple[Any, Path]]) -> list[Arg]:
    """Flags of a command line as pflag or Go's flag package reads them; non-flag words are left out."""
    found: list[Arg] = []
    index = 0
    while index < len(words):
        word, path = words[index]
        index += 1
        if not isinstance(word, str) or not word.startswith("-") or word in ("-", "--"):
            if word == "--":
                break
            continue
        name, equals, value = word.lstrip("-").partition("=")
        if equals:
            found.append(Arg(name, value, path, path))
            continue
        flag: Flag | None = lookup(component, name)
        takes_value = flag is not None and not is_bool(flag)
        if takes_value and index < len(words) and isinstance(words[index][0], str):
            found.append(Arg(name, words[index][0], path, words[index][1]))
            index += 1
        else:
            found.append(Arg(name, None, path, path))
    return found
