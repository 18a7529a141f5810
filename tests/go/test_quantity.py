"""svcconf.go.quantity against apimachinery's own tests (k8s.io/apimachinery pkg/api/resource/quantity_test.go TestQuantityParse)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from svcconf.go.quantity import MAX_ALLOWED, parse_quantity

KI, MI, GI, TI, PI, EI = (1024**n for n in range(1, 7))


def dec(value, scale: int) -> Decimal:
    """decQuantity(value, scale, ...) of the upstream test: value * 10**scale."""
    return Decimal(value).scaleb(scale)


# The table of TestQuantityParse; every entry is also tried with "-" and "+" in front, as upstream does.
PARSE = [
    *[(text, dec(0, 0)) for text in ("0", "0n", "0u", "0m", "0Ki", "0k", "0Mi", "0M", "0Gi", "0G", "0Ti", "0T")],
    ("1", dec(1, 0)),
    ("1Ki", dec(KI, 0)),
    ("8Ki", dec(8 * KI, 0)),
    ("7Mi", dec(7 * MI, 0)),
    ("6Gi", dec(6 * GI, 0)),
    ("5Ti", dec(5 * TI, 0)),
    ("4Pi", dec(4 * PI, 0)),
    ("3Ei", dec(3 * EI, 0)),
    ("10Ti", dec(10 * TI, 0)),
    ("100Ti", dec(100 * TI, 0)),
    ("5n", dec(5, -9)),
    ("4u", dec(4, -6)),
    ("3m", dec(3, -3)),
    ("9", dec(9, 0)),
    ("8k", dec(8, 3)),
    ("50k", dec(5, 4)),
    ("7M", dec(7, 6)),
    ("6G", dec(6, 9)),
    ("5T", dec(5, 12)),
    ("40T", dec(4, 13)),
    ("300T", dec(3, 14)),
    ("2P", dec(2, 15)),
    ("1E", dec(1, 18)),
    ("1E-3", dec(1, -3)),
    ("1e3", dec(1, 3)),
    ("1E6", dec(1, 6)),
    ("1e9", dec(1, 9)),
    ("1E12", dec(1, 12)),
    ("1e15", dec(1, 15)),
    ("1E18", dec(1, 18)),
    ("1e14", dec(1, 14)),
    ("1e13", dec(1, 13)),
    ("100.035k", dec(100035, 0)),
    ("0.001", dec(1, -3)),
    ("0.0005k", dec(5, -1)),
    ("0.005", dec(5, -3)),
    ("0.05", dec(5, -2)),
    ("0.5", dec(5, -1)),
    ("0.00050k", dec(5, -1)),
    ("0.00500", dec(5, -3)),
    ("0.05000", dec(5, -2)),
    ("0.50000", dec(5, -1)),
    ("0.5e0", dec(5, -1)),
    ("0.5e-1", dec(5, -2)),
    ("0.5e-2", dec(5, -3)),
    ("10.035M", dec(10035, 3)),
    ("1.2e3", dec(12, 2)),
    ("1.3E+6", dec(13, 5)),
    ("1.40e9", dec(14, 8)),
    ("1.53E12", dec(153, 10)),
    ("1.6e15", dec(16, 14)),
    ("1.7E18", dec(17, 17)),
    ("9.01", dec(901, -2)),
    ("8.1k", dec(81, 2)),
    ("7.123456M", dec(7123456, 0)),
    ("6.987654321G", dec(6987654321, 0)),
    ("5.444T", dec(5444, 9)),
    ("40.1T", dec(401, 11)),
    ("300.2T", dec(3002, 11)),
    ("2.5P", dec(25, 14)),
    ("1.01E", dec(101, 16)),
    # things that saturate or round (up, to the nano unit)
    ("3.001n", dec(4, -9)),
    ("1.1E-9", dec(2, -9)),
    ("0.0000000001", dec(1, -9)),
    ("0.0000000005", dec(1, -9)),
    ("0.00000000050", dec(1, -9)),
    ("0.5e-9", dec(1, -9)),
    ("0.9n", dec(1, -9)),
    ("0.00000012345", dec(124, -9)),
    ("0.00000012354", dec(124, -9)),
    ("9Ei", Decimal(MAX_ALLOWED)),
    ("9223372036854775807Ki", Decimal(MAX_ALLOWED)),
    ("12E", dec(12, 18)),
    ("100.035Ki", dec(10243584, -2)),
    ("0.5Mi", dec(524288, 0)),
    ("0.05Gi", dec(536870912, -1)),
    ("0.025Ti", dec(274877906944, -1)),
    ("0.000000000001Ki", dec(2, -9)),
    (".001", dec(1, -3)),
    (".0001k", dec(100, -3)),
    ("1.", dec(1, 0)),
    ("1.G", dec(1, 9)),
]

# The invalid list of TestQuantityParse, then other scripts' digits, which Go does not read as digits.
INVALID = [
    *("1.1.M", "1+1.0M", "0.1mi", "0.1am", "aoeu", ".5i", "1i", "-3.01i", "-3.01e-", " 1", "1 ", ""),
    *("١", "1٠0Mi", "²", "1e²", "１Gi"),
]


@pytest.mark.parametrize(("text", "value"), PARSE)
def test_parse_quantity(text: str, value: Decimal) -> None:
    assert parse_quantity(text) == value
    assert parse_quantity("-" + text) == -value
    assert parse_quantity("+" + text) == value


@pytest.mark.parametrize("text", INVALID)
def test_parse_quantity_refuses(text: str) -> None:
    assert parse_quantity(text) is None


def test_huge_exponents_cost_nothing() -> None:
    # The exponent is int32 in Go (ParseInt, then int32()); the value is never expanded digit by digit.
    assert parse_quantity("1e2147483647") == Decimal("1e2147483647")
    assert parse_quantity("1e" + "9" * 10_000) is None
