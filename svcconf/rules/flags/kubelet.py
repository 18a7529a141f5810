"""kubeletExtraArgs beside a KubeletConfiguration: a flag that sets a field of the config file wins over the file.

kubeadm writes the KubeletConfiguration of its file to /var/lib/kubelet/config.yaml and the
kubeletExtraArgs to the kubelet's command line; the kubelet reads the file, then applies its flags
over it (cmd/kubelet/app/server.go kubeletConfigFlagPrecedence), so the file's value is silently
ignored. The flags below are bound to the fields named (cmd/kubelet/app/options/options.go
AddKubeletConfigFlags).
"""

from __future__ import annotations

from collections.abc import Iterator

from svcconf.known.flags.arguments import CommandLine, merged
from svcconf.known.naming import Naming
from svcconf.model import Finding, Severity, render_path

from .. import Context, mapping

# Flag -> field path of KubeletConfiguration. cgroup-driver is left out: the bootstrap rules compare it already.
FIELDS = {
    "address": ("address",),
    "anonymous-auth": ("authentication", "anonymous", "enabled"),
    "authentication-token-webhook": ("authentication", "webhook", "enabled"),
    "authorization-mode": ("authorization", "mode"),
    "client-ca-file": ("authentication", "x509", "clientCAFile"),
    "cluster-dns": ("clusterDNS",),
    "cluster-domain": ("clusterDomain",),
    "container-runtime-endpoint": ("containerRuntimeEndpoint",),
    "cpu-manager-policy": ("cpuManagerPolicy",),
    "eviction-hard": ("evictionHard",),
    "fail-swap-on": ("failSwapOn",),
    "feature-gates": ("featureGates",),
    "healthz-port": ("healthzPort",),
    "image-gc-high-threshold": ("imageGCHighThresholdPercent",),
    "image-gc-low-threshold": ("imageGCLowThresholdPercent",),
    "kube-reserved": ("kubeReserved",),
    "max-pods": ("maxPods",),
    "pod-cidr": ("podCIDR",),
    "port": ("port",),
    "protect-kernel-defaults": ("protectKernelDefaults",),
    "read-only-port": ("readOnlyPort",),
    "resolv-conf": ("resolvConf",),
    "rotate-certificates": ("rotateCertificates",),
    "rotate-server-certificates": ("serverTLSBootstrap",),
    "serialize-image-pulls": ("serializeImagePulls",),
    "static-pod-path": ("staticPodPath",),
    "system-reserved": ("systemReserved",),
    "tls-cert-file": ("tlsCertFile",),
    "tls-cipher-suites": ("tlsCipherSuites",),
    "tls-min-version": ("tlsMinVersion",),
    "tls-private-key-file": ("tlsPrivateKeyFile",),
    "topology-manager-policy": ("topologyManagerPolicy",),
}
MISSING = object()


def _field(doc: dict, path: tuple) -> object:
    for segment in path[:-1]:
        doc = mapping(doc.get(segment))
    return doc.get(path[-1], MISSING)


def _kubelet_configurations(siblings: list) -> list[dict]:
    return [
        doc
        for doc in siblings
        if isinstance(doc, dict) and isinstance(doc.get("kind"), str) and Naming.kind(doc["kind"]) == "KubeletConfiguration"
    ]


def config_overrides(line: CommandLine, ctx: Context) -> Iterator[Finding]:
    configs = ctx.siblings.derived(("kubelet-configurations",), lambda: _kubelet_configurations(ctx.siblings))
    if not configs:
        return
    for arg in merged(line.args).values():
        path = FIELDS.get(arg.name)
        if path is None or _field(configs[0], path) is MISSING:
            continue
        yield Finding(
            "flag-overrides-config",
            arg.name_path,
            f"--{arg.name} in kubeletExtraArgs overrides {render_path(path)} of the KubeletConfiguration in this file: "
            "the kubelet applies its flags over its config file, so the file's value is not used",
            Severity.WARNING,
            arg.name_anchor,
        )
