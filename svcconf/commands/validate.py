"""`svcconf validate`: check files, folders or stdin and report every problem with its position.

A run that fails (exit code 2: a usage error, an unusable configuration file, a path that cannot
be read) still writes its report, and the report says the run failed: a CI step that uploads it
whatever happened must never show an empty, green report for a check that did not run.
"""

from __future__ import annotations

import contextlib
import os
import sys

from ..report import AUTO, FORMATS
from ..settings.options import FIELD_VALIDATION, add_shared_arguments, add_stdin_filename_argument, add_target_argument
from . import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, SEVERITIES, comma_list, config_problems, error, loading, size

HELP = "check files, folders or stdin (-)"


def add_parser(commands) -> None:
    parser = commands.add_parser(
        "validate",
        help=HELP,
        description="Check configuration files and report every problem with its position.",
    )
    parser.add_argument(
        "paths", nargs="*", metavar="PATH", help="files, folders (searched for *.yaml, *.yml, *.json) or - for stdin; default: ."
    )
    parser.add_argument(
        "-f",
        "--format",
        choices=(AUTO, *FORMATS),
        default=AUTO,
        help="report format (default: auto: github inside GitHub Actions when the report goes to stdout, else text)",
    )
    add_stdin_filename_argument(parser)
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="write the report to FILE instead of stdout (its folder is created; never through a symlink)"
    )
    parser.add_argument(
        "--exit-zero", action="store_true", help="exit 0 whatever the findings (usage errors and unreadable paths still exit 2)"
    )
    accepting = parser.add_mutually_exclusive_group()
    accepting.add_argument("--write-baseline", metavar="FILE", help="record today's findings in FILE (a baseline) and exit 0")
    accepting.add_argument(
        "--add-suppressions", action="store_true", help="add `# svcconf: ignore[rule-id]` on the line of each finding, never changing data"
    )
    add_settings_arguments(parser)
    parser.add_argument("-v", "--verbose", action="store_true", help="list on stderr each file, folder or document left unchecked, and why")
    parser.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour in text output (default: auto: on a terminal, unless NO_COLOR is set; FORCE_COLOR forces it)",
    )
    # Statistics and quiet: what a report holds.
    parser.add_argument("--statistics", action="store_true", help="a count per rule and severity instead of the findings (-f text or json)")
    parser.add_argument("-q", "--quiet", action="store_true", help="text and github output: the findings without the summary line")

    parser.set_defaults(run=run)


def add_settings_arguments(parser) -> None:
    """The flags that change what validate checks and how: `svcconf config` takes them too, to show their effect."""
    parser.add_argument("--fail-on", choices=SEVERITIES, default=None, help="lowest severity that makes the exit code 1 (default: error)")
    add_target_argument(parser, help="release to check against: 1.31, v1.31 or 1.31.2 (default: the newest release svcconf knows)")
    parser.add_argument(
        "--field-validation", choices=FIELD_VALIDATION, help="unknown fields are errors, warnings or ignored (default: Strict)"
    )
    parser.add_argument(
        "--select", type=comma_list, metavar="IDS", help="report only these rule ids or areas, e.g. encryption (comma list)"
    )
    parser.add_argument("--ignore", type=comma_list, metavar="IDS", help="never report these rule ids or areas (comma list)")
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="check with N processes (default: as many as the files found pay for, up to the number of cores)",
    )
    parser.add_argument("--max-file-size", type=size, metavar="SIZE", help="skip larger files with a warning (default: 8M)")
    parser.add_argument(
        "--bootstrap",
        choices=("init", "join", "upgrade", "reset"),
        help="the kubeadm command a bootstrap file is for, read as that command reads it (default: init or join, inferred from "
        "the kinds it holds; an UpgradeConfiguration beside them is then for kubeadm upgrade)",
    )
    parser.add_argument(
        "--service-account-issuer",
        action="append",
        default=[],
        metavar="URL",
        help="the API server's --service-account-issuer (repeatable): JWT authenticators must not use it",
    )
    parser.add_argument(
        "--fs-checks", action="store_true", help="also check files named by absolute paths (kubeconfigs, plugin configs): run on the node"
    )
    parser.add_argument(
        "--baseline", metavar="FILE", help="findings recorded in FILE do not count; entries no longer found are reported (baseline-stale)"
    )
    add_shared_arguments(parser)


def use_color(choice: str, stream) -> bool:
    """--color, then NO_COLOR (set and not empty: none), FORCE_COLOR (set and not empty: colour), then whether it is a terminal."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    return hasattr(stream, "isatty") and stream.isatty()


def _open_report_file(path: str):
    """The report file, created or emptied, its folder created; opening (not a check before it) refuses symlinks and folders.

    A folder of its path that is a symbolic link is refused before any folder is created.
    """
    from ..load.files import refuse_linked_folder

    refuse_linked_folder(path)
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    return open(os.open(path, flags, 0o666), "w", encoding="utf-8")


def _why_not_writable(path: str, err: OSError) -> str:
    from ..load.files import linked_folder

    link = linked_folder(path)
    if link is not None:
        return f"its folder {link} is a symlink, and svcconf does not write through symlinks"
    if os.path.islink(path):
        return "it is a symlink, and svcconf does not write through symlinks"
    if os.path.isdir(path):
        return "it is a folder"
    return (err.strerror or str(err)).lower()


def _stdout():
    """stdout, able to show any character even where the locale's encoding cannot (as stderr already is)."""
    if hasattr(sys.stdout, "reconfigure") and sys.stdout.errors == "strict":
        sys.stdout.reconfigure(errors="backslashreplace")
    return sys.stdout


def _write(report, args) -> bool:
    """Render the report to -o FILE or stdout; False (after saying why) when the file cannot be written."""
    from ..report import render

    try:
        output = _open_report_file(args.output) if args.output else contextlib.nullcontext(_stdout())
    except OSError as err:
        error(f"{args.output}: cannot write the report: {_why_not_writable(args.output, err)}")
        return False
    with output as stream:
        color = args.format == "text" and use_color(args.color, stream)
        # On a terminal stderr already shows why the run failed; a report file must say it itself.
        render(report, args.format, stream, color=color, failures_on_stderr=not args.output, statistics=args.statistics, quiet=args.quiet)
    if args.format == "gitlab" and not report.failures:
        # Code Quality has no place for notes about the run: the job log shows what changed the verdict.
        from ..report.text_format import summary

        error(summary(report))
    return True


def _failed(report, args, failures: list[str], *, say: bool = True) -> int:
    """Say why the run failed, on stderr (unless the caller does) and in the report; the usage exit code."""
    for failure in failures if say else ():
        error(failure)
    report.failures = failures
    _write(report, args)
    return EXIT_USAGE


def run(args) -> int:
    with loading():
        from ..lint import pipeline  # noqa: F401 - loaded with the rest, before the first file
        from ..lint.result import Report
        from ..model import Severity
        from ..report import chosen_format
        from ..settings.config import ConfigError, read_config
        from ..settings.options import STDIN_FILENAME_WITHOUT_STDIN, OptionsError, paths_to_read, quiet_excludes, validate_options

    if args.statistics and args.format == AUTO:
        args.format = "text"  # auto means annotations inside GitHub Actions; counts are not findings to annotate
    args.format = chosen_format(args.format, bool(args.output))
    if refused := _statistics_refused(args):
        return _failed(Report(), args, [refused])
    paths = paths_to_read(args)
    if paths is None:
        return _failed(Report(), args, [STDIN_FILENAME_WITHOUT_STDIN])
    try:
        config = read_config(args)
        options = validate_options(args, config)
        baseline = _read_baseline(args, config)
    except ConfigError as err:
        return _failed(Report(), args, config_problems(err))
    except OptionsError as err:  # a baseline's problems (BaselineError) are one line each
        return _failed(Report(), args, getattr(err, "problems", [str(err)]))
    if baseline is not None or args.write_baseline:
        from ..lint.baseline import FORMAT_VERSION

        # Findings get the fingerprints the baseline's format keys them by (a baseline written is in the current one).
        version = baseline.version if baseline is not None else FORMAT_VERSION
        options = options._replace(baseline_format=version, baseline_file=args.write_baseline or baseline.name)

    report = _checked(paths, options, args)
    if args.verbose:
        for path, why in report.skipped_paths:
            error(f"{path}: skipped: {why}")
        _list_skipped_documents(report)
    _warn_unchecked(paths, report, bool(config.values.get("exclude") or args.exclude), args.verbose or quiet_excludes(args))
    failures = [f"{path}: no such file or folder" for path in report.unreadable]
    unread = sum(1 for d in report.diagnostics if d.rule == "unreadable-file")
    if unread:
        # Not a finding about configuration: the file was never checked, so the run is not complete.
        failures.append(f"{unread} file{'s' if unread != 1 else ''} could not be read (unreadable-file)")
    if failures:
        return _failed(report, args, failures)
    try:
        _accept_findings(args, report, baseline)
    except OptionsError as err:  # BaselineError: the baseline cannot be written
        return _failed(report, args, getattr(err, "problems", [str(err)]))
    _warn_target(report, args, config)
    if not _write(report, args):
        return EXIT_USAGE
    fail_on = Severity.parse(options.fail_on)
    failing = any(d.severity >= fail_on for d in report.diagnostics)
    return EXIT_FINDINGS if failing and not args.exit_zero else EXIT_OK


def _checked(paths: list[str], options, args):
    """The run's Report, with a progress line on a terminal; a bug still leaves a report that says the run failed."""
    from ..lint.pipeline import validate
    from ..lint.result import Report
    from ..report.progress import progress_for

    progress = progress_for("checking", quiet=args.quiet)
    try:
        return validate(paths, options, progress)
    except Exception as err:  # a bug: the report says the run failed, main prints it
        _failed(Report(options=options), args, [f"internal error: {type(err).__name__}: {err}"], say=False)
        raise
    finally:
        if progress is not None:
            progress.close()


def _warn_target(report, args, config) -> None:
    """A target past the releases svcconf knows in full is said in the report (never baselined or suppressed in a file)."""
    from ..lint.check import configure
    from ..settings.target import not_released, origin

    warning = not_released(origin("--target-version", args.target_version, config))
    if warning is not None:
        report.diagnostics[:0] = configure([warning], warning.file, report.options)


def _statistics_refused(args) -> str | None:
    """Why --statistics cannot be given with this format (a usage error), or None."""
    from ..report.statistics import FORMATS as STATISTICS_FORMATS

    if not args.statistics or args.format in STATISTICS_FORMATS:
        return None
    return f"--statistics works with -f {' or -f '.join(STATISTICS_FORMATS)}, not with -f {args.format}"


def _list_skipped_documents(report) -> None:
    """-v: each document left unchecked, with its kind and apiVersion as written, and why."""
    for file, number, kind, api_version, why in report.skipped_documents:
        written = " ".join(value for value in (kind, api_version) if value is not None)
        error(f"{file}: document {number}{f' ({written})' if written else ''}: skipped: {why}")


def _warn_unchecked(paths: list[str], report, excluding: bool, named_said: bool) -> None:
    """Warn about a folder with nothing to check and a file named on the command line that exclude left out.

    With -v every skipped path is already listed with its reason, and with --force-exclude (or under
    pre-commit) an excluded file is expected: then only the empty folders are said.
    """
    from ..load.discovery import STDIN

    checked = {os.path.normpath(name) for name in report.checked}
    skipped = {os.path.normpath(path): why for path, why in report.skipped_paths}
    for path in paths:
        if path == STDIN or not os.path.exists(path):
            continue
        if os.path.isdir(path):
            folder = os.path.normpath(path)
            prefix = "" if folder == os.curdir else folder.rstrip(os.sep) + os.sep
            if folder not in skipped and not any(name.startswith(prefix) for name in checked):
                left_out = " (or exclude leaves them out)" if excluding else ""
                error(f"warning: {path}: no *.yaml, *.yml or *.json file in this folder{left_out}; nothing checked")
        elif os.path.normpath(path) not in checked and os.path.normpath(path) in skipped and not named_said:
            error(f"warning: {path}: {skipped[os.path.normpath(path)]}; not checked")


def baseline_name(args, config) -> str | None:
    """The baseline a run applies: --baseline, else the configuration file's (relative to that file's folder), else None."""
    if args.baseline:
        return args.baseline
    name = config.values.get("baseline")
    return os.path.join(os.path.dirname(config.path), name) if name else None


def _read_baseline(args, config):
    """The baseline this run applies, None when there is none or one is written."""
    name = baseline_name(args, config)
    if not name or args.write_baseline:
        return None
    from ..lint.baseline import load

    return load(name)


def _accept_findings(args, report, baseline) -> None:
    """--write-baseline, --baseline and --add-suppressions: leave in the report only the findings still to count."""
    if args.write_baseline:
        from ..lint.baseline import write

        baseline = write(args.write_baseline, report)
        entries = len(baseline.entries)
        error(
            f"wrote {entries} baseline entr{'ies' if entries != 1 else 'y'} ({len(report.diagnostics)} findings) to {args.write_baseline}"
        )
    if baseline is not None:
        from ..lint.baseline import apply

        apply(report, baseline)
    if args.add_suppressions:
        from ..lint.add_suppressions import add_suppressions
        from ..lint.check import stdin_name

        # Findings in stdin's text (even when --stdin-filename names a file) are not that file's lines.
        outcome = add_suppressions(report.diagnostics, report.options.max_file_size, stdin_name(report.options))
        for note in outcome.notes:
            error(note)
        error(
            f"added {outcome.added} suppression{'s' if outcome.added != 1 else ''} to {outcome.files} file{'s' if outcome.files != 1 else ''}"
        )
        report.suppressed += [d for d in report.diagnostics if d in outcome.suppressed]
        report.diagnostics = [d for d in report.diagnostics if d not in outcome.suppressed]
