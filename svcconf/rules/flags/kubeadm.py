"""kubeadm's extraArgs (ClusterConfiguration) and kubeletExtraArgs (Init and Join configurations) as command lines."""

from __future__ import annotations

from collections.abc import Iterator

from svcconf.known.flags.arguments import cluster_command_lines, node_command_line
from svcconf.model import Finding

from .. import Context, rule
from .checks import check_command_line
from .files import check_files
from .kubelet import config_overrides


@rule("ClusterConfiguration")
def check_control_plane_flags(doc: dict, ctx: Context) -> Iterator[Finding]:
    for line in cluster_command_lines(doc):
        yield from check_command_line(line, ctx.target)
        yield from check_files(line, doc, ctx)


@rule("InitConfiguration", "JoinConfiguration")
def check_kubelet_flags(doc: dict, ctx: Context) -> Iterator[Finding]:
    line = node_command_line(doc)
    if line is None:
        return
    yield from check_command_line(line, ctx.target)
    yield from check_files(line, doc, ctx)
    yield from config_overrides(line, ctx)
