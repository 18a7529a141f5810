"""Read the conformance tables (cases/<area>.yaml) into cases and the input files they describe.

A table holds, per area, the upstream file its cases come from, named base documents and the
cases. A case's input is either literal YAML text (`input`) or a base document with fields set
or removed (`base`, `set`, `unset`), so a reviewer sees only what the upstream case changes.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import NamedTuple

import yaml

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases"
FILES = HERE / "files"

CLEAN = "clean"
STATUSES = ("skip", "deliberate", "disagrees")
CASE_KEYS = {"id", "source", "input", "base", "set", "unset", "expect", "svcconf", "flags", *STATUSES}
FLAG_KEYS = {"target", "service_account_issuers", "bootstrap", "field_validation"}
ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
# One step of a field path: `name`, `[3]` or `[key.with.dots]`.
STEP = re.compile(r"\.?([^.\[\]]+)|\[([^\]]*)\]")


class Expected(NamedTuple):
    """One upstream error: the field path in the document and, where upstream asserts it, its message."""

    path: str
    message: str | None = None


class Case(NamedTuple):
    area: str
    id: str
    source: str  # "repository path: TestFunction / case name"
    text: str | None  # the input file; None for a case skipped because no file can say it
    expect: tuple[Expected, ...]  # empty: upstream accepts the input
    flags: dict
    skip: str | None = None  # why the case cannot be a file
    deliberate: str | None = None  # why svcconf differs from upstream on purpose
    disagrees: str | None = None  # who is right, with the upstream reference
    svcconf: tuple[Expected, ...] | None = None  # what svcconf reports instead, for a deliberate difference

    @property
    def name(self) -> str:
        return f"{self.area}/{self.id}"

    @property
    def file(self) -> Path:
        return FILES / self.area / f"{self.id}.yaml"

    @property
    def status(self) -> str:
        for status in STATUSES:
            if getattr(self, status):
                return status
        return "agrees"


class TableError(ValueError):
    """A table that does not follow the format: named with its area and case."""


def parse_path(text: str) -> list:
    """`jwt[0].issuer.url` -> ['jwt', 0, 'issuer', 'url']; `[a.b]` keeps a key with dots whole."""
    steps: list = []
    position = 0
    while position < len(text):
        match = STEP.match(text, position)
        if not match or match.end() == position:
            raise TableError(f"bad field path {text!r}")
        name, bracket = match.groups()
        if name is not None:
            steps.append(name)
        else:
            steps.append(int(bracket) if bracket.isdigit() else bracket)
        position = match.end()
    return steps


def _walk(document, steps: list, create: bool):
    node = document
    for step, following in itertools.pairwise(steps):
        if isinstance(step, int):
            if step == len(node) and create:
                node.append([] if isinstance(following, int) else {})
            node = node[step]
        else:
            if step not in node and create:
                node[step] = [] if isinstance(following, int) else {}
            node = node[step]
    return node


def apply(documents: list, set_fields: dict, unset: list) -> None:
    """Set and remove fields; `doc[N].` at the start of a path names a later document of the file."""
    for key, value in set_fields.items():
        index, steps = _document_and_steps(key)
        parent = _walk(documents[index], steps, create=True)
        last = steps[-1]
        if isinstance(last, int) and last == len(parent):
            parent.append(value)
        else:
            parent[last] = value
    for key in unset:
        index, steps = _document_and_steps(key)
        parent = _walk(documents[index], steps, create=False)
        del parent[steps[-1]]


def _document_and_steps(key: str) -> tuple[int, list]:
    match = re.match(r"^doc\[(\d+)\]\.", key)
    if match:
        return int(match.group(1)), parse_path(key[match.end() :])
    return 0, parse_path(key)


def render(documents: list) -> str:
    return yaml.safe_dump_all(documents, sort_keys=False, default_flow_style=False, allow_unicode=True, width=1000)


def _expected(value, where: str) -> tuple[Expected, ...]:
    if value == CLEAN:
        return ()
    if not isinstance(value, list) or not value:
        raise TableError(f"{where}: expect must be `clean` or a non-empty list of paths")
    out = []
    for item in value:
        if isinstance(item, str):
            out.append(Expected(item))
        elif isinstance(item, dict) and set(item) <= {"path", "message"} and "path" in item:
            out.append(Expected(str(item["path"]), item.get("message")))
        else:
            raise TableError(f"{where}: an expected error is a path or {{path, message}}, not {item!r}")
    return tuple(out)


def _source(entry: dict, default_path: str, where: str) -> str:
    source = entry.get("source")
    if not isinstance(source, dict) or not {"test", "case"} <= set(source):
        raise TableError(f"{where}: source needs test and case (and path, unless the table names one)")
    return f"{source.get('path', default_path)}: {source['test']} / {source['case']}"


def _input_text(entry: dict, bases: dict, where: str) -> str | None:
    if "input" in entry:
        if "base" in entry or "set" in entry or "unset" in entry:
            raise TableError(f"{where}: give either input or base (+ set/unset), not both")
        return entry["input"]
    if "base" not in entry:
        if entry.get("skip"):
            return None
        raise TableError(f"{where}: a case needs input or base")
    if entry["base"] not in bases:
        raise TableError(f"{where}: unknown base {entry['base']!r}")
    base = bases[entry["base"]]
    if "set" not in entry and "unset" not in entry:
        return base
    documents = list(yaml.safe_load_all(base))
    try:
        apply(documents, entry.get("set") or {}, entry.get("unset") or [])
    except (KeyError, IndexError, TypeError) as err:
        raise TableError(f"{where}: cannot apply set/unset: {err!r}") from None
    return render(documents)


def load_table(path: Path) -> list[Case]:
    area = path.stem
    table = yaml.safe_load(path.read_text(encoding="utf-8"))
    bases = table.get("bases") or {}
    default_path = table.get("upstream", "")
    default_flags = table.get("flags") or {}
    cases = []
    seen = set()
    for entry in table.get("cases") or []:
        where = f"{area}/{entry.get('id', '?')}"
        unknown = set(entry) - CASE_KEYS
        if unknown:
            raise TableError(f"{where}: unknown keys {sorted(unknown)}")
        if not ID.match(str(entry.get("id", ""))) or entry["id"] in seen:
            raise TableError(f"{where}: ids are unique lower-case words joined by hyphens")
        seen.add(entry["id"])
        statuses = [s for s in STATUSES if entry.get(s)]
        if len(statuses) > 1:
            raise TableError(f"{where}: a case is at most one of {', '.join(STATUSES)}")
        flags = {**default_flags, **(entry.get("flags") or {})}
        if set(flags) - FLAG_KEYS:
            raise TableError(f"{where}: unknown flags {sorted(set(flags) - FLAG_KEYS)}")
        if ("svcconf" in entry) != ("deliberate" in entry):
            raise TableError(f"{where}: a deliberate difference says what svcconf reports instead (svcconf:)")
        cases.append(
            Case(
                area=area,
                id=entry["id"],
                source=_source(entry, default_path, where),
                text=_input_text(entry, bases, where),
                expect=_expected(entry.get("expect"), where),
                flags=flags,
                skip=entry.get("skip"),
                deliberate=entry.get("deliberate"),
                disagrees=entry.get("disagrees"),
                svcconf=_expected(entry["svcconf"], where) if "svcconf" in entry else None,
            )
        )
    return cases


def load_all() -> list[Case]:
    cases = []
    for path in sorted(CASES.glob("*.yaml")):
        cases.extend(load_table(path))
    return cases
