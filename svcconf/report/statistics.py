"""`validate --statistics`: a count per rule and severity instead of the findings, as text or JSON."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from ..lint.result import Report

FORMATS = ("text", "json")  # the formats a count fits: machine formats report findings, one by one
COUNT_WIDTH = 4  # the count column is at least this wide, so that the columns line up from one run to the next
SEVERITY_WIDTH = len("warning")


def counts(report: Report) -> list[tuple[str, str, int]]:
    """(rule, severity, count), most frequent first, then by rule id; a rule reported at two severities has two rows."""
    tally = Counter((d.rule, d.severity) for d in report.diagnostics)
    ordered = sorted(tally.items(), key=lambda item: (-item[1], item[0][0], -item[0][1]))
    return [(rule, str(severity), count) for (rule, severity), count in ordered]


# render passes both options: their defaults are never used.
def write(report: Report, fmt: str, stream: TextIO, *, summary_line: bool = True, failures: bool = True) -> None:  # pragma: no mutate
    """The statistics as `fmt`; text ends with the summary line (unless `summary_line` is off), JSON holds the summary object."""
    rows = counts(report)
    if fmt == "json":
        from ..escape import json_text
        from .json_format import SCHEMA_VERSION, summary_dict

        document = {
            "version": SCHEMA_VERSION,
            "statistics": [{"rule": rule, "severity": severity, "count": count} for rule, severity, count in rows],
            "summary": summary_dict(report),
            "config": report.options.config_file,
            "baseline": report.baseline_file,
        }
        if report.failures:
            document["error"] = "; ".join(report.failures)
        stream.write(json_text(document) + "\n")
        return
    from ..escape import printable
    from .text_format import closing_lines

    width = max([COUNT_WIDTH] + [len(str(count)) for _rule, _severity, count in rows])
    stream.writelines(f"{count:>{width}} {severity:<{SEVERITY_WIDTH}}  {printable(rule)}\n" for rule, severity, count in rows)
    stream.writelines(f"{line}\n" for line in closing_lines(report, failures, summary_line=summary_line))
