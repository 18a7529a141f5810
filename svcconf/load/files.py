"""How svcconf opens the files a user names: reads bounded in size from regular files and pipes, writes through no symbolic link.

A name on the command line or in a pull request may lead anywhere. A symbolic link to /dev/zero
never ends, a device may wait for a keyboard, a named pipe without a writer blocks whoever opens
it. Every named input is read here: opened without waiting (a pipe without a writer reads as
empty), refused unread unless it is a regular file or a pipe, and never read past its limit.
Every file svcconf writes is checked here first: no folder of its path, as written, is a link.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from typing import BinaryIO

STDIN = "-"
READ_CHUNK = 1 << 20
DEFAULT_MAX_FILE_SIZE = 8 * 1024 * 1024  # bytes of one input file, unless --max-file-size says otherwise
HEAD = 64 * 1024  # bytes of an input over its limit kept, so that a caller can tell what it holds without reading it all

_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISFIFO, "a named pipe"),
)


class TooLarge(Exception):
    """More bytes than the limit; `size` is the file's size, None for a pipe read only up to the limit; `head` its first bytes."""

    def __init__(self, limit: int, size: int | None = None, head: bytes = b"") -> None:
        self.limit, self.size, self.head = limit, size, head
        what = f"{size:,} bytes, over" if size is not None else "over"
        super().__init__(f"{what} the {limit:,}-byte limit")


class NotAFile(OSError):
    """A folder, device or socket where a file was named: refused without reading a byte."""

    def __init__(self, kind: str, path: str) -> None:
        super().__init__(errno.EINVAL, f"{kind}, not a regular file or a pipe", path)
        self.kind = kind


def kind(mode: int) -> str | None:
    """What a file of this mode is when it is not a regular file ("a named pipe", "a folder", ...); None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return next((name for is_kind, name in _KINDS if is_kind(mode)), "a special file")


def read_limited(path: str, limit: int) -> bytes:
    """The bytes of the file `path` names (`-`: standard input), never reading more than `limit` + 1 of them.

    Raises TooLarge past the limit, NotAFile for a folder, device or socket, OSError when it cannot be opened.
    """
    if path == STDIN:
        return _read(sys.stdin.buffer, limit, None)
    descriptor = os.open(path, _OPEN_FLAGS)
    with os.fdopen(descriptor, "rb", buffering=0) as stream:
        info = os.fstat(descriptor)
        what = kind(info.st_mode)
        if what is not None and not stat.S_ISFIFO(info.st_mode):
            raise NotAFile(what, path)
        size = None
        if what is None:
            size = info.st_size
            if size > limit:
                raise TooLarge(limit, size, stream.read(HEAD))
        elif hasattr(os, "set_blocking"):
            os.set_blocking(descriptor, True)  # opened without waiting for a writer; now wait for what it writes
        return _read(stream, limit, size)


def _read(stream: BinaryIO, limit: int, size: int | None) -> bytes:
    """Up to `limit` bytes of a stream; TooLarge when it holds more. `size`: a regular file's size, read in one call."""
    chunks = []
    left = limit + 1
    wanted = size + 1 if size is not None else READ_CHUNK  # a regular file in one read
    while left > 0:
        chunk = stream.read(min(left, wanted))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
        wanted = READ_CHUNK
    if left <= 0:
        raise TooLarge(limit, head=b"".join(chunks)[:HEAD])  # a pipe, or a file that grew while it was read
    return b"".join(chunks)


def linked_folder(path: str) -> str | None:
    """The first folder of `path` that is a symbolic link, each checked as written (`..` included); None when there is none.

    A relative path is checked from the working directory down: the system names that folder by
    its real path. Folders that do not exist yet are no links.
    """
    drive, rest = os.path.splitdrive(os.path.dirname(path))
    current = drive + os.sep if os.path.isabs(path) else os.getcwd()
    for part in rest.replace(os.altsep or os.sep, os.sep).split(os.sep):
        if part in ("", "."):
            continue
        current = os.path.join(current, part)
        if os.path.islink(current):
            return current
    return None


def refuse_linked_folder(path: str) -> None:
    """Raise OSError (ELOOP) when a folder of `path` is a symbolic link: svcconf writes nothing through one."""
    link = linked_folder(path)
    if link is not None:
        raise OSError(errno.ELOOP, "a folder of its path is a symbolic link, and svcconf writes nothing through one", link)
