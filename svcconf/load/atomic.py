"""Atomic in-place writes: a temporary file in the same folder, fsync, rename; owner, group and mode are kept.

A symbolic link is never replaced (the rename would put a regular file in its place), nothing is
written where a folder of the path is a link, and SIGTERM or SIGINT during a write abandon it
without leaving the temporary file behind. A writer killed outright (SIGKILL, power loss) leaves
its temporary file, `.NAME.RANDOM.svcconf-tmp`, which no folder walk reads; the next write into
that folder removes it. A writer holds a lock on its temporary file until the rename, so only
abandoned ones are removed; links and files of other names are never touched.
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

from .files import refuse_linked_folder

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Interrupted(OSError):
    """A termination signal arrived during a write: the write was abandoned, the file is unchanged."""

    def __init__(self, signum: int, path: str) -> None:
        super().__init__(errno.EINTR, f"interrupted by {signal.Signals(signum).name}", path)


TEMPORARY_SUFFIX = ".svcconf-tmp"
_swept: set[str] = set()  # folders whose abandoned temporary files this process removed


def write_atomic(path: str, data: bytes) -> None:
    """Replace the regular file `path` with `data` so that a reader sees either the old or the new file, never half."""
    refuse_linked_folder(path)
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        raise OSError(errno.ELOOP, "is a symbolic link; not written through", path)
    if not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EINVAL, "not a regular file", path)
    folder = os.path.dirname(os.path.abspath(path))
    _sweep(folder)
    with _held_signals() as received:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=TEMPORARY_SUFFIX)
        try:
            with os.fdopen(handle, "wb") as stream:
                _lock(stream.fileno(), blocking=True)
                stream.write(data)
                stream.flush()
                _keep_owner(stream.fileno(), info)
                os.fchmod(stream.fileno(), stat.S_IMODE(info.st_mode))  # after chown, which may clear set-id bits
                os.fsync(stream.fileno())
                if received:
                    raise Interrupted(received[0], path)
                if fcntl is None:
                    stream.close()  # Windows renames a closed file only
                os.replace(temporary, path)  # with the lock still held: the file is never left unlocked under its temporary name
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


def _sweep(folder: str) -> None:
    """Remove the temporary files that killed writes left in `folder` (once per process and folder)."""
    if folder in _swept:
        return
    _swept.add(folder)
    try:
        names = [name for name in os.listdir(folder) if name.startswith(".") and name.endswith(TEMPORARY_SUFFIX)]
    except OSError:
        return
    for name in names:
        with contextlib.suppress(OSError):
            if _abandoned(os.path.join(folder, name)):
                os.unlink(os.path.join(folder, name))  # unlink removes a name, never follows a link


def _abandoned(path: str) -> bool:
    """Whether `path` is a regular file no running writer holds (opened without following a link or waiting on a pipe)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    if not stat.S_ISREG(os.lstat(path).st_mode):
        return False
    descriptor = os.open(path, flags)
    try:
        return stat.S_ISREG(os.fstat(descriptor).st_mode) and _lock(descriptor, blocking=False)
    finally:
        os.close(descriptor)


def _lock(descriptor: int, blocking: bool) -> bool:
    """Take the exclusive lock of a file (released when its writer ends, however it ends); False when another holds it.

    Without fcntl (Windows) there is no lock to take: a file a running writer holds open cannot be removed there.
    """
    if fcntl is None:
        return True
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    except OSError:  # a file system without locks (some network mounts): a writer goes on, a sweep cannot tell
        return blocking
    return True


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
