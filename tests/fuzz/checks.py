"""The checks of one case, run in-process: validate and render every format, then migrate.

Every call into svcconf runs under a limit of CPU time (frames.time_limit).
"""

from __future__ import annotations

import argparse
import io
import os
import time
import traceback
from typing import NamedTuple

from . import reports
from .frames import Hang, time_limit, where, where_line
from .generate import Case

CATEGORIES = ("traceback", "internal-error", "hang", "secret", "malformed-report", "migrate-loss", "stray-write")
TIME_LIMIT = 10.0  # CPU seconds for one call into svcconf: far above any linear path (migrate of a 200 KB file of 600 documents takes ~3 s), far below a CI timeout


class Failure(NamedTuple):
    category: str  # one of CATEGORIES
    cause: str  # the same for every input with this fault: the key of KNOWN_FAILURES
    detail: str  # this input's particulars


# migrate rewrites a document through ruamel.yaml's round-trip writer (pure Python), linear but at
# 50-100 KB/s: a 1 MB file of rewritten documents takes 12-20 s (scheduler configurations the
# slowest). Its limit grows with the input, 40 s per MB; backtracking grows far faster than that.
MIGRATE_SECONDS_PER_MB = 40.0


def migrate_limit(size: int) -> float:
    """CPU seconds a migrate call may take on an input of `size` bytes: TIME_LIMIT, or more for a large input."""
    return max(TIME_LIMIT, size / 1_000_000 * MIGRATE_SECONDS_PER_MB)


SLOWEST: list = [0.0, ""]  # CPU seconds and phase of the slowest call of the current case


def guarded(phase: str, call, failures: list[Failure], limit: float | None = None):
    """Run one call into svcconf (under TIME_LIMIT unless told); a hang or an escaping exception becomes a failure and None."""
    limit = TIME_LIMIT if limit is None else limit
    started = time.process_time()
    try:
        with time_limit(limit):
            return call()
    except Hang as hang:
        frames = traceback.extract_tb(hang.__traceback__)
        failures.append(
            Failure("hang", f"hang: {phase} in {hang.owner}", f"over {limit:g} s; stopped in {where(frames)} {where_line(frames)}")
        )
    except Exception as err:  # noqa: BLE001 - any exception that escapes svcconf is the finding
        frames = traceback.extract_tb(err.__traceback__)
        failures.append(
            Failure("traceback", f"traceback: {type(err).__name__} in {where(frames)}", f"{phase}: {str(err)[:200]} ({where_line(frames)})")
        )
    finally:
        spent = time.process_time() - started
        if spent > SLOWEST[0]:
            SLOWEST[:] = [spent, phase]
    return None


# --------------------------------------------------------------------------- options


def _flags() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(add_help=False)
    for flag in ("--target-version", "--api-domain", "--bootstrap", "--field-validation"):
        parser.add_argument(flag)
    parser.add_argument("--service-account-issuer", action="append", default=[])
    parser.add_argument("--fs-checks", action="store_true")
    parser.add_argument("--unsafe", action="store_true")
    return parser


def options_for(case: Case):
    """Validate and migrate options from the seed's first-line flags (unknown or broken flags are dropped)."""
    from svcconf.known.catalog import parse_release
    from svcconf.settings.options import MigrateOptions, ValidateOptions

    try:
        args, _rest = _flags().parse_known_args(list(case.args))
        target = parse_release(args.target_version) if args.target_version else None
    except (SystemExit, ValueError):
        args, _rest = _flags().parse_known_args([])
        target = None
    options = ValidateOptions(
        target=target,
        bootstrap=args.bootstrap,
        fs_checks=args.fs_checks,
        field_validation=args.field_validation or "Strict",
        api_domain=args.api_domain or ValidateOptions().api_domain,
        service_account_issuers=tuple(args.service_account_issuer),
    )
    return options, MigrateOptions(target=target, unsafe=args.unsafe, api_domain=options.api_domain)


# --------------------------------------------------------------------------- validate


RULE_ERRORS: list[str] = []  # where each failing rule raised, filled by the hook below


def install_hooks() -> None:
    """Record where a failing rule raised: svcconf turns it into a one-line internal-error diagnostic."""
    from svcconf.lint import document

    original = getattr(document, "_run_rule", None)  # pragma: no mutate - None only for an svcconf without the hook point
    if original is None or getattr(original, "recording", False):
        return

    def recording(function, data, context):
        try:
            return list(function(data, context))
        except Exception as err:  # noqa: BLE001
            frames = traceback.extract_tb(err.__traceback__)
            RULE_ERRORS.append(f"{type(err).__name__}: {str(err)[:120]} at {where(frames)} {where_line(frames)}")
            return original(function, data, context)

    recording.recording = True
    document._run_rule = recording


def render(report, fmt: str) -> str:
    """A report as the CLI writes it: UTF-8, strict, as to a file or a UTF-8 terminal."""
    from svcconf.report import render as render_report

    buffer = io.BytesIO()
    stream = io.TextIOWrapper(buffer, encoding="utf-8", errors="strict")  # pragma: no mutate - defaults spelled out, codec case
    render_report(report, fmt, stream)
    stream.flush()
    return buffer.getvalue().decode("utf-8")  # pragma: no mutate - codec names ignore case


def check_validate(case: Case, options, failures: list[Failure], formats: tuple[str, ...]):
    """Validate the case's file and render every format; return the report (None if validate failed)."""
    from svcconf.lint.pipeline import validate

    RULE_ERRORS.clear()
    report = guarded("validate", lambda: validate([case.path], options), failures)
    if report is None:
        return None
    for d in report.diagnostics:
        if d.rule == "internal-error":
            cause = d.message.split(";", 1)[0]
            failures.append(Failure("internal-error", f"internal-error: {cause}", "; ".join(RULE_ERRORS) or d.message))
    if case.markers:
        shown = sorted(
            {d.rule for d in report.diagnostics if any(reports.shows_secret(text, case.markers) for text in (d.message, d.fix) if text)}
        )
        for rule in shown:
            failures.append(Failure("secret", f"secret: shown by [{rule}]", "validate"))
    for fmt in formats:
        output = guarded(f"render {fmt}", lambda fmt=fmt: render(report, fmt), failures)
        if output is None:
            continue
        for cause, detail in reports.CHECKS[fmt](output):
            failures.append(Failure("malformed-report", cause, detail))
        lines = reports.secrets_shown(output, case.markers)
        if lines and not any(f.category == "secret" for f in failures):
            failures.append(Failure("secret", f"secret: shown in {fmt} outside any message", repr(lines[0][:200])))
    return report


def check_case(case: Case, full: bool = True) -> list[Failure]:
    """Every in-process check of one case, in the current folder (where its file is written).

    Not `full`: validate and migrate only, no report rendered and no command run (a quick sweep).
    """
    from svcconf.report import FORMATS

    from .migration import check_migrate

    failures: list[Failure] = []
    with open(case.name, "wb") as handle:
        handle.write(case.data)
    try:
        options, migrate_options = options_for(case)
        report = check_validate(case, options, failures, FORMATS if full else ())
        if not any(f.category == "hang" for f in failures):  # one hang per case: the next call would mostly repeat it
            check_migrate(case, options, migrate_options, failures, report, full)
    finally:
        os.unlink(case.name)
    return failures
