"""PEM blocks as Go's encoding/pem.Decode finds them, in linear time (Go 1.25's algorithm).

Each END line is found once and paired with the last BEGIN line before it, so a text of many
BEGIN lines without END costs one pass, not one pass per BEGIN.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator
from typing import NamedTuple

_BEGIN = "-----BEGIN "
_END = "\n-----END "
_DASHES = "-----"
_NOT_BASE64_TEXT = str.maketrans("", "", " \t\r\n")  # PEM drops spaces and tabs, base64 drops line ends


class Block(NamedTuple):
    type: str
    headers: dict[str, str]
    data: bytes


def _line(text: str, at: int) -> tuple[str, int]:
    """getLine: the line at `at` without its end (and trailing spaces, tabs, a CR), and where the next one starts."""
    newline = text.find("\n", at)
    if newline < 0:
        return text[at:].rstrip(" \t"), len(text)
    end = newline - 1 if newline > at and text[newline - 1] == "\r" else newline
    return text[at:end].rstrip(" \t"), newline + 1


def _decode(text: str, at: int) -> tuple[Block | None, int]:
    """(next block, where the text after it starts), or (None, len) when no further block decodes."""
    low = at  # Go's `rest`: after the END marker last looked at
    while True:
        end = text.find(_END, low)
        if end < 0:
            return None, len(text)
        begin = text.rfind(_BEGIN, low, end)
        starts_line = begin == low or (begin > low and text[begin - 1] == "\n")
        low = end + len(_END)
        if not starts_line:
            continue
        type_line, cursor = _line(text, begin + len(_BEGIN))
        if not type_line.endswith(_DASHES):
            continue
        kind = type_line[: -len(_DASHES)]
        headers: dict[str, str] = {}
        while True:
            if cursor >= len(text):
                return None, len(text)
            line, following = _line(text, cursor)
            key, colon, value = line.partition(":")
            if not colon:
                break
            headers[key.strip(" \t\n\v\f\r")] = value.strip(" \t\n\v\f\r")
            cursor = following
        if headers and end < cursor:
            continue
        trailer = end + len(_END)
        closing = text[trailer : trailer + len(kind) + len(_DASHES)]
        if closing != kind + _DASHES or _line(text, trailer + len(closing))[0]:
            continue
        data = b""
        if end > cursor:
            body = text[cursor:end].translate(_NOT_BASE64_TEXT)
            try:
                data = base64.b64decode(body, validate=True)
            except (binascii.Error, ValueError):
                continue
        return Block(kind, headers, data), _line(text, end + 1)[1]


def blocks(text: str) -> Iterator[Block]:
    """Every block pem.Decode returns when called again on the rest, as Go's callers loop."""
    at = 0
    while at < len(text):
        block, at = _decode(text, at)
        if block is None:
            return
        yield block
