"""`svcconf server`'s main loop: the server built with its features, reading JSON-RPC from stdin until the client is gone."""

from __future__ import annotations

import argparse
import logging
import sys

from . import features
from .app import SvcconfServer

MAX_MESSAGE = 64 * 1024 * 1024  # bytes of one JSON-RPC message: an editor's buffer is far smaller


def build(args: argparse.Namespace) -> SvcconfServer:
    server = SvcconfServer(args)
    features.register(server)
    return server


class _BoundedStdin:
    """stdin for the message loop: a message that claims to be larger than MAX_MESSAGE ends the session instead of being read."""

    def __init__(self, stream) -> None:
        self.stream = stream

    def readline(self) -> bytes:
        return self.stream.readline(MAX_MESSAGE)

    def read(self, size: int) -> bytes:
        return b"" if size > MAX_MESSAGE else self.stream.read(size)


def serve(args: argparse.Namespace) -> None:
    """Answer messages from stdin on stdout until the client says exit, closes the pipe or is gone."""
    # pygls logs through the root logger; its records could quote a message, so only a failure of the loop itself shows.
    logging.basicConfig(level=logging.CRITICAL, stream=sys.stderr)
    build(args).start_io(_BoundedStdin(sys.stdin.buffer), sys.stdout.buffer)
