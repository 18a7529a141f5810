"""IP addresses, CIDRs, host:port and ports as Go's net package and Kubernetes' netutils read them.

Two IP grammars are in use upstream, and each caller names the one its component uses:

* `parse_ip` is net.ParseIP since Go 1.17 (netip since 1.22): IPv4 fields without leading zeros,
  IPv6 groups of at most four hex digits.
* `parse_ip_sloppy` / `parse_cidr_sloppy` are k8s.io/utils/net ParseIPSloppy / ParseCIDRSloppy, a
  fork of Go 1.16 that Kubernetes keeps for values stored before 1.17 (issue 100895): leading zeros
  are read as decimal ("010.1.2.3" is 10.1.2.3) and IPv6 groups may be longer while their value
  fits in 16 bits. Component configs and kubeadm validate with these.

Both read ASCII digits only and never accept a zone ("fe80::1%eth0"). An IPv4-mapped IPv6 address
("::ffff:1.2.3.4") is an IPv4 address to Go (To4, String, family checks), so it comes back as one;
a mapped CIDR with a prefix of at least 96 likewise comes back as the IPv4 network Go prints.
"""

from __future__ import annotations

import ipaddress

from .memo import remembered
from .numbers import parse_int, parse_uint

IP = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
_HEX = frozenset("0123456789abcdefABCDEF")
_DTOI_LIMIT = 0xFFFFFF  # Go's dtoi/xtoi give up at this value ("big")
_MAPPED_PREFIX = 0xFFFF  # bits 32..47 of ::ffff:a.b.c.d


class AddressError(ValueError):
    """net.AddrError: str() is Go's text, "address <addr>: <reason>"."""

    def __init__(self, address: str, reason: str) -> None:
        super().__init__(f"address {address}: {reason}" if address else reason)


# --------------------------------------------------------------------------- IP addresses


def _ipv4(text: str, sloppy: bool) -> int | None:
    fields = text.split(".")
    if len(fields) != 4:
        return None
    value = 0
    for field in fields:
        if not field or not (field.isascii() and field.isdigit()):
            return None
        if not sloppy and len(field) > 1 and field[0] == "0":
            return None  # Go >= 1.17: "IPv4 field has octet with leading zero"
        significant = field.lstrip("0") or "0"
        if len(significant) > 3 or int(significant) > 255:
            return None
        value = value << 8 | int(significant)
    return value


def _hex_group(text: str, at: int, sloppy: bool) -> tuple[int, int] | None:
    """(value, end) of the hex group at `at`: at most four digits, or (sloppy) any value below 2**16."""
    value, end = 0, at
    while end < len(text) and text[end] in _HEX:
        value = value << 4 | int(text[end], 16)
        end += 1
        if (not sloppy and end - at > 4) or value >= _DTOI_LIMIT:
            return None
    if end == at or value > 0xFFFF:
        return None
    return value, end


def _ipv6(text: str, sloppy: bool) -> int | None:
    """The 128-bit value of an IPv6 address, following Go's parseIPv6 step by step."""
    groups: list[int] = []  # 16-bit groups; an embedded IPv4 address adds two
    ellipsis = -1
    at = 0
    if text.startswith("::"):
        ellipsis, at = 0, 2
        if at == len(text):
            return 0
    while len(groups) < 8:
        parsed = _hex_group(text, at, sloppy)
        if parsed is None:
            return None
        value, end = parsed
        if end < len(text) and text[end] == ".":
            if (ellipsis < 0 and len(groups) != 6) or len(groups) > 6:
                return None  # the IPv4 part must be the last 32 bits
            ipv4 = _ipv4(text[at:], sloppy)
            if ipv4 is None:
                return None
            groups += [ipv4 >> 16, ipv4 & 0xFFFF]
            at = len(text)
            break
        groups.append(value)
        at = end
        if at == len(text):
            break
        if text[at] != ":" or at + 1 == len(text):
            return None
        at += 1
        if text[at] == ":":
            if ellipsis >= 0:
                return None  # a second "::"
            ellipsis = len(groups)
            at += 1
            if at == len(text):
                break
    if at != len(text):
        return None
    if len(groups) < 8:
        if ellipsis < 0:
            return None
        groups[ellipsis:ellipsis] = [0] * (8 - len(groups))
    elif ellipsis >= 0:
        return None  # "::" must stand for at least one group
    value = 0
    for group in groups:
        value = value << 16 | group
    return value


def _ipv6_address(value: int) -> IP:
    """The address as Go's To4 sees it: ::ffff:a.b.c.d is the IPv4 address a.b.c.d."""
    if value >> 32 == _MAPPED_PREFIX:
        return ipaddress.IPv4Address(value & 0xFFFFFFFF)
    return ipaddress.IPv6Address(value)


def _parse_ip(value: object, sloppy: bool) -> IP | None:
    if not isinstance(value, str):
        return None
    return _ip(value, sloppy)


@remembered(64)
def _ip(value: str, sloppy: bool) -> IP | None:
    for char in value:  # Go decides the family by the first '.' or ':'
        if char == ".":
            ipv4 = _ipv4(value, sloppy)
            return None if ipv4 is None else ipaddress.IPv4Address(ipv4)
        if char == ":":
            ipv6 = _ipv6(value, sloppy)
            return None if ipv6 is None else _ipv6_address(ipv6)
        if char == "%":
            return None
    return None


def parse_ip(value: object) -> IP | None:
    """net.ParseIP (Go >= 1.17): None where Go returns nil."""
    return _parse_ip(value, sloppy=False)


def parse_ip_sloppy(value: object) -> IP | None:
    """netutils.ParseIPSloppy: net.ParseIP as Go 1.16 read it (leading zeros allowed)."""
    return _parse_ip(value, sloppy=True)


def parse_cidr_sloppy(value: object) -> Network | None:
    """netutils.ParseCIDRSloppy: address/prefix, host bits allowed; the network Go's IPNet.String() prints."""
    if not isinstance(value, str):
        return None
    return _cidr(value)


@remembered(64)
def _cidr(value: str) -> Network | None:
    address, slash, prefix = value.partition("/")
    bits = parse_uint(prefix) if slash else None
    if bits is None:
        return None
    ipv4 = _ipv4(address, sloppy=True)
    if ipv4 is not None:
        return ipaddress.IPv4Network((ipv4, bits), strict=False) if bits <= 32 else None
    ipv6 = _ipv6(address, sloppy=True)
    if ipv6 is None or bits > 128:
        return None
    network = ipaddress.IPv6Network((ipv6, bits), strict=False)
    mapped = int(network.network_address)
    if bits >= 96 and mapped >> 32 == _MAPPED_PREFIX:
        return ipaddress.IPv4Network((mapped & 0xFFFFFFFF, bits - 96))
    return network


# --------------------------------------------------------------------------- host:port and ports


def split_host_port(value: str) -> tuple[str, str]:
    """net.SplitHostPort: (host, port) of "host:port" or "[host]:port"; AddressError with Go's text otherwise."""
    colon = value.rfind(":")
    if colon < 0:
        raise AddressError(value, "missing port in address")
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            raise AddressError(value, "missing ']' in address")
        if end + 1 == len(value):
            raise AddressError(value, "missing port in address")
        if end + 1 != colon:
            reason = "too many colons in address" if value[end + 1] == ":" else "missing port in address"
            raise AddressError(value, reason)
        host, first_host, after_host = value[1:end], 1, end + 1
    else:
        host, first_host, after_host = value[:colon], 0, 0
        if ":" in host:
            raise AddressError(value, "too many colons in address")
    if "[" in value[first_host:]:
        raise AddressError(value, "unexpected '[' in address")
    if "]" in value[after_host:]:
        raise AddressError(value, "unexpected ']' in address")
    return host, value[colon + 1 :]


def parse_port(text: str) -> int | None:
    """A port number as netutils.ParsePort reads it (strconv.ParseUint(port, 10, 16)): 0..65535, or None."""
    return parse_uint(text, 16)


def parse_port_range(text: str) -> range | None:
    """The ports of utilnet.ParsePortRange (apimachinery): "N", "N-M" or "N+offset"; an empty text is the empty range; None where it fails."""
    from .text import trim_space

    text = trim_space(text)
    if not text:
        return range(0)
    hyphen, plus = text.find("-"), text.find("+")
    if hyphen >= 0 and plus >= 0:
        return None
    if hyphen >= 0:
        low, high = parse_int(text[:hyphen]), parse_int(text[hyphen + 1 :])
    elif plus >= 0:
        low, offset = parse_int(text[:plus]), parse_int(text[plus + 1 :])
        high = None if low is None or offset is None else low + offset
    else:
        low = high = parse_int(text)
    if low is None or high is None or low > 65535 or high > 65535 or high < low:
        return None
    return range(low, high + 1)
