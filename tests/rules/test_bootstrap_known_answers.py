"""The known-answer cases of reference/kubeadm.md section 8, value by value, through the CLI."""

from __future__ import annotations

import json

import pytest

from tests.helpers import run

CLUSTER = "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\n"
INIT = "apiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\n"


def findings(text: str, *flags: str) -> set[tuple[str, str]]:
    result = run("validate", "--no-config", "--format", "json", *flags, "-", stdin=text.encode())
    return {(d["rule"], d["path"]) for d in result.json()["diagnostics"]}


def messages(text: str) -> list[str]:
    result = run("validate", "--no-config", "--format", "json", "-", stdin=text.encode())
    return [d["message"] for d in result.json()["diagnostics"]]


def q(value: str) -> str:
    return json.dumps(value)


# KAT 8: IPFromString, through localAPIEndpoint.advertiseAddress (empty is filled from the host).
@pytest.mark.parametrize("value", ["1234", "1.2", "1.2.3.4/16", "2001:db8::1/64", "2001:xb8::", "2001::db8::"])
def test_kat8_invalid_ip(value: str) -> None:
    text = INIT + f"localAPIEndpoint:\n  advertiseAddress: {q(value)}\n"
    assert findings(text) == {("invalid-advertise-address", "localAPIEndpoint.advertiseAddress")}


@pytest.mark.parametrize("value", ["1.2.3.4", "2001:db8::1", "010.001.002.003"])
def test_kat8_valid_ip(value: str) -> None:
    assert findings(INIT + f"localAPIEndpoint:\n  advertiseAddress: {q(value)}\n") == set()


# KAT 9: ValidatePort (0 is the zero value, defaulted to 6443 before validation).
@pytest.mark.parametrize("port,bad", [(-1234, True), (65538, True), (1, False), (300, False), (65535, False), (0, False)])
def test_kat9_port(port: int, bad: bool) -> None:
    got = findings(INIT + f"localAPIEndpoint:\n  bindPort: {port}\n")
    assert got == ({("invalid-bind-port", "localAPIEndpoint.bindPort")} if bad else set())


# KAT 10, 11, 15: service subnet parsing, families and size.
@pytest.mark.parametrize(
    "value,bad",
    [
        ("10.0.0.16/12", False),
        ("2001:db8::/112", False),
        ("2001:db8::/112,10.0.0.16/12", False),
        ("1.2.3.4,2001:db8::/98", True),
        ("10.0.0.16/29,2001:db8::/112", True),
        ("10.0.0.16/12,192.168.0.0/16", True),
        ("10.0.0.16/12,2001:db8::/112,10.1.0.0/16", True),
        ("10.0.0.16/2", True),
        ("2001:db8::1/64", True),
        ("2001:db8::1/112,10.0.0.16/6", True),
    ],
)
def test_kat10_11_15_service_subnet(value: str, bad: bool) -> None:
    got = findings(CLUSTER + f"networking:\n  serviceSubnet: {q(value)}\n")
    assert got == ({("invalid-service-subnet", "networking.serviceSubnet")} if bad else set())


def test_kat11_and_15_wording() -> None:
    assert messages(CLUSTER + "networking:\n  serviceSubnet: 10.0.0.16/29\n") == [
        'Invalid value: "10.0.0.16/29": subnet with 8 address(es) is too small, the minimum is 10'
    ]
    assert messages(CLUSTER + "networking:\n  serviceSubnet: 2001:db8::1/64\n") == [
        'Invalid value: "2001:db8::/64": specified service subnet is too large; for 128-bit addresses, the mask must be >= 108'
    ]


# KAT 12, 13: pod subnet against the node mask.
@pytest.mark.parametrize(
    "value,message",
    [
        ("10.0.0.16/12", None),
        ("2001:db8::/48", None),
        ("2001:db8::/48,10.0.0.16/12", None),
        ("2001:db8::1/112", '"2001:db8::/112": the size of pod subnet with mask 112 is smaller than the size of node subnet with mask 64'),
        # The value shown is the normalised CIDR, as the tool shows it.
        ("2001:db8::1/12", '"2000::/12": pod subnet mask (12) and node-mask (64) difference is greater than 16'),
    ],
)
def test_kat12_13_node_mask(value: str, message: str | None) -> None:
    got = [m for m in messages(CLUSTER + f"networking:\n  podSubnet: {q(value)}\n") if "node" in m]
    assert got == ([] if message is None else [f"Invalid value: {message}"])


# KAT 16, 40: controlPlaneEndpoint host[:port].
@pytest.mark.parametrize(
    "value,bad",
    [
        ("cp.k8s.io:8081", False),
        ("cp.k8s.io", False),
        ("1.2.3.4:8081", False),
        ("1.2.3.4", False),
        ("[2001:db7::1]:8081", False),
        ("2001:db7::1", False),
        ("1.2.34", False),
        ("a.B.c.d.e", True),
        ("2001:db7:1", True),
        ("1.2.3.4:0", True),
        (":6443", True),
    ],
)
def test_kat16_40_control_plane_endpoint(value: str, bad: bool) -> None:
    got = findings(CLUSTER + f"controlPlaneEndpoint: {q(value)}\n")
    assert got == ({("invalid-control-plane-endpoint", "controlPlaneEndpoint")} if bad else set())


# KAT 25: CRI socket URLs (a plain path is prefixed with unix:// and a warning, as the tool does).
@pytest.mark.parametrize(
    "value,rule",
    [
        ("unix:///some/path", None),
        ("bla:///some/path", "invalid-cri-socket"),
        ("/some/path", "cri-socket-without-scheme"),
        ("npipe:////./pipe/containerd-containerd", "invalid-cri-socket"),
    ],
)
def test_kat25_cri_socket(value: str, rule: str | None) -> None:
    got = findings(INIT + f"nodeRegistration:\n  criSocket: {q(value)}\n")
    assert got == (set() if rule is None else {(rule, "nodeRegistration.criSocket")})


# KAT 29: image repositories.
@pytest.mark.parametrize("value", ["a", "a.b.c", "a.b.c/repo", "a:5000", "a.b.c:5000", "a.b.c:5000/repo", "a/b/c", "127.0.0.1:5000/repo"])
def test_kat29_valid_repository(value: str) -> None:
    assert findings(CLUSTER + f"imageRepository: {q(value)}\n") == set()


@pytest.mark.parametrize("value", ["a.b/c\n s", " a.b.c", "a.b c", "a.b.c:5000/", "https://a.b.c:5000", "a//b/c", "a.b.c:5000/test:1.0"])
def test_kat29_invalid_repository(value: str) -> None:
    assert findings(CLUSTER + f"imageRepository: {q(value)}\n") == {("invalid-image-repository", "imageRepository")}


# KAT 30: absolute paths.
@pytest.mark.parametrize("value,bad", [("/etc/cert/dir", False), ("./tmp", True), ("foo..", True)])
def test_kat30_absolute_path(value: str, bad: bool) -> None:
    got = findings(CLUSTER + f"certificatesDir: {q(value)}\n")
    assert got == ({("bootstrap-path-not-absolute", "certificatesDir")} if bad else set())


# KAT 31: extraArgs names, one error per nameless entry.
def test_kat31_extra_args() -> None:
    text = CLUSTER + 'scheduler:\n  extraArgs:\n  - name: ""\n    value: foo\n  - name: ""\n    value: bar\n  - name: foo\n    value: bar\n'
    # kubeadm accepts the name foo; kube-scheduler then refuses --foo (the flags rules, tests/rules/test_flags.py).
    assert findings(text) == {
        ("extra-arg-without-name", "scheduler.extraArgs[0]"),
        ("extra-arg-without-name", "scheduler.extraArgs[1]"),
        ("unknown-flag", "scheduler.extraArgs[2].name"),
    }


# KAT 33: unknown gates are refused whatever their value.
@pytest.mark.parametrize("value", ["true", "false"])
def test_kat33_unknown_gate(value: str) -> None:
    assert findings(CLUSTER + f"featureGates:\n  Unknown: {value}\n") == {("unknown-bootstrap-feature-gate", "featureGates.Unknown")}


# KAT 34: ignorePreflightErrors with all.
@pytest.mark.parametrize("value,bad", [("[a, b, a]", False), ("[all, all]", False), ("[a, b, all]", True), ("[A, ALL]", True)])
def test_kat34_preflight(value: str, bad: bool) -> None:
    got = findings(INIT + f"nodeRegistration:\n  ignorePreflightErrors: {value}\n")
    assert got == ({("preflight-all-with-others", "nodeRegistration.ignorePreflightErrors")} if bad else set())


# KAT 36: strict decoding; KAT 38: a document without kind.
def test_kat36_unknown_field_and_bare_init() -> None:
    assert findings(INIT + "foo: bar\n") == {("unknown-field", "foo")}
    assert findings(INIT) == set()


def test_kat38_document_without_kind() -> None:
    assert ("missing-field", "kind") in findings(INIT + "---\napiVersion: kubeadm.k8s.io/v1beta4\nbootstrapTokens: []\n")


# KAT 24, 26: discovery file URLs and etcd endpoint schemes.
@pytest.mark.parametrize(
    "value,bad", [("https://url/file.conf", False), ("/etc/kubernetes/discovery.conf", False), ("http://url/file.conf", True)]
)
def test_kat24_discovery_file(value: str, bad: bool) -> None:
    text = "apiVersion: kubeadm.k8s.io/v1beta4\nkind: JoinConfiguration\ndiscovery:\n  file:\n    kubeConfigPath: " + q(value) + "\n"
    got = findings(text)
    assert got == ({("invalid-discovery-file", "discovery.file.kubeConfigPath")} if bad else set())


@pytest.mark.parametrize("value,bad", [("http://example.com", False), ("::://example.com", True), ("example.com", True)])
def test_kat26_etcd_endpoint(value: str, bad: bool) -> None:
    text = CLUSTER + f"etcd:\n  external:\n    endpoints: [{q(value)}]\n"
    got = findings(text)
    assert got == ({("invalid-etcd-endpoint", "etcd.external.endpoints[0]")} if bad else set())
