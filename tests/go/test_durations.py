"""svcconf.go.durations against the known answers of Go's own tests (src/time/time_test.go)."""

from __future__ import annotations

import pytest

from svcconf.go.durations import (
    HOUR,
    MICROSECOND,
    MILLISECOND,
    MINUTE,
    NANOSECOND,
    SECOND,
    duration_or_default,
    format_duration,
    parse_duration,
)

# parseDurationTests in golang/go src/time/time_test.go
PARSE = [
    ("0", 0),
    ("5s", 5 * SECOND),
    ("30s", 30 * SECOND),
    ("1478s", 1478 * SECOND),
    ("-5s", -5 * SECOND),
    ("+5s", 5 * SECOND),
    ("-0", 0),
    ("+0", 0),
    ("5.0s", 5 * SECOND),
    ("5.6s", 5 * SECOND + 600 * MILLISECOND),
    ("5.s", 5 * SECOND),
    (".5s", 500 * MILLISECOND),
    ("1.0s", 1 * SECOND),
    ("1.00s", 1 * SECOND),
    ("1.004s", 1 * SECOND + 4 * MILLISECOND),
    ("1.0040s", 1 * SECOND + 4 * MILLISECOND),
    ("100.00100s", 100 * SECOND + 1 * MILLISECOND),
    ("10ns", 10 * NANOSECOND),
    ("11us", 11 * MICROSECOND),
    ("12µs", 12 * MICROSECOND),  # U+00B5
    ("12μs", 12 * MICROSECOND),  # U+03BC
    ("13ms", 13 * MILLISECOND),
    ("14s", 14 * SECOND),
    ("15m", 15 * MINUTE),
    ("16h", 16 * HOUR),
    ("3h30m", 3 * HOUR + 30 * MINUTE),
    ("10.5s4m", 4 * MINUTE + 10 * SECOND + 500 * MILLISECOND),
    ("-2m3.4s", -(2 * MINUTE + 3 * SECOND + 400 * MILLISECOND)),
    ("1h2m3s4ms5us6ns", 1 * HOUR + 2 * MINUTE + 3 * SECOND + 4 * MILLISECOND + 5 * MICROSECOND + 6 * NANOSECOND),
    ("39h9m14.425s", 39 * HOUR + 9 * MINUTE + 14 * SECOND + 425 * MILLISECOND),
    ("52763797000ns", 52763797000 * NANOSECOND),
    ("0.3333333333333333333h", 20 * MINUTE),
    ("9007199254740993ns", (1 << 53) + 1),
    ("9223372036854775807ns", (1 << 63) - 1),
    ("9223372036854775.807us", (1 << 63) - 1),
    ("9223372036s854ms775us807ns", (1 << 63) - 1),
    ("-9223372036854775808ns", -(1 << 63)),
    ("-9223372036854775.808us", -(1 << 63)),
    ("-9223372036s854ms775us808ns", -(1 << 63)),
    ("-2562047h47m16.854775808s", -(1 << 63)),
    ("0.100000000000000000000h", 6 * MINUTE),
    ("0.830103483285477580700h", 49 * MINUTE + 48 * SECOND + 372539827 * NANOSECOND),
]

# parseDurationErrorTests, then the digits Go does not read: only ASCII 0-9 are digits to it.
INVALID = [
    "",
    "3",
    "-",
    "s",
    ".",
    "-.",
    ".s",
    "+.s",
    "1d",
    "\x85\x85",
    "\ufffd",
    "9223372036854775810ns",
    "9223372036854775808ns",
    "-9223372036854775809ns",
    "9223372036854776us",
    "3000000h",
    "9223372036854775.808us",
    "9223372036854ms775us808ns",
    "١s",  # ARABIC-INDIC DIGIT ONE
    "1²s",
    "٠",
    "１s",  # FULLWIDTH DIGIT ONE
]

# durationTests (Duration.String)
FORMAT = [
    ("0s", 0),
    ("1ns", 1 * NANOSECOND),
    ("1.1µs", 1100 * NANOSECOND),
    ("2.2ms", 2200 * MICROSECOND),
    ("3.3s", 3300 * MILLISECOND),
    ("4m5s", 4 * MINUTE + 5 * SECOND),
    ("4m5.001s", 4 * MINUTE + 5001 * MILLISECOND),
    ("5h6m7.001s", 5 * HOUR + 6 * MINUTE + 7001 * MILLISECOND),
    ("8m0.000000001s", 8 * MINUTE + 1 * NANOSECOND),
    ("2562047h47m16.854775807s", (1 << 63) - 1),
    ("-2562047h47m16.854775808s", -(1 << 63)),
]


@pytest.mark.parametrize(("text", "ns"), PARSE)
def test_parse_duration(text: str, ns: int) -> None:
    assert parse_duration(text) == ns


@pytest.mark.parametrize("text", INVALID)
def test_parse_duration_refuses(text: str) -> None:
    assert parse_duration(text) is None


@pytest.mark.parametrize(("text", "ns"), FORMAT)
def test_format_duration(text: str, ns: int) -> None:
    assert format_duration(ns) == text
    if ns > 0:
        assert format_duration(-ns) == "-" + text


def test_round_trip_of_the_extremes() -> None:
    # TestParseDurationRoundTrip
    for ns in ((1 << 63) - 1, -(1 << 63)):
        assert parse_duration(format_duration(ns)) == ns


def test_a_zero_duration_takes_the_default_as_component_defaulting_does() -> None:
    # pkg/proxy/apis/config/v1alpha1/defaults.go SetDefaults_KubeProxyConfiguration: `if obj.ConfigSyncPeriod.Duration == 0`.
    default = 15 * 60 * SECOND
    assert [duration_or_default(v, default) for v in (None, "", "0s", "0", "2s", "-1s", "soon")] == [
        default, default, default, default, 2 * SECOND, -SECOND, None
    ]  # fmt: skip
