"""Migrate's promises on one case: no failure, idempotent, byte-faithful outside converted documents,
no removed apiVersion left behind where it claims success, and no secret in its report or diff.
"""

from __future__ import annotations

import contextlib
import io
import sys
import traceback

from . import reports
from .checks import Failure, guarded, migrate_limit
from .frames import where, where_line
from .generate import Case


def _conversions(outcome) -> str:
    return ", ".join(sorted({e.source for e in outcome.edits})) or "no edit"


def _migrate_error_cause(case: Case, options) -> str:
    """Where migrate failed: migrate_bytes turns any exception into one diagnostic, so ask the inner step."""
    from svcconf.load.source import decode
    from svcconf.migrate import engine

    # migrate got as far as a step, so the bytes decode; the name is for messages.
    text = decode(case.path, case.data)[0] or ""  # pragma: no mutate
    scratch = engine.FileOutcome(case.path, case.data)  # pragma: no mutate - migrate_text adds to it, never reads its name or bytes
    try:
        engine.migrate_text(case.path, text, options, scratch)
    except Exception as err:  # noqa: BLE001
        frames = traceback.extract_tb(err.__traceback__)
        return f"{type(err).__name__} in {where(frames)}|{str(err)[:160]} ({where_line(frames)})"
    return "?|not raised again"


def _outside(text: str, converted: set[int]) -> tuple[int, str]:
    """The number of documents and the text outside the converted ones (comments, separators included)."""
    from svcconf.load.source import leading_mark, parse

    documents = parse("x", text).documents  # pragma: no mutate - the name is for messages, which are not read here
    skipped = len(leading_mark(text))
    pieces, cursor = [], 0
    for document in documents:
        if document.index + 1 in converted:
            pieces.append(text[cursor : skipped + document.root.start_mark.index])
            cursor = skipped + document.root.end_mark.index
    pieces.append(text[cursor:])
    return len(documents), "\x00".join(pieces)


def _removed_left(case: Case, output: bytes | None, options, report) -> list[str]:
    """Documents of migrate's result that still hold a removed API version (asked only of a run that claims success)."""
    from svcconf.lint.check import check_source
    from svcconf.load.source import load_bytes

    if output is not None:
        diagnostics = check_source(load_bytes(case.path, output, max_size=options.max_file_size), options).diagnostics
    elif report is not None:  # nothing changed: validate's report of the same bytes says it
        diagnostics = report.diagnostics
    else:
        return []
    return [f"{d.api_version} {d.kind}" for d in diagnostics if d.rule == "removed-api-version"]


def check_migrate(case: Case, validate_options, options, failures: list[Failure], report, full: bool) -> None:
    from svcconf.load.source import decode
    from svcconf.migrate import migrate_bytes
    from svcconf.model import Severity

    limit = migrate_limit(len(case.data))
    outcome = guarded("migrate", lambda: migrate_bytes(case.path, case.data, options), failures, limit)
    if outcome is None:
        return
    if any(d.rule == "internal-error" for d in outcome.diagnostics):
        cause, detail = _migrate_error_cause(case, options).split("|", 1)
        failures.append(Failure("internal-error", f"internal-error: migrate {cause}", detail))
        return
    # An output equal to the input is the input: validate's report already says what it holds.
    output = outcome.output if outcome.changed else None  # pragma: no mutate
    if output is not None:
        again = guarded("migrate again", lambda: migrate_bytes(case.path, output, options), failures, migrate_limit(len(output)))
        if again is not None and again.output is not None and again.output != output:
            failures.append(Failure("migrate-loss", "migrate-loss: migrating the output changes it again", _conversions(outcome)))
        if again is not None and any(d.rule == "internal-error" for d in again.diagnostics):  # a step fails on what migrate wrote
            failures.append(Failure("internal-error", "internal-error: migrate fails on its own output", _conversions(outcome)))
        before, _p = decode(case.path, case.data)  # pragma: no mutate - the name is for messages
        after, _p = decode(case.path, output)  # pragma: no mutate - the name is for messages
        if after is None:
            failures.append(Failure("migrate-loss", "migrate-loss: output is not readable text", _conversions(outcome)))
            return
        converted = {e.document for e in outcome.edits}
        count_before, outside_before = _outside(before, converted)  # type: ignore[arg-type] - migrate changed it: it decodes
        count_after, outside_after = _outside(after, converted)
        if count_before != count_after:
            failures.append(Failure("migrate-loss", "migrate-loss: number of documents changed", f"{count_before} -> {count_after}"))
        elif outside_before != outside_after:
            failures.append(Failure("migrate-loss", "migrate-loss: bytes outside converted documents changed", _conversions(outcome)))
    claims_success = not any(d.severity == Severity.ERROR or d.rule == "migration-needs-review" for d in outcome.diagnostics)
    if claims_success:
        left = guarded("validate migrated", lambda: _removed_left(case, output, validate_options, report), failures)
        for version in sorted(set(left or [])):
            failures.append(Failure("migrate-loss", "migrate-loss: success claimed, removed apiVersion left", version))
    # The command's own output (diff, reports) is worth a run where it has something to show or hide.
    if full and (outcome.changed or case.markers or "odd-name" in case.steps):  # pragma: no mutate - which cases pay, not a verdict
        check_migrate_cli(case, failures)


def _cli(args: list[str]) -> tuple[int, str, str]:  # pragma: no mutate block
    """Run the command in-process with real (strict UTF-8) streams; return (exit code, stdout, stderr)."""
    from svcconf.cli import main

    out, err = io.BytesIO(), io.BytesIO()
    stdout, stderr = io.TextIOWrapper(out, encoding="utf-8"), io.TextIOWrapper(err, encoding="utf-8")
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            code = main(args)
        except SystemExit as exit:
            code = exit.code if isinstance(exit.code, int) else 2
        finally:
            with contextlib.suppress(ValueError):
                sys.stdout.flush()
                sys.stderr.flush()
    return code, out.getvalue().decode("utf-8", "replace"), err.getvalue().decode("utf-8", "replace")


def check_migrate_cli(case: Case, failures: list[Failure]) -> None:  # pragma: no mutate block
    """`migrate --diff` (text report) and `migrate --check -f json`: reports well formed, no secret, no crash."""
    for args in (["migrate", "--diff", "--", case.path], ["migrate", "--check", "-f", "json", "--", case.path]):
        ran = guarded(" ".join(args[:3]), lambda args=args: _cli(args), failures, migrate_limit(len(case.data)))
        if ran is None:
            break
        code, out, err = ran
        label = " ".join(a for a in args[:-2])
        for stream, text in (("diff" if "--diff" in args else "report", out), ("report", err)):
            lines = reports.secrets_shown(text, case.markers)
            if lines:
                failures.append(Failure("secret", f"secret: shown in the migrate {stream}", repr(lines[0][:200])))
        if code not in (0, 1, 2) or "internal error" in err or "Traceback" in err:
            kind = err.split("internal error: ", 1)[-1].split(":", 1)[0] if "internal error: " in err else f"exit {code}"
            failures.append(Failure("traceback", f"traceback: {label} ({kind})", err.strip()[-200:]))
            continue  # what it printed before failing is cut short: its form says nothing more
        if "--diff" in args:  # the report goes to stderr; the diff shows file content as it is
            problems = reports.check_text(err)
            problems += [
                ("migrate diff: a line starts a workflow command", line[:160]) for line in out.split("\n") if line.startswith("::")
            ][:1]
        else:
            problems = reports.check_json(out)
        for cause, detail in problems:
            failures.append(Failure("malformed-report", f"{label}: {cause}", detail))
