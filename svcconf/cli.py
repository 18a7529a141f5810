"""Command line: parse flags, call the library, render, choose the exit code.

argparse rather than typer: a pre-commit hook starts svcconf on every commit, and typer 0.29
adds ~200 ms to every start (it imports pydantic) where argparse adds ~20 ms.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence

from . import __version__

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2

FORMATS = ("text", "json", "sarif", "github", "junit")
SEVERITIES = ("error", "warning", "info")


def _comma_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _size(text: str) -> int:
    units = {"k": 1024, "m": 1024**2, "g": 1024**3}
    text = text.strip().lower().removesuffix("ib").removesuffix("b")
    factor = units.get(text[-1:], 1)
    number = text[:-1] if text[-1:] in units else text
    try:
        return int(float(number) * factor)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 8M)") from None


def _release(text: str):
    from .registry import parse_release

    try:
        return parse_release(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="svcconf",
        description="Lint and migrate control-plane configuration files.",
    )
    parser.add_argument("--version", action="version", version=f"svcconf {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    validate = commands.add_parser(
        "validate",
        help="check files, folders or stdin (-)",
        description="Check configuration files and report every problem with its position.",
    )
    validate.add_argument(
        "paths", nargs="*", metavar="PATH", help="files, folders (searched for *.yaml, *.yml, *.json) or - for stdin; default: ."
    )
    validate.add_argument("-f", "--format", choices=FORMATS, default="text", help="report format (default: text)")
    validate.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE instead of stdout")
    validate.add_argument("--fail-on", choices=SEVERITIES, default=None, help="lowest severity that makes the exit code 1 (default: error)")
    validate.add_argument(
        "--target-version", type=_release, metavar="1.NN", help="release to check against (default: the newest release svcconf knows)"
    )
    validate.add_argument("--api-domain", metavar="DOMAIN", help="domain suffix of API groups (default: $SVCCONF_API_DOMAIN or k8s.io)")
    validate.add_argument(
        "--field-validation", choices=("Strict", "Warn", "Ignore"), help="unknown fields are errors, warnings or ignored (default: Strict)"
    )
    validate.add_argument("--exclude", action="append", default=[], metavar="GLOB", help="skip paths matching GLOB (repeatable)")
    validate.add_argument("--select", type=_comma_list, metavar="IDS", help="report only these rule ids (comma list)")
    validate.add_argument("--ignore", type=_comma_list, metavar="IDS", help="never report these rule ids (comma list)")
    validate.add_argument(
        "-j", "--jobs", type=int, default=None, metavar="N", help="worker processes for many files (default: number of cores)"
    )
    validate.add_argument("--max-file-size", type=_size, metavar="SIZE", help="skip larger files with a warning (default: 8M)")
    validate.add_argument("--config", metavar="FILE", help="configuration file (default: .svcconf.yaml or pyproject.toml found upward)")
    validate.add_argument("--no-config", action="store_true", help="ignore configuration files")
    validate.add_argument(
        "--color", choices=("auto", "always", "never"), default="auto", help="colour in text output (default: auto; NO_COLOR is honoured)"
    )

    rules = commands.add_parser("rules", help="explain the rules", description="List every rule, or explain one.")
    rules.add_argument("rule", nargs="?", metavar="ID", help="a rule id, e.g. unknown-field")

    kinds = commands.add_parser("kinds", help="list supported apiVersion/kind pairs and their lifecycle")
    kinds.add_argument("--all", action="store_true", help="also list the API groups tracked only for removals")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "validate":
            return run_validate(args)
        if args.command == "rules":
            return run_rules(args)
        if args.command == "kinds":
            return run_kinds(args)
    except BrokenPipeError:
        sys.stderr.close()
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    parser.print_help()
    return EXIT_USAGE


def _error(message: str) -> None:
    sys.stderr.write(f"svcconf: {message}\n")


def _options(args, config_values: dict):
    from .model import Severity
    from .naming import default_domain, valid_domain
    from .pipeline import Options
    from .registry import parse_release

    options = Options()
    if "target-version" in config_values:
        options.target = parse_release(config_values["target-version"])
    options.api_domain = config_values.get("api-domain", options.api_domain)
    if os.environ.get("SVCCONF_API_DOMAIN"):
        options.api_domain = default_domain()
    options.field_validation = config_values.get("field-validation", options.field_validation)
    options.exclude = list(config_values.get("exclude", []))
    options.select = list(config_values.get("select", []))
    options.ignore = list(config_values.get("ignore", []))
    options.severity = {rule: Severity.parse(level) for rule, level in config_values.get("severity", {}).items()}
    options.per_file_ignores = dict(config_values.get("per-file-ignores", {}))
    if args.target_version:
        options.target = args.target_version
    if args.api_domain:
        options.api_domain = args.api_domain
    if not valid_domain(options.api_domain):
        raise ValueError(f"--api-domain {options.api_domain!r} is not a DNS domain such as k8s.io")
    if args.field_validation:
        options.field_validation = args.field_validation
    options.exclude += args.exclude
    if args.select is not None:
        options.select = args.select
    if args.ignore is not None:
        options.ignore += args.ignore
    if args.max_file_size:
        options.max_file_size = args.max_file_size
    options.jobs = args.jobs if args.jobs and args.jobs > 0 else (os.cpu_count() or 1)
    return options


def _use_color(choice: str, stream) -> bool:
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return hasattr(stream, "isatty") and stream.isatty()


def run_validate(args) -> int:
    from .config import ConfigError, find_config, load_config
    from .model import Severity
    from .pipeline import validate
    from .report import render

    config_values: dict = {}
    try:
        if args.config:
            config_values = load_config(args.config).values
        elif not args.no_config:
            found = find_config()
            if found is not None:
                config_values = load_config(found).values
        options = _options(args, config_values)
    except ConfigError as err:
        for d in err.diagnostics:
            where = f" {d.path_text}:" if d.path_text else ""
            _error(f"{d.file}:{d.line}:{d.column}: invalid configuration:{where} {d.message}")
        return EXIT_USAGE
    except ValueError as err:
        _error(str(err))
        return EXIT_USAGE

    report = validate(args.paths or ["."], options)
    with open(args.output, "w", encoding="utf-8") if args.output else contextlib.nullcontext(sys.stdout) as stream:
        render(report, args.format, stream, color=args.format == "text" and _use_color(args.color, stream))
    for path in report.unreadable:
        _error(f"{path}: no such file or folder")
    # A path that cannot be read is not a finding about configuration: the run itself failed.
    if report.unreadable or any(d.rule == "unreadable-file" for d in report.diagnostics):
        return EXIT_USAGE
    fail_on = Severity.parse(args.fail_on or config_values.get("fail-on", "error"))
    return EXIT_FINDINGS if any(d.severity >= fail_on for d in report.diagnostics) else EXIT_OK


def run_rules(args) -> int:
    from .docs import all_rule_docs, rule_doc

    if args.rule:
        doc = rule_doc(args.rule)
        if doc is None:
            _error(f"no rule {args.rule!r}; `svcconf rules` lists them")
            return EXIT_USAGE
        out = [f"{doc.id} ({doc.severity}, {doc.area})", "", doc.help_text()]
        if doc.upstream:
            out += ["", f"Upstream: {doc.upstream.strip()}"]
        sys.stdout.write("\n".join(out) + "\n")
        return EXIT_OK
    docs = all_rule_docs()
    width = max(len(rule_id) for rule_id in docs)
    for doc in sorted(docs.values(), key=lambda d: (d.area, d.id)):
        sys.stdout.write(f"{doc.id:<{width}}  {doc.severity!s:<7}  {doc.area:<10}  {doc.summary}\n")
    return EXIT_OK


def run_kinds(args) -> int:
    from .registry import format_release, lifecycle, schema_index

    table = lifecycle()
    schemas = schema_index()
    rows = {}
    for key, row in table.rows.items():
        if args.all or row.scope == "config" or key in schemas:
            rows[key] = row
    for key in schemas:
        rows.setdefault(key, None)

    def cell(release) -> str:
        return format_release(release) if release else "-"

    header = ("apiVersion", "kind", "schema", "introduced", "deprecated", "removed", "replacement")
    lines = [header]
    for group, version, kind in sorted(rows, key=lambda k: (k[0], k[2], k[1])):
        row = rows[(group, version, kind)]
        api_version = f"{group}/{version}" if group else version
        lines.append(
            (
                api_version,
                kind,
                "yes" if (group, version, kind) in schemas else "-",
                cell(row.introduced) if row else "-",
                cell(row.deprecated) if row else "-",
                cell(row.removed) if row else "-",
                (row.replacement or "-") if row else "-",
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for line in lines:
        sys.stdout.write("  ".join(value.ljust(widths[i]) for i, value in enumerate(line)).rstrip() + "\n")
    sys.stdout.write(f"\ntarget release by default: {format_release(table.newest)}\n")
    return EXIT_OK
