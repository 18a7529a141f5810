"""Flag values as the components parse them: by pflag type, and the enumerations some flags accept.

Each check returns the component's complaint (None when the value is accepted). pflag wraps a
parse error as `invalid argument "V" for "--name" flag: ERR`; the enumerations are checked after
parsing, in the option structs' Validate (authorization modes, admission plugins) or by
component-base's flag types (cipher suites, TLS versions).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from svcconf.go.durations import parse_duration
from svcconf.go.net import AddressError, parse_cidr_sloppy, parse_ip_sloppy, parse_port, parse_port_range, split_host_port
from svcconf.go.numbers import parse_int, parse_uint
from svcconf.go.quantity import parse_quantity
from svcconf.known.flags.table import Flag
from svcconf.known.tsv import read_table

GO_BOOLS = frozenset({"1", "t", "T", "TRUE", "true", "True", "0", "f", "F", "FALSE", "false", "False"})
AUTHORIZATION_MODES = ("AlwaysAllow", "AlwaysDeny", "ABAC", "Webhook", "RBAC", "Node")  # authzmodes.AuthorizationModeChoices
TLS_VERSIONS = ("VersionTLS10", "VersionTLS11", "VersionTLS12", "VersionTLS13")  # component-base cli/flag/tls_min_version_flag.go
LOG_FORMATS = ("json", "text")  # the formats kube components register (component-base logs/json/register)
AUDIT_MODES = ("batch", "blocking", "blocking-strict")
AUDIT_FORMATS = ("legacy", "json")
ADMISSION_FLAGS = ("enable-admission-plugins", "disable-admission-plugins", "admission-control")


def go_int(text: str, bits: int = 64) -> int | None:
    """strconv.ParseInt(text, 0, bits), as pflag reads int flags: a base prefix (0x, 0o, 0b, 0) is allowed."""
    body = text[1:] if text[:1] in "+-" else text
    if len(body) > 1 and body[0] == "0" and body[1] in "xXoObB_0123456789":
        try:
            return int(text.replace("0", "0o", 1) if body[1] in "_0123456789" else text, 0)
        except ValueError:
            return None
    return parse_int(text, bits)


def _syntax(function: str, value: str) -> str:
    return f'{function}: parsing "{value}": invalid syntax'


def _bool(value: str) -> str | None:
    return None if value in GO_BOOLS else _syntax("strconv.ParseBool", value)


def _int(value: str) -> str | None:
    return None if go_int(value) is not None else _syntax("strconv.ParseInt", value)


def _uint(value: str) -> str | None:
    return None if parse_uint(value) is not None else _syntax("strconv.ParseUint", value)


def _float(value: str) -> str | None:
    try:
        float(value)
    except ValueError:
        return _syntax("strconv.ParseFloat", value)
    return None if value.strip() == value and "_" not in value else _syntax("strconv.ParseFloat", value)


def _duration(value: str) -> str | None:
    return None if parse_duration(value) is not None else f'time: invalid duration "{value}"'


def _ip(value: str) -> str | None:
    return None if not value or parse_ip_sloppy(value) is not None else f'failed to parse IP: "{value}"'


def _cidrs(value: str) -> str | None:
    bad = [part for part in value.split(",") if part and parse_cidr_sloppy(part.strip()) is None]
    return f"invalid CIDR address: {bad[0]}" if bad else None


def _host_port(value: str) -> str | None:
    if not value:
        return None
    try:
        host, port = split_host_port(value)
    except AddressError as err:
        return str(err)
    if parse_ip_sloppy(host) is None:
        return f'"{host}" is not a valid IP address'
    return None if parse_port(port) is not None else f'"{port}" is not a valid port'


def _port_range(value: str) -> str | None:
    return None if parse_port_range(value) is not None else f'"{value}" is not a valid port range: must be N1-N2'


def _quantity(value: str) -> str | None:
    return (
        None
        if parse_quantity(value) is not None
        else "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
    )


# The reference pages' type words; a type not listed here is taken as free text.
BY_TYPE: dict[str, Callable[[str], str | None]] = {
    "": _bool, "bool": _bool,
    "int": _int, "int32": _int, "int64": _int, "uint": _uint, "uint32": _uint, "uint64": _uint,
    "float": _float, "float32": _float, "float64": _float,
    "duration": _duration, "ip": _ip, "cidrs": _cidrs, "ipport": _host_port, "quantity": _quantity,
    "<a string in the form 'N1-N2'>": _port_range, "port-range": _port_range,
}  # fmt: skip


# Flags the reference lists as strings that the component parses further (kube-apiserver's serving and service options).
BY_NAME: dict[str, Callable[[str], str | None]] = {
    "advertise-address": _ip,
    "bind-address": _ip,
    "peer-advertise-ip": _ip,
    "service-cluster-ip-range": _cidrs,
}


def parse_problem(flag: Flag, value: str) -> str | None:
    """pflag's complaint about a value of the flag's type, in its words."""
    check = BY_NAME.get(flag.name) or BY_TYPE.get(flag.type)
    problem = check(value) if check else None
    return f'invalid argument "{value}" for "--{flag.name}" flag: {problem}' if problem else None


def csv_items(value: str) -> list[str]:
    """A string-slice flag's items (pflag reads them as one CSV record: surrounding spaces are kept)."""
    return [item for item in value.split(",")] if value else []


@functools.lru_cache(maxsize=1)
def admission_plugins() -> dict[str, tuple[tuple | None, tuple | None]]:
    from svcconf.known.catalog import parse_release

    _meta, rows = read_table("flags", "admission-plugins.tsv")
    return {
        row["plugin"]: (
            parse_release(row["introduced"]) if row["introduced"] else None,
            parse_release(row["removed"]) if row["removed"] else None,
        )
        for row in rows
    }


def admission_plugin_known(name: str, target: tuple) -> bool:
    span = admission_plugins().get(name)
    return span is not None and (span[0] is None or span[0] <= target) and (span[1] is None or target < span[1])


def enumeration_problems(name: str, value: str, target: tuple) -> list[str]:
    """What the component's own validation says about a flag whose values are names from a closed set."""
    if name == "authorization-mode":
        problems = [f'authorization-mode "{mode}" is not a valid mode' for mode in csv_items(value) if mode not in AUTHORIZATION_MODES]
        modes = csv_items(value)
        if len(set(modes)) != len(modes):
            problems.append(f'authorization-mode "[{" ".join(modes)}]" has mode specified more than once')
        return problems
    if name in ADMISSION_FLAGS:
        label = "enable-admission-plugins" if name == "admission-control" else name
        return [f'{label} plugin "{plugin}" is unknown' for plugin in csv_items(value) if not admission_plugin_known(plugin, target)]
    if name == "tls-cipher-suites":
        return [f"Cipher suite {suite} not supported or doesn't exist" for suite in csv_items(value) if suite not in cipher_suites()]
    if name == "tls-min-version" and value and value not in TLS_VERSIONS:
        return [f'unknown tls version "{value}"']
    if name == "logging-format" and value not in LOG_FORMATS:
        return [f'format: Unsupported value: "{value}": supported values: "json", "text"']
    if name in ("audit-log-mode", "audit-webhook-mode") and value not in AUDIT_MODES:
        return [f'invalid audit {name.split("-")[1]} mode {value}, allowed modes are "{",".join(AUDIT_MODES)}"']
    if name == "audit-log-format" and value not in AUDIT_FORMATS:
        return [f'invalid audit log format {value}, allowed formats are "{",".join(AUDIT_FORMATS)}"']
    return []


@functools.lru_cache(maxsize=1)
def cipher_suites() -> frozenset[str]:
    _meta, rows = read_table("flags", "tls-cipher-suites.tsv")
    return frozenset(row["suite"] for row in rows)
