"""Flags that name configuration files svcconf checks: the file must hold the kind the flag expects, and be mounted.

The component runs in a static Pod, so a path in its flags is a path inside the container: kubeadm
maps it through the component's extraVolumes (mountPath -> hostPath) besides the folders it always
mounts; a Pod manifest through its volumeMounts and hostPath volumes. The host path is looked up
only inside the repository (the working directory), never through a symbolic link: a relative path
from the folder of the file that names it, an absolute one under the repository root; the node's
own file only with --fs-checks (svcconf then runs on the node). Nothing else is read.
"""

from __future__ import annotations

import os
import posixpath
import stat
from collections.abc import Iterator

from svcconf.known.flags.arguments import Arg, CommandLine, at, merged
from svcconf.model import Finding, Severity

from .. import Context, in_memory, items, mapping, text

# Flag -> the kind its file holds (upstream spelling), per component; `config` differs by component.
FILE_KINDS = {
    "authentication-config": "AuthenticationConfiguration",
    "authorization-config": "AuthorizationConfiguration",
    "admission-control-config-file": "AdmissionConfiguration",
    "audit-policy-file": "Policy",
    "encryption-provider-config": "EncryptionConfiguration",
    "egress-selector-config-file": "EgressSelectorConfiguration",
    "tracing-config-file": "TracingConfiguration",
}
CONFIG_KINDS = {
    "kube-scheduler": "KubeSchedulerConfiguration",
    "kube-proxy": "KubeProxyConfiguration",
    "kubelet": "KubeletConfiguration",
}
# Host folders kubeadm always mounts into the control-plane Pods (cmd/kubeadm/app/phases/controlplane/volumes.go).
KUBEADM_MOUNTS = {
    "kube-apiserver": ("/etc/kubernetes/pki", "/etc/ssl/certs", "/etc/ca-certificates", "/etc/pki",
                       "/usr/share/ca-certificates", "/usr/local/share/ca-certificates"),
    "kube-controller-manager": ("/etc/kubernetes/pki", "/etc/ssl/certs", "/etc/ca-certificates", "/etc/pki",
                                "/usr/share/ca-certificates", "/usr/local/share/ca-certificates",
                                "/etc/kubernetes/controller-manager.conf", "/usr/libexec/kubernetes/kubelet-plugins/volume/exec"),
    "kube-scheduler": ("/etc/kubernetes/scheduler.conf",),
}  # fmt: skip
MAX_SIZE = 1 << 20


def expected_kind(component: str, name: str) -> str | None:
    return CONFIG_KINDS.get(component) if name == "config" else FILE_KINDS.get(name) if component == "kube-apiserver" else None


def check_files(line: CommandLine, doc: dict, ctx: Context) -> Iterator[Finding]:
    mounts = _mounts(line, doc)
    for arg in merged(line.args).values():
        kind = expected_kind(line.component, arg.name)
        if kind is None or not arg.value:
            continue
        if mounts is None:
            host = arg.value  # the kubelet reads its node's files directly
        else:
            mounted, host = _host_path(arg.value, mounts)
            if not mounted:
                yield _not_mounted(line, arg)
                continue
            if host is None:
                continue  # mounted from a ConfigMap, Secret or other volume: not a file of the repository
        written = _kind_in_file(host, ctx)
        if written is not None and written != kind:
            yield Finding(
                "flag-file-wrong-kind",
                arg.value_path,
                f"--{arg.name} names {host}, whose kind is {written}; {line.component} expects {kind} there",
            )


def _mounts(line: CommandLine, doc: dict) -> list[tuple[str, str | None]] | None:
    """(mountPath, hostPath) pairs the component's container sees (hostPath None: another kind of volume), or None
    when it is not in a Pod."""
    if line.component == "kubelet":
        return None
    if line.volumes is not None:  # kubeadm
        pairs = [(folder, folder) for folder in KUBEADM_MOUNTS.get(line.component, ())]
        for _index, volume in items(at(doc, line.volumes)):
            volume = mapping(volume)
            if isinstance(volume.get("mountPath"), str) and isinstance(volume.get("hostPath"), str):
                pairs.append((volume["mountPath"], volume["hostPath"]))
        return pairs
    container = at(doc, line.path)
    spec = mapping(doc.get("spec"))
    volumes = {text(mapping(v).get("name")): mapping(v) for _i, v in items(spec.get("volumes")) if isinstance(mapping(v).get("name"), str)}
    pairs: list[tuple[str, str | None]] = []
    for _index, mount in items(mapping(container).get("volumeMounts")):
        mount = mapping(mount)
        volume = volumes.get(text(mount.get("name")))
        if isinstance(mount.get("mountPath"), str) and volume is not None:
            host = mapping(volume.get("hostPath")).get("path")
            pairs.append((mount["mountPath"], host if isinstance(host, str) else None))
    return pairs


def _host_path(path: str, mounts: list[tuple[str, str | None]]) -> tuple[bool, str | None]:
    """(mounted, host file) behind a container path, through the longest mountPath that holds it; the host file is
    None for a volume that is not a hostPath."""
    best: tuple[str, str | None] | None = None
    for mount, host in mounts:
        inside = path == mount or path.startswith(mount.rstrip("/") + "/")
        if inside and (best is None or len(mount) > len(best[0])):
            best = (mount, host)
    if best is None:
        return False, None
    mount, host = best
    rest = path[len(mount) :].lstrip("/")
    return True, (posixpath.join(host, rest) if rest and host is not None else host)


def _not_mounted(line: CommandLine, arg: Arg) -> Finding:
    where = "extraVolumes" if line.volumes is not None else "volumeMounts"
    return Finding(
        "flag-file-not-mounted",
        arg.value_path,
        f"--{arg.name}={arg.value}: no {where} mountPath holds this path, so {line.component} cannot read it in its container",
        Severity.WARNING,
    )


def _kind_in_file(host: str, ctx: Context) -> str | None:
    """The kind of the first document of the host file, where svcconf may read it; None when it may not or cannot."""
    path = _readable(host, ctx)
    if path is None:
        return None
    from svcconf.known.naming import Naming
    from svcconf.load.source import load_bytes

    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_SIZE + 1)
    except OSError:
        return None
    if len(data) > MAX_SIZE:
        return None
    source = load_bytes(path, data, keep_nodes=False)
    for document in source.documents:
        kind = mapping(document.data).get("kind")
        if isinstance(kind, str):
            return Naming(ctx.api_domain).kind(kind)
    return None


def _readable(host: str, ctx: Context) -> str | None:
    """Where svcconf may read a host path: a regular file of the repository (the working directory), reached without
    symbolic links; an absolute path is looked up under the repository root (a repository that mirrors the node's
    folders), and on the node itself only with --fs-checks."""
    if os.path.isabs(host) and ctx.fs_checks:
        return host if _regular(host) else None
    if in_memory(ctx.file):
        return None
    root = os.path.realpath(os.getcwd())
    base = root if os.path.isabs(host) else os.path.realpath(os.path.dirname(os.path.abspath(ctx.file)))
    candidate = os.path.normpath(os.path.join(base, host.lstrip("/")))
    if os.path.realpath(candidate) != candidate or not candidate.startswith(root + os.sep):
        return None  # outside the repository, or through a symbolic link
    return candidate if _regular(candidate) else None


def _regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False
