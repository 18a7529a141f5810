"""kube-proxy warnings beyond its own validation: settings kube-proxy ignores or cannot honour at run time."""

from __future__ import annotations

from collections.abc import Iterator

from svcconf.model import Finding
from svcconf.rules import Context, advice, items, mapping, text

# Schedulers of the Linux IPVS kernel modules (ip_vs_<name>); kube-proxy accepts any name since 1.27
# and fails at run time when the kernel lacks the module.
IPVS_SCHEDULERS = ("rr", "wrr", "lc", "wlc", "lblc", "lblcr", "sh", "dh", "sed", "nq", "fo", "ovf", "mh", "twos")
DEFAULT_MASQUERADE_BIT = 14  # kube-proxy iptables.masqueradeBit and kubelet iptablesMasqueradeBit


def check_runtime_advice(doc: dict, ctx: Context, parse_cidr) -> Iterator[Finding]:
    yield from _conntrack_min(doc)
    yield from _ipvs_scheduler(doc)
    yield from _node_port_families(doc, parse_cidr)
    yield from _kubelet_masquerade_bit(doc, ctx)


def _conntrack_min(doc: dict) -> Iterator[Finding]:
    """getConntrackMax sizes the table only when maxPerCore > 0; min is a floor of that computation."""
    conntrack = mapping(doc.get("conntrack"))
    if conntrack.get("maxPerCore") == 0 and conntrack.get("min") not in (None, 0):
        yield advice(
            "proxy-conntrack-min-ignored",
            ("conntrack", "min"),
            "conntrack.min is ignored: maxPerCore 0 leaves the kernel's conntrack table size untouched",
        )


def _ipvs_scheduler(doc: dict) -> Iterator[Finding]:
    scheduler = mapping(doc.get("ipvs")).get("scheduler")
    if doc.get("mode") == "ipvs" and isinstance(scheduler, str) and scheduler and scheduler not in IPVS_SCHEDULERS:
        yield advice(
            "proxy-ipvs-scheduler-unknown",
            ("ipvs", "scheduler"),
            f'ipvs.scheduler "{scheduler}" is not an IPVS scheduler of the Linux kernel ({", ".join(IPVS_SCHEDULERS)}); '
            "kube-proxy accepts the name, but the IPVS proxier fails at start-up unless the kernel provides it",
        )


def _node_port_families(doc: dict, parse_cidr) -> Iterator[Finding]:
    """NodePort addresses of one IP family only, on a cluster of the other family: no NodePort is reachable."""
    ports = [parse_cidr(e) for _k, e in items(doc.get("nodePortAddresses")) if isinstance(e, str) and "/" in e]
    cluster = [parse_cidr(c) for c in text(doc.get("clusterCIDR")).split(",") if c]
    port_families = {n.version for n in ports if n is not None}
    cluster_families = {n.version for n in cluster if n is not None}
    if port_families and cluster_families and not port_families & cluster_families:
        have, want = (f"IPv{min(f)}" for f in (port_families, cluster_families))
        yield advice(
            "proxy-node-port-family-mismatch",
            ("nodePortAddresses",),
            f"nodePortAddresses are all {have} while clusterCIDR is {want} only: kube-proxy opens NodePorts only on "
            f"node IPs inside these CIDRs, so no {want} NodePort is served",
        )


def _kubelet_masquerade_bit(doc: dict, ctx: Context) -> Iterator[Finding]:
    """The kubelet and kube-proxy must agree on the fwmark bit that marks packets for SNAT."""
    if doc.get("mode") not in (None, "", "iptables", "ipvs"):
        return
    proxy_bit = mapping(doc.get("iptables")).get("masqueradeBit", DEFAULT_MASQUERADE_BIT)
    if not isinstance(proxy_bit, int):
        return
    first, other = ctx.siblings.derived("kubelet-masquerade-bits", lambda: _kubelet_bits(ctx.siblings))
    # The first kubelet document whose bit differs from the proxy's: the first one, or else the first that differs from it.
    kubelet_bit = first if first is not None and first != proxy_bit else other
    if kubelet_bit is not None:
        path = ("iptables", "masqueradeBit") if "masqueradeBit" in mapping(doc.get("iptables")) else ("mode",)
        yield advice(
            "proxy-masquerade-bit-differs-from-kubelet",
            path,
            f"iptables.masqueradeBit {proxy_bit} differs from the kubelet's iptablesMasqueradeBit {kubelet_bit} in this "
            "file: both mark packets for SNAT with that bit, so they must be equal",
        )


def _kubelet_bits(siblings: list) -> tuple[int | None, int | None]:
    """The iptablesMasqueradeBit of the file's first kubelet document, and the first bit that differs from it."""
    first = None
    for sibling in siblings:
        if not isinstance(sibling, dict) or sibling.get("kind") != "KubeletConfiguration":
            continue
        bit = sibling.get("iptablesMasqueradeBit", DEFAULT_MASQUERADE_BIT)
        if not isinstance(bit, int):
            continue
        if first is None:
            first = bit
        elif bit != first:
            return first, bit
    return first, None


def detect_local_leftovers(doc: dict, mode: str) -> Iterator[Finding]:
    """Settings of a local-traffic detection mode other than the one in effect."""
    detect = mapping(doc.get("detectLocal"))
    for name, wanted in (("bridgeInterface", "BridgeInterface"), ("interfaceNamePrefix", "InterfaceNamePrefix")):
        if text(detect.get(name)) and mode != wanted:
            yield advice(
                "proxy-setting-for-other-mode",
                ("detectLocal", name),
                f"detectLocal.{name} is ignored: detectLocalMode is {mode or 'empty'}, not {wanted}",
            )
    if text(doc.get("clusterCIDR")) and mode in ("NodeCIDR", "BridgeInterface", "InterfaceNamePrefix"):
        yield advice("proxy-setting-for-other-mode", ("clusterCIDR",), f"clusterCIDR is not used with detectLocalMode {mode}")
    if doc.get("detectLocalMode") == "ClusterCIDR" and not text(doc.get("clusterCIDR")):
        yield advice(
            "proxy-local-detection-disabled",
            ("detectLocalMode",),
            "detectLocalMode ClusterCIDR without clusterCIDR: kube-proxy disables local traffic detection",
        )
