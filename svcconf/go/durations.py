"""Go durations (metav1.Duration): parsed as time.ParseDuration reads them, printed as Duration.String().

Upstream messages print durations Go's way ("1m30s", "500ms"), so every rule formats them here.
"""

from __future__ import annotations

from typing import Any

from .memo import remembered

NANOSECOND = 1
MICROSECOND = 1_000
MILLISECOND = 1_000_000
SECOND = 1_000_000_000
MINUTE = 60 * SECOND
HOUR = 60 * MINUTE
UNITS = {"ns": NANOSECOND, "us": MICROSECOND, "µs": MICROSECOND, "μs": MICROSECOND, "ms": MILLISECOND, "s": SECOND, "m": MINUTE, "h": HOUR}
_LIMIT = 1 << 63  # Go accumulates in uint64 and refuses anything beyond int64
_DIGITS = "0123456789"


def parse_duration(value: Any) -> int | None:
    """Nanoseconds of a Go duration string ("1m30s", "-1.5h", "0"); None where time.ParseDuration fails.

    A scanner, like Go's: [-+]? then one or more (digits [. digits] unit), with ASCII digits only,
    integer overflow refused and fractions truncated through float64 exactly as Go computes them.
    """
    if not isinstance(value, str):
        return None
    return _parse(value)


@remembered(64)
def _parse(value: str) -> int | None:
    text, negative = value, False
    if text[:1] in ("-", "+"):
        negative, text = text[0] == "-", text[1:]
    if text == "0":
        return 0
    if not text:
        return None
    total, at, end = 0, 0, len(text)
    while at < end:
        if text[at] != "." and text[at] not in _DIGITS:
            return None
        whole, at, digits = _leading_int(text, at)
        if whole is None:
            return None
        fraction, scale, fraction_digits = 0, 1.0, 0
        if at < end and text[at] == ".":
            fraction, scale, at, fraction_digits = _leading_fraction(text, at + 1)
        if not digits and not fraction_digits:
            return None  # "." or ".s": no digits at all
        start = at
        while at < end and text[at] != "." and text[at] not in _DIGITS:
            at += 1
        unit = UNITS.get(text[start:at])
        if unit is None:
            return None  # missing or unknown unit
        if whole > _LIMIT // unit:
            return None
        amount = whole * unit
        if fraction:
            amount += int(float(fraction) * (float(unit) / scale))
            if amount > _LIMIT:
                return None
        total += amount
        if total > _LIMIT:
            return None
    if negative:
        return -total
    return total if total < _LIMIT else None


def _leading_int(text: str, at: int) -> tuple[int | None, int, int]:
    """(value or None on overflow, position after the digits, how many digits)."""
    start, value = at, 0
    while at < len(text) and text[at] in _DIGITS:
        if value > _LIMIT // 10:
            return None, at, at - start
        value = value * 10 + ord(text[at]) - 48
        if value > _LIMIT:
            return None, at, at - start
        at += 1
    return value, at, at - start


def _leading_fraction(text: str, at: int) -> tuple[int, float, int, int]:
    """(digits as an integer, 10**used digits as float64, position after the digits, how many digits).

    Go stops accumulating once another digit would overflow and ignores the rest.
    """
    start, value, scale, overflow = at, 0, 1.0, False
    while at < len(text) and text[at] in _DIGITS:
        if not overflow:
            if value > (_LIMIT - 1) // 10:
                overflow = True
            else:
                candidate = value * 10 + ord(text[at]) - 48
                if candidate > _LIMIT:
                    overflow = True
                else:
                    value, scale = candidate, scale * 10
        at += 1
    return value, scale, at, at - start


def _decimal(value: int, unit: int) -> str:
    whole, rest = divmod(value, unit)
    if not rest:
        return str(whole)
    digits = str(rest).rjust(len(str(unit)) - 1, "0").rstrip("0")
    return f"{whole}.{digits}"


def duration_or_default(value: Any, default: int) -> int | None:
    """A duration field in nanoseconds after defaulting: the zero value (absent, "", "0s") takes `default`; None when not a duration."""
    if value in (None, ""):
        return default
    ns = parse_duration(value)
    if ns is None:
        return None  # not a duration: the schema reports it
    return default if ns == 0 else ns


def format_duration(ns: int) -> str:
    """Go's time.Duration.String(), as upstream messages print metav1.Duration values."""
    if ns == 0:
        return "0s"
    sign = "-" if ns < 0 else ""
    u = abs(ns)
    if u < MICROSECOND:
        return f"{sign}{u}ns"
    if u < MILLISECOND:
        return f"{sign}{_decimal(u, MICROSECOND)}µs"
    if u < SECOND:
        return f"{sign}{_decimal(u, MILLISECOND)}ms"
    hours, rest = divmod(u, HOUR)
    minutes, rest = divmod(rest, MINUTE)
    out = f"{hours}h" if hours else ""
    if hours or minutes:
        out += f"{minutes}m"
    return f"{sign}{out}{_decimal(rest, SECOND)}s"
