"""`svcconf server`'s main loop: the server built with its features, reading JSON-RPC from stdin until the client is gone.

stdin is read by the event loop itself (a pipe transport), not by pygls' default reader, which
hands each line of each message to a thread pool and back: over a busy machine's scheduler those
hand-overs cost more than checking a changed document (bench/server_bench.py).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import stat
import sys
import threading

from . import features
from .app import SvcconfServer

MAX_MESSAGE = 64 * 1024 * 1024  # bytes of one JSON-RPC message or header line: an editor's buffer is far smaller


def build(args: argparse.Namespace) -> SvcconfServer:
    server = SvcconfServer(args)
    features.register(server)
    return server


class PipeReader:
    """What pygls' message loop reads from: stdin through an asyncio stream. End of input, a header line or
    a message over MAX_MESSAGE read as b"", which ends the session instead of being read."""

    def __init__(self, stream: asyncio.StreamReader) -> None:
        self.stream = stream

    async def readline(self) -> bytes:
        try:
            return await self.stream.readline()
        except ValueError:  # a line over the stream's limit
            return b""

    async def readexactly(self, size: int) -> bytes:
        if size > MAX_MESSAGE:
            return b""
        try:
            return await self.stream.readexactly(size)
        except asyncio.IncompleteReadError:
            return b""


async def _serve(server: SvcconfServer) -> None:
    from pygls.io_ import StdoutWriter, run_async

    loop = asyncio.get_running_loop()
    stream = asyncio.StreamReader(limit=MAX_MESSAGE)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stream), sys.stdin)
    server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
    await run_async(
        stop_event=threading.Event(), reader=PipeReader(stream), protocol=server.protocol, error_handler=server.report_server_error
    )


def serve(args: argparse.Namespace) -> None:
    """Answer messages from stdin on stdout until the client says exit, closes the pipe or is gone."""
    # pygls logs through the root logger; its records could quote a message, so only a failure of the loop itself shows.
    logging.basicConfig(level=logging.CRITICAL, stream=sys.stderr)
    server = build(args)
    try:
        if stat.S_ISREG(os.fstat(sys.stdin.fileno()).st_mode):  # messages recorded in a file: no pipe transport reads one
            server.start_io()
        else:
            asyncio.run(_serve(server))
    except (BrokenPipeError, KeyboardInterrupt):
        pass  # the client is gone: nobody to answer
