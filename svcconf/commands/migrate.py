"""`svcconf migrate`: rewrite removed and deprecated API versions, changing only what the conversion needs."""

from __future__ import annotations

import os
import sys

from . import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, error, release

HELP = "rewrite removed and deprecated API versions (in place with --write)"


def add_parser(commands) -> None:
    parser = commands.add_parser("migrate", help=HELP, description="Rewrite removed and deprecated API versions, byte-faithful.")
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files, folders or - (stdin; the result goes to stdout); default: .")
    parser.add_argument("--to-version", type=release, metavar="1.NN", help="target release (default: the newest release svcconf knows)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="rewrite files in place (atomically); symbolic links are skipped")
    mode.add_argument("--check", action="store_true", help="change nothing; exit 1 if anything would change")
    parser.add_argument("--diff", action="store_true", help="print a unified diff of what would change")
    parser.add_argument("--unsafe", action="store_true", help="also apply best-effort conversions that need review")
    parser.add_argument(
        "--follow-symlinks",
        action="store_true",
        help="with --write, rewrite the target of a symbolic link when it lies inside the given paths",
    )
    parser.add_argument("-f", "--format", choices=("text", "json"), default="text", help="report format (default: text)")
    parser.add_argument("--api-domain", metavar="DOMAIN", help="domain suffix of API groups (default: $SVCCONF_API_DOMAIN or k8s.io)")
    parser.add_argument("--exclude", action="append", default=[], metavar="GLOB", help="skip paths matching GLOB (repeatable)")
    parser.set_defaults(run=run)


def _report(outcomes: list, files: int, stream) -> None:
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


def _text(outcomes: list, files: int, stream, verb: str) -> None:
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
    stream.write(f"{documents} document{'s' if documents != 1 else ''} in {changed} of {files} file{'s' if files != 1 else ''} {verb}\n")


def _diff(outcome, stream) -> None:
    from ..migrate.diff import unified
    from ..report.escape import printable

    if outcome.changed:  # the header names are escaped; each content line starts with the diff's own mark
        stream.writelines(unified(printable(outcome.name), outcome.original, outcome.output or b""))


def run(args) -> int:
    from ..catalog import parse_release
    from ..config import ConfigError, find_config, load_config
    from ..migrate import Options, migrate_bytes, write_atomic
    from ..model import Severity
    from ..naming import default_domain, valid_domain
    from ..pipeline import STDIN, STDIN_NAME, discover

    # The same configuration file as validate: target release, domain, excluded paths.
    try:
        found = find_config()
        config = load_config(found).values if found else {}
    except ConfigError as err:
        for d in err.diagnostics:
            error(f"{d.file}:{d.line}:{d.column}: invalid configuration: {d.message}")
        return EXIT_USAGE
    domain = args.api_domain or (default_domain() if os.environ.get("SVCCONF_API_DOMAIN") else config.get("api-domain")) or default_domain()
    if not valid_domain(domain):
        error(f"--api-domain {domain!r} is not a DNS domain such as k8s.io")
        return EXIT_USAGE
    target = args.to_version or (parse_release(config["target-version"]) if "target-version" in config else None)
    options = Options(target=target, unsafe=args.unsafe, api_domain=domain)
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
        for outcome in plain:
            _diff(outcome, sys.stdout)
        report_stream = sys.stderr
    if args.format == "json":
        _report(reported, len(files), report_stream)
    else:
        verb = "rewritten" if args.write else ("would change" if not any(p == STDIN for p in files) else "converted")
        _text(reported, len(files), report_stream, verb)
    for path in unreadable:
        error(f"{path}: no such file or folder")
    if unreadable or failed:
        return EXIT_USAGE
    needs_review = any(d.rule == "migration-needs-review" or d.severity == Severity.ERROR for o in plain for d in o.diagnostics)
    if args.check and any(o.changed for o in plain):
        return EXIT_FINDINGS
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
