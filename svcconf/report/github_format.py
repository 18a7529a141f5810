"""GitHub Actions workflow commands: one annotation per diagnostic, and one for a run that failed."""

from __future__ import annotations

from typing import TextIO

from ..model import Severity
from ..pipeline import Report
from .escape import github_data, github_property

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def write(report: Report, stream: TextIO, *, color: bool = False) -> None:
    for d in report.diagnostics:
        where = f" {d.path_text}:" if d.path_text else ""
        stream.write(
            f"::{_LEVEL[d.severity]} file={github_property(d.file)},line={d.line},col={d.column},"
            f"title={github_property('svcconf ' + d.rule)}::{github_data(f'[{d.rule}]{where} {d.message}')}\n"
        )
    stream.writelines(f"::error title={github_property('svcconf failed')}::{github_data(failure)}\n" for failure in report.failures)
