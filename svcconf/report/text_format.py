"""Human-readable text: one line per diagnostic and a summary; colour through rich on a terminal only."""

from __future__ import annotations

from typing import TextIO

from ..escape import file_name, printable
from ..lint.result import Report
from ..model import Severity

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def summary(report: Report) -> str:
    parts = [_plural(report.errors, "error"), _plural(report.warnings, "warning")]
    if report.infos:
        parts.append(_plural(report.infos, "info"))
    checked = report.documents - report.skipped
    excluded = f", {len(report.excluded)} excluded" if report.excluded else ""
    return (
        f"{', '.join(parts)} in {_plural(report.files, 'file')} "
        f"({_plural(checked, 'document')} checked, {report.skipped} skipped{excluded}{''.join(f'; {note}' for note in settings(report))})"
    )


def settings(report: Report) -> list[str]:
    """What changed the verdict beside the files: the configuration file, the baseline and what it and inline suppressions accepted."""
    notes = []
    if report.options.config_file:
        notes.append(f"config: {printable(report.options.config_file)}")
    if report.baseline_file:
        notes.append(f"baseline: {printable(report.baseline_file)} ({len(report.baselined)} accepted)")
    if report.suppressed:
        notes.append(f"{len(report.suppressed)} suppressed inline")
    return notes


def closing_lines(report: Report, failures: bool, *, summary_line: bool) -> list[str]:
    """The summary (unless --quiet), or for a run that failed, why (none when stderr says it): a failed run has no summary to give."""
    if not report.failures:
        return [summary(report)] if summary_line else []
    return [f"svcconf: {printable(failure)}" for failure in report.failures] if failures else []


def lines(report: Report) -> list[tuple[str, str, str, str]]:
    """(location, severity, rule, message) for each diagnostic, escaped: input cannot break a line or start a command."""
    out = []
    for d in report.diagnostics:
        where = f"{d.path_text}: " if d.path_text else ""
        fix = f" (fix: {d.fix})" if d.fix else ""
        out.append((f"{file_name(d.file)}:{d.line}:{d.column}:", str(d.severity), f"[{d.rule}]", printable(f"{where}{d.message}{fix}")))
    return out


# render passes every option: their defaults are never used.
def write(
    report: Report,
    stream: TextIO,
    *,
    color: bool = False,  # pragma: no mutate
    failures: bool = True,  # pragma: no mutate
    summary_line: bool = True,  # pragma: no mutate
) -> None:
    closing = closing_lines(report, failures, summary_line=summary_line)
    if not color:
        stream.writelines(f"{location} {severity} {rule} {message}\n" for location, severity, rule, message in lines(report))
        stream.writelines(f"{line}\n" for line in closing)
        return
    # One Text object printed once: per-line console calls cost ~13x more for long reports.
    # Text.append takes plain strings, so a "[bold]" in a key is shown, never read as markup.
    from rich.console import Console
    from rich.text import Text

    text = Text()
    for d, (location, severity, rule, message) in zip(report.diagnostics, lines(report)):
        text.append(location, style="bold")  # pragma: no mutate - style names ignore case
        text.append(" ")
        text.append(severity, style=_STYLE[d.severity])
        text.append(f" {rule} ", style="dim")  # pragma: no mutate - style names ignore case
        text.append(message + "\n")
    style = "bold red" if report.errors or report.failures else ("yellow" if report.warnings else "green")  # pragma: no mutate - case
    text.append("\n".join(closing), style=style)
    # Colour was decided by --color, NO_COLOR and FORCE_COLOR already: rich must not decide again from the environment.
    console = Console(file=stream, force_terminal=True, no_color=False, color_system="standard", highlight=False, soft_wrap=True)
    console.print(text, end="\n" if closing else "")
