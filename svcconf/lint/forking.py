"""Forked workers: this process and copies of it take chunks of work from one pipe; each copy sends its results back on a pipe of its own.

Linux only (workers.can_fork decides): a copy starts with everything the parent imported and
compiled, and leaves with os._exit, so it runs nothing the parent registered to run at exit and
writes nothing the parent had buffered.
"""

from __future__ import annotations

import gc
import os
import pickle
import select
import signal
import struct
import sys
from collections.abc import Callable

_HEADER = struct.Struct("=IQ")  # a result frame: chunk number, length of the pickled results that follow
_TOKEN = struct.Struct("=I")  # a chunk number waiting to be taken
_READ = 1 << 20

Check = Callable[[list[str]], list]
Done = Callable[[int], None]


def run_forked(chunked: list[list[str]], check: Check, count: int, done: Done | None = None) -> list[list]:
    """`check` of every chunk, by this process and count - 1 forked ones; the results in the chunks' order.

    Chunk numbers wait in one pipe and go to whichever process reads next; this process reads the
    workers' results between its own chunks. A chunk a worker took and never answered (it died) is
    checked here at the end. `done` is told how many files have been checked so far.
    """
    tokens, feed = os.pipe()
    os.write(feed, b"".join(_TOKEN.pack(number) for number in range(len(chunked))))
    os.close(feed)  # once every number is taken, a read finds the end
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    collected = _Collected(done)
    workers: dict[int, _Worker] = {}
    frozen = gc.get_freeze_count() > 0  # commands.loading froze what the command loaded: left frozen after the run
    gc.freeze()  # a worker's collector leaves the inherited objects alone: walking them would copy every page they sit on
    try:
        for _ in range(count - 1):
            worker = _fork(tokens, chunked, check, [w.fd for w in workers.values()])
            if worker is None:
                break  # the system refuses more processes: fewer do the work
            workers[worker.pid] = worker
        while (number := _take(tokens)) is not None:
            collected.add(number, check(chunked[number]))
            _receive(workers, collected, timeout=0)
        while workers:
            _receive(workers, collected, timeout=None)
    finally:
        if not frozen:
            gc.unfreeze()
        os.close(tokens)
        for worker in workers.values():  # left only when this process failed: the workers stop with it
            worker.stop()
    for number, chunk in enumerate(chunked):
        if number not in collected.results:
            collected.add(number, check(chunk))
    return [collected.results[number] for number in range(len(chunked))]


class _Collected:
    def __init__(self, done: Done | None) -> None:
        self.results: dict[int, list] = {}
        self.files = 0
        self.done = done

    def add(self, number: int, results: list) -> None:
        self.results[number] = results
        self.files += len(results)
        if self.done is not None:
            self.done(self.files)


class _Worker:
    def __init__(self, pid: int, fd: int) -> None:
        self.pid = pid
        self.fd = fd  # the read end of its results pipe
        self.pending = bytearray()  # bytes received that do not make a whole frame yet

    def read(self, collected: _Collected) -> bool:
        """Take in what the worker sent; False once it has ended (and has been reaped)."""
        data = os.read(self.fd, _READ)
        if not data:
            os.close(self.fd)
            os.waitpid(self.pid, 0)
            return False
        self.pending += data
        while len(self.pending) >= _HEADER.size:
            number, length = _HEADER.unpack_from(self.pending)
            end = _HEADER.size + length
            if len(self.pending) < end:
                break
            collected.add(number, pickle.loads(self.pending[_HEADER.size : end]))
            del self.pending[:end]
        return True

    def stop(self) -> None:
        os.close(self.fd)
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass


def _fork(tokens: int, chunked: list[list[str]], check: Check, inherited: list[int]) -> _Worker | None:
    reader, writer = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(reader)
        os.close(writer)
        return None
    if pid == 0:  # the worker: it never returns
        status = 1
        try:
            os.close(reader)
            for fd in inherited:  # the other workers' pipes
                os.close(fd)
            while (number := _take(tokens)) is not None:
                payload = pickle.dumps(check(chunked[number]), pickle.HIGHEST_PROTOCOL)
                _write_all(writer, _HEADER.pack(number, len(payload)) + payload)
            status = 0
        finally:
            os._exit(status)
    os.close(writer)
    return _Worker(pid, reader)


def _take(tokens: int) -> int | None:
    """The next chunk number, None when every one is taken. The numbers were all written before any process read, and a read
    of a pipe on Linux happens under the pipe's lock: each read of 4 bytes takes one whole number."""
    data = os.read(tokens, _TOKEN.size)
    return _TOKEN.unpack(data)[0] if len(data) == _TOKEN.size else None


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _receive(workers: dict[int, _Worker], collected: _Collected, timeout: float | None) -> None:
    """Read what the workers have sent (waiting for something when timeout is None); forget those that ended."""
    if not workers:
        return
    poll = select.poll()
    by_fd = {worker.fd: worker for worker in workers.values()}
    for fd in by_fd:
        poll.register(fd, select.POLLIN)
    for fd, _event in poll.poll(None if timeout is None else timeout * 1000):
        worker = by_fd[fd]
        if not worker.read(collected):
            del workers[worker.pid]
