"""JSON-RPC frames as the Language Server Protocol sends them over stdio: `Content-Length` headers, then the body."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import BinaryIO


def frame(message: dict) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_frame(stream: BinaryIO) -> bytes | None:
    """The body of the next message on `stream`; None when the stream ends or stops making sense."""
    length = None
    while (line := stream.readline()) not in (b"\r\n", b""):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    if not line or length is None:
        return None
    return stream.read(length)


def read_frames(stream: BinaryIO, received: Callable[[bytes | None], None]) -> None:
    """Hand each message body read from `stream` to `received`, then None when the stream ends or stops making sense."""
    while (body := read_frame(stream)) is not None:
        received(body)
    received(None)
