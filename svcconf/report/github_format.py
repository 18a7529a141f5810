"""GitHub Actions workflow commands: one annotation per diagnostic, one for a run that failed, then the text summary."""

from __future__ import annotations

from typing import TextIO

from ..escape import github_data, github_property
from ..lint.result import Report
from ..model import Severity
from .text_format import closing_lines

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}

# GitHub shows at most 10 annotations of each level per step (notices are a level of their own)
# and 50 per job; the step's log keeps every line. Limits as documented in
# https://github.com/actions/toolkit/blob/main/docs/problem-matchers.md#limitations, and for
# errors and warnings in https://docs.github.com/en/rest/checks/runs ("output.annotations").
SHOWN_PER_STEP = 10
SHOWN_PER_JOB = 50


# render passes both options: their defaults are never used.
def write(report: Report, stream: TextIO, *, color: bool = False, summary_line: bool = True) -> None:  # pragma: no mutate
    counts = dict.fromkeys(_LEVEL.values(), 0)
    for d in report.diagnostics:
        level = _LEVEL[d.severity]
        counts[level] += 1
        where = f" {d.path_text}:" if d.path_text else ""
        stream.write(
            f"::{level} file={github_property(d.file)},line={d.line},col={d.column},"
            f"title={github_property('svcconf ' + d.rule)}::{github_data(f'[{d.rule}]{where} {d.message}')}\n"
        )
    stream.writelines(f"::error title={github_property('svcconf failed')}::{github_data(failure)}\n" for failure in report.failures)
    counts["error"] += len(report.failures)
    # Plain lines, never commands: the summary starts with a count, the note with "svcconf".
    stream.writelines(f"{line}\n" for line in closing_lines(report, failures=False, summary_line=summary_line))  # pragma: no mutate
    note = limit_note(counts)
    if note:
        stream.write(note + "\n")


def limit_note(counts: dict[str, int]) -> str | None:
    """What to say when GitHub will not show every annotation of this step; None when it shows them all."""
    over = [f"{count} {level}s" for level, count in counts.items() if count > SHOWN_PER_STEP]
    if not over:
        return None
    return (
        f"svcconf: {' and '.join(over)}: GitHub shows at most {SHOWN_PER_STEP} annotations of each level per step "
        f"({SHOWN_PER_JOB} per job), so some are not shown on the pull request; this step's log lists every finding, "
        "and a SARIF report uploaded to code scanning shows them all"
    )
