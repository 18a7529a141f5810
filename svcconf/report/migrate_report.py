"""migrate's report: one line per edit and finding with a closing summary (text), or the JSON contract."""

from __future__ import annotations

from typing import NamedTuple


class Run(NamedTuple):
    """What a migrate run says besides each file's edits and findings."""

    files: int
    target: object  # target.Origin: the --to release and where it was set
    verified: dict  # file name -> migrate.verify.Verified, for the files that change
    notices: list  # findings about the run itself (target-not-released)
    hops: list  # migrate.hops.Hop, when the upgrade is more than one minor release


def write_json(outcomes: list, run: Run, stream, options) -> None:
    from ..escape import json_text
    from ..known.catalog import format_release
    from ..model import Severity
    from ..report.json_format import diagnostic_dict

    diagnostics = [*run.notices, *(d for o in outcomes for d in o.diagnostics)]
    verification = [d for o in outcomes if o.name in run.verified for d in run.verified[o.name].errors]
    summary = {
        "files": run.files,
        "documents": sum(o.documents for o in outcomes),
        "changed": sum(1 for o in outcomes if o.changed),
        "errors": sum(1 for d in diagnostics if d.severity == Severity.ERROR),
        "warnings": sum(1 for d in diagnostics if d.severity == Severity.WARNING),
        "infos": sum(1 for d in diagnostics if d.severity == Severity.INFO),
        "from-version": format_release(options.from_version) if options.from_version else None,
        "to-version": format_release(options.resolved_target()),
        "to-version-from": run.target.describe(),
        "deprecated": options.deprecated,
        "converted": sum(v.converted for v in run.verified.values()),
        "converted-clean": sum(v.clean for v in run.verified.values()),
        "hops": [{"from": format_release(h.before), "to": format_release(h.after), "changes": list(h.changes)} for h in run.hops],
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
        # Errors of the converted documents, at their positions in the converted files.
        "verification": [diagnostic_dict(d) for d in verification],
    }
    stream.write(json_text(document, item_lists=("diagnostics", "edits", "verification")) + "\n")


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


def _line(d) -> str:
    from ..escape import file_name, printable

    where = f"{d.path_text}: " if d.path_text else ""
    return f"{file_name(d.file)}:{d.line}:{d.column}: {d.severity} [{d.rule}] " + printable(f"{where}{d.message}") + "\n"


def write_text(outcomes: list, run: Run, stream, verb: str, options) -> None:
    from ..escape import file_name, printable
    from ..known.catalog import format_release

    stream.writelines(_line(d) for d in run.notices)
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
            stream.write(_line(d))
    target = format_release(options.resolved_target())
    errors = sorted((d for o in outcomes if o.name in run.verified for d in run.verified[o.name].errors), key=lambda d: d.sort_key())
    if errors:
        stream.write(f"the converted documents checked at {target} (positions in the converted files):\n")
        stream.writelines(_line(d) for d in errors)
    changed = sum(1 for o in outcomes if o.changed)
    documents = sum(len(o.edits) for o in outcomes)
    converted = sum(v.converted for v in run.verified.values())
    failing = len({(d.file, d.document) for d in errors})
    clean = f"; {converted - failing} of {_plural(converted, 'converted document')} clean at {target}" if converted else ""
    stream.write(f"{_plural(documents, 'document')} in {changed} of {_plural(run.files, 'file')} {verb}{clean}\n")
    stream.write(_versions(options, run.target) + "\n")
    if run.hops:
        from ..migrate.hops import explain

        stream.write(f"{explain(options.from_version, options.resolved_target())}\n")
        stream.writelines(f"  {hop}\n" for hop in run.hops)


def _versions(options, target) -> str:
    """Which documents were rewritten, to which versions, and where the target came from: the summary's last line."""
    from ..known.catalog import format_release

    to = format_release(options.resolved_target())
    what = "removed or deprecated" if options.deprecated else "removed"
    where = f"versions {what} in {to} ({target.describe()})"
    if options.from_version is not None:
        return f"{where}: rewritten as the newest version both {format_release(options.from_version)} and {to} serve"
    return (
        f"{where}: rewritten as the newest version {to} serves, "
        "which the running cluster may not serve yet (--from-version picks versions both releases serve)"
    )


def write_exit_reason(outcomes: list, run: Run, stream, written: bool) -> None:
    """Say why the exit code is 1: documents that need review, files that could not be migrated, converted documents with errors."""
    from ..known.catalog import format_release
    from ..model import Severity

    review = {
        (o.name, d.document)
        for o in outcomes
        for d in o.diagnostics
        if d.rule == "migration-needs-review" and d.severity >= Severity.WARNING
    }
    unread = {o.name for o in outcomes if any(d.severity == Severity.ERROR for d in o.diagnostics)}
    failing = {(d.file, d.document) for verified in run.verified.values() for d in verified.errors}
    reasons = (
        [f"{_plural(len(review), 'document')} need{'s' if len(review) == 1 else ''} review (migration-needs-review)"] if review else []
    )
    reasons += [f"{_plural(len(unread), 'file')} could not be migrated (errors above)"] if unread else []
    if failing:
        at = format_release(run.target.release)
        state = "written with" if written else "would have"
        reasons.append(
            f"{_plural(len(failing), 'converted document')} {state} errors at {at} (above); they were in the files before "
            "the conversion, which changes only versions and the fields it moves (svcconf validate shows them where they are written)"
        )
    if reasons:
        stream.write(f"exit code 1: {', '.join(reasons)}\n")
