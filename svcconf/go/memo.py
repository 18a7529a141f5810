"""Parsers' answers remembered for the short texts files repeat in every document.

A value such as "10s", "10.96.0.0/12" or an issuer URL appears in document after document; a
parser that is a pure function of its text answers it once. Only texts up to a length are kept
(4,096 of them): a longer text, which no such value is, is parsed each time, so hostile input
cannot fill the memory.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

Parser = TypeVar("Parser", bound=Callable)


def remembered(longest: int) -> Callable[[Parser], Parser]:
    """Decorate a pure function whose first argument is a str (and whose other arguments are hashable)."""

    def decorate(parse: Parser) -> Parser:
        cached = functools.lru_cache(maxsize=4096)(parse)

        @functools.wraps(parse)
        def lookup(text: str, *args):
            return cached(text, *args) if len(text) <= longest else parse(text, *args)

        return lookup  # type: ignore[return-value]

    return decorate
