"""Report formats: each module renders a Report to text; `render` picks one by name.

A report whose run failed (`Report.failures`) says so in every format: text and github print the
error lines, JSON has an `error` member, SARIF marks its invocation unsuccessful with the errors
as notifications, JUnit adds an `<error>`, and GitLab's Code Quality report is left empty (see
gitlab_format).
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from ..lint.result import Report

FORMATS = ("text", "json", "sarif", "github", "junit", "gitlab")
AUTO = "auto"


def chosen_format(fmt: str, to_file: bool) -> str:
    """The format `auto` stands for: annotations where a GitHub Actions runner reads stdout, else text (as yamllint does)."""
    if fmt != AUTO:
        return fmt
    return "github" if not to_file and os.environ.get("GITHUB_ACTIONS") == "true" else "text"


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

    `statistics`: counts per rule instead of the findings (text and json); `quiet`: text and github without the summary line.
    """
    from .statistics import FORMATS as STATISTICS_FORMATS

    if statistics and fmt in STATISTICS_FORMATS:
        from .statistics import write

        write(report, fmt, stream, summary_line=not quiet, failures=not failures_on_stderr)
        return
    module = importlib.import_module(f"{__name__}.{fmt}_format")
    if fmt == "text":
        module.write(report, stream, color=color, failures=not failures_on_stderr, summary_line=not quiet)
    elif fmt == "github":
        module.write(report, stream, color=color, summary_line=not quiet)
    else:
        module.write(report, stream, color=color)
