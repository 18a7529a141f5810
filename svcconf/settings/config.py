"""The configuration file: found upward from the working directory (or --stdin-filename's folder), validated with positions.

`.svcconf.yaml` (or `.svcconf.yml`) wins over `[tool.svcconf]` in a pyproject.toml of the same
folder; the first folder that has either ends the search.
"""

from __future__ import annotations

import json
import os
import re

from ..load.discovery import CONFIG_NAMES
from ..model import Diagnostic, Severity

MAX_CONFIG_SIZE = 1024 * 1024  # a configuration file is a few hundred bytes; a pull request may hold a huge one
SCHEMA_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "config.schema.json")
_TOOL_TABLE = re.compile(r"^\[tool\.svcconf\]", re.MULTILINE)


class ConfigError(Exception):
    """A configuration file that cannot be used; carries diagnostics with positions."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        diagnostics = sorted(diagnostics, key=lambda d: (d.line, d.column))  # in the order of the file's lines
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


class Config:
    __slots__ = ("path", "values")

    def __init__(self, path: str | None = None, values: dict | None = None) -> None:
        self.path = path
        self.values = values or {}


def find_config(start: str | None = None) -> str | None:
    folder = os.path.realpath(start or os.getcwd())
    while True:
        for name in CONFIG_NAMES:
            if os.path.isfile(os.path.join(folder, name)):
                return os.path.join(folder, name)
        pyproject = os.path.join(folder, "pyproject.toml")
        if os.path.isfile(pyproject):
            try:
                with open(pyproject, encoding="utf-8") as handle:
                    text = handle.read(MAX_CONFIG_SIZE)
            except (OSError, UnicodeDecodeError):
                text = ""
            if _TOOL_TABLE.search(text):
                return pyproject
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def read_config(args) -> Config:
    """The configuration file: --config FILE, else the file found upward, none (no path) with --no-config.

    Raises config.ConfigError (with positions) for a file that cannot be used.
    """
    if args.config:
        return load_config(args.config)
    if args.no_config:
        return Config()
    # Text piped from an editor belongs to the folder of the file it stands for, not to the working directory.
    stdin_name = getattr(args, "stdin_filename", None)
    found = find_config(os.path.dirname(os.path.abspath(stdin_name)) if stdin_name else None)
    return load_config(shown_path(found)) if found is not None else Config()


def shown_path(path: str) -> str:
    """A found configuration file's path as messages and reports name it: relative to the working directory when shorter."""
    relative = os.path.relpath(path)
    return relative if len(relative) < len(path) else path


def load_config(path: str) -> Config:
    name = str(path)
    from ..load.files import TooLarge, read_limited

    try:
        data = read_limited(name, MAX_CONFIG_SIZE)
    except TooLarge:
        message = f"configuration file is over the {MAX_CONFIG_SIZE:,}-byte limit; not read"
        raise ConfigError([Diagnostic(name, 1, 1, "invalid-config", Severity.ERROR, message)]) from None
    except OSError as err:
        raise ConfigError(
            [Diagnostic(name, 1, 1, "invalid-config", Severity.ERROR, f"cannot read configuration: {err.strerror}")]
        ) from None
    if os.path.basename(name) == "pyproject.toml":
        return _load_toml(name, data)
    return _load_yaml(name, data)


def _load_yaml(name: str, data: bytes) -> Config:
    from ..known.schema import SchemaChecker
    from ..load.source import Locator, load_bytes

    source = load_bytes(name, data)
    problems = [Diagnostic(name, p.line, p.column, "invalid-config", Severity.ERROR, p.message) for p in source.problems]
    if problems:
        raise ConfigError(problems)
    if not source.documents:
        return Config(name, {})
    document = source.documents[0]
    values = document.data if document.data is not None else {}
    problems = [Diagnostic(name, p.line, p.column, "invalid-config", Severity.ERROR, p.message, p.path) for p in document.problems]
    if not isinstance(values, dict):
        raise ConfigError([Diagnostic(name, 1, 1, "invalid-config", Severity.ERROR, "configuration must be a mapping of settings")])
    findings = list(SchemaChecker(_schema()).check(values)) + list(_semantic_findings(values, name))
    locator = Locator(document.root)  # one index of the document for every finding: linear in their number
    lines = source.text.splitlines()
    for finding in findings:
        line, column = locator.position(finding.path, finding.anchor)
        written = lines[line - 1][column - 1 :] if 0 < line <= len(lines) else ""
        message = _with_quote_hint(finding, values, written)
        problems.append(Diagnostic(name, line, column, "invalid-config", Severity.ERROR, message, finding.path))
    if problems:
        raise ConfigError(problems)
    return Config(name, values)


def _load_toml(name: str, data: bytes) -> Config:
    from ..known.docs import tomllib
    from ..known.schema import SchemaChecker

    text = data.decode("utf-8", errors="replace")
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(
            [Diagnostic(name, getattr(err, "lineno", 1) or 1, getattr(err, "colno", 1) or 1, "invalid-config", Severity.ERROR, str(err))]
        ) from None
    except RecursionError:  # tomllib reads nested arrays and tables recursively
        raise ConfigError([Diagnostic(name, 1, 1, "invalid-config", Severity.ERROR, "TOML nested too deeply to read")]) from None
    tool = document.get("tool", {})
    values = tool.get("svcconf") if isinstance(tool, dict) else None
    header = _TOOL_TABLE.search(text)
    if values is None and header is not None:  # the line that made it the configuration file is inside a string
        line = text.count("\n", 0, header.start()) + 1
        message = "[tool.svcconf] is written inside a string, not as a table: no settings are read from it"
        raise ConfigError([Diagnostic(name, line, 1, "invalid-config", Severity.ERROR, message)])
    values = {} if values is None else values
    if not isinstance(values, dict):
        line = next((i for i, written in enumerate(text.splitlines(), 1) if _assigns(written, "svcconf")), 1)
        raise ConfigError([Diagnostic(name, line, 1, "invalid-config", Severity.ERROR, "tool.svcconf must be a table of settings")])
    findings = list(SchemaChecker(_schema()).check(values)) + list(_semantic_findings(values, name))
    if findings:
        lines = text.splitlines()
        table_line = next((i for i, line in enumerate(lines, 1) if line.strip() == "[tool.svcconf]"), 1)
        problems = []
        for finding in findings:
            key = finding.path[0] if finding.path else None
            line = table_line
            for number in range(table_line, len(lines) + 1):
                if key and _assigns(lines[number - 1], str(key)):
                    line = number
                    break
            written = lines[line - 1].partition("=")[2] if line <= len(lines) else ""
            message = _with_quote_hint(finding, values, written, " = ")
            problems.append(Diagnostic(name, line, 1, "invalid-config", Severity.ERROR, message, finding.path))
        raise ConfigError(problems)
    return Config(name, values)


RELEASE_KEYS = ("target-version", "from-version")


def _with_quote_hint(finding, values: dict, written: str, assign: str = ": ") -> str:
    """A release written as a number (`target-version: 1.30`, which YAML and TOML read as 1.3) says to quote it.

    `written` is the source from the value on; `assign` how the format sets a key (`: ` or ` = `).
    """
    key = finding.path[0] if len(finding.path) == 1 else None
    value = values.get(key) if key in RELEASE_KEYS else None
    if finding.rule != "wrong-type" or not isinstance(value, (int, float)) or isinstance(value, bool):
        return finding.message
    text = written.lstrip()
    end = next((at for at, char in enumerate(text) if char in " \t#,}]"), len(text))
    number = text[:end] or str(value)
    return f'{finding.message}: unquoted, {number} is the number {value!r}, not a release; quote it: {key}{assign}"{number}"'


def _assigns(line: str, key: str) -> bool:
    """Whether a TOML line sets `key` (bare or quoted): `key = ...`."""
    rest = line.lstrip().removeprefix('"')
    if not rest.startswith(key):
        return False
    return rest[len(key) :].removeprefix('"').lstrip().startswith("=")


def _schema() -> dict:
    with open(SCHEMA_PATH, encoding="utf-8") as handle:
        return json.load(handle)


def _rule_names(values: dict):
    """(path, anchor, name) of every rule id or area name the settings hold."""
    from ..model import Anchor

    for key in ("select", "ignore"):
        for index, name in enumerate(values.get(key) or []):
            yield (key, index), Anchor.VALUE, name
    severity = values.get("severity")
    for name in severity if isinstance(severity, dict) else ():
        yield ("severity", name), Anchor.KEY, name
    ignores = values.get("per-file-ignores")
    for glob, names in ignores.items() if isinstance(ignores, dict) else ():
        for index, name in enumerate(names if isinstance(names, list) else []):
            yield ("per-file-ignores", glob, index), Anchor.VALUE, name


def _semantic_findings(values: dict, config_path: str):
    from ..known.naming import valid_domain
    from ..model import Finding

    yield from _baseline_findings(values.get("baseline"), config_path)
    names = [(path, anchor, name) for path, anchor, name in _rule_names(values) if isinstance(name, str) and name != "*"]
    if names:  # the rule docs are read only for a file that names rules
        from ..known.docs import is_rule_name, unknown_rule_message

        for path, anchor, name in names:
            if not is_rule_name(name):
                yield Finding("invalid-config", path, unknown_rule_message(name), anchor=anchor)
    for key in ("target-version", "from-version"):
        if _release(values.get(key)) and (why := _unknown_release(values[key])):
            yield Finding("invalid-config", (key,), why)
    since, target = _release(values.get("from-version")), _release(values.get("target-version"))
    if since and target and since > target:
        yield Finding(
            "invalid-config", ("from-version",), f"from-version {values['from-version']} is after target-version {values['target-version']}"
        )
    domain = values.get("api-domain")
    if isinstance(domain, str) and not valid_domain(domain):
        yield Finding("invalid-config", ("api-domain",), f"{domain!r} is not a DNS domain such as k8s.io")


def _baseline_findings(name, config_path: str):
    """A configuration file's baseline must be a file in its own folder or below: a repository's settings accept
    findings only with a record the repository holds (a link out of the folder is followed, and refused too)."""
    from ..model import Finding

    if not isinstance(name, str) or not name:
        return  # the schema reports it
    if "\0" in name:
        yield Finding("invalid-config", ("baseline",), "the baseline's name holds a NUL character, which no file name can")
        return
    folder = os.path.realpath(os.path.dirname(os.path.abspath(config_path)))
    target = os.path.realpath(os.path.join(folder, name))
    try:
        inside = os.path.commonpath([folder, target]) == folder
    except ValueError:  # another drive
        inside = False
    if not inside:
        yield Finding(
            "invalid-config",
            ("baseline",),
            f"baseline {name!r} lies outside the folder of this file ({target}); a configuration file may only name a baseline "
            "in its folder or below (--baseline names one anywhere)",
        )


def _release(text) -> tuple | None:
    from ..known.catalog import parse_release

    try:
        return parse_release(text) if isinstance(text, str) else None
    except ValueError:  # the schema reports it
        return None


def _unknown_release(text: str) -> str | None:
    from ..known.catalog import known_release

    try:
        known_release(text)
    except ValueError as err:
        return str(err)
    return None
