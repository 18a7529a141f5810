"""`svcconf config`: the configuration file in use and the settings validate would apply, flags included.

The settings come from the same `read_config` and `validate_options` as validate's, so what this
command shows is what a validate run with the same flags, in the same folder, applies.
"""

from __future__ import annotations

import re
import sys

from . import EXIT_OK, EXIT_USAGE, config_error, error
from .validate import add_settings_arguments

HELP = "show the configuration file in use and the settings validate would apply"
# A string YAML reads as itself when written bare (never a number: 1.31 would be the float 1.31); any
# other is written as a JSON string, which YAML reads too.
_PLAIN = re.compile(r"(?:[A-Za-z_]|\.(?![0-9]))[A-Za-z0-9._/-]*")
_RESERVED = frozenset({"true", "false", "yes", "no", "on", "off", "null", "y", "n", ".inf", ".nan"})


def add_parser(commands) -> None:
    parser = commands.add_parser(
        "config",
        help=HELP,
        description="Show the configuration file in use and the settings `svcconf validate` would apply with the same flags.",
    )
    parser.add_argument("-f", "--format", choices=("text", "json"), default="text", help="output format (default: text)")
    add_settings_arguments(parser)
    # The configuration file is found from the working directory: no stdin buffer stands for another file here.
    parser.set_defaults(run=run, stdin_filename=None)


def run(args) -> int:
    from ..settings.config import ConfigError, read_config
    from ..settings.options import OptionsError, validate_options

    try:
        config = read_config(args)
        options = validate_options(args, config)
    except ConfigError as err:
        return config_error(err)
    except OptionsError as err:
        error(str(err))
        return EXIT_USAGE
    from .validate import baseline_name

    settings = effective_settings(options, baseline_name(args, config))
    if args.format == "json":
        from ..escape import json_text

        sys.stdout.write(json_text(settings) + "\n")
    else:
        sys.stdout.writelines(f"{line}\n" for line in _text(settings, _notes(options, args.no_config, settings["baseline"])))
    return EXIT_OK


def effective_settings(options, baseline: str | None = None) -> dict:
    """The settings of a validate run, keyed as the configuration file spells them (as the flag where it has no key)."""
    from ..known.catalog import format_release

    config_file = options.config_file
    return {
        "config": config_file,
        "target-version": format_release(options.resolved_target()),
        "target-version-is-default": options.target is None,
        "api-domain": options.api_domain,
        "field-validation": options.field_validation,
        "fail-on": options.fail_on,
        "select": list(options.select),
        "ignore": list(options.ignore),
        "severity": {rule: str(level) for rule, level in sorted((options.severity or {}).items())},
        "per-file-ignores": {pattern: list(rules) for pattern, rules in (options.per_file_ignores or {}).items()},
        "exclude": [{"pattern": pattern, "from": "--exclude"} for pattern in options.exclude]
        + [{"pattern": pattern, "from": config_file} for pattern in options.config_exclude],
        "respect-gitignore": options.respect_gitignore,
        "service-account-issuers": list(options.service_account_issuers),
        "max-file-size": options.max_file_size,
        "bootstrap": options.bootstrap,
        "fs-checks": options.fs_checks,
        "jobs": options.jobs or "auto",
        "baseline": baseline,  # findings recorded there do not count
    }


def _notes(options, no_config: bool, baseline: str | None) -> dict[str, str]:
    """What a reader of the text output needs beside a value: where it came from, what an empty one means."""
    notes = {}
    if options.config_file is None:
        notes["config"] = "--no-config" if no_config else "none found upward from the working directory"
    if options.target is None:
        notes["target-version"] = "default: the newest release svcconf knows"
    if not options.select:
        notes["select"] = "every rule"
    if options.per_file_ignores:
        notes["per-file-ignores"] = f"patterns relative to the folder of {options.config_file}"
    if options.bootstrap is None:
        notes["bootstrap"] = "inferred from the kinds each file holds"
    if not options.jobs:
        notes["jobs"] = "worker processes only where the files found pay for them (--jobs N forces N)"
    notes["baseline"] = "findings recorded there do not count" if baseline else "none: every finding counts"
    return notes


def _text(settings: dict, notes: dict[str, str]) -> list[str]:
    """One setting per line as YAML (lists and mappings in block style, one entry a line); notes are comments."""
    from ..escape import printable

    lines = []
    for key, value in settings.items():
        if key == "target-version-is-default":
            continue  # a note says it
        note = f"  # {printable(notes[key])}" if key in notes else ""
        if isinstance(value, (list, dict)) and value:
            lines.append(f"{key}:{note}")
            if key == "exclude":
                lines += [f"  - {_scalar(entry['pattern'])}  # {_origin(entry['from'])}" for entry in value]
            elif isinstance(value, dict):
                lines += [f"  {_scalar(name)}: {_inline(item)}" for name, item in value.items()]
            else:
                lines += [f"  - {_scalar(item)}" for item in value]
        else:
            lines.append(f"{key}: {_inline(value)}{note}")
    return lines


def _origin(where: str) -> str:
    from ..escape import printable

    if where == "--exclude":
        return "--exclude, relative to the working directory"
    return f"{printable(where)}, relative to its folder"


def _inline(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_scalar(item) for item in value) + "]"
    return "{}" if isinstance(value, dict) else _scalar(value)


def _scalar(value) -> str:
    """A value as YAML reads it back: true/false/null, a number, a bare word, or an escaped JSON string."""
    from ..escape import json_text

    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    return text if _PLAIN.fullmatch(text) and text.lower() not in _RESERVED else json_text(text)
