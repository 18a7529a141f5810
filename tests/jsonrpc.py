"""JSON-RPC frames as the Language Server Protocol sends them over stdio: `Content-Length` headers, then the body."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import BinaryIO


def frame(message: dict) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_frames(stream: BinaryIO, received: Callable[[bytes | None], None]) -> None:
    """Hand each message body read from `stream` to `received`, then None when the stream ends or stops making sense."""
    while True:
        length = None
        while (line := stream.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        if not line or length is None:
            received(None)
            return
        received(stream.read(length))
