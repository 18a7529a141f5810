"""Go durations (metav1.Duration): parsed as time.ParseDuration reads them, printed as Duration.String().

Upstream messages print durations Go's way ("1m30s", "500ms"), so every rule formats them here.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

_UNITS = {
    "ns": 1,
    "us": 1_000,
    "µs": 1_000,
    "μs": 1_000,
    "ms": 1_000_000,
    "s": 1_000_000_000,
    "m": 60_000_000_000,
    "h": 3_600_000_000_000,
}
_DURATION = re.compile(r"^[-+]?((\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$")
_PART = re.compile(r"(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)")


def parse_duration(value: Any) -> int | None:
    """Nanoseconds of a Go duration string ("1m30s", "-45s", "0"); None when it is not one."""
    if not isinstance(value, str):
        return None
    if value in ("0", "+0", "-0"):
        return 0
    if not _DURATION.match(value):
        return None
    total = sum(Fraction(number) * _UNITS[unit] for number, unit in _PART.findall(value))
    return -int(total) if value.startswith("-") else int(total)


def _decimal(value: int, unit: int) -> str:
    whole, rest = divmod(value, unit)
    if not rest:
        return str(whole)
    digits = str(rest).rjust(len(str(unit)) - 1, "0").rstrip("0")
    return f"{whole}.{digits}"


def format_duration(ns: int) -> str:
    """Go's time.Duration.String(), as upstream messages print metav1.Duration values."""
    if ns == 0:
        return "0s"
    sign = "-" if ns < 0 else ""
    u = abs(ns)
    if u < 1_000:
        return f"{sign}{u}ns"
    if u < 1_000_000:
        return f"{sign}{_decimal(u, 1_000)}µs"
    if u < 1_000_000_000:
        return f"{sign}{_decimal(u, 1_000_000)}ms"
    hours, rest = divmod(u, _UNITS["h"])
    minutes, rest = divmod(rest, _UNITS["m"])
    out = f"{hours}h" if hours else ""
    if hours or minutes:
        out += f"{minutes}m"
    return f"{sign}{out}{_decimal(rest, _UNITS['s'])}s"
