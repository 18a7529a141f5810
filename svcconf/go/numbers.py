"""Integers as Go's strconv reads them: ASCII digits only, an optional sign for signed types, range checked."""

from __future__ import annotations

_MAX_DIGITS = 20  # 2**64 has 20 digits: anything longer (after leading zeros) overflows every Go integer


def parse_uint(text: str, bits: int = 64) -> int | None:
    """strconv.ParseUint(text, 10, bits): None where Go returns an error (syntax or range)."""
    if not text or not (text.isascii() and text.isdigit()):
        return None
    significant = text.lstrip("0")
    if len(significant) > _MAX_DIGITS:
        return None
    value = int(significant or "0")
    return value if value < 1 << bits else None


def parse_int(text: str, bits: int = 64) -> int | None:
    """strconv.ParseInt(text, 10, bits), and so strconv.Atoi with bits=64: a sign may lead."""
    negative = text[:1] == "-"
    magnitude = parse_uint(text[1:] if text[:1] in ("+", "-") else text, bits)
    if magnitude is None:
        return None
    if negative:
        return -magnitude if magnitude <= 1 << (bits - 1) else None
    return magnitude if magnitude < 1 << (bits - 1) else None
