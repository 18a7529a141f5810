"""Escaping for everything svcconf prints: text from input never becomes a control sequence or a CI command.

Keys, values and file names come from untrusted files. Every character that is not printable is
shown as an escape, the way Go's %q writes it (`\\n`, `\\t`, `\\x1b`, `\\u202e`), so no raw newline,
carriage return or terminal escape can come from input; printable characters of every script are
kept as they are. A file name that is not valid UTF-8 reaches Python with each undecodable byte as
a lone surrogate (os.fsdecode); every format shows such a byte as `\\xNN`, its value.

CI runners read commands from their logs: GitHub's runner a line that starts, after spaces, with
`::`, and, in its legacy syntax, `##[` anywhere in a line; Azure Pipelines `##vso[` anywhere. A
line of svcconf output starts with a file name (see `file_name`), and the first `#` of those two
marks is written `\\x23` wherever input holds them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

_NAMED = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}
# A GitHub Actions workflow command is a line that starts with "::" (after spaces).
WORKFLOW_COMMAND = "::"
# Commands a runner finds anywhere in a line: GitHub's legacy "##[name]data" and Azure's "##vso[".
_INLINE_COMMANDS = ("##[", "##vso[")


def escape_char(char: str) -> str:
    """The escape of one character that is not printable."""
    named = _NAMED.get(char)
    if named:
        return named
    code = ord(char)
    if code < 0x80:
        return f"\\x{code:02x}"
    if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte of a file name (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"  # pragma: no mutate - U+10000 is printable


def printable(text: str) -> str:
    """`text` with every character that is not printable escaped (the result is also valid XML 1.0 and UTF-8)."""
    if not text.isprintable():
        text = "".join(char if char.isprintable() else escape_char(char) for char in text)
    return inline_commands_escaped(text)


def inline_commands_escaped(text: str) -> str:
    """`text` with the commands a runner finds anywhere in a line (`##[`, `##vso[`) written `\\x23#[`, `\\x23#vso[`; nothing else changed."""
    return _without_inline_commands(text, "\\x23") if "##" in text else text


def _without_inline_commands(text: str, hash_escape: str) -> str:
    for mark in _INLINE_COMMANDS:
        text = text.replace(mark, hash_escape + mark[1:])
    return text


def file_name(name: str) -> str:
    """A file name as it may begin a line of output: escaped, and never the start of a workflow command."""
    shown = printable(name)
    return "./" + shown if shown.lstrip().startswith(WORKFLOW_COMMAND) else shown  # printable leaves no blank but the space


def github_data(text: str) -> str:
    """The message of a workflow command, escaped as GitHub's toolkit does: `%` (`printable` has left no CR or LF)."""
    return printable(text).replace("%", "%25")


def github_property(text: str) -> str:
    """A property value of a workflow command: as data, and `:` and `,` too."""
    return github_data(text).replace(":", "%3A").replace(",", "%2C")


def uri_reference(path: str) -> str:
    """A relative URI for a file: its real bytes percent-encoded (a POSIX backslash is a name character)."""
    from urllib.parse import quote

    if os.sep != "/":  # pragma: no mutate block - Windows only
        path = path.replace(os.sep, "/")
    return quote(os.fsencode(path))


def file_uri(path: str) -> str:
    """The `file:` URI of an absolute path, its real bytes percent-encoded."""
    from urllib.parse import quote

    if os.sep != "/":  # pragma: no mutate block - Windows only: a drive path, file:///C:/...
        path = "/" + path.replace(os.sep, "/")
    return "file://" + quote(os.fsencode(path))


# Outside ASCII, or DEL: the only characters json.dumps(ensure_ascii=False) may leave unescaped that need a look.
_JSON_SUSPECT = re.compile(r"[^\x00-\x7e]")


def json_text(data: object, *, item_lists: tuple[str, ...] = ()) -> str:
    """`data` as indented JSON that is valid UTF-8 and holds no raw control or format character.

    Values stay what they are (`\\u001b`, `\\u202e` and the `\\u0023` of a `##[` are JSON escapes,
    decoded by any reader); only an undecodable file-name byte, which no UTF-8 text can carry,
    becomes the text `\\xNN`.

    The items of a list under a key named in `item_lists` ("" for `data` itself) are written one per
    line: a report of 200,000 findings then takes a second, where indenting each of them (json's
    pure-Python encoder) takes eight, and a line per finding is what grep and diff read best.
    """
    import json

    if item_lists:
        text = "".join(_indented(data, "", "", item_lists, json.JSONEncoder(ensure_ascii=False).encode))
    else:
        text = json.dumps(data, indent=2, ensure_ascii=False)
    if not text.isascii() or "\x7f" in text:
        text = _JSON_SUSPECT.sub(_json_escape, text)
    return _without_inline_commands(text, "\\u0023") if "##" in text else text


def _indented(value: object, key: str | None, margin: str, item_lists: tuple[str, ...], encode) -> Iterator[str]:
    """JSON of `value` as json.dumps(indent=2) writes it, but with the items of `item_lists` on one line each.

    `encode` is one json encoder without indent, json's C encoder, for keys, scalars and those items.
    """
    inner = margin + "  "
    if isinstance(value, dict) and value:
        yield "{"
        for position, (name, item) in enumerate(value.items()):
            yield ("," if position else "") + "\n" + inner + encode(str(name)) + ": "
            yield from _indented(item, str(name), inner, item_lists, encode)
        yield "\n" + margin + "}"
    elif isinstance(value, list) and value:
        yield "["
        for position, item in enumerate(value):
            yield ("," if position else "") + "\n" + inner
            if key in item_lists:
                yield encode(item)
            else:
                yield from _indented(item, None, inner, item_lists, encode)
        yield "\n" + margin + "]"
    else:
        yield encode(value)


def _json_escape(match: re.Match) -> str:
    char = match.group()
    if char.isprintable():
        return char
    code = ord(char)
    if 0xD800 <= code <= 0xDFFF:
        return "\\" + escape_char(char)  # a backslash, escaped for JSON, then xNN
    if code >= 0x10000:  # pragma: no mutate - U+10000 itself is printable: the boundary is never reached
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"
