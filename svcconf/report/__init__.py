"""Report formats: each module renders a Report to text; `render` picks one by name."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from ..pipeline import Report

FORMATS = ("text", "json", "sarif", "github", "junit")


def render(report: Report, fmt: str, stream: TextIO, *, color: bool = False) -> None:
    module = importlib.import_module(f"{__name__}.{fmt}_format")
    module.write(report, stream, color=color)
