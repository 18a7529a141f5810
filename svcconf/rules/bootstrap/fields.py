"""Checks of values the bootstrap kinds share: extra args, absolute paths, and the value a component flag ends up with."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from svcconf.model import Finding, Path

from .. import invalid, items


def is_absolute(path: str) -> bool:
    return path.startswith("/")


def check_args(path: Path, value: Any) -> Iterator[Finding]:
    """v1beta4 extraArgs lists: every entry needs a name (a v1beta3 map has its names as keys)."""
    for index, arg in items(value):
        if isinstance(arg, dict) and not arg.get("name"):
            yield invalid(path + (index,), f"index {index}", "argument has no name", "extra-arg-without-name")


def check_absolute(path: Path, value: Any) -> Iterator[Finding]:
    if isinstance(value, str) and value and not is_absolute(value):
        yield invalid(path, value, "path is not absolute", "bootstrap-path-not-absolute")


def last_arg(args: Any, name: str) -> str | None:
    """The value a component flag ends up with: a v1beta3 map entry or the last v1beta4 list entry."""
    if isinstance(args, dict):
        value = args.get(name)
        return value if isinstance(value, str) else None
    found = None
    for _i, arg in items(args):
        if isinstance(arg, dict) and arg.get("name") == name and isinstance(arg.get("value"), str):
            found = arg["value"]
    return found
