"""Static Pod manifests of the control-plane components: the command line of each container that runs one.

A Pod is checked only when a container's command (or, without one, its args) starts with a
component binary (`kube-apiserver`, `/usr/local/bin/etcd`, ...); any other Pod stays skipped.
"""

from __future__ import annotations

from collections.abc import Iterator

from svcconf.known.flags.arguments import component_of, pod_command_lines
from svcconf.model import Finding

from .. import Context, items, mapping, rule, selects
from .checks import check_command_line
from .files import check_files


@selects("Pod")
def runs_a_component(doc: dict) -> bool:
    spec = mapping(doc.get("spec"))
    return any(component_of(mapping(container)) for field in ("containers", "initContainers") for _i, container in items(spec.get(field)))


@rule("Pod")
def check_static_pod(doc: dict, ctx: Context) -> Iterator[Finding]:
    for line in pod_command_lines(doc):
        yield from check_command_line(line, ctx.target)
        yield from check_files(line, doc, ctx)
