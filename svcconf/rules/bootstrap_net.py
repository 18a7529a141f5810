"""Parsers the bootstrap tool's validation relies on: IPs, CIDRs, host:port, names, image repositories."""

from __future__ import annotations

import re

from .go_net import parse_cidr, parse_ip  # noqa: F401 - re-exported for the bootstrap rules
from .k8s_names import SUBDOMAIN_MESSAGE  # noqa: F401
from .k8s_names import dns1123_subdomain as subdomain_problems

WILDCARD_MESSAGE = (
    "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of "
    "lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', "
    "regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)

# Distribution reference grammar (docker/distribution reference), anchored.
_DOMAIN_PART = r"(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])"
_DOMAIN = rf"{_DOMAIN_PART}(?:\.{_DOMAIN_PART})*(?::[0-9]+)?"
_PATH_PART = r"[a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*"
_REFERENCE = re.compile(rf"^(?:{_DOMAIN}/)?{_PATH_PART}(?:/{_PATH_PART})*(?::[\w][\w.-]{{0,127}})?$")


def is_subdomain(value: str) -> bool:
    return not subdomain_problems(value)


def split_host_port(value: str) -> tuple[str, str] | str:
    """Go's net.SplitHostPort: (host, port), or the error text."""
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return f"address {value}: missing ']' in address"
        host, rest = value[1:end], value[end + 1 :]
        if not rest:
            return f"address {value}: missing port in address"
        if not rest.startswith(":"):
            return f"address {value}: missing port in address" if rest[0] != "]" else f"address {value}: unexpected ']' in address"
        return host, rest[1:]
    colon = value.rfind(":")
    if colon < 0:
        return f"address {value}: missing port in address"
    host = value[:colon]
    if ":" in host:
        return f"address {value}: too many colons in address"
    return host, value[colon + 1 :]


def valid_port(port: str) -> bool:
    return port.isdigit() and 1 <= int(port) <= 65535


def host_port_problem(value: str) -> str | None:
    """kubeadm's ParseHostPort: why `value` is not host[:port] (None when it is)."""
    parts = split_host_port(value)
    host, port = (value, "") if isinstance(parts, str) else parts
    if port and not valid_port(port):
        return f"hostport {value}: port {port} must be a valid number between 1 and 65535, inclusive"
    if parse_ip(host) is None and not is_subdomain(host):
        return f"hostport {value}: host '{host}' must be a valid IP address or a valid RFC-1123 DNS subdomain"
    return None


def endpoint_host(value: str) -> str:
    parts = split_host_port(value)
    return value if isinstance(parts, str) else parts[0]


def valid_image_repository(value: str) -> bool:
    return bool(_REFERENCE.match(f"{value}/name:tag")) and len(f"{value}/name") <= 255


def url_scheme(value: str) -> tuple[str | None, str | None]:
    """(scheme, parse error) of a URL the way Go's url.Parse sees its scheme."""
    match = re.match(r"^([a-zA-Z][a-zA-Z0-9+.-]*):", value)
    if match:
        return match.group(1).lower(), None
    if value.startswith(":"):
        return None, "missing protocol scheme"
    first = value.split("/", 1)[0]
    if ":" in first:
        return None, f'parse "{value}": first path segment in URL cannot contain colon'
    return "", None


def hex_problem(value: str) -> tuple[str | None, int]:
    """(decoding error, decoded length) of Go's hex.DecodeString, never quoting the input."""
    for ch in value:
        if ch not in "0123456789abcdefABCDEF":
            return "encoding/hex: invalid byte", 0
    if len(value) % 2:
        return "encoding/hex: odd length hex string", 0
    return None, len(value) // 2


def is_absolute(path: str) -> bool:
    return path.startswith("/")
