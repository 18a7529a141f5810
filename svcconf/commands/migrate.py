"""`svcconf migrate`: rewrite API versions an upgrade removes (and, on request, deprecates), changing only what the conversion needs."""

from __future__ import annotations

import os
import sys

from ..settings.options import add_shared_arguments, add_stdin_filename_argument, add_target_argument, release
from . import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, config_error, error, loading

HELP = "rewrite API versions an upgrade removes (in place with --write)"


def add_parser(commands) -> None:
    parser = commands.add_parser(
        "migrate",
        help=HELP,
        description="Before an upgrade, rewrite the API versions the new release no longer serves, byte-faithful.",
    )
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files, folders or - (stdin; the result goes to stdout); default: .")
    add_target_argument(
        parser, "--to-version", help="the release after the upgrade (default: the newest release svcconf knows); --to-version is the same"
    )
    parser.add_argument(
        "--from-version",
        type=release,
        metavar="1.NN",
        help="the release the cluster runs now: documents become the newest version both releases serve",
    )
    parser.add_argument(
        "--deprecated",
        action="store_true",
        help="also rewrite versions the --to release deprecates (or that have a named successor); default: removed versions only",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="rewrite files in place (atomically); symbolic links are skipped")
    mode.add_argument("--check", action="store_true", help="change nothing; exit 1 if anything would change")
    parser.add_argument("--diff", action="store_true", help="print a unified diff of what would change")
    parser.add_argument(
        "--unsafe",
        action="store_true",
        help="also apply best-effort conversions that need review, and versions only the --to release serves",
    )
    parser.add_argument(
        "--follow-symlinks",
        action="store_true",
        help="with --write, rewrite the target of a symbolic link when it lies inside the given paths",
    )
    parser.add_argument("-f", "--format", choices=("text", "json"), default="text", help="report format (default: text)")
    add_stdin_filename_argument(parser)
    add_shared_arguments(parser)
    parser.set_defaults(run=run)


def _diff(outcomes: list, stream) -> None:
    """The unified diff of every changed file; inside GitHub Actions, with workflow commands stopped around it."""
    import secrets

    from ..escape import inline_commands_escaped, printable
    from ..migrate.diff import unified

    changed = [o for o in outcomes if o.changed]
    if not changed:
        return
    # A diff line is file content, and escaping it would break the patch: inside GitHub Actions the runner
    # is told to ignore commands instead. Elsewhere nothing stops the commands a runner finds anywhere in
    # a line (Azure Pipelines' `##vso[` and `##[`): those few lines are escaped, and their hunk no longer applies.
    token = secrets.token_hex(16) if os.environ.get("GITHUB_ACTIONS") == "true" else None
    if token:
        stream.write(f"::stop-commands::{token}\n")
    for outcome in changed:  # the header names are escaped; each content line starts with the diff's own mark
        lines = unified(printable(_patch_name(outcome.name)), outcome.original, outcome.output or b"")
        stream.writelines(line if token else inline_commands_escaped(line) for line in lines)
    if token:
        stream.write(f"::{token}::\n")


def _patch_name(path: str) -> str:
    """A path as a patch names it after `a/` and `b/`: relative to the working folder when inside it, else without its leading `/`."""
    if not os.path.isabs(path):
        return path
    relative = os.path.relpath(path)
    outside = relative == os.pardir or relative.startswith(os.pardir + os.sep)
    return path.lstrip(os.sep) if outside else relative


def run(args) -> int:
    with loading():
        from ..load.discovery import CONFIG_FILE, STDIN, Selection, discover
        from ..migrate import engine  # noqa: F401 - loaded with the rest, before the first file
        from ..report import progress  # noqa: F401 - loaded with the rest, before the first file
        from ..settings.config import ConfigError, read_config
        from ..settings.options import (
            STDIN_FILENAME_WITHOUT_STDIN,
            OptionsError,
            checking_options,
            migrate_options,
            paths_to_read,
            quiet_excludes,
        )

    paths = paths_to_read(args)
    if paths is None:
        error(STDIN_FILENAME_WITHOUT_STDIN)
        return EXIT_USAGE
    # The same configuration file and shared settings as validate: releases, domain, excluded paths.
    try:
        config = read_config(args)
        options = migrate_options(args, config)
        checking = checking_options(options, config)
    except ConfigError as err:
        return config_error(err)
    except OptionsError as err:
        error(str(err))
        return EXIT_USAGE
    selection = Selection.of(options)
    skipped: list[tuple[str, str]] = []
    files, unreadable = discover(paths, selection, skipped=skipped)
    # A setting that leaves a file unread changes what --check answers: each one is said, as validate -v says it,
    # but for the files pre-commit (or --force-exclude) names, which exclude is expected to leave out.
    quiet = quiet_excludes(args)
    for path, why in skipped:
        if why != CONFIG_FILE and not (quiet and path in paths):
            error(f"{path}: not read: {why}")
    outcomes, unwritten, failed = _migrate_files(files, paths, args, selection, options, quiet)
    plain = [o for _p, o in outcomes]
    reported = [o for p, o in outcomes if p not in unwritten]  # a skipped link has its warning line
    report = _run_summary(args, config, options, checking, reported, len(files))
    report_stream = sys.stderr if STDIN in files and not args.check and not args.diff else sys.stdout
    if args.diff:
        _diff(plain, sys.stdout)
        report_stream = sys.stderr
    _report(args, reported, report, report_stream, options, any(p == STDIN for p in files))
    for path in unreadable:
        error(f"{path}: no such file or folder")
    if unreadable or failed:
        return EXIT_USAGE
    return _exit_code(args, plain, report, report_stream, bool(unwritten))


def _migrate_files(files: list[str], paths: list[str], args, selection, options, quiet: bool) -> tuple[list, set[str], bool]:
    """(path, outcome) per file migrated, the files not written because they are links not to follow, and whether one failed."""
    from ..load.discovery import STDIN
    from ..report.progress import progress_for

    outcomes = []
    failed = False
    unwritten: set[str] = set()  # files that would change but are symbolic links not to follow
    roots = [_root(p) for p in paths if p != STDIN]
    progress = progress_for("migrating") if STDIN not in files else None
    for done, path in enumerate(files):
        if progress is not None:
            progress(done, len(files))
        outcome = _migrated(path, args, selection, options, quiet)
        if outcome is None:
            failed = True
            continue
        outcomes.append((path, outcome))
        if path == STDIN:  # never a file to write: the converted text goes to stdout, unless a diff or a check is asked for
            if not args.check and not args.diff:
                _stdout_bytes(outcome.output if outcome.output is not None else outcome.original)
        elif args.write and outcome.changed:
            written = _write(path, outcome.output or b"", roots, args.follow_symlinks)
            unwritten.update([path] if written is None else [])
            failed = failed or written is False
    if progress is not None:
        progress.close()
    return outcomes, unwritten, failed


def _run_summary(args, config, options, checking, outcomes: list, files: int):
    """What the report says besides the edits: the target and where it came from, the check of each converted file, the hops."""
    from ..lint.check import configure
    from ..migrate.hops import hops
    from ..migrate.verify import verify
    from ..report.migrate_report import Run
    from ..settings.target import not_released, origin

    target = origin("--to-version", args.target_version, config)
    notice = not_released(target)
    verified = {o.name: verify(o, checking) for o in outcomes if o.changed}
    steps = hops(options.from_version, options.resolved_target()) if options.from_version else []
    return Run(files, target, verified, configure([notice], notice.file, checking) if notice else [], steps)


def _report(args, outcomes: list, run, stream, options, stdin: bool) -> None:
    from ..report.migrate_report import write_json, write_text

    if args.format == "json":
        write_json(outcomes, run, stream, options)
    else:
        verb = "rewritten" if args.write else ("would change" if not stdin else "converted")
        write_text(outcomes, run, stream, verb, options)


def _exit_code(args, outcomes: list, run, stream, unwritten: bool) -> int:
    """1 when something would change (--check, --diff), needs review, could not be migrated or converts with errors; else 0."""
    from ..model import Severity
    from ..report.migrate_report import write_exit_reason

    needs_review = any(
        (d.rule == "migration-needs-review" and d.severity >= Severity.WARNING) or d.severity == Severity.ERROR
        for o in outcomes
        for d in o.diagnostics
    )
    with_errors = any(verified.errors for verified in run.verified.values())
    if (needs_review or with_errors) and args.format == "text":
        write_exit_reason(outcomes, run, stream, args.write)
    would_change = (args.check or args.diff) and any(o.changed for o in outcomes)  # as ruff: --diff fails when it shows a change
    return EXIT_FINDINGS if would_change or needs_review or with_errors or unwritten else EXIT_OK


def _migrated(path: str, args, selection, options, quiet: bool):
    """The outcome of one file or of stdin (`-`), read within the size limit; None when it cannot be read (said on stderr)."""
    from ..lint.result import STDIN_NAME
    from ..load.discovery import STDIN
    from ..load.files import TooLarge, read_limited
    from ..load.source import too_large
    from ..migrate import FileOutcome, migrate_bytes
    from ..migrate.engine import left_unchanged
    from ..settings.options import DEFAULT_MAX_FILE_SIZE

    name = (args.stdin_filename or STDIN_NAME) if path == STDIN else path
    try:
        data = read_limited(path, DEFAULT_MAX_FILE_SIZE)
    except TooLarge as large:
        return left_unchanged(name, b"", too_large(large.limit, large.size))
    except OSError as err:
        error(f"{path}: cannot read file: {err.strerror or err}")
        return None
    if path == STDIN and args.stdin_filename and (why := selection.excluded(args.stdin_filename)):
        if not quiet:
            error(f"{args.stdin_filename}: not converted: {why}")
        return FileOutcome(name, data)  # excluded as the file it stands for: passed through unchanged
    return migrate_bytes(name, data, options)


def _write(path: str, data: bytes, roots: list[str], follow: bool) -> bool | None:
    """Write a changed file in place: True when written, None when skipped (a link not to follow), False when writing failed."""
    from ..migrate import write_atomic

    destination, why = _destination(path, roots, follow)
    if destination is None:
        error(f"warning: {path}: {why}")
        return None
    try:
        write_atomic(destination, data)
    except OSError as err:
        error(f"{path}: not written: {err.strerror or err}; the file is unchanged")
        return False
    return True


def _root(path: str) -> str:
    """A path given on the command line, resolved except for its last part when that is a file (maybe a link)."""
    if os.path.isdir(path):
        return os.path.realpath(path)
    folder, name = os.path.split(os.path.abspath(path))
    return os.path.join(os.path.realpath(folder), name)


def _destination(path: str, roots: list[str], follow: bool) -> tuple[str | None, str]:
    """The file to write for `path`, or None and why it must not be written: it, or a folder of its path, is a link."""
    from ..load.files import linked_folder

    link = path if os.path.islink(path) else linked_folder(path)
    if link is None:
        return path, ""
    what = "a symbolic link" if link == path else f"in {link}, a symbolic link to a folder"
    if not follow:
        return None, f"{what}; not written, links and targets left as they are (--follow-symlinks writes a target inside the given paths)"
    target = os.path.realpath(path)
    if not any(os.path.commonpath([target, root]) == root for root in roots):
        return None, f"{what} to a file outside the given paths; not written, links and targets left as they are"
    return target, ""


def _stdout_bytes(data: bytes) -> None:
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is not None:
        sys.stdout.flush()
        buffer.write(data)
        buffer.flush()
    else:  # an in-memory stream (tests)
        sys.stdout.write(data.decode("utf-8", errors="replace"))
