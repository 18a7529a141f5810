"""URLs as Go's net/url.Parse reads them, far enough to give the scheme and the error Parse would return.

Checked, in Go's order: control characters, the scheme, a colon in the first segment of a
relative URL, the authority (userinfo characters, "]" and port after the host, escapes and
characters allowed in a host and an IPv6 zone), and escapes in the path and fragment. What Go
checks beyond that (whether a bracketed literal is an IPv6 address) is left out. Scanning is by
hand and linear.
"""

from __future__ import annotations

from typing import NamedTuple

from ..model import go_quote
from .memo import remembered

_HEX = frozenset("0123456789abcdefABCDEF")
_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ALNUM = _LETTERS | frozenset("0123456789")
_SCHEME_REST = _ALNUM | frozenset("+-.")
_USERINFO = _ALNUM | frozenset("-._:~!$&'()*+,;=%@")
_HOST = _ALNUM | frozenset("-_.~!$&'()*+,;=:[]<>\"")  # what shouldEscape(c, encodeHost) lets through


class URL(NamedTuple):
    """The parts of a URL that checks ask about, as url.Parse splits them; `error` as parse_url gives it."""

    scheme: str  # lower-cased
    userinfo: bool  # the authority names a user (url.URL.User is set)
    host: str  # host[:port] as written (url.URL.Host)
    query: str
    fragment: str
    error: str | None

    @property
    def hostname(self) -> str:
        """The host without port or brackets (url.URL.Hostname)."""
        host = self.host
        if host.startswith("["):
            return host[1 : host.find("]")] if "]" in host else ""
        return host.rpartition(":")[0] if ":" in host else host


@remembered(256)
def split_url(url: str) -> URL:
    """The URL's parts; when `error` is set, the parts are what could be read before it."""
    scheme, error = parse_url(url)
    before, _, fragment = url.partition("#")
    _, rest = _scheme(before)
    rest, _, query = rest.partition("?")
    userinfo, host = False, ""
    if rest.startswith("//") and (scheme or not rest.startswith("///")):
        authority = rest[2:].partition("/")[0]
        _, at_sign, host = authority.rpartition("@")
        userinfo = bool(at_sign)
    return URL(scheme, userinfo, host, query, fragment, error)


@remembered(256)
def parse_url(url: str) -> tuple[str, str | None]:
    """(scheme lower-cased, error) of url.Parse; the error reads as Go's *url.Error prints it, or is None."""
    before, hash_sign, fragment = url.partition("#")
    scheme, reason = _parse(before)
    if reason:
        return scheme, f"parse {go_quote(before)}: {reason}"
    if hash_sign:
        bad = _bad_escape(fragment, "")
        if bad:
            return scheme, f"parse {go_quote(url)}: {bad}"
    return scheme, None


def _parse(url: str) -> tuple[str, str | None]:
    if any(ord(char) < 0x20 or char == "\x7f" for char in url):
        return "", "net/url: invalid control character in URL"
    if url == "*":
        return "", None
    scheme, rest = _scheme(url)
    if scheme is None:
        return "", "missing protocol scheme"
    rest = rest.partition("?")[0]  # the query is not parsed
    if not rest.startswith("/"):
        if scheme:
            return scheme, None  # opaque: "mailto:x", "unix:sock"
        if ":" in rest.partition("/")[0]:
            return "", "first path segment in URL cannot contain colon"
    if rest.startswith("//") and (scheme or not rest.startswith("///")):
        authority, slash, path = rest[2:].partition("/")
        reason = _authority(authority)
        if reason:
            return scheme, reason
        rest = slash + path
    return scheme, _bad_escape(rest, "")


def _scheme(url: str) -> tuple[str | None, str]:
    """getScheme: (scheme, rest); ("", url) when there is none; (None, "") for a leading colon."""
    for index, char in enumerate(url):
        if char == ":":
            return (url[:index].lower(), url[index + 1 :]) if index else (None, "")
        if char not in (_SCHEME_REST if index else _LETTERS):
            return "", url
    return "", url


def _authority(authority: str) -> str | None:
    userinfo, at_sign, host = authority.rpartition("@")
    reason = _host(host)
    if reason or not at_sign:
        return reason
    if any(char not in _USERINFO for char in userinfo):
        return "net/url: invalid userinfo"
    return _bad_escape(userinfo, "")


def _host(host: str) -> str | None:
    if host.startswith("["):  # an IP literal, perhaps with a %25-escaped zone: "[fe80::1%25en0]:80"
        end = host.rfind("]")
        if end < 0:
            return "missing ']' in host"
        port = host[end + 1 :]
        zone = host.find("%25", 0, end)
        parts = [(host[:zone], "host"), (host[zone:end], "zone"), (host[end:], "host")] if zone >= 0 else [(host, "host")]
    else:
        colon = host.rfind(":")
        port = host[colon:] if colon >= 0 else ""
        parts = [(host, "host")]
    if port and (port[0] != ":" or not all("0" <= char <= "9" for char in port[1:])):
        return f"invalid port {go_quote(port)} after host"
    return next((reason for text, mode in parts if (reason := _bad_escape(text, mode))), None)


def _bad_escape(text: str, mode: str) -> str | None:
    """unescape's complaint: a malformed %-escape; in a host an escaped ASCII byte or a character a host may not hold
    (mode "host"); in a zone an escape of such a character (mode "zone"); elsewhere (mode "") only malformed escapes."""
    index = 0
    while index < len(text):
        char = text[index]
        if char == "%":
            chunk = text[index : index + 3]
            if len(chunk) < 3 or chunk[1] not in _HEX or chunk[2] not in _HEX:
                return f"invalid URL escape {go_quote(chunk)}"
            byte = int(chunk[1:], 16)
            if mode == "host" and byte < 0x80 and chunk != "%25":
                return f"invalid URL escape {go_quote(chunk)}"
            if mode == "zone" and chunk != "%25" and byte != 0x20 and (byte >= 0x80 or chr(byte) not in _HOST):
                return f"invalid URL escape {go_quote(chunk)}"
            index += 3
            continue
        if mode and char < "\x80" and char not in _HOST:
            return f"invalid character {go_quote(char)} in host name"
        index += 1
    return None
