"""GitHub Actions workflow commands: one annotation per diagnostic."""

from __future__ import annotations

from typing import TextIO

from ..model import Severity
from ..pipeline import Report

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def write(report: Report, stream: TextIO, *, color: bool = False) -> None:
    for d in report.diagnostics:
        where = f" {d.path_text}:" if d.path_text else ""
        stream.write(
            f"::{_LEVEL[d.severity]} file={_escape_property(d.file)},line={d.line},col={d.column},"
            f"title={_escape_property('svcconf ' + d.rule)}::{_escape_data(f'[{d.rule}]{where} {d.message}')}\n"
        )
