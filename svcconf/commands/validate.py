"""`svcconf validate`: check files, folders or stdin and report every problem with its position."""

from __future__ import annotations

import contextlib
import os
import sys

from ..options import FIELD_VALIDATION, add_shared_arguments, add_target_argument
from . import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, SEVERITIES, comma_list, config_error, error, size

FORMATS = ("text", "json", "sarif", "github", "junit")
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
    parser.add_argument("-f", "--format", choices=FORMATS, default="text", help="report format (default: text)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE instead of stdout")
    parser.add_argument("--fail-on", choices=SEVERITIES, default=None, help="lowest severity that makes the exit code 1 (default: error)")
    add_target_argument(parser, help="release to check against (default: the newest release svcconf knows)")
    parser.add_argument(
        "--field-validation", choices=FIELD_VALIDATION, help="unknown fields are errors, warnings or ignored (default: Strict)"
    )
    parser.add_argument("--select", type=comma_list, metavar="IDS", help="report only these rule ids (comma list)")
    parser.add_argument("--ignore", type=comma_list, metavar="IDS", help="never report these rule ids (comma list)")
    parser.add_argument(
        "-j", "--jobs", type=int, default=None, metavar="N", help="worker processes for many files (default: number of cores)"
    )
    parser.add_argument("--max-file-size", type=size, metavar="SIZE", help="skip larger files with a warning (default: 8M)")
    parser.add_argument(
        "--bootstrap", choices=("init", "join"), help="what a bootstrap file is for (default: inferred from the kinds it holds)"
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
    add_shared_arguments(parser)
    parser.add_argument("-v", "--verbose", action="store_true", help="list on stderr each file or folder left unchecked, and why")
    parser.add_argument(
        "--color", choices=("auto", "always", "never"), default="auto", help="colour in text output (default: auto; NO_COLOR is honoured)"
    )

    parser.set_defaults(run=run)


def _use_color(choice: str, stream) -> bool:
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return hasattr(stream, "isatty") and stream.isatty()


def _open_report_file(path: str):
    """The report file, created or emptied; opening (not a check before it) refuses symlinks and folders."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    return open(os.open(path, flags, 0o666), "w", encoding="utf-8")


def _why_not_writable(path: str, err: OSError) -> str:
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


def run(args) -> int:
    from ..config import ConfigError, read_config
    from ..model import Severity
    from ..options import OptionsError, validate_options
    from ..pipeline import validate
    from ..report import render

    try:
        options = validate_options(args, read_config(args))
    except ConfigError as err:
        return config_error(err)
    except OptionsError as err:
        error(str(err))
        return EXIT_USAGE

    report = validate(args.paths or ["."], options)
    try:
        output = _open_report_file(args.output) if args.output else contextlib.nullcontext(_stdout())
    except OSError as err:
        error(f"{args.output}: cannot write the report: {_why_not_writable(args.output, err)}")
        return EXIT_USAGE
    with output as stream:
        render(report, args.format, stream, color=args.format == "text" and _use_color(args.color, stream))
    if args.verbose:
        for path, why in report.skipped_paths:
            error(f"{path}: skipped: {why}")
    for path in report.unreadable:
        error(f"{path}: no such file or folder")
    # A path that cannot be read is not a finding about configuration: the run itself failed.
    if report.unreadable or any(d.rule == "unreadable-file" for d in report.diagnostics):
        return EXIT_USAGE
    fail_on = Severity.parse(options.fail_on)
    return EXIT_FINDINGS if any(d.severity >= fail_on for d in report.diagnostics) else EXIT_OK
