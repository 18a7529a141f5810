"""svcconf.go.names against apimachinery's own tests (k8s.io/apimachinery pkg/util/validation/validation_test.go)."""

from __future__ import annotations

import pytest

from svcconf.go.names import (
    LABEL_MESSAGE,
    SUBDOMAIN_MESSAGE,
    WILDCARD_MESSAGE,
    dns1123_label,
    dns1123_subdomain,
    label_value,
    qualified_name,
    wildcard_dns1123_subdomain,
)

# TestIsDNS1123Label
GOOD_LABELS = ["a", "ab", "abc", "a1", "a-1", "a--1--2--b", "0", "01", "012", "1a", "1-a", "1--a--b--2", "a" * 63]
BAD_LABELS = [
    *("", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1"),
    *("_", "a_", "_a", "a_b", "1_", "_1", "1_2", ".", "a.", ".a", "a.b", "1.", ".1", "1.2"),
    *(" ", "a ", " a", "a b", "1 ", " 1", "1 2", "a" * 64),
    "abc\n",  # Go's $ is the end of the text, not a line
]

# TestIsDNS1123Subdomain
GOOD_SUBDOMAINS = [
    *("a", "ab", "abc", "a1", "a-1", "a--1--2--b", "0", "01", "012", "1a", "1-a", "1--a--b--2"),
    *("a.a", "ab.a", "abc.a", "a1.a", "a-1.a", "a--1--2--b.a", "a.1", "ab.1", "abc.1", "a1.1", "a-1.1", "a--1--2--b.1"),
    *("0.a", "01.a", "012.a", "1a.a", "1-a.a", "0.1", "01.1", "012.1", "1a.1", "1-a.1", "1--a--b--2.1"),
    *("a.b.c.d.e", "aa.bb.cc.dd.ee", "1.2.3.4.5", "11.22.33.44.55", "a" * 253),
]
BAD_SUBDOMAINS = [
    *("", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1"),
    *("_", "a_", "_a", "a_b", "1_", "_1", "1_2", ".", "a.", ".a", "a..b", "1.", ".1", "1..2"),
    *(" ", "a ", " a", "a b", "1 ", " 1", "1 2", "A.a", "aB.a", "ab.A", "A1.a", "a1.A"),
    *("A.1", "aB.1", "A1.1", "1A.1", "0.A", "01.A", "012.A", "1A.a", "1a.A"),
    *("A.B.C.D.E", "AA.BB.CC.DD.EE", "a.B.c.d.e", "aa.bB.cc.dd.ee"),
    *("a@b", "a,b", "a_b", "a;b", "a:b", "a%b", "a?b", "a$b", "a" * 254),
    "example.com\n",
]

# TestIsQualifiedName
GOOD_QUALIFIED = [
    *("simple", "now-with-dashes", "1-starts-with-num", "1234", "simple/simple", "now-with-dashes/simple"),
    *("now-with-dashes/now-with-dashes", "now.with.dots/simple", "now-with.dashes-and.dots/simple", "1-num.2-num/3-num"),
    *("1234/5678", "1.2.3.4/5678", "Uppercase_Is_OK_123", "example.com/Uppercase_Is_OK_123", "requests.storage-foo"),
    "a" * 63,
    "a" * 253 + "/" + "b" * 63,
]
BAD_QUALIFIED = [
    *("nospecialchars%^=@", "cantendwithadash-", "-cantstartwithadash-", "only/one/slash", "Example.com/abc"),
    *("example_com/abc", "example.com/", "/simple", "a" * 64, "a" * 254 + "/abc"),
]

# TestIsValidLabelValue
GOOD_LABEL_VALUES = ["simple", "now-with-dashes", "1-starts-with-num", "end-with-num-1", "1234", "a" * 63, ""]
BAD_LABEL_VALUES = [
    *("nospecialchars%^=@", "Tama-nui-te-rā.is.Māori.sun", "\\backslashes\\are\\bad", "-starts-with-dash"),
    *("ends-with-dash-", ".starts.with.dot", "ends.with.dot.", "a" * 64),
]

# TestIsWildcardDNS1123Subdomain
GOOD_WILDCARDS = ["*.example.com", "*.bar.com", "*.foo.bar.com"]
BAD_WILDCARDS = ["*.*.bar.com", "*.foo.*.com", "*bar.com", "f*.bar.com", "*"]


@pytest.mark.parametrize(
    ("check", "good", "bad"),
    [
        (dns1123_label, GOOD_LABELS, BAD_LABELS),
        (dns1123_subdomain, GOOD_SUBDOMAINS, BAD_SUBDOMAINS),
        (qualified_name, GOOD_QUALIFIED, BAD_QUALIFIED),
        (label_value, GOOD_LABEL_VALUES, BAD_LABEL_VALUES),
        (wildcard_dns1123_subdomain, GOOD_WILDCARDS, BAD_WILDCARDS),
    ],
    ids=lambda value: getattr(value, "__name__", ""),
)
def test_upstream_cases(check, good: list[str], bad: list[str]) -> None:
    assert [value for value in good if check(value)] == []
    assert [value for value in bad if not check(value)] == []


def test_messages_and_their_order() -> None:
    assert dns1123_label("a.b") == ["must not contain dots"]
    assert dns1123_label("A" * 64) == ["must be no more than 63 characters", LABEL_MESSAGE]
    assert dns1123_subdomain("-") == [SUBDOMAIN_MESSAGE]
    assert wildcard_dns1123_subdomain("*") == [WILDCARD_MESSAGE]
    assert qualified_name("/simple") == ["prefix part must be non-empty"]


def test_lengths_count_bytes_as_go_does() -> None:
    # len() in Go counts UTF-8 bytes: 32 two-byte letters are 64 bytes, over the label limit.
    assert "must be no more than 63 characters" in dns1123_label("é" * 32)
    assert "must be no more than 63 characters" in label_value("é" * 32)
