"""kube-proxy findings carry the server's wording (rules-components 4.5 and 8.2), with v1alpha1 JSON paths."""

from __future__ import annotations

import pytest

from tests.helpers import run

HEADER = "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\n"

CASES = [
    (
        "bindAddress: 10.10.12.11:2000\n",
        "bindAddress",
        'Invalid value: "10.10.12.11:2000": not a valid textual representation of an IP address',
    ),
    ("metricsBindAddress: localhost:10249\n", "metricsBindAddress", 'Invalid value: "localhost": must be a valid IP'),
    ("healthzBindAddress: 0.0.0.0:0\n", "healthzBindAddress", 'Invalid value: "0": must be a valid port'),
    ("healthzBindAddress: a:b:c\n", "healthzBindAddress", 'Invalid value: "a:b:c": must be IP:port'),
    ("iptables:\n  masqueradeBit: 32\n", "iptables.masqueradeBit", "Invalid value: 32: must be within the range [0, 31]"),
    ("oomScoreAdj: 9000\n", "oomScoreAdj", "Invalid value: 9000: must be within the range [-1000, 1000]"),
    (
        "conntrack:\n  tcpEstablishedTimeout: -5s\n",
        "conntrack.tcpEstablishedTimeout",
        'Invalid value: "-5s": must be greater than or equal to 0',
    ),
    ("conntrack:\n  min: -1\n", "conntrack.min", "Invalid value: -1: must be greater than or equal to 0"),
    (
        "mode: invalid\n",
        "mode",
        'Invalid value: "invalid": must be iptables, ipvs, nftables or blank (blank means the best-available proxy [currently iptables])',
    ),
    ("clientConnection:\n  burst: -1\n", "clientConnection.burst", "Invalid value: -1: must be greater than or equal to 0"),
    ("configSyncPeriod: -1m\n", "configSyncPeriod", 'Invalid value: "-1m0s": must be greater than 0'),
    (
        "iptables:\n  syncPeriod: 1s\n  minSyncPeriod: 2s\n",
        "iptables.syncPeriod",
        'Invalid value: "2s": must be greater than or equal to iptables.minSyncPeriod',
    ),
    ("mode: ipvs\nipvs:\n  minSyncPeriod: -1s\n", "ipvs.minSyncPeriod", 'Invalid value: "-1s": must be greater than or equal to 0'),
    ("mode: ipvs\nipvs:\n  excludeCIDRs: [invalid]\n", "ipvs.excludeCIDRs[0]", 'Invalid value: "invalid": must be a valid CIDR'),
    (
        "nodePortAddresses: [primary, 10.0.0.0/8]\n",
        "nodePortAddresses[0]",
        "Invalid value: \"primary\": can't use both 'primary' and CIDRs",
    ),
    ("nodePortAddresses: [10.20.30.40]\n", "nodePortAddresses[0]", 'Invalid value: "10.20.30.40": must be a valid CIDR'),
    (
        "detectLocalMode: invalid\n",
        "detectLocalMode",
        'Unsupported value: "invalid": supported values: "ClusterCIDR", "NodeCIDR", "BridgeInterface", "InterfaceNamePrefix", ""',
    ),
    ("detectLocalMode: BridgeInterface\n", "detectLocal.bridgeInterface", 'Invalid value: "": must not be empty'),
    (
        "clusterCIDR: 192.168.0.0/16,invalid\n",
        "clusterCIDR",
        'Invalid value: "invalid": must be a valid CIDR block (e.g. 10.100.0.0/16 or fde4:8dba:82e1::/48)',
    ),
    (
        "clusterCIDR: 192.168.0.0/16,10.0.0.0/8\n",
        "clusterCIDR",
        (
            'Invalid value: ["192.168.0.0/16","10.0.0.0/8"]: must be a either a single CIDR or dual-stack pair of CIDRs '
            "(e.g. [10.100.0.0/16, fde4:8dba:82e1::/48]"
        ),
    ),
    ("portRange: 2000-300\n", "portRange", 'Invalid value: "2000-300": must be a valid port range (e.g. 300-2000)'),
    (
        'showHiddenMetricsForVersion: "1.30"\n',
        "showHiddenMetricsForVersion",
        (
            "Invalid value: \"1.30\": --show-hidden-metrics-for-version must be omitted or have the value '1.35'. "
            "Only the previous minor version is allowed"
        ),
    ),
    ("logging:\n  format: xml\n", "logging.format", 'Invalid value: "xml": Unsupported log format'),
    (
        "logging:\n  options:\n    json:\n      splitStream: true\n",
        "logging.options.json.splitStream",
        "Forbidden: Feature LoggingAlphaOptions is disabled",
    ),
]


@pytest.mark.parametrize("body,path,message", CASES, ids=[c[1] + ":" + c[0].split(":")[0] for c in CASES])
def test_upstream_wording(body: str, path: str, message: str) -> None:
    result = run("validate", "--format", "json", "--target-version", "1.36", "-", stdin=(HEADER + body).encode())
    errors = [(d["path"], d["message"]) for d in result.json()["diagnostics"] if d["severity"] == "error"]
    assert (path, message) in errors, errors
    assert result.code == 1


def test_windows_document_uses_the_windows_mode_list() -> None:
    result = run("validate", "--format", "json", "-", stdin=(HEADER + "mode: kernelspace\noomScoreAdj: 9000\n").encode())
    assert result.code == 0
    assert [d["rule"] for d in result.json()["diagnostics"]] == ["proxy-ignored-field"]


def test_nftables_message_before_1_31_lists_two_modes() -> None:
    result = run("validate", "--format", "json", "--target-version", "1.30", "-", stdin=(HEADER + "mode: nftables\n").encode())
    (diagnostic,) = result.json()["diagnostics"]
    assert diagnostic["message"] == (
        'Invalid value: "nftables": must be iptables, ipvs or blank (blank means the best-available proxy [currently iptables])'
    )


def test_windows_service_document_refuses_linux_modes() -> None:
    text = HEADER + "windowsRunAsService: true\nmode: ipvs\n"
    result = run("validate", "--format", "json", "-", stdin=text.encode())
    errors = [(d["path"], d["message"]) for d in result.json()["diagnostics"] if d["severity"] == "error"]
    assert errors == [
        ("mode", "Invalid value: \"ipvs\": must be kernelspace or blank (blank means the most-available proxy [currently 'kernelspace'])")
    ]
