"""A KubeletConfiguration in a bootstrap file: the values the tool keeps consistent with the cluster it builds."""

from __future__ import annotations

from collections.abc import Iterator

from svcconf.model import Finding

from .. import Context, advice, items, mapping, rule
from .cross import bootstrap_file, builds_cluster, check, cluster_values, dns_ip, first_of, recommended

KIND = "KubeletConfiguration"

# field path -> the value the bootstrap tool writes (cmd/kubeadm/app/componentconfigs/kubelet.go: Default); None: derived below.
RECOMMENDED = (
    (("staticPodPath",), "staticPodPath", "/etc/kubernetes/manifests"),
    (("authentication", "anonymous", "enabled"), "authentication.anonymous.enabled", False),
    (("authentication", "webhook", "enabled"), "authentication.webhook.enabled", True),
    (("authorization", "mode"), "authorization.mode", "Webhook"),
    (("healthzBindAddress",), "healthzBindAddress", "127.0.0.1"),
    (("healthzPort",), "healthzPort", 10248),
    (("readOnlyPort",), "readOnlyPort", 0),
)


@rule(KIND)
def check_bootstrap_file(doc: dict, ctx: Context) -> Iterator[Finding]:
    if len(ctx.siblings) == 1 and not ctx.bootstrap:
        return  # a kubelet file of its own, read by no bootstrap tool: nothing to agree with or repeat
    yield from check(doc, ctx)
    if not bootstrap_file(ctx).kinds & {"InitConfiguration", "ClusterConfiguration"} or not builds_cluster(ctx):
        return  # a kubelet file of its own, or one join, upgrade or reset ignores: nothing to agree with
    yield from _agreement(doc, ctx)


def _get(doc: dict, path: tuple):
    node = doc
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def _agreement(doc: dict, ctx: Context) -> Iterator[Finding]:
    values = cluster_values(ctx)
    want_dns = dns_ip(values["serviceSubnet"])
    cluster_dns = doc.get("clusterDNS")
    if isinstance(cluster_dns, list) and cluster_dns != [want_dns]:
        yield recommended("cluster-dns-mismatch", ("clusterDNS",), KIND, "clusterDNS", [want_dns], cluster_dns)
    domain = doc.get("clusterDomain")
    if isinstance(domain, str) and domain and domain != values["dnsDomain"]:
        yield recommended("cluster-domain-mismatch", ("clusterDomain",), KIND, "clusterDomain", values["dnsDomain"], domain)
    ca_file = _get(doc, ("authentication", "x509", "clientCAFile"))
    want_ca = values["certificatesDir"].rstrip("/") + "/ca.crt"
    if isinstance(ca_file, str) and ca_file and ca_file != want_ca:
        yield recommended(
            "kubelet-recommended-value",
            ("authentication", "x509", "clientCAFile"),
            KIND,
            "authentication.x509.clientCAFile",
            want_ca,
            ca_file,
        )
    for path, field, want in RECOMMENDED:
        got = _get(doc, path)
        if got is not None and got != want and not (want == 0 and got == 0):
            yield recommended("kubelet-recommended-value", path, KIND, field, want, got)
    yield from _cgroup_driver(doc, ctx)


def _cgroup_driver(doc: dict, ctx: Context) -> Iterator[Finding]:
    driver = doc.get("cgroupDriver")
    if not isinstance(driver, str) or not driver:
        return
    init = first_of(ctx, "InitConfiguration")
    args = mapping(mapping(init).get("nodeRegistration")).get("kubeletExtraArgs")
    flag = None
    if isinstance(args, dict):
        flag = args.get("cgroup-driver")
    for _i, arg in items(args):
        if isinstance(arg, dict) and arg.get("name") == "cgroup-driver":
            flag = arg.get("value")
    if isinstance(flag, str) and flag and flag != driver:
        yield advice(
            "cgroup-driver-mismatch",
            ("cgroupDriver",),
            f"cgroupDriver {driver} disagrees with --cgroup-driver={flag} in nodeRegistration.kubeletExtraArgs, which the kubelet "
            "takes instead; the kubelet and the container runtime must use the same cgroup driver",
        )
