"""Atomic in-place writes: a temporary file in the same folder, fsync, rename; owner, group and mode are kept.

A symbolic link is never replaced (the rename would put a regular file in its place), and
SIGTERM or SIGINT during a write abandon it without leaving the temporary file behind.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Iterator

_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Interrupted(OSError):
    """A termination signal arrived during a write: the write was abandoned, the file is unchanged."""

    def __init__(self, signum: int, path: str) -> None:
        super().__init__(errno.EINTR, f"interrupted by {signal.Signals(signum).name}", path)


def write_atomic(path: str, data: bytes) -> None:
    """Replace the regular file `path` with `data` so that a reader sees either the old or the new file, never half."""
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        raise OSError(errno.ELOOP, "is a symbolic link; not written through", path)
    if not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EINVAL, "not a regular file", path)
    folder = os.path.dirname(os.path.abspath(path))
    with _held_signals() as received:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".svcconf-tmp")
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
                stream.flush()
                _keep_owner(stream.fileno(), info)
                os.fchmod(stream.fileno(), stat.S_IMODE(info.st_mode))  # after chown, which may clear set-id bits
                os.fsync(stream.fileno())
            if received:
                raise Interrupted(received[0], path)
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    with contextlib.suppress(OSError):  # make the rename itself durable where the platform allows
        directory = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)


def _keep_owner(fd: int, info: os.stat_result) -> None:
    """Give the new file the old one's owner and group, or at least its group, as far as permitted."""
    for uid in (info.st_uid, -1):
        try:
            os.fchown(fd, uid, info.st_gid)
            return
        except PermissionError:
            continue


@contextlib.contextmanager
def _held_signals() -> Iterator[list[int]]:
    """Hold SIGTERM and SIGINT while a temporary file exists, then deliver them to the handlers they had.

    Only the main thread can install handlers; elsewhere the signals keep theirs.
    """
    received: list[int] = []
    previous = {}
    if threading.current_thread() is threading.main_thread():
        for signum in _SIGNALS:
            if signal.getsignal(signum) is not None:  # None: installed outside Python, cannot be restored
                previous[signum] = signal.signal(signum, lambda number, _frame: received.append(number))
    try:
        yield received
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if received:
            signal.raise_signal(received[0])
