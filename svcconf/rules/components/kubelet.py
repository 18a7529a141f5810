"""KubeletConfiguration rules: the kubelet's own range checks, and in a bootstrap file the values the tool keeps consistent."""

from __future__ import annotations

from collections.abc import Iterator

from svcconf.model import Finding
from .. import Context, advice, items, mapping, rule
from ..bootstrap.cross import cluster_values, dns_ip, first_of, recommended, siblings_of

KIND = "KubeletConfiguration"

# field path -> the value the bootstrap tool writes (reference/kubeadm.md 6.2); None: derived below.
RECOMMENDED = (
    (("staticPodPath",), "staticPodPath", "/etc/kubernetes/manifests"),
    (("authentication", "anonymous", "enabled"), "authentication.anonymous.enabled", False),
    (("authentication", "webhook", "enabled"), "authentication.webhook.enabled", True),
    (("authorization", "mode"), "authorization.mode", "Webhook"),
    (("healthzBindAddress",), "healthzBindAddress", "127.0.0.1"),
    (("healthzPort",), "healthzPort", 10248),
    (("readOnlyPort",), "readOnlyPort", 0),
)


# field, flag, low, high, shape: the kubelet's ValidateKubeletConfiguration, for values written in the file
# (an unset field takes a default that passes); for ports 0 is the zero value (default or switched off).
RANGES = (
    ("healthzPort", "healthz-port", 1, 65535, "port"),
    ("port", "port", 1, 65535, "port"),
    ("readOnlyPort", "read-only-port", 0, 65535, "port"),
    ("imageGCHighThresholdPercent", "image-gc-high-threshold", 0, 100, "range"),
    ("imageGCLowThresholdPercent", "image-gc-low-threshold", 0, 100, "range"),
    ("iptablesDropBit", "iptables-drop-bit", 0, 31, "range"),
    ("iptablesMasqueradeBit", "iptables-masquerade-bit", 0, 31, "range"),
    ("oomScoreAdj", "oom-score-adj", -1000, 1000, "range"),
)
NON_NEGATIVE = (
    ("eventBurst", "event-burst"),
    ("eventRecordQPS", "event-qps"),
    ("kubeAPIBurst", "kube-api-burst"),
    ("kubeAPIQPS", "kube-api-qps"),
    ("maxOpenFiles", "max-open-files"),
    ("maxPods", "max-pods"),
    ("podsPerCore", "pods-per-core"),
    ("registryBurst", "registry-burst"),
    ("registryPullQPS", "registry-qps"),
)
GC_DEFAULTS = {"imageGCHighThresholdPercent": 85, "imageGCLowThresholdPercent": 80}


def _int(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@rule(KIND)
def check_ranges(doc: dict, ctx: Context) -> Iterator[Finding]:
    for field, flag, low, high, shape in RANGES:
        value = _int(doc.get(field))
        if value is None or (shape == "port" and value == 0):
            continue  # 0 is the zero value: the default port, or the feature switched off
        if not low <= value <= high:
            yield Finding(
                "kubelet-value-out-of-range",
                (field,),
                f"invalid configuration: {field} (--{flag}) {value} must be between {low} and {high}, inclusive",
            )
    for field, flag in NON_NEGATIVE:
        value = _int(doc.get(field))
        if value is not None and value < 0:
            yield Finding(
                "kubelet-value-out-of-range", (field,), f"invalid configuration: {field} (--{flag}) {value} must not be a negative number"
            )
    images = _int(doc.get("nodeStatusMaxImages"))
    if images is not None and images < -1:
        yield Finding(
            "kubelet-value-out-of-range",
            ("nodeStatusMaxImages",),
            "invalid configuration: nodeStatusMaxImages (--node-status-max-images) must be -1 or greater",
        )
    lease = _int(doc.get("nodeLeaseDurationSeconds"))
    if lease is not None and lease < 0:
        yield Finding(
            "kubelet-value-out-of-range",
            ("nodeLeaseDurationSeconds",),
            "invalid configuration: nodeLeaseDurationSeconds must be greater than 0",
        )
    yield from _image_gc(doc)


def _image_gc(doc: dict) -> Iterator[Finding]:
    written = {f: _int(doc.get(f)) for f in GC_DEFAULTS}
    if all(v is None for v in written.values()):
        return
    high = (
        written["imageGCHighThresholdPercent"]
        if written["imageGCHighThresholdPercent"] is not None
        else GC_DEFAULTS["imageGCHighThresholdPercent"]
    )
    low = (
        written["imageGCLowThresholdPercent"]
        if written["imageGCLowThresholdPercent"] is not None
        else GC_DEFAULTS["imageGCLowThresholdPercent"]
    )
    if low >= high:
        field = "imageGCLowThresholdPercent" if written["imageGCLowThresholdPercent"] is not None else "imageGCHighThresholdPercent"
        yield Finding(
            "kubelet-value-out-of-range",
            (field,),
            f"invalid configuration: imageGCLowThresholdPercent (--image-gc-low-threshold) {low} must be less than "
            f"imageGCHighThresholdPercent (--image-gc-high-threshold) {high}",
        )


@rule(KIND)
def check_bootstrap_file(doc: dict, ctx: Context) -> Iterator[Finding]:
    from ..bootstrap.cross import check

    yield from check(doc, ctx)
    kinds = {kind for kind, _doc in siblings_of(ctx)}
    if not kinds & {"InitConfiguration", "ClusterConfiguration"} or ctx.options.get("bootstrap") == "join":
        return  # a kubelet file of its own: nothing to agree with
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
