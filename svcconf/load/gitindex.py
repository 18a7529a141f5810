"""The paths a git work tree tracks, read from its index file: git never ignores a tracked file, whatever a .gitignore says.

The index is read as bytes, never through `git ls-files`: nothing a repository configures
(`core.fsmonitor`, hooks, aliases) can run, no git need be installed, and a checkout that git
refuses to read ("dubious ownership", as in a container job) reads the same. Versions 2, 3 and 4
are read (4 compresses each path against the one before), with SHA-1 or SHA-256 object names, a
split index (its shared part read as well) and a sparse index (a folder entry stands for all it
holds). An index that cannot be read gives None, and the walk leaves out what the ignore files
say, as outside git. Layout: https://git-scm.com/docs/index-format
"""

from __future__ import annotations

import os
import struct
from typing import NamedTuple

MAX_INDEX_SIZE = 1 << 30  # bytes: a monorepo's index is some hundreds of MB; more is not an index
_STAT_BYTES = 40  # ctime, mtime (seconds, nanoseconds), dev, ino, mode, uid, gid, size: ten 32-bit fields
_HASH_SIZES = (20, 32)  # SHA-1, SHA-256
_EXTENDED = 0x4000
_NAME_MASK = 0xFFF
_FOLDER_MODES = (0o040000, 0o160000)  # a sparse index's folder, a submodule


class Tracked(NamedTuple):
    files: frozenset[str]  # paths relative to the work tree, in `/` form
    folders: frozenset[str]  # every folder that holds a tracked path (or is one: a submodule, a sparse folder)


def index_file(work_tree: str) -> str | None:
    """The index of a work tree: `.git/index`, or the one in the folder a linked work tree's `.git` file names."""
    dot_git = os.path.join(work_tree, ".git")
    if os.path.isdir(dot_git):
        return os.path.join(dot_git, "index")
    try:
        with open(dot_git, encoding="utf-8") as handle:
            first = handle.readline(4096)
    except (OSError, UnicodeDecodeError):
        return None
    if not first.startswith("gitdir:"):
        return None
    return os.path.join(work_tree, first[len("gitdir:") :].strip(), "index")


def tracked(work_tree: str) -> Tracked | None:
    """What the work tree's index tracks; None when there is no index svcconf can read."""
    path = index_file(work_tree)
    paths = _read(path) if path else None
    if paths is None:
        return None
    entries, shared = paths
    if shared is not None:  # a split index: most entries sit in the shared index beside it
        more = _read(os.path.join(os.path.dirname(path), f"sharedindex.{shared}"))  # type: ignore[arg-type]
        if more is None:
            return None
        entries = entries | more[0]  # entries the split part deletes stay: checked rather than left out
    files, folders = set(), set()
    for entry, is_folder in entries:
        if not entry:
            continue  # a split index's entry that takes its name from the shared index
        name = os.fsdecode(entry)
        (folders if is_folder else files).add(name.rstrip("/"))
        while "/" in name:
            name = name.rsplit("/", 1)[0]
            folders.add(name)
    return Tracked(frozenset(files), frozenset(folders))


def _read(path: str) -> tuple[set[tuple[bytes, bool]], str | None] | None:
    """(entries as (path, is a folder), the shared index's name for a split index) of one index file; None if unreadable."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_INDEX_SIZE + 1)
    except OSError:
        return None
    if len(data) > MAX_INDEX_SIZE or len(data) < 12 or data[:4] != b"DIRC":
        return None
    version, count = struct.unpack(">II", data[4:12])
    if version not in (2, 3, 4):
        return None
    for hash_size in _HASH_SIZES:  # the index does not say which: only one reading ends exactly at its checksum
        parsed = _entries(data, version, count, hash_size)
        if parsed is not None:
            return parsed
    return None


def _entries(data: bytes, version: int, count: int, hash_size: int) -> tuple[set[tuple[bytes, bool]], str | None] | None:
    entries: set[tuple[bytes, bool]] = set()
    at, previous = 12, b""
    try:
        for _ in range(count):
            start = at
            mode = struct.unpack_from(">I", data, at + 24)[0]
            at += _STAT_BYTES + hash_size
            flags = struct.unpack_from(">H", data, at)[0]
            at += 2 + (2 if version >= 3 and flags & _EXTENDED else 0)
            if version == 4:
                strip, at = _varint(data, at)
                end = data.index(b"\0", at)
                if strip > len(previous):
                    return None
                name = previous[: len(previous) - strip] + data[at:end]
                at = end + 1
            else:
                length = flags & _NAME_MASK
                end = data.index(b"\0", at) if length == _NAME_MASK else at + length
                name = data[at:end]
                at = start + ((end - start) // 8 + 1) * 8  # 1 to 8 NULs pad the entry to a multiple of 8 bytes
            entries.add((name, (mode & 0o170000) in _FOLDER_MODES))
            previous = name
        return entries, _extensions(data, at, hash_size)
    except (struct.error, ValueError, IndexError):
        return None


def _extensions(data: bytes, at: int, hash_size: int) -> str | None:
    """Walk the extensions to the checksum (ValueError when they do not end there); the shared index of a split index."""
    shared = None
    while at < len(data) - hash_size:
        signature, size = data[at : at + 4], struct.unpack_from(">I", data, at + 4)[0]
        if signature == b"link":
            shared = data[at + 8 : at + 8 + hash_size].hex()
        at += 8 + size
    if at != len(data) - hash_size:
        raise ValueError("not at the checksum")
    return shared


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """git's offset encoding (varint.c): 7 bits a byte, high bit set while more follow, each continuation adding one."""
    byte = data[at]
    at += 1
    value = byte & 0x7F
    while byte & 0x80:
        byte = data[at]
        at += 1
        value = ((value + 1) << 7) | (byte & 0x7F)
    return value, at
