"""EgressSelectorConfiguration rules: selection names, proxy protocols and transports, as the API server checks them.

Upstream reports every error under the fixed path `service.connection` (no selection index);
svcconf gives the real path of the field instead, so positions are exact. The messages are the
server's.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from svcconf.model import Anchor, Finding, Severity

from .. import Context, advice, duplicate, in_memory, invalid, items, mapping, not_supported, required, rule, text

PROTOCOLS = ("Direct", "HTTPConnect", "GRPC")
NAMES = ("cluster", "controlplane", "etcd")


@rule("EgressSelectorConfiguration")
def check_connections(doc: dict, ctx: Context) -> Iterator[Finding]:
    for i, selection in items(doc.get("egressSelections")):
        base = ("egressSelections", i, "connection")
        connection = mapping(mapping(selection).get("connection"))
        yield from _check_connection(base, connection, ctx)


def _check_connection(base: tuple, connection: dict, ctx: Context) -> Iterator[Finding]:
    protocol = connection.get("proxyProtocol")
    transport = connection.get("transport")
    where = base + ("transport",)
    if protocol == "Direct":
        if transport is not None:
            yield invalid(where, "direct", "config must be absent for direct connect", "egress-transport-mismatch")
    elif protocol == "HTTPConnect":
        if transport is None:
            yield required(where, "transport must be set for HTTPConnect", "egress-transport-mismatch")
            return
        transport = mapping(transport)
        tcp, uds = transport.get("tcp"), transport.get("uds")
        if tcp is not None and uds is not None:
            yield invalid(where + ("tcp",), _internal_tcp(mapping(tcp)), "TCP and UDS cannot both be set", "egress-transport-mismatch")
        elif tcp is None and uds is None:
            yield required(where + ("tcp",), "One of TCP or UDS must be set", "egress-transport-mismatch")
        elif tcp is not None:
            yield from _check_tcp(where + ("tcp",), mapping(tcp), ctx)
        else:
            yield from _check_uds(where + ("uds",), mapping(uds))
    elif protocol == "GRPC":
        if transport is None:
            yield required(where, "transport must be set for GRPC", "egress-transport-mismatch")
            return
        uds = mapping(transport).get("uds")
        if uds is None:
            yield required(where + ("uds",), "UDS must be set with GRPC", "egress-transport-mismatch")
        else:
            yield from _check_uds(where + ("uds",), mapping(uds))
    elif protocol is None or isinstance(protocol, str):
        yield not_supported(base + ("proxyProtocol",), protocol or "", PROTOCOLS, "invalid-egress-protocol")


def _internal_tcp(tcp: dict) -> dict:
    """The internal TCPTransport as the server prints it (Go field names: internal types have no JSON tags)."""
    tls = tcp.get("tlsConfig")
    shown_tls = None
    if isinstance(tls, dict):
        shown_tls = {
            "CABundle": text(tls.get("caBundle")),
            "ClientKey": text(tls.get("clientKey")),
            "ClientCert": text(tls.get("clientCert")),
        }
    return {"URL": text(tcp.get("url")), "TLSConfig": shown_tls}


def _check_uds(where: tuple, uds: dict) -> Iterator[Finding]:
    if not text(uds.get("udsName")):
        yield invalid(where + ("udsName",), "nil", "must be present for UDS connections", "egress-transport-mismatch")


def _check_tcp(where: tuple, tcp: dict, ctx: Context) -> Iterator[Finding]:
    url = text(tcp.get("url"))
    tls = tcp.get("tlsConfig")
    if url.startswith("http://"):
        if tls is not None:
            yield invalid(where + ("tlsConfig",), "nil", "config must not be present when using HTTP", "egress-tls-mismatch")
    elif url.startswith("https://"):
        if tls is None:
            yield required(where + ("tlsConfig",), "TLSConfig must be present when using HTTPS", "egress-tls-mismatch")
        else:
            yield from _check_tls(where + ("tlsConfig",), mapping(tls), ctx)
    else:
        yield invalid(where + ("url",), url, "supported connection protocols are http:// and https://", "invalid-egress-url")


def _check_tls(where: tuple, tls: dict, ctx: Context) -> Iterator[Finding]:
    bundle = text(tls.get("caBundle"))
    if bundle:
        yield from _missing_file(where + ("caBundle",), bundle, "TLS config ca bundle does not exist", ctx)
    for field, name, missing_detail in (
        ("clientCert", "cert", "Using TLS requires clientCert"),
        ("clientKey", "key", "Using TLS requires requires clientKey"),  # sic: the server doubles the word
    ):
        value = text(tls.get(field))
        if not value:
            yield invalid(where + (field,), "nil", missing_detail, "egress-tls-mismatch")
        else:
            yield from _missing_file(where + (field,), value, f"TLS client {name} does not exist", ctx)


def _missing_file(where: tuple, path: str, detail: str, ctx: Context) -> Iterator[Finding]:
    """The server refuses a missing TLS file; the file may only exist on the node, so svcconf warns.

    An absolute path names the node's file system and is looked up only with --fs-checks.
    """
    if in_memory(ctx.file) or (os.path.isabs(path) and not ctx.fs_checks):
        return
    resolved = path if os.path.isabs(path) else os.path.join(os.path.dirname(os.path.abspath(ctx.file)), path)
    if not os.path.exists(resolved):
        yield invalid(where, path, detail, "egress-tls-file-missing", Severity.WARNING)


@rule("EgressSelectorConfiguration")
def check_names(doc: dict, ctx: Context) -> Iterator[Finding]:
    seen: set[str] = set()
    for i, selection in items(doc.get("egressSelections")):
        selection = mapping(selection)
        written = selection.get("name")
        if written is not None and not isinstance(written, str):
            continue
        name = written or ""
        where = ("egressSelections", i, "name")
        if name == "master":
            # Decoding converts the legacy name to controlplane.
            yield advice(
                "egress-selection-master", where, "selection name master is the legacy spelling of controlplane; write controlplane"
            )
            name = "controlplane"
        name = name.lower()
        if name in seen:
            yield duplicate(where, name, "duplicate-egress-selection")
        elif name not in NAMES:
            finding = not_supported(where, name, NAMES, "invalid-egress-selection-name")
            yield finding._replace(anchor=Anchor.PARENT) if not name else finding
        seen.add(name)
