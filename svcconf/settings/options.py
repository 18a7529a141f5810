"""The settings of a run, built once: flags, environment and configuration file merged into typed options.

`svcconf validate` and `svcconf migrate`, the library API (`svcconf.validate`,
`svcconf.migrate_bytes`) and the tests all take these objects; nothing else reads flags or the
configuration file. They are NamedTuples: a misspelt setting fails (AttributeError, TypeError)
instead of reading as None, and `_replace` gives a variation.

Precedence, highest first: the command line, the environment (`SVCCONF_API_DOMAIN`), the
configuration file, the default.
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, NamedTuple

from ..known.naming import DOMAIN_ENV, UPSTREAM_DOMAIN
from ..load.files import DEFAULT_MAX_FILE_SIZE
from ..model import Release

if TYPE_CHECKING:
    from .config import Config

AUTO_JOBS = 0  # ValidateOptions.jobs: as many processes as the work found pays for, up to the cores (workers.py)
FIELD_VALIDATION = ("Strict", "Warn", "Ignore")


class OptionsError(ValueError):
    """Settings that cannot be used together or at all: a usage error (exit 2)."""


class ValidateOptions(NamedTuple):
    """What `svcconf validate` checks and how (the library's `svcconf.validate` takes the same)."""

    target: Release | None = None  # the release to check against; None: the newest svcconf knows
    api_domain: str = UPSTREAM_DOMAIN
    field_validation: str = "Strict"  # unknown fields are errors, warnings or ignored
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    exclude: tuple[str, ...] = ()  # gitignore patterns relative to the working directory (--exclude)
    config_file: str | None = (
        None  # the configuration file read, named in every report; its exclude and per-file-ignores are relative to its folder
    )
    config_exclude: tuple[str, ...] = ()  # the configuration file's exclude patterns
    respect_gitignore: bool = True  # in a git work tree, folders are walked without what git ignores
    jobs: int = 1  # processes; AUTO_JOBS: as many as the work found pays for (the command line's default)
    select: tuple[str, ...] = ()  # report only these rule ids (empty: all)
    ignore: tuple[str, ...] = ()
    severity: dict | None = None  # rule id -> Severity
    per_file_ignores: dict | None = None  # gitignore pattern (relative to the config file's folder) -> rule ids
    bootstrap: str | None = None  # "init", "join", "upgrade" or "reset": the command a bootstrap file is for (None: inferred)
    service_account_issuers: tuple[str, ...] = ()  # the API server's --service-account-issuer values
    fs_checks: bool = False  # check files named by absolute paths (kubeconfigs, plugin configs): on the node
    fail_on: str = "error"  # the lowest severity that fails the run
    stdin_filename: str | None = None  # the name stdin's text goes by: reports, per-file-ignores, exclude, .json handling
    list_skipped: bool = False  # say why each skipped document was skipped (Report.skipped_documents; -v)
    baseline_format: int = 0  # the baseline format read or written: findings get a Diagnostic.fingerprint (0: none)
    baseline_file: str | None = None  # the baseline read or written: svcconf's own file, never checked as a document

    def resolved_target(self) -> Release:
        from ..known.catalog import lifecycle

        return self.target or lifecycle().newest


class MigrateOptions(NamedTuple):
    """What `svcconf migrate` rewrites (the library's `svcconf.migrate_bytes` takes the same)."""

    target: Release | None = None  # the release after the upgrade; None: the newest svcconf knows
    unsafe: bool = False  # also apply best-effort conversions that need review
    api_domain: str = UPSTREAM_DOMAIN
    from_version: Release | None = None  # the release before the upgrade: results must apply to both (None: unknown)
    deprecated: bool = False  # also rewrite versions the target deprecates (or that have a successor)
    exclude: tuple[str, ...] = ()  # as ValidateOptions' four settings of which files are read
    config_file: str | None = None
    config_exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True

    def resolved_target(self) -> Release:
        from ..known.catalog import lifecycle

        return self.target or lifecycle().newest


# --------------------------------------------------------------------------- flags every command spells alike


def release(text: str) -> Release:
    """An argparse type: `1.31`, `v1.31` or a patch release `1.31.2`, of a release the lifecycle table covers."""
    from ..known.catalog import known_release

    try:
        return known_release(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def add_target_argument(parser: argparse.ArgumentParser, *aliases: str, help: str) -> None:
    parser.add_argument("--target-version", *aliases, dest="target_version", type=release, metavar="1.NN", help=help)


def add_domain_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--api-domain", metavar="DOMAIN", help=f"domain suffix of API groups (default: ${DOMAIN_ENV} or {UPSTREAM_DOMAIN})")


def add_shared_arguments(parser: argparse.ArgumentParser) -> None:
    """--api-domain, --exclude, --respect-gitignore, --config and --no-config, declared once for every command that reads files."""
    add_domain_argument(parser)
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="PATTERN",
        help="skip paths matching PATTERN, a gitignore pattern relative to the working directory (repeatable)",
    )
    parser.add_argument(
        "--respect-gitignore",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="in a git work tree, skip what .gitignore files and .git/info/exclude ignore when walking folders (default: on)",
    )
    parser.add_argument(
        "--force-exclude",
        action="store_true",
        help="a file named on the command line that exclude leaves out is skipped without a warning, as the pre-commit "
        "hooks pass files (ruff's --force-exclude; on whenever pre-commit runs svcconf); still counted as excluded",
    )
    parser.add_argument("--config", metavar="FILE", help="configuration file (default: .svcconf.yaml or pyproject.toml found upward)")
    parser.add_argument("--no-config", action="store_true", help="ignore configuration files")


def _file_name(text: str) -> str:
    if not text or text == "-":
        raise argparse.ArgumentTypeError("must name a file (it need not exist)")
    return text


def add_stdin_filename_argument(parser: argparse.ArgumentParser) -> None:
    """--stdin-filename, for editors that pipe a buffer: stdin is read as if it were this file."""
    parser.add_argument(
        "--stdin-filename",
        type=_file_name,
        metavar="PATH",
        help="read stdin (- or no PATH) as if it were the file PATH, which need not exist: named so in reports, "
        "configured and excluded as that file (the configuration file is found from its folder), .json read as JSON",
    )


def quiet_excludes(args: argparse.Namespace) -> bool:
    """Whether files named on the command line that exclude leaves out are skipped without a warning.

    pre-commit names every staged file and sets PRE_COMMIT=1 for its hooks (pre-commit's
    commands/run.py); a file the configuration excludes is then expected, not a mistake to warn
    about, as ruff's hooks pass --force-exclude for the same reason.
    """
    return bool(getattr(args, "force_exclude", False)) or os.environ.get("PRE_COMMIT") == "1"


STDIN_FILENAME_WITHOUT_STDIN = "--stdin-filename names what is read from stdin: give - or no PATH"


def paths_to_read(args: argparse.Namespace) -> list[str] | None:
    """The paths a command reads: as given, else `.`, or stdin (`-`) when --stdin-filename names it; None when it would not be read."""
    if args.stdin_filename is None:
        return args.paths or ["."]
    if not args.paths:
        return ["-"]
    return args.paths if "-" in args.paths else None


# --------------------------------------------------------------------------- merging


def api_domain(args: argparse.Namespace, config: dict | None = None) -> str:
    """The API domain: --api-domain, else $SVCCONF_API_DOMAIN, else the configuration file's, else k8s.io."""
    from ..known.naming import valid_domain

    domain = args.api_domain or os.environ.get(DOMAIN_ENV) or (config or {}).get("api-domain") or UPSTREAM_DOMAIN
    if not valid_domain(domain):
        raise OptionsError(f"--api-domain {domain!r} is not a DNS domain such as {UPSTREAM_DOMAIN}")
    return domain


def _config_release(config: dict, key: str) -> Release | None:
    from ..known.catalog import parse_release

    return parse_release(config[key]) if key in config else None


def _paths(args: argparse.Namespace, config: Config) -> dict:
    """The settings of which files are read: --exclude from the working directory, the config file's from its folder."""
    from ..load.globs import unreadable

    given = [("--exclude", p) for p in args.exclude] + [(f"exclude in {config.path}", p) for p in config.values.get("exclude", [])]
    given += [(f"per-file-ignores in {config.path}", p) for p in config.values.get("per-file-ignores", {})]
    for where, pattern in given:
        if why := unreadable(pattern):
            raise OptionsError(f"{where}: {pattern!r} {why}")
    respect = args.respect_gitignore if args.respect_gitignore is not None else config.values.get("respect-gitignore", True)
    return {
        "exclude": tuple(args.exclude),
        "config_file": config.path,  # as messages name it; the folder is resolved when matching
        "config_exclude": tuple(config.values.get("exclude", [])),
        "respect_gitignore": respect,
    }


def _rules(flag: str, names, *, wildcard: bool = False) -> tuple[str, ...]:
    """Rule ids for rule ids and area names; a name that is neither is a usage error, never an empty selection."""
    if not names:
        return ()  # the rule docs are read only when a name needs checking
    from ..known.docs import UnknownRule, expand_rules

    try:
        return expand_rules(names, wildcard=wildcard)
    except UnknownRule as err:
        raise OptionsError(f"{flag}: {err}") from None


def _is_rule_id(name: str) -> bool:
    from ..known.docs import rule_areas

    return name in rule_areas()


def validate_options(args: argparse.Namespace, config_file: Config) -> ValidateOptions:
    """`svcconf validate`'s options from its flags and the configuration file."""
    from ..model import Severity

    config = config_file.values

    # The configuration file's rule names were checked with their positions when it was read.
    select = (
        _rules("--select", args.select, wildcard=True)
        if args.select is not None
        else _rules("select", config.get("select", []), wildcard=True)
    )
    ignore = (*_rules("ignore", config.get("ignore", []), wildcard=True), *_rules("--ignore", args.ignore or [], wildcard=True))
    severity = {}
    # Areas first, so that a rule's own entry wins over its area's whatever their order in the file.
    for name, level in sorted(config.get("severity", {}).items(), key=lambda item: _is_rule_id(item[0])):
        severity.update(dict.fromkeys(_rules("severity", [name]), Severity.parse(level)))
    per_file_ignores = {
        glob: _rules("per-file-ignores", names, wildcard=True) for glob, names in config.get("per-file-ignores", {}).items()
    }
    return ValidateOptions(
        target=args.target_version or _config_release(config, "target-version"),
        api_domain=api_domain(args, config),
        field_validation=args.field_validation or config.get("field-validation", "Strict"),
        max_file_size=args.max_file_size or DEFAULT_MAX_FILE_SIZE,
        **_paths(args, config_file),
        jobs=args.jobs if args.jobs and args.jobs > 0 else AUTO_JOBS,
        select=() if "*" in select else select,  # every rule, as no selection
        ignore=ignore,
        severity=severity,
        per_file_ignores=per_file_ignores,
        bootstrap=args.bootstrap,
        service_account_issuers=(*config.get("service-account-issuers", []), *args.service_account_issuer),
        fs_checks=args.fs_checks,
        fail_on=args.fail_on or config.get("fail-on", "error"),
        stdin_filename=args.stdin_filename,
        list_skipped=getattr(args, "verbose", False),  # validate -v; `svcconf config` has no such flag
    )


def migrate_options(args: argparse.Namespace, config_file: Config) -> MigrateOptions:
    """`svcconf migrate`'s options from its flags and the configuration file."""
    from ..known.catalog import format_release

    config = config_file.values
    options = MigrateOptions(
        target=args.target_version or _config_release(config, "target-version"),
        unsafe=args.unsafe,
        api_domain=api_domain(args, config),
        from_version=args.from_version or _config_release(config, "from-version"),
        deprecated=args.deprecated,
        **_paths(args, config_file),
    )
    if options.from_version is not None and options.from_version > options.resolved_target():
        raise OptionsError(
            f"--from-version {format_release(options.from_version)} is after the target release {format_release(options.resolved_target())}"
        )
    return options


def checking_options(migrate: MigrateOptions, config_file: Config) -> ValidateOptions:
    """What migrate checks its converted documents with: validate's settings from the configuration file, at the --to release."""
    flags = argparse.Namespace(
        select=None,
        ignore=None,
        target_version=migrate.resolved_target(),
        api_domain=migrate.api_domain,
        field_validation=None,
        max_file_size=None,
        exclude=[],
        respect_gitignore=None,
        jobs=1,
        bootstrap=None,
        service_account_issuer=[],
        fs_checks=False,
        fail_on=None,
        stdin_filename=None,
    )
    return validate_options(flags, config_file)
