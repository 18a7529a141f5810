"""Kubernetes quantities ("500m", "1.5Gi", "2e3") as apimachinery's resource.ParseQuantity reads them.

A port of ParseQuantity's scanner and its two paths (int64 fast path, inf.Dec slow path), so that
the odd corners agree too: "1." and ".5" are quantities, "+" alone is zero, a fraction finer than
a nanounit rounds up to one, a binary value above 2**63-1 is capped, and a decimal exponent wraps
to int32 as Go converts it. Values come back exact, as Decimals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .numbers import parse_int

if TYPE_CHECKING:
    from decimal import Decimal

MAX_ALLOWED = (1 << 63) - 1  # the cap of binary-SI values
_NANO = -9
_MAX_INT64_FACTORS = 18
_DIGITS = "0123456789"
_SUFFIX_CHARS = "eEinumkKMGTP"
_DECIMAL_SI = {"": 0, "n": -9, "u": -6, "m": -3, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_BINARY_SI = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}


class _Parts(NamedTuple):
    """What parseQuantityString returns: sign, the numeric text as written, digits before and after the point, suffix."""

    positive: bool
    value: str
    num: str
    denom: str = ""
    suffix: str = ""


def _digits_end(text: str, at: int) -> int:
    while at < len(text) and text[at] in _DIGITS:
        at += 1
    return at


def _split(text: str) -> _Parts | None:
    """parseQuantityString; None where it reports ErrFormatWrong."""
    positive, pos, end = True, 0, len(text)
    if text[0] in "+-":
        positive, pos = text[0] == "+", 1
    while pos < end and text[pos] == "0":
        pos += 1
    if pos == end:
        return _Parts(positive, "0", "0")
    stop = _digits_end(text, pos)
    num = text[pos:stop] or "0"
    if stop == end:
        return _Parts(positive, text, num)
    pos, denom = stop, ""
    if text[pos] == ".":
        stop = _digits_end(text, pos + 1)
        denom = text[pos + 1 : stop]
        if stop == end:
            return _Parts(positive, text, num, denom)
        pos = stop
    value, suffix_start = text[:pos], pos
    while pos < end and text[pos] in _SUFFIX_CHARS:
        pos += 1
    if pos < end and text[pos] in "+-":
        pos += 1
    if _digits_end(text, pos) != end:
        return None
    return _Parts(positive, value, num, denom, text[suffix_start:])


def _suffix(suffix: str) -> tuple[int, bool] | None:
    """(exponent, binary: a power of 2 rather than 10) of a suffix as quantitySuffixer.interpret reads it."""
    if suffix in _DECIMAL_SI:
        return _DECIMAL_SI[suffix], False
    if suffix in _BINARY_SI:
        return _BINARY_SI[suffix], True
    if len(suffix) > 1 and suffix[0] in "eE":
        exponent = parse_int(suffix[1:])
        if exponent is None:
            return None
        return (exponent + (1 << 31)) % (1 << 32) - (1 << 31), False  # int32(parsed)
    return None


def parse_quantity(text: str) -> Decimal | None:
    """The value of resource.ParseQuantity(text), or None where it returns an error (no surrounding spaces allowed)."""
    from decimal import Decimal

    if not text:
        return None
    if text == "0":
        return Decimal(0)
    parts = _split(text)
    suffix = _suffix(parts.suffix) if parts else None
    if parts is None or suffix is None:
        return None
    exponent, binary = suffix
    if binary:
        # 1Mi has ~6 decimal digits of precision, so exponent*3/10 - 1 digits are taken from 15.
        precision = 15 - len(parts.num) - exponent * 3 // 10 - 1 if not parts.denom else -1
        scale, mantissa = 0, 1 << exponent
    else:
        precision = _MAX_INT64_FACTORS - len(parts.num) - len(parts.denom)
        scale, mantissa = exponent, 1
    if precision >= 0 and scale - len(parts.denom) >= _NANO:
        result = int(parts.num + parts.denom) * mantissa
        if result <= MAX_ALLOWED:
            return Decimal(f"{'' if parts.positive else '-'}{result}e{scale - len(parts.denom)}")
    return _slow_path(parts, exponent, binary)


def _slow_path(parts: _Parts, exponent: int, binary: bool) -> Decimal | None:
    """The inf.Dec path: exact value, rounded up (away from zero) to nano units, binary values capped."""
    import decimal

    if not any(char in _DIGITS for char in parts.value):
        return None  # inf.Dec refuses text without digits ("." or "+" before a large suffix)
    amount = abs(decimal.Decimal(parts.value))
    # Enough precision that no step rounds: the digits written plus those 2**60 or the rounding adds.
    context = decimal.Context(prec=len(parts.value) + 40, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN, rounding=decimal.ROUND_UP)
    if binary:
        amount = context.multiply(amount, decimal.Decimal(1 << exponent))
    else:
        amount = amount.scaleb(exponent, context)
    if amount and amount.as_tuple().exponent < _NANO:
        amount = amount.quantize(decimal.Decimal(1).scaleb(_NANO), context=context)
    if binary and amount > MAX_ALLOWED:
        amount = decimal.Decimal(MAX_ALLOWED)
    return amount if parts.positive else -amount
