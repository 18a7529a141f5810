"""Rule documentation: what each rule checks, why, a failing example, the fix and where upstream says so.

Each rules area keeps its docs beside its code (`rules/<component>/<area>.toml`, and migrate's in
`migrate/migrate.toml`); this module reads them on demand (`svcconf rules`, SARIF metadata,
configuration ids), never on the validate hot path.

A TOML file holds one table per rule id. Top-level keys other than tables are defaults for its
rules: `header` (the apiVersion and kind lines the examples continue) and `command` (`validate`
or `migrate`, the command that reports its rules). A rule table may override `header` and add
`args` (flags the example needs, e.g. a target release). An example that starts with
`apiVersion:` is a whole file and takes no header; one that YAML reads as a plain sentence is
words, shown as they are (a situation no file can show, or a fix outside the file).

`upstream` lists where the behaviour comes from, each entry either a path in kubernetes/kubernetes
at UPSTREAM_RELEASE (`path@vX.Y.Z` where an older release behaved differently) or an https URL (a
page, or a file of another repository), optionally followed by `: ` and the functions concerned.
`own = true` marks svcconf's own checks, beyond what the component itself reports; their
`upstream` names the behaviour that motivates them.
"""

from __future__ import annotations

import functools
import re
import tomllib
from pathlib import Path
from typing import NamedTuple

from ..model import Severity

DOC_FOLDERS = ("rules", "migrate")
PACKAGE_DIR = Path(__file__).parent.parent  # svcconf/
# The release every source reference was checked against; paths and functions move between releases.
UPSTREAM_RELEASE = "v1.36.0"
UPSTREAM_REPO = "kubernetes/kubernetes"
COMMANDS = ("validate", "migrate")


class Reference(NamedTuple):
    """One upstream place: a file of kubernetes/kubernetes (and where in it), or a page."""

    url: str
    where: str = ""  # the functions or section that matter, for a source file

    @classmethod
    def parse(cls, text: str) -> Reference:
        place, _, where = text.strip().partition(": ")
        if place.startswith("https://"):
            return cls(place, where.strip())
        path, _, release = place.partition("@")
        return cls(f"https://github.com/{UPSTREAM_REPO}/blob/{release or UPSTREAM_RELEASE}/{path}", where.strip())

    def __str__(self) -> str:
        return f"{self.url} ({self.where})" if self.where else self.url


class RuleDoc(NamedTuple):
    id: str
    area: str
    severity: Severity
    summary: str
    why: str
    example: str
    fix: str
    upstream: tuple[str, ...] = ()  # as written: kubernetes/kubernetes paths or https URLs
    own: bool = False  # svcconf's own check: the component itself accepts the value silently
    header: str = ""  # apiVersion and kind that the example and fix continue
    args: tuple[str, ...] = ()  # flags the example needs
    command: str = "validate"

    @property
    def references(self) -> list[Reference]:
        return [Reference.parse(text) for text in self.upstream]

    @property
    def help_uri(self) -> str | None:
        return self.references[0].url if self.upstream else None

    def document(self, fragment: str) -> str:
        """The whole file an example or fix stands for: the header, unless it names its own apiVersion or is words."""
        body = fragment.strip("\n") + "\n"
        if body.startswith("apiVersion:") or not self.header or in_words(body):
            return body
        return self.header + body

    def _labels(self) -> tuple[str, str]:
        if not self.args and self.command == "validate":
            return "Fails:", "Write instead:"
        return f"Fails (`{' '.join(('svcconf', self.command, *self.args))}`):", "Write instead:"

    def help_text(self) -> str:
        fails, instead = self._labels()
        parts = [self.summary, "", self.why]
        if self.example:
            parts += ["", fails, self.document(self.example).rstrip()]
        if self.fix:
            parts += ["", instead, self.document(self.fix).rstrip()]
        return "\n".join(parts).strip()

    def help_markdown(self) -> str:
        fails, instead = self._labels()
        parts = [f"**{self.summary}**", "", self.why]
        if self.example:
            parts += ["", fails, "```yaml", self.document(self.example).rstrip(), "```"]
        if self.fix:
            parts += ["", instead, "```yaml", self.document(self.fix).rstrip(), "```"]
        if self.upstream:
            label = "svcconf's own check, motivated by" if self.own else "Upstream"
            parts += ["", f"{label}: " + ", ".join(_markdown_link(r) for r in self.references)]
        return "\n".join(parts).strip()


def in_words(fragment: str) -> bool:
    """Whether an example or fix is a sentence rather than YAML: YAML reads it as one plain string."""
    import yaml

    try:
        return isinstance(yaml.safe_load(fragment), str)
    except yaml.YAMLError:
        return False  # a deliberately broken file (yaml-syntax) is still a file


def _markdown_link(reference: Reference) -> str:
    label = reference.url.removeprefix(f"https://github.com/{UPSTREAM_REPO}/blob/")
    link = f"[{label}]({reference.url})"
    return f"{link} ({reference.where})" if reference.where else link


def _strings(value, what: str) -> tuple[str, ...]:
    values = (value,) if isinstance(value, str) else tuple(value)
    if not all(isinstance(v, str) for v in values):
        raise ValueError(f"{what} must be a string or a list of strings")
    return values


@functools.lru_cache(maxsize=1)
def all_rule_docs() -> dict[str, RuleDoc]:
    docs: dict[str, RuleDoc] = {}
    for path in sorted(p for folder in DOC_FOLDERS for p in (PACKAGE_DIR / folder).rglob("*.toml")):
        with open(path, "rb") as handle:
            table = tomllib.load(handle)
        defaults = {key: value for key, value in table.items() if not isinstance(value, dict)}
        for rule_id, entry in table.items():
            if not isinstance(entry, dict):
                continue
            if rule_id in docs:
                raise ValueError(f"rule {rule_id} is documented twice ({docs[rule_id].area}, {path.stem})")
            command = entry.get("command", defaults.get("command", "validate"))
            if command not in COMMANDS:
                raise ValueError(f"rule {rule_id}: command must be one of {', '.join(COMMANDS)}")
            docs[rule_id] = RuleDoc(
                id=rule_id,
                area=area_of(path),
                severity=Severity.parse(entry.get("severity", "error")),
                summary=entry["summary"],
                why=entry.get("why", ""),
                example=entry.get("example", ""),
                fix=entry.get("fix", ""),
                upstream=_strings(entry.get("upstream", ()), f"{rule_id}.upstream"),
                own=bool(entry.get("own", False)),
                header=entry.get("header", defaults.get("header", "")),
                args=_strings(entry.get("args", ()), f"{rule_id}.args"),
                command=command,
            )
    return docs


def rule_doc(rule_id: str) -> RuleDoc | None:
    return all_rule_docs().get(rule_id)


# A rule's table header: what `rule_areas` reads instead of parsing every doc (a fifth of the time).
_TABLE_HEADER = re.compile(r"^\[([a-z0-9-]+)\][ \t]*(?:#.*)?$", re.MULTILINE)


def area_of(doc_file: Path) -> str:
    """An area is named like a rule id (kebab-case) whatever its Python-legal file name: controller_manager.toml -> controller-manager."""
    return doc_file.stem.replace("_", "-")


@functools.lru_cache(maxsize=1)
def rule_areas() -> dict[str, str]:
    """Rule id -> area (its TOML file's stem), from the docs' table headers alone: what selectors and suppressions need."""
    areas: dict[str, str] = {}
    for path in sorted(p for folder in DOC_FOLDERS for p in (PACKAGE_DIR / folder).rglob("*.toml")):
        for match in _TABLE_HEADER.finditer(path.read_text(encoding="utf-8")):
            areas[match.group(1)] = area_of(path)
    return areas


@functools.lru_cache(maxsize=1)
def area_rules() -> dict[str, tuple[str, ...]]:
    """Area -> its rule ids: an area name stands for all of them wherever rule ids are written."""
    members: dict[str, list[str]] = {}
    for rule_id, area in rule_areas().items():
        members.setdefault(area, []).append(rule_id)
    return {area: tuple(ids) for area, ids in members.items()}


@functools.lru_cache(maxsize=1)
def _areas_as_written() -> dict[str, tuple[str, ...]]:
    """Area names as a user may write them: kebab-case, and the underscore spelling earlier releases used."""
    return {**{area.replace("-", "_"): ids for area, ids in area_rules().items()}, **area_rules()}


def rules_of_area(name: str) -> tuple[str, ...] | None:
    """The rule ids of the area `name` (`controller-manager`, or as earlier releases spelt it, `controller_manager`)."""
    return _areas_as_written().get(name)


def is_rule_name(name: str) -> bool:
    """Whether `name` is a rule id or an area."""
    return name in rule_areas() or rules_of_area(name) is not None


class UnknownRule(ValueError):
    """A name that is neither a rule id nor an area; the message suggests the closest."""


def unknown_rule_message(name: str) -> str:
    """`unknown rule id 'x'`, with the closest rule id or area when one is near."""
    import difflib

    close = difflib.get_close_matches(name, [*rule_areas(), *area_rules()], n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"unknown rule id {name!r}{hint} (`svcconf rules` lists them)"


def expand_rules(names, *, wildcard: bool = False) -> tuple[str, ...]:
    """Rule ids for `names`, each a rule id or an area (`encryption`: every rule of encryption.toml), in order.

    `*` (every rule) stays as it is where `wildcard` allows it; anything else unknown raises UnknownRule.
    """
    ids: list[str] = []
    for name in names:
        if name in rule_areas() or (wildcard and name == "*"):
            ids.append(name)
        elif (members := rules_of_area(name)) is not None:
            ids.extend(members)
        else:
            raise UnknownRule(unknown_rule_message(name))
    return tuple(dict.fromkeys(ids))


def reporting_modules(rule_id: str) -> list[str]:
    """The svcconf modules that name a rule id as a string literal, i.e. that report it (paths from the package's parent)."""
    import ast

    quoted = (f'"{rule_id}"', f"'{rule_id}'")
    found = []
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if not any(q in source for q in quoted):
            continue
        tree = ast.parse(source, filename=str(path))
        if any(isinstance(node, ast.Constant) and node.value == rule_id for node in ast.walk(tree)):
            found.append(path.relative_to(PACKAGE_DIR.parent).as_posix())
    return found
