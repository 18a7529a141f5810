"""Scheduler extender rules: weights, managed resources, the single binder, TLS and URL advice."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator
from typing import Any

from svcconf.go.durations import parse_duration
from svcconf.go.names import qualified_name
from svcconf.go.url import split_url
from svcconf.model import Finding, Path
from svcconf.rules import Context, advice, integer, invalid, invalid_redacted, items, mapping, text

VERBS = ("filterVerb", "preemptVerb", "prioritizeVerb", "bindVerb")
TLS_DATA = ("certData", "keyData", "caData")
_BASE64 = re.compile(r"[A-Za-z0-9+/]")


def check_extenders(extenders: Any, ctx: Context) -> Iterator[Finding]:
    binders = 0
    seen: set[str] = set()
    for i, extender in items(extenders):
        if not isinstance(extender, dict):
            continue
        path = ("extenders", i)
        weight = integer(extender.get("weight")) or 0
        if text(extender.get("prioritizeVerb")) and weight <= 0:
            yield invalid(path + ("weight",), weight, "must have a positive weight applied to it", "extender-weight-not-positive")
        for j, resource in items(extender.get("managedResources")):
            name = mapping(resource).get("name")
            if not isinstance(name, str):
                continue
            resource_path = path + ("managedResources", j, "name")
            problems = list(_extended_resource(resource_path, name))
            yield from problems
            if not problems and name in seen:
                yield invalid(resource_path, name, "duplicate extender managed resource name", "duplicate-extender-resource")
            seen.add(name)
        if text(extender.get("bindVerb")):
            binders += 1
        yield from _advice(path, extender)
        yield from _tls(path, extender)
        yield from _transport(path, extender)
    if binders > 1:
        yield invalid(
            ("extenders",),
            f"found {binders} extenders implementing bind",
            "only one extender can implement bind",
            "multiple-binding-extenders",
        )


def _extended_resource(path: Path, name: str) -> Iterator[Finding]:
    """validateExtendedResourceName: a qualified name, and an extended (not native) resource name."""
    problems = qualified_name(name)
    for message in problems:
        yield invalid(path, name, message, "invalid-extender-resource")
    if problems:
        return
    native = "/" not in name or "kubernetes.io/" in name
    if native or name.startswith("requests.") or qualified_name("requests." + name):
        yield invalid(path, name, "is an invalid extended resource name", "invalid-extender-resource")


def _advice(path: Path, extender: dict) -> Iterator[Finding]:
    if not any(text(extender.get(verb)) for verb in VERBS):
        yield advice(
            "extender-setting-ignored", path, "the extender sets no filterVerb, prioritizeVerb, preemptVerb or bindVerb: it is never called"
        )
    elif integer(extender.get("weight")) and not text(extender.get("prioritizeVerb")):
        yield advice("extender-setting-ignored", path + ("weight",), "weight has no effect without prioritizeVerb")
    url = extender.get("urlPrefix")
    if not isinstance(url, str):
        if url is None:
            yield advice("invalid-extender-url", path, "urlPrefix is not set: the scheduler cannot call the extender")
        return
    parts = split_url(url)
    if parts.scheme not in ("http", "https") or not (parts.host or parts.userinfo):
        yield advice("invalid-extender-url", path + ("urlPrefix",), f'urlPrefix "{url}" is not an http:// or https:// URL with a host')
    elif parts.scheme == "http" and extender.get("enableHTTPS") is True:
        yield advice(
            "invalid-extender-url",
            path + ("urlPrefix",),
            f'urlPrefix "{url}" is plain http although enableHTTPS is true: the scheme of urlPrefix decides, so calls are not encrypted',
        )


def _tls(path: Path, extender: dict) -> Iterator[Finding]:
    tls = mapping(extender.get("tlsConfig"))
    if tls.get("insecure") is True:
        yield advice(
            "extender-insecure-tls",
            path + ("tlsConfig", "insecure"),
            "tlsConfig.insecure skips verification of the extender's certificate: meant for testing only",
        )
    elif extender.get("enableHTTPS") is True and not (text(tls.get("caFile")) or text(tls.get("caData"))):
        yield advice(
            "extender-insecure-tls",
            path + ("enableHTTPS",),
            "enableHTTPS without tlsConfig.caFile or caData: the scheduler then does not verify the extender's certificate",
        )
    for key in TLS_DATA:
        value = tls.get(key)
        if isinstance(value, str):
            offset = _base64_error(value)
            if offset is not None:
                detail = f"illegal base64 data at input byte {offset}"
                field = path + ("tlsConfig", key)
                if key == "keyData":
                    yield invalid_redacted(field, detail, "extender-tls-data-not-base64")
                else:
                    yield invalid(field, value[:16] + ("..." if len(value) > 16 else ""), detail, "extender-tls-data-not-base64")


def _base64_error(value: str) -> int | None:
    """Where Go's base64.StdEncoding stops reading the value (JSON []byte), or None when it decodes."""
    data = value.replace("\r", "").replace("\n", "")
    body = data.rstrip("=")
    for index, char in enumerate(body):
        if not _BASE64.match(char):
            return index
    try:
        base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return len(data)
    return None


def _transport(path: Path, extender: dict) -> Iterator[Finding]:
    """makeTransport: tlsConfig applies to every https:// call; enableHTTPS only turns verification off without a CA."""
    url = extender.get("urlPrefix")
    scheme = split_url(url).scheme if isinstance(url, str) else ""
    if extender.get("tlsConfig") is not None and scheme == "http":
        yield advice(
            "extender-tls-mismatch",
            path + ("tlsConfig",),
            f'tlsConfig is never used: urlPrefix "{url}" is plain http, and the scheme of urlPrefix decides whether calls use TLS',
        )
    if scheme == "https" and extender.get("enableHTTPS") is False:
        yield advice(
            "extender-tls-mismatch",
            path + ("enableHTTPS",),
            f'enableHTTPS is false but urlPrefix "{url}" is https: calls use TLS anyway, verified against tlsConfig.caFile/caData '
            "or the system roots; remove enableHTTPS: false to avoid the confusion",
        )
    timeout = extender.get("httpTimeout")
    ns = parse_duration(timeout) if isinstance(timeout, str) else None
    if ns is not None and ns < 0:
        yield advice(
            "extender-http-timeout-negative",
            path + ("httpTimeout",),
            f'httpTimeout "{timeout}" is negative: the HTTP client then has no timeout at all, and a hung extender stalls '
            "scheduling; use a positive duration (0 means the default, 5s)",
        )
