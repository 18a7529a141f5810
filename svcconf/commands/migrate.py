"""`svcconf migrate`: rewrite API versions an upgrade removes (and, on request, deprecates), changing only what the conversion needs."""

from __future__ import annotations

import os
import sys

from . import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, config_error, error, read_config, release

HELP = "rewrite API versions an upgrade removes (in place with --write)"


def add_parser(commands) -> None:
    parser = commands.add_parser(
        "migrate",
        help=HELP,
        description="Before an upgrade, rewrite the API versions the new release no longer serves, byte-faithful.",
    )
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files, folders or - (stdin; the result goes to stdout); default: .")
    parser.add_argument(
        "--to-version", type=release, metavar="1.NN", help="the release after the upgrade (default: the newest release svcconf knows)"
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
    parser.add_argument("--api-domain", metavar="DOMAIN", help="domain suffix of API groups (default: $SVCCONF_API_DOMAIN or k8s.io)")
    parser.add_argument("--exclude", action="append", default=[], metavar="GLOB", help="skip paths matching GLOB (repeatable)")
    parser.add_argument("--config", metavar="FILE", help="configuration file (default: .svcconf.yaml or pyproject.toml found upward)")
    parser.add_argument("--no-config", action="store_true", help="ignore configuration files")
    parser.set_defaults(run=run)


def _report(outcomes: list, files: int, stream, options) -> None:
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
    stream.write(json_text(document) + "\n")


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


def _text(outcomes: list, files: int, stream, verb: str, options, target_given: bool) -> None:
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


def _why_exit_1(outcomes: list, stream) -> None:
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


def _diff(outcomes: list, stream) -> None:
    """The unified diff of every changed file; inside GitHub Actions, with workflow commands stopped around it."""
    import secrets

    from ..migrate.diff import unified
    from ..report.escape import printable

    changed = [o for o in outcomes if o.changed]
    if not changed:
        return
    # A diff line is file content, and escaping it would break the patch: the runner is told to ignore commands instead.
    token = secrets.token_hex(16) if os.environ.get("GITHUB_ACTIONS") == "true" else None
    if token:
        stream.write(f"::stop-commands::{token}\n")
    for outcome in changed:  # the header names are escaped; each content line starts with the diff's own mark
        stream.writelines(unified(printable(_patch_name(outcome.name)), outcome.original, outcome.output or b""))
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
    from ..catalog import format_release, parse_release
    from ..config import ConfigError
    from ..migrate import Options, migrate_bytes, write_atomic
    from ..model import Severity
    from ..naming import default_domain, valid_domain
    from ..pipeline import STDIN, STDIN_NAME, discover

    # The same configuration file as validate: releases, domain, excluded paths.
    try:
        config = read_config(args)
    except ConfigError as err:
        return config_error(err)
    domain = args.api_domain or (default_domain() if os.environ.get("SVCCONF_API_DOMAIN") else config.get("api-domain")) or default_domain()
    if not valid_domain(domain):
        error(f"--api-domain {domain!r} is not a DNS domain such as k8s.io")
        return EXIT_USAGE
    target = args.to_version or (parse_release(config["target-version"]) if "target-version" in config else None)
    since = args.from_version or (parse_release(config["from-version"]) if "from-version" in config else None)
    options = Options(target=target, unsafe=args.unsafe, api_domain=domain, from_version=since, deprecated=args.deprecated)
    if since is not None and since > options.resolved_target():
        error(f"--from-version {format_release(since)} is after --to-version {format_release(options.resolved_target())}")
        return EXIT_USAGE
    files, unreadable = discover(args.paths or ["."], list(config.get("exclude", [])) + args.exclude)
    outcomes = []
    failed = False
    unwritten: set[str] = set()  # files that would change but are symbolic links not to follow
    roots = [_root(p) for p in args.paths or ["."] if p != STDIN]
    for path in files:
        if path == STDIN:
            outcome = migrate_bytes(STDIN_NAME, sys.stdin.buffer.read(), options)
        else:
            try:
                with open(path, "rb") as handle:
                    data = handle.read()
            except OSError as err:
                error(f"{path}: cannot read file: {err.strerror or err}")
                failed = True
                continue
            outcome = migrate_bytes(path, data, options)
        outcomes.append((path, outcome))
        if path == STDIN and not args.check and not args.diff:
            _stdout_bytes(outcome.output if outcome.output is not None else outcome.original)
        elif args.write and outcome.changed:
            destination, why = _destination(path, roots, args.follow_symlinks)
            if destination is None:
                error(f"warning: {path}: {why}")
                unwritten.add(path)
                continue
            try:
                write_atomic(destination, outcome.output or b"")
            except OSError as err:
                error(f"{path}: not written: {err.strerror or err}; the file is unchanged")
                failed = True
    plain = [o for _p, o in outcomes]
    reported = [o for p, o in outcomes if p not in unwritten]  # a skipped link has its warning line
    report_stream = sys.stderr if STDIN in files and not args.check and not args.diff else sys.stdout
    if args.diff:
        _diff(plain, sys.stdout)
        report_stream = sys.stderr
    if args.format == "json":
        _report(reported, len(files), report_stream, options)
    else:
        verb = "rewritten" if args.write else ("would change" if not any(p == STDIN for p in files) else "converted")
        _text(reported, len(files), report_stream, verb, options, target is not None)
    for path in unreadable:
        error(f"{path}: no such file or folder")
    if unreadable or failed:
        return EXIT_USAGE
    needs_review = any(
        (d.rule == "migration-needs-review" and d.severity >= Severity.WARNING) or d.severity == Severity.ERROR
        for o in plain
        for d in o.diagnostics
    )
    if args.check and any(o.changed for o in plain):
        return EXIT_FINDINGS
    if needs_review and args.format == "text":
        _why_exit_1(plain, report_stream)
    return EXIT_FINDINGS if needs_review or unwritten else EXIT_OK


def _root(path: str) -> str:
    """A path given on the command line, resolved except for its last part when that is a file (maybe a link)."""
    if os.path.isdir(path):
        return os.path.realpath(path)
    folder, name = os.path.split(os.path.abspath(path))
    return os.path.join(os.path.realpath(folder), name)


def _destination(path: str, roots: list[str], follow: bool) -> tuple[str | None, str]:
    """The file to write for `path`, or None and why it must not be written."""
    if not os.path.islink(path):
        return path, ""
    if not follow:
        return (
            None,
            "a symbolic link; not written, link and target left as they are (--follow-symlinks writes a target inside the given paths)",
        )
    target = os.path.realpath(path)
    if not any(os.path.commonpath([target, root]) == root for root in roots):
        return None, "a symbolic link to a file outside the given paths; not written, link and target left as they are"
    return target, ""


def _stdout_bytes(data: bytes) -> None:
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is not None:
        sys.stdout.flush()
        buffer.write(data)
        buffer.flush()
    else:  # an in-memory stream (tests)
        sys.stdout.write(data.decode("utf-8", errors="replace"))
