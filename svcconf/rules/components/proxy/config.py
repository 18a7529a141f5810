"""KubeProxyConfiguration rules: kube-proxy's own validation after defaulting, plus warnings it does not give.

Paths are the v1alpha1 JSON names (`iptables.syncPeriod`), as kube-proxy reports them from 1.37 on;
1.31-1.36 print internal Go names for the same checks. Values are defaulted first, as the server
does: a zero duration or an empty address takes its default and is therefore never an error.
The platform is Linux unless the document says Windows (`mode: kernelspace`, `windowsRunAsService`).
"""

from __future__ import annotations

from collections.abc import Iterator

from svcconf.go.durations import SECOND, duration_or_default, format_duration
from svcconf.go.names import is_subdomain
from svcconf.go.net import AddressError, parse_cidr_sloppy, parse_ip_sloppy, parse_port_range, split_host_port
from svcconf.go.numbers import parse_int
from svcconf.model import Finding
from svcconf.rules import Context, advice, invalid, items, mapping, not_supported, rule, text

from ..base import check_client_connection
from .advice import check_runtime_advice, detect_local_leftovers
from .gates import check_feature_gates
from .log_options import check_logging

KIND = "KubeProxyConfiguration"
LINUX_MODES = ("iptables", "ipvs", "nftables")
DETECT_LOCAL_MODES = ("ClusterCIDR", "NodeCIDR", "BridgeInterface", "InterfaceNamePrefix", "")
# Per-block defaults: syncPeriod, minSyncPeriod (ipvs minSyncPeriod is not defaulted).
SYNC_DEFAULTS = {"iptables": (30 * SECOND, SECOND), "ipvs": (30 * SECOND, 0), "nftables": (30 * SECOND, SECOND)}
# Upstream defaults of each block: a value that differs is "set" (for the other-mode warning).
BLOCK_DEFAULTS = {
    "iptables": {
        "masqueradeBit": 14,
        "masqueradeAll": False,
        "localhostNodePorts": True,
        "syncPeriod": 30 * SECOND,
        "minSyncPeriod": SECOND,
    },
    "ipvs": {
        "syncPeriod": 30 * SECOND,
        "minSyncPeriod": 0,
        "scheduler": "",
        "excludeCIDRs": None,
        "strictARP": False,
        "tcpTimeout": 0,
        "tcpFinTimeout": 0,
        "udpTimeout": 0,
    },
    "nftables": {"masqueradeBit": 14, "masqueradeAll": False, "syncPeriod": 30 * SECOND, "minSyncPeriod": SECOND},
}
# Which settings each mode reads; ipvs mode also uses the iptables masquerade settings.
READ_BY = {
    "iptables": {"iptables": None},
    "ipvs": {"ipvs": None, "iptables": {"masqueradeBit", "masqueradeAll"}},
    "nftables": {"nftables": None},
    "kernelspace": {},
}
CONNTRACK_INTS = ("maxPerCore", "min")
CONNTRACK_DURATIONS = ("tcpEstablishedTimeout", "tcpCloseWaitTimeout", "udpTimeout", "udpStreamTimeout")
IPVS_TIMEOUTS = ("tcpTimeout", "tcpFinTimeout", "udpTimeout")
INT32_MAX = 2147483647


# --------------------------------------------------------------------------- shared helpers


def platform(doc: dict) -> str:
    if doc.get("mode") == "kernelspace" or doc.get("windowsRunAsService") is True:
        return "windows"
    return "linux"


def selected_block(mode) -> str:
    return mode if mode in ("ipvs", "nftables") else "iptables"


def _gate(doc: dict, name: str, default: bool) -> bool:
    value = mapping(doc.get("featureGates")).get(name)
    return value if isinstance(value, bool) else default


# --------------------------------------------------------------------------- upstream validation


@rule(KIND)
def check_mode_blocks(doc: dict, ctx: Context) -> Iterator[Finding]:
    linux = platform(doc) == "linux"
    iptables, ipvs, nftables = (mapping(doc.get(b)) for b in ("iptables", "ipvs", "nftables"))
    yield from _masquerade_bit(("iptables", "masqueradeBit"), iptables.get("masqueradeBit"))
    mode = doc.get("mode")
    if mode == "ipvs" and linux:
        for name in IPVS_TIMEOUTS:
            ns = duration_or_default(ipvs.get(name), 0)
            if ns is not None and ns < 0:
                yield invalid(("ipvs", name), format_duration(ns), "must be greater than or equal to 0", "proxy-ipvs-timeout-negative")
        for k, cidr in items(ipvs.get("excludeCIDRs")):
            if isinstance(cidr, str) and parse_cidr_sloppy(cidr) is None:
                yield invalid(("ipvs", "excludeCIDRs", k), cidr, "must be a valid CIDR", "proxy-invalid-exclude-cidr")
    if mode == "nftables" and linux:
        yield from _masquerade_bit(("nftables", "masqueradeBit"), nftables.get("masqueradeBit"))


def _masquerade_bit(path: tuple, bit) -> Iterator[Finding]:
    if isinstance(bit, int) and not isinstance(bit, bool) and not 0 <= bit <= 31:
        yield invalid(path, bit, "must be within the range [0, 31]", "proxy-masquerade-bit-out-of-range")


@rule(KIND)
def check_linux_settings(doc: dict, ctx: Context) -> Iterator[Finding]:
    if platform(doc) != "linux":
        return
    oom = doc.get("oomScoreAdj")
    if isinstance(oom, int) and not isinstance(oom, bool) and not -1000 <= oom <= 1000:
        yield invalid(("oomScoreAdj",), oom, "must be within the range [-1000, 1000]", "proxy-oom-score-adj-out-of-range")
    conntrack = mapping(doc.get("conntrack"))
    for name in CONNTRACK_INTS:
        value = conntrack.get(name)
        if isinstance(value, int) and not isinstance(value, bool) and value < 0:
            yield invalid(("conntrack", name), value, "must be greater than or equal to 0", "proxy-conntrack-negative")
    for name in CONNTRACK_DURATIONS:
        ns = duration_or_default(conntrack.get(name), 0)
        if ns is not None and ns < 0:
            yield invalid(("conntrack", name), format_duration(ns), "must be greater than or equal to 0", "proxy-conntrack-negative")


@rule(KIND)
def check_mode(doc: dict, ctx: Context) -> Iterator[Finding]:
    mode = doc.get("mode")
    if not isinstance(mode, str) or mode == "":
        return
    if platform(doc) == "windows":
        if mode != "kernelspace":
            detail = "must be kernelspace or blank (blank means the most-available proxy [currently 'kernelspace'])"
            yield invalid(("mode",), mode, detail, "proxy-mode-unsupported")
        return
    nftables = ctx.at_least(1, 31) or (ctx.at_least(1, 29) and _gate(doc, "NFTablesProxyMode", False))
    modes = [m for m in LINUX_MODES if m != "nftables" or nftables]
    if mode not in modes:
        yield invalid(
            ("mode",),
            mode,
            f"must be {', '.join(modes)} or blank (blank means the best-available proxy [currently iptables])",
            "proxy-mode-unsupported",
        )


@rule(KIND)
def check_sync_periods(doc: dict, ctx: Context) -> Iterator[Finding]:
    connection = mapping(doc.get("clientConnection"))
    burst = connection.get("burst")
    if isinstance(burst, int) and not isinstance(burst, bool) and burst < 0:
        yield invalid(("clientConnection", "burst"), burst, "must be greater than or equal to 0", "proxy-burst-negative")
    # kube-proxy words the burst check itself; the shared module adds the qps and content-type advice.
    yield from check_client_connection(("clientConnection",), connection, ctx, check_burst=False)
    config_sync = duration_or_default(doc.get("configSyncPeriod"), 15 * 60 * SECOND)
    if config_sync is not None and config_sync <= 0:
        yield invalid(
            ("configSyncPeriod",), format_duration(config_sync), "must be greater than 0", "proxy-config-sync-period-not-positive"
        )
    block = selected_block(doc.get("mode"))
    yield from _block_sync_periods(block, mapping(doc.get(block)))


def _block_sync_periods(block: str, settings: dict) -> Iterator[Finding]:
    default_sync, default_min = SYNC_DEFAULTS[block]
    sync = duration_or_default(settings.get("syncPeriod"), default_sync)
    minimum = duration_or_default(settings.get("minSyncPeriod"), default_min)
    if sync is not None and sync <= 0:
        yield invalid((block, "syncPeriod"), format_duration(sync), "must be greater than 0", "proxy-sync-period-not-positive")
    if minimum is not None and minimum < 0:
        yield invalid(
            (block, "minSyncPeriod"), format_duration(minimum), "must be greater than or equal to 0", "proxy-min-sync-period-negative"
        )
    if sync is not None and minimum is not None and minimum > sync:
        yield invalid(
            (block, "syncPeriod"),
            format_duration(minimum),
            f"must be greater than or equal to {block}.minSyncPeriod",
            "proxy-min-sync-period-above-sync-period",
        )


@rule(KIND)
def check_addresses(doc: dict, ctx: Context) -> Iterator[Finding]:
    bind = doc.get("bindAddress")
    if isinstance(bind, str) and bind and parse_ip_sloppy(bind) is None:
        yield invalid(("bindAddress",), bind, "not a valid textual representation of an IP address", "proxy-invalid-bind-address")
    for field in ("healthzBindAddress", "metricsBindAddress"):
        value = doc.get(field)
        if isinstance(value, str) and value and parse_ip_sloppy(value) is None:
            yield from _host_port((field,), value)
    port_range = doc.get("portRange")
    if isinstance(port_range, str) and port_range and parse_port_range(port_range) is None:
        yield invalid(("portRange",), port_range, "must be a valid port range (e.g. 300-2000)", "proxy-invalid-port-range")
    yield from _node_port_addresses(doc.get("nodePortAddresses"), ctx)


def _host_port(path: tuple, value: str) -> Iterator[Finding]:
    try:
        host, port = split_host_port(value)
    except AddressError:
        yield invalid(path, value, "must be IP:port", "proxy-invalid-host-port")
        return
    if parse_ip_sloppy(host) is None:
        yield invalid(path, host, "must be a valid IP", "proxy-invalid-host-port")
    number = parse_int(port)  # strconv.Atoi: a sign is allowed
    if number is None or not 1 <= number <= 65535:
        yield invalid(path, port, "must be a valid port", "proxy-invalid-host-port")


def _node_port_addresses(addresses, ctx: Context) -> Iterator[Finding]:
    entries = list(items(addresses))
    for k, entry in entries:
        if not isinstance(entry, str):
            continue
        if entry == "primary" and ctx.at_least(1, 29):
            if len(entries) > 1:
                yield invalid(("nodePortAddresses", k), entry, "can't use both 'primary' and CIDRs", "proxy-invalid-node-port-address")
                return  # the server stops at the first "primary"
            continue
        if parse_cidr_sloppy(entry) is None:
            yield invalid(("nodePortAddresses", k), entry, "must be a valid CIDR", "proxy-invalid-node-port-address")


@rule(KIND)
def check_hidden_metrics(doc: dict, ctx: Context) -> Iterator[Finding]:
    value = doc.get("showHiddenMetricsForVersion")
    allowed = f"{ctx.target[0]}.{ctx.target[1] - 1}"
    if isinstance(value, str) and value and value != allowed:
        yield invalid(
            ("showHiddenMetricsForVersion",),
            value,
            f"--show-hidden-metrics-for-version must be omitted or have the value '{allowed}'. Only the previous minor version is allowed",
            "proxy-hidden-metrics-version",
        )


@rule(KIND)
def check_detect_local(doc: dict, ctx: Context) -> Iterator[Finding]:
    mode = doc.get("detectLocalMode")
    if isinstance(mode, str) and mode not in DETECT_LOCAL_MODES:
        yield not_supported(("detectLocalMode",), mode, DETECT_LOCAL_MODES, "proxy-detect-local-mode-unsupported")
        return
    detect = mapping(doc.get("detectLocal"))
    if mode == "BridgeInterface" and not text(detect.get("bridgeInterface")):
        yield invalid(("detectLocal", "bridgeInterface"), "", "must not be empty", "proxy-detect-local-interface-empty")
    if mode == "InterfaceNamePrefix" and not text(detect.get("interfaceNamePrefix")):
        yield invalid(("detectLocal", "interfaceNamePrefix"), "", "must not be empty", "proxy-detect-local-interface-empty")
    if effective_detect_local(doc) == "ClusterCIDR":
        yield from _cluster_cidrs(doc.get("clusterCIDR"))


def effective_detect_local(doc: dict) -> str:
    mode = doc.get("detectLocalMode")
    if mode:
        return mode
    return "ClusterCIDR" if platform(doc) == "linux" else ""


def _cluster_cidrs(value) -> Iterator[Finding]:
    if not isinstance(value, str) or not value:
        return
    cidrs = value.split(",")
    pair = "must be a either a single CIDR or dual-stack pair of CIDRs (e.g. [10.100.0.0/16, fde4:8dba:82e1::/48]"
    if len(cidrs) > 2:
        yield invalid(("clusterCIDR",), cidrs, pair, "proxy-invalid-cluster-cidr")
        return
    parsed = [parse_cidr_sloppy(c) for c in cidrs]
    for cidr, network in zip(cidrs, parsed):
        if network is None:
            yield invalid(
                ("clusterCIDR",),
                cidr,
                "must be a valid CIDR block (e.g. 10.100.0.0/16 or fde4:8dba:82e1::/48)",
                "proxy-invalid-cluster-cidr",
            )
    if len(parsed) == 2 and None not in parsed and parsed[0].version == parsed[1].version:
        yield invalid(("clusterCIDR",), cidrs, pair, "proxy-invalid-cluster-cidr")


@rule(KIND)
def check_gates_and_logging(doc: dict, ctx: Context) -> Iterator[Finding]:
    yield from check_feature_gates(doc, ctx)
    yield from check_logging(doc, ctx)


# --------------------------------------------------------------------------- svcconf warnings


@rule(KIND)
def warn_other_mode_settings(doc: dict, ctx: Context) -> Iterator[Finding]:
    mode = doc.get("mode") or ("iptables" if platform(doc) == "linux" else "kernelspace")
    if not isinstance(mode, str) or mode not in READ_BY:  # a wrong type is the schema's to report
        return
    read = READ_BY[mode]
    for block, defaults in BLOCK_DEFAULTS.items():
        settings = doc.get(block)
        if not isinstance(settings, dict):
            continue
        for name, value in settings.items():
            if block in read and (read[block] is None or name in read[block]):
                continue
            if name in defaults and not _is_default(value, defaults[name]):
                yield advice(
                    "proxy-setting-for-other-mode",
                    (block, name),
                    f"{block}.{name} is ignored in {mode} mode: only the {block} proxier reads it",
                )
    for block in BLOCK_DEFAULTS:
        if block != selected_block(doc.get("mode")) and isinstance(doc.get(block), dict):
            yield from _unvalidated_sync_periods(block, doc[block])
    yield from detect_local_leftovers(doc, effective_detect_local(doc))
    if platform(doc) == "linux":
        for name, value in mapping(doc.get("winkernel")).items():
            if value not in (None, "", False):
                yield advice(
                    "proxy-setting-for-other-mode", ("winkernel", name), f"winkernel.{name} applies only on Windows (kernelspace mode)"
                )


def _is_default(value, default) -> bool:
    if isinstance(default, int) and not isinstance(default, bool) and isinstance(value, str):
        return duration_or_default(value, default) == default
    return value == default or (default is None and value == [])


def _unvalidated_sync_periods(block: str, settings: dict) -> Iterator[Finding]:
    default_sync, default_min = SYNC_DEFAULTS[block]
    sync = duration_or_default(settings.get("syncPeriod"), default_sync)
    minimum = duration_or_default(settings.get("minSyncPeriod"), default_min)
    if sync is not None and minimum is not None and minimum > sync:
        yield advice(
            "proxy-unchecked-sync-periods",
            (block, "minSyncPeriod"),
            f"{block}.minSyncPeriod {format_duration(minimum)} is above {block}.syncPeriod {format_duration(sync)}; "
            "kube-proxy checks only the selected mode's periods, so this would fail once the mode changes",
        )


@rule(KIND)
def warn_runtime(doc: dict, ctx: Context) -> Iterator[Finding]:
    yield from check_runtime_advice(doc, ctx, parse_cidr_sloppy)


@rule(KIND)
def warn_deprecated_and_risky(doc: dict, ctx: Context) -> Iterator[Finding]:
    if doc.get("mode") == "ipvs" and ctx.at_least(1, 35):
        yield advice("proxy-ipvs-mode-deprecated", ("mode",), "ipvs mode is deprecated since 1.35; nftables is its successor")
    if text(doc.get("portRange")):
        yield advice("proxy-ignored-field", ("portRange",), "portRange is ignored since the userspace proxier was removed (1.26)")
    if platform(doc) == "windows":
        for name in ("conntrack", "oomScoreAdj"):
            if doc.get(name) not in (None, {}):
                yield advice("proxy-ignored-field", (name,), f"{name} applies only on Linux; this document is for Windows (kernelspace)")
    hostname = doc.get("hostnameOverride")
    # kube-proxy trims and lower-cases the name before using it.
    if isinstance(hostname, str) and hostname.strip() and not is_subdomain(hostname.strip().lower()):
        yield advice(
            "proxy-hostname-not-dns-subdomain",
            ("hostnameOverride",),
            f"hostnameOverride {hostname!r} is not a lowercase DNS subdomain, so it cannot match a Node name",
        )
    if doc.get("enableProfiling") is True:
        metrics = text(doc.get("metricsBindAddress"))
        try:
            host = split_host_port(metrics)[0]
        except AddressError:
            host = metrics
        if host in ("0.0.0.0", "::"):
            yield advice(
                "proxy-profiling-exposed",
                ("enableProfiling",),
                f"profiling is served on the metrics address {metrics}, which listens on every interface",
            )
