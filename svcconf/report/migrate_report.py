"""migrate's report: one line per edit and finding with a closing summary (text), or the JSON contract."""

from __future__ import annotations


def write_json(outcomes: list, files: int, stream, options) -> None:
    from ..catalog import format_release
    from ..model import Severity
    from ..report.escape import json_text
    from ..report.json_format import diagnostic_dict

    diagnostics = [d for o in outcomes for d in o.diagnostics]
    summary = {
        "files": files,
        "documents": sum(o.documents for o in outcomes),
        "changed": sum(1 for o in outcomes if o.changed),
        "errors": sum(1 for d in diagnostics if d.severity == Severity.ERROR),
        "warnings": sum(1 for d in diagnostics if d.severity == Severity.WARNING),
        "infos": sum(1 for d in diagnostics if d.severity == Severity.INFO),
        "from-version": format_release(options.from_version) if options.from_version else None,
        "to-version": format_release(options.resolved_target()),
        "deprecated": options.deprecated,
    }
    document = {
        "version": 1,
        "summary": summary,
        "diagnostics": [diagnostic_dict(d) for d in diagnostics],
        "edits": [
            {
                "file": o.name,
                "document": e.document,
                "line": e.line,
                "from": e.source,
                "to": e.target,
                "mode": e.mode,
                "notes": list(e.notes),
            }
            for o in outcomes
            for e in o.edits
        ],
    }
    stream.write(json_text(document, item_lists=("diagnostics", "edits")) + "\n")


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


def write_text(outcomes: list, files: int, stream, verb: str, options, target_given: bool) -> None:
    from ..report.escape import file_name, printable

    for outcome in outcomes:
        for edit in outcome.edits:
            item = f" {edit.path}" if edit.path else ""
            stream.write(
                f"{file_name(outcome.name)}: "
                + printable(f"document {edit.document}{item} (line {edit.line}): {edit.source} -> {edit.target} [{edit.mode}]")
                + "\n"
            )
        for d in outcome.diagnostics:
            if d.rule == "migrated" and d.path[-1:] == ("apiVersion",) and " -> " in d.message:
                continue  # the edit line says it
            where = f"{d.path_text}: " if d.path_text else ""
            stream.write(f"{file_name(d.file)}:{d.line}:{d.column}: {d.severity} [{d.rule}] " + printable(f"{where}{d.message}") + "\n")
    changed = sum(1 for o in outcomes if o.changed)
    documents = sum(len(o.edits) for o in outcomes)
    stream.write(f"{_plural(documents, 'document')} in {changed} of {_plural(files, 'file')} {verb}\n")
    stream.write(_versions(options, target_given) + "\n")


def _versions(options, target_given: bool) -> str:
    """Which documents were rewritten, and to which versions: the line that closes the text report."""
    from ..catalog import format_release

    to = format_release(options.resolved_target())
    what = "removed or deprecated" if options.deprecated else "removed"
    if options.from_version is not None:
        return f"versions {what} in {to}: rewritten as the newest version both {format_release(options.from_version)} and {to} serve"
    newest = "" if target_given else " (the newest release svcconf knows)"
    return (
        f"versions {what} in {to}{newest}: rewritten as the newest version {to} serves, "
        "which the running cluster may not serve yet (--from-version picks versions both releases serve)"
    )


def write_exit_reason(outcomes: list, stream) -> None:
    """Say why the exit code is 1: documents that need review, files that could not be migrated (--check alone says less)."""
    from ..model import Severity

    review = {
        (o.name, d.document)
        for o in outcomes
        for d in o.diagnostics
        if d.rule == "migration-needs-review" and d.severity >= Severity.WARNING
    }
    unread = {o.name for o in outcomes if any(d.severity == Severity.ERROR for d in o.diagnostics)}
    reasons = (
        [f"{_plural(len(review), 'document')} need{'s' if len(review) == 1 else ''} review (migration-needs-review)"] if review else []
    )
    reasons += [f"{_plural(len(unread), 'file')} could not be migrated (errors above)"] if unread else []
    if reasons:
        stream.write(f"exit code 1: {', '.join(reasons)}\n")
