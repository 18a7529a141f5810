"""IP addresses and CIDRs as the components read them (Go's net.ParseIP and ParseCIDR, sloppy forms)."""

from __future__ import annotations

import ipaddress


def parse_ip(value: object) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """An IP address as netutils.ParseIPSloppy reads it: IPv4 octets may carry leading zeros; zones are not IPs."""
    if not isinstance(value, str) or not value or "/" in value or "%" in value:
        return None
    if "." in value and ":" not in value:
        parts = value.split(".")
        if len(parts) == 4 and all(p.isdigit() for p in parts):
            value = ".".join(str(int(p)) for p in parts)
    try:
        return ipaddress.ip_address(value)
    except ValueError:
        return None


def parse_cidr(value: object) -> ipaddress.IPv4Network | ipaddress.IPv6Network | None:
    """A CIDR as netutils.ParseCIDRSloppy reads it: address/prefix, host bits allowed."""
    if not isinstance(value, str):
        return None
    address, slash, prefix = value.partition("/")
    if not slash or not prefix.isdigit():
        return None
    ip = parse_ip(address)
    if ip is None or int(prefix) > ip.max_prefixlen:
        return None
    return ipaddress.ip_network(f"{ip}/{int(prefix)}", strict=False)
