"""TracingConfiguration rules: the sampling rate range and the collector endpoint as a gRPC target, as component-base checks them."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..model import Finding, render_value
from . import Context, invalid, rule

SCHEMES = ("dns", "unix", "unix-abstract")
_SCHEME_CHAR = re.compile(r"[A-Za-z0-9+\-.]")
_HEX = "0123456789abcdefABCDEF"


@rule("TracingConfiguration")
def check_sampling(doc: dict, ctx: Context) -> Iterator[Finding]:
    rate = doc.get("samplingRatePerMillion")
    if not isinstance(rate, int) or isinstance(rate, bool):
        return
    if rate < 0:
        yield invalid(("samplingRatePerMillion",), rate, "sampling rate must be positive", "invalid-sampling-rate")
    elif rate > 1_000_000:
        yield invalid(
            ("samplingRatePerMillion",),
            rate,
            "sampling rate per million must be less than or equal to one million",
            "invalid-sampling-rate",
        )


@rule("TracingConfiguration")
def check_endpoint(doc: dict, ctx: Context) -> Iterator[Finding]:
    endpoint = doc.get("endpoint")
    if not isinstance(endpoint, str):
        return
    target = endpoint if "//" in endpoint else "dns://" + endpoint
    scheme, problem = parse_scheme(target)
    if problem:
        yield invalid(("endpoint",), target, f"parse {render_value(target)}: {problem}", "invalid-tracing-endpoint")
    elif scheme not in SCHEMES:
        yield invalid(
            ("endpoint",),
            target,
            f"unsupported scheme: {scheme}.  Options are none, dns, unix, or unix-abstract.  "
            "See https://github.com/grpc/grpc/blob/master/doc/naming.md",
            "invalid-tracing-endpoint",
        )


def parse_scheme(url: str) -> tuple[str, str | None]:
    """The scheme Go's net/url.Parse finds (lower-cased), or the error it reports, for the cases a gRPC target meets."""
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in url):
        return "", "net/url: invalid control character in URL"
    scheme, rest = "", url
    for index, ch in enumerate(url):
        if ch == ":":
            if index == 0:
                return "", "missing protocol scheme"
            scheme, rest = url[:index].lower(), url[index + 1 :]
            break
        if not _SCHEME_CHAR.match(ch) or (index == 0 and not ch.isalpha()):
            break  # not a scheme: the whole text is a path
    rest = rest.split("#", 1)[0].split("?", 1)[0]
    if not scheme and not rest.startswith("/") and ":" in rest.split("/", 1)[0]:
        return "", "first path segment in URL cannot contain colon"
    if scheme and rest.startswith("//"):
        authority = rest[2:].split("/", 1)[0]
        host = authority.rsplit("@", 1)[-1]
        bad = _bad_escape(host)
        if bad:
            return scheme, f'invalid URL escape "{bad}"'
        port_problem = _bad_port(host)
        if port_problem:
            return scheme, port_problem
    return scheme, None


def _bad_escape(text: str) -> str | None:
    index = text.find("%")
    while index != -1:
        chunk = text[index : index + 3]
        if len(chunk) < 3 or chunk[1] not in _HEX or chunk[2] not in _HEX:
            return chunk
        index = text.find("%", index + 3)
    return None


def _bad_port(host: str) -> str | None:
    colon = host.rfind(":")
    if colon == -1 or (host.startswith("[") and host.rfind("]") > colon):
        return None
    port = host[colon + 1 :]
    if port and not port.isdigit():
        return f'invalid port "{host[colon:]}" after host'
    return None
