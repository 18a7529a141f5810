"""Report formats: each module renders a Report to text; `render` picks one by name.

A report whose run failed (`Report.failures`) says so in every format: text and github print the
error lines, JSON has an `error` member, SARIF marks its invocation unsuccessful with the errors
as notifications, JUnit adds an `<error>`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from ..pipeline import Report

FORMATS = ("text", "json", "sarif", "github", "junit")


def render(
    report: Report,
    fmt: str,
    stream: TextIO,
    *,
    color: bool = False,
    failures_on_stderr: bool = False,
    statistics: bool = False,
    quiet: bool = False,
) -> None:
    """Write `report` as `fmt`; `failures_on_stderr`: the text report leaves the failures to the lines stderr shows.

    `statistics`: counts per rule instead of the findings (text and json); `quiet`: text without the summary line.
    """
    from .statistics import FORMATS as STATISTICS_FORMATS

    if statistics and fmt in STATISTICS_FORMATS:
        from .statistics import write

        write(report, fmt, stream, summary_line=not quiet, failures=not failures_on_stderr)
        return
    module = importlib.import_module(f"{__name__}.{fmt}_format")
    if fmt == "text":
        module.write(report, stream, color=color, failures=not failures_on_stderr, summary_line=not quiet)
    else:
        module.write(report, stream, color=color)
