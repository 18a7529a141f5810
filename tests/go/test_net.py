"""svcconf.go.net against the known answers of Go's and Kubernetes' own tests.

Sources: golang/go src/net/ip_test.go (parseIPTests, TestSplitHostPort) for the Go >= 1.17 parser;
kubernetes/utils internal/third_party/forked/golang/net/ip_test.go (parseIPTests, parseCIDRTests)
for the sloppy parsers; kubernetes/apimachinery pkg/util/net/port_range_test.go for port ranges.
"""

from __future__ import annotations

from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network

import pytest

from svcconf.go.net import AddressError, parse_cidr_sloppy, parse_ip, parse_ip_sloppy, parse_port, parse_port_range, split_host_port

V4 = IPv4Address
V6 = IPv6Address
GO_ADDRESS = V6("2001:4860:0:2001::68")

# The cases golang/go src/net/ip_test.go parseIPTests and its Kubernetes fork (kubernetes/utils
# internal/third_party/forked/golang/net/ip_test.go) share; an IPv4-mapped address is an IPv4 address to Go.
BOTH_PARSE_IP = [
    ("127.0.1.2", V4("127.0.1.2")),
    ("127.0.0.1", V4("127.0.0.1")),
    ("::ffff:127.1.2.3", V4("127.1.2.3")),
    ("::ffff:7f01:0203", V4("127.1.2.3")),
    ("0:0:0:0:0000:ffff:127.1.2.3", V4("127.1.2.3")),
    ("0:0:0:0::ffff:127.1.2.3", V4("127.1.2.3")),
    ("2001:4860:0:2001::68", GO_ADDRESS),
    ("2001:4860:0000:2001:0000:0000:0000:0068", GO_ADDRESS),
    *[(text, None) for text in ("-0.0.0.0", "0.-1.0.0", "0.0.-2.0", "0.0.0.-3", "127.0.0.256", "abc", "123:")],
    *[(text, None) for text in ("fe80::1%lo0", "fe80::1%911", "", "a1:a2:a3:a4::b1:b2:b3:b4")],
]
# Go >= 1.17 (and netip since 1.22): no leading zeros, at most four hex digits a group
GO_PARSE_IP = [
    *BOTH_PARSE_IP,
    *[(text, None) for text in ("0:0:0:0:000000:ffff:127.1.2.3", "0:0:0:0:00000:ffff:127.1.2.3", "127.001.002.003")],
    *[(text, None) for text in ("::ffff:127.001.002.003", "123.000.000.000", "1.2..4", "0123.0.0.1")],
]
# The fork keeps Go 1.16's rules: leading zeros read as decimal
SLOPPY_PARSE_IP = [
    *BOTH_PARSE_IP,
    ("127.001.002.003", V4("127.1.2.3")),
    ("127.007.008.009", V4("127.7.8.9")),
    ("127.010.020.030", V4("127.10.20.30")),
    ("::ffff:127.001.002.003", V4("127.1.2.3")),
    ("::ffff:127.007.008.009", V4("127.7.8.9")),
    ("::ffff:127.010.020.030", V4("127.10.20.30")),
    ("0:0:0:0:000000:ffff:127.1.2.3", V4("127.1.2.3")),
]

# kubernetes/utils forked ip_test.go parseCIDRTests: the network ParseCIDRSloppy returns
SLOPPY_PARSE_CIDR = [
    ("135.104.0.0/32", IPv4Network("135.104.0.0/32")),
    ("0.0.0.0/24", IPv4Network("0.0.0.0/24")),
    ("135.104.0.0/24", IPv4Network("135.104.0.0/24")),
    ("135.104.0.1/32", IPv4Network("135.104.0.1/32")),
    ("135.104.0.1/24", IPv4Network("135.104.0.0/24")),
    ("127.000.000.001/32", IPv4Network("127.0.0.1/32")),
    ("127.007.008.009/32", IPv4Network("127.7.8.9/32")),
    ("127.010.020.030/32", IPv4Network("127.10.20.30/32")),
    ("::1/128", IPv6Network("::1/128")),
    ("abcd:2345::/127", IPv6Network("abcd:2345::/127")),
    ("abcd:2345::/65", IPv6Network("abcd:2345::/65")),
    ("abcd:2345::/64", IPv6Network("abcd:2345::/64")),
    ("abcd:2345::/63", IPv6Network("abcd:2345::/63")),
    ("abcd:2345::/33", IPv6Network("abcd:2345::/33")),
    ("abcd:2345::/32", IPv6Network("abcd:2345::/32")),
    ("abcd:2344::/31", IPv6Network("abcd:2344::/31")),
    ("abcd:2300::/24", IPv6Network("abcd:2300::/24")),
    ("abcd:2345::/24", IPv6Network("abcd:2300::/24")),
    ("2001:DB8::/48", IPv6Network("2001:db8::/48")),
    ("2001:DB8::1/48", IPv6Network("2001:db8::/48")),
    ("192.168.1.1/255.255.255.0", None),
    ("192.168.1.1/35", None),
    ("2001:db8::1/-1", None),
    ("2001:db8::1/-0", None),
    ("-0.0.0.0/32", None),
    ("0.-1.0.0/32", None),
    ("0.0.-2.0/32", None),
    ("0.0.0.-3/32", None),
    ("0.0.0.0/-0", None),
    ("", None),
]

# Go reads ASCII digits only; Python's str.isdigit() and int() also take these.
NOT_DIGITS = ["1.2.3.²", "١.2.3.4", "1.2.3.٤", "١٢٧.0.0.1", "::ffff:1.2.3.²", "１.2.3.4"]


@pytest.mark.parametrize(("text", "ip"), GO_PARSE_IP)
def test_parse_ip(text: str, ip) -> None:
    assert parse_ip(text) == ip


@pytest.mark.parametrize(("text", "ip"), SLOPPY_PARSE_IP)
def test_parse_ip_sloppy(text: str, ip) -> None:
    assert parse_ip_sloppy(text) == ip


@pytest.mark.parametrize(("text", "network"), SLOPPY_PARSE_CIDR)
def test_parse_cidr_sloppy(text: str, network) -> None:
    assert parse_cidr_sloppy(text) == network


@pytest.mark.parametrize("text", NOT_DIGITS)
def test_only_ascii_digits_are_digits(text: str) -> None:
    assert parse_ip(text) is None
    assert parse_ip_sloppy(text) is None
    assert parse_cidr_sloppy(text + "/32") is None
    assert parse_cidr_sloppy("1.2.3.0/٢٤") is None


def test_an_ipv4_mapped_cidr_is_the_ipv4_network_go_prints() -> None:
    # IPNet.String() of ParseCIDR("::ffff:1.2.3.0/120") is "1.2.3.0/24" (networkNumberAndMask, ip_test.go).
    assert parse_cidr_sloppy("::ffff:1.2.3.0/120") == IPv4Network("1.2.3.0/24")
    assert parse_cidr_sloppy("::ffff:1.2.3.0/64") == IPv6Network("::/64")


# golang/go src/net/ip_test.go TestSplitHostPort
SPLIT = [
    ("localhost:http", "localhost", "http"),
    ("localhost:80", "localhost", "80"),
    ("localhost%lo0:http", "localhost%lo0", "http"),
    ("localhost%lo0:80", "localhost%lo0", "80"),
    ("127.0.0.1:http", "127.0.0.1", "http"),
    ("127.0.0.1:80", "127.0.0.1", "80"),
    ("[::1]:http", "::1", "http"),
    ("[::1]:80", "::1", "80"),
    ("[::1%lo0]:http", "::1%lo0", "http"),
    ("[::1%lo0]:80", "::1%lo0", "80"),
    (":http", "", "http"),
    (":80", "", "80"),
    ("golang.org:", "golang.org", ""),
    ("127.0.0.1:", "127.0.0.1", ""),
    ("[::1]:", "::1", ""),
    ("golang.org:https%foo", "golang.org", "https%foo"),
]
SPLIT_FAILURES = [
    ("golang.org", "missing port in address"),
    ("127.0.0.1", "missing port in address"),
    ("[::1]", "missing port in address"),
    ("[fe80::1%lo0]", "missing port in address"),
    ("[localhost%lo0]", "missing port in address"),
    ("localhost%lo0", "missing port in address"),
    ("::1", "too many colons in address"),
    ("fe80::1%lo0", "too many colons in address"),
    ("fe80::1%lo0:80", "too many colons in address"),
    ("[foo:bar]", "missing port in address"),
    ("[foo:bar]baz", "missing port in address"),
    ("[foo]bar:baz", "missing port in address"),
    ("[foo]:[bar]:baz", "too many colons in address"),
    ("[foo]:[bar]baz", "unexpected '[' in address"),
    ("foo[bar]:baz", "unexpected '[' in address"),
    ("foo]bar:baz", "unexpected ']' in address"),
]


@pytest.mark.parametrize(("text", "host", "port"), SPLIT)
def test_split_host_port(text: str, host: str, port: str) -> None:
    assert split_host_port(text) == (host, port)


@pytest.mark.parametrize(("text", "reason"), SPLIT_FAILURES)
def test_split_host_port_errors_read_as_go_prints_them(text: str, reason: str) -> None:
    with pytest.raises(AddressError) as error:
        split_host_port(text)
    assert str(error.value) == f"address {text}: {reason}"


# kubernetes/apimachinery pkg/util/net/port_range_test.go TestPortRange
PORT_RANGES = [
    ("100-200", range(100, 201)),
    (" 100-200 ", range(100, 201)),
    ("0-0", range(1)),
    ("", range(0)),
    ("100", range(100, 101)),
    ("100 - 200", None),
    ("-100", None),
    ("100-", None),
    ("200-100", None),
    ("60000-70000", None),
    ("70000-80000", None),
    ("70000+80000", None),
    ("1+0", range(1, 2)),
    ("0+0", range(1)),
    ("1+-1", None),
    ("1-+1", None),
    ("100+200", range(100, 301)),
    ("1+65535", None),
    ("0+65535", range(65536)),
    ("١٠٠-٢٠٠", None),
]


@pytest.mark.parametrize(("text", "ports"), PORT_RANGES)
def test_parse_port_range(text: str, ports) -> None:
    assert parse_port_range(text) == ports


def test_parse_port_is_parse_uint_of_16_bits() -> None:
    assert [parse_port(p) for p in ("0", "80", "0080", "65535")] == [0, 80, 80, 65535]
    assert [parse_port(p) for p in ("65536", "+80", "-1", "", "8o", "٨٠", "80 ")] == [None] * 7
