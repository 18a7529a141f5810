"""svcconf.go.url and svcconf.go.pem against Go's own tests and sources.

URLs: golang/go src/net/url/url_test.go (TestParseErrors, TestRejectControlCharacters,
TestInvalidUserPassword). PEM: the behaviour of golang/go src/encoding/pem/pem.go Decode.
"""

from __future__ import annotations

import base64

import pytest

from svcconf.go.pem import blocks
from svcconf.go.url import parse_url, split_url

# TestParseErrors: (input, whether Parse fails)
PARSE_ERRORS = [
    ("http://[::1]", False),
    ("http://[::1]:80", False),
    ("http://[::1]:namedport", True),
    ("http://x:namedport", True),
    ("http://[::1]/", False),
    ("http://[::1]a", True),
    ("http://[::1]%23", True),
    ("http://[::1%25en0]", False),
    ("http://[::1]:", False),
    ("http://x:", False),
    ("http://[::1]:%38%30", True),
    ("http://[::1%25%41]", False),
    ("http://[%10::1]", True),
    ("http://[::1]/%48", False),
    ("http://%41:8080/", True),
    ("mysql://x@y(z:123)/foo", True),
    ("mysql://x@y(1.2.3.4:123)/foo", True),
    (" http://foo.com", True),
    ("ht tp://foo.com", True),
    ("ahttp://foo.com", False),
    ("1http://foo.com", True),
    ("http://[]%20%48%54%54%50%2f%31%2e%31%0a%4d%79%48%65%61%64%65%72%3a%20%31%32%33%0a%0a/", True),
    ("http://a b.com/", True),
    ("cache_object://foo", True),
    ("cache_object:foo", True),
    ("cache_object:foo/bar", True),
    ("cache_object/:foo/bar", False),
    # TestRejectControlCharacters and TestInvalidUserPassword
    ("http://foo.com/?foo\nbar", True),
    ("http\r://foo.com/", True),
    ("http://foo\x7f.com/", True),
    ("http://foo.com/ctl\x80", False),
    ("http://user^:passwo^rd@foo.com/", True),
    # ports are ASCII digits (validOptionalPort)
    ("https://example.com:٤٤٣/", True),
]


@pytest.mark.parametrize(("url", "fails"), PARSE_ERRORS)
def test_parse_errors(url: str, fails: bool) -> None:
    assert (parse_url(url)[1] is not None) is fails


def test_scheme_and_error_text() -> None:
    assert parse_url("HTTPS://example.com/x") == ("https", None)
    assert parse_url("unix:///run/kms.sock") == ("unix", None)
    assert parse_url("/var/run/sock") == ("", None)
    assert parse_url(":foo") == ("", 'parse ":foo": missing protocol scheme')
    assert parse_url("a:b:c/x") == ("a", None)  # opaque
    assert parse_url("http://user^@h/") == ("http", 'parse "http://user^@h/": net/url: invalid userinfo')
    assert parse_url("x:1/#%zz") == ("x", 'parse "x:1/#%zz": invalid URL escape "%zz"')


def _pem(kind: str, data: bytes, headers: str = "") -> str:
    return f"-----BEGIN {kind}-----\n{headers}{base64.b64encode(data).decode()}\n-----END {kind}-----\n"


def test_pem_blocks_as_decode_finds_them() -> None:
    text = "junk\n" + _pem("CERTIFICATE", b"one") + _pem("KEY", b"two", "Proc-Type: 4,ENCRYPTED\n\n") + "trailing"
    found = list(blocks(text))
    assert [(b.type, b.headers, b.data) for b in found] == [
        ("CERTIFICATE", {}, b"one"),
        ("KEY", {"Proc-Type": "4,ENCRYPTED"}, b"two"),
    ]


def test_pem_blocks_skip_what_decode_skips() -> None:
    mismatched = "-----BEGIN A-----\nAAAA\n-----END B-----\n"
    not_base64 = "-----BEGIN C-----\n!!!!\n-----END C-----\n"
    not_at_line_start = "x-----BEGIN D-----\nAAAA\n-----END D-----\n"
    assert list(blocks(mismatched + not_base64 + not_at_line_start)) == []
    # The last BEGIN before an END opens the block: repeated BEGIN lines are skipped.
    assert [b.type for b in blocks("-----BEGIN E-----\n" * 3 + _pem("E", b"e"))] == ["E"]


@pytest.mark.parametrize(
    ("url", "scheme", "userinfo", "host", "hostname", "query", "fragment"),
    [
        # net/url url_test.go: "http://user:password@google.com", "http://[fe80::1]:8080/", "https://www.google.com/?q=go+language#foo"
        ("http://user:password@google.com", "http", True, "google.com", "google.com", "", ""),
        ("HTTP://[fe80::1]:8080/", "http", False, "[fe80::1]:8080", "fe80::1", "", ""),
        ("https://www.google.com/?q=go+language#foo", "https", False, "www.google.com", "www.google.com", "q=go+language", "foo"),
        ("mailto:webmaster@golang.org", "mailto", False, "", "", "", ""),
    ],
)
def test_split_url_gives_the_parts_url_parse_gives(url, scheme, userinfo, host, hostname, query, fragment) -> None:
    parts = split_url(url)
    assert (parts.scheme, parts.userinfo, parts.host, parts.hostname, parts.query, parts.fragment) == (
        scheme,
        userinfo,
        host,
        hostname,
        query,
        fragment,
    )
    assert parts.error is None
