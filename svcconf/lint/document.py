"""One document against what svcconf knows: lifecycle of its apiVersion, its schema, its rules.

Paths in findings start at the document root; List items are checked as their own units with
paths under `items[i]`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from .. import rules
from ..known import catalog
from ..known.naming import GroupVersion, Naming
from ..known.schema import checker_for
from ..load.source import Document
from ..model import Anchor, Finding, Path, Severity
from ..settings.options import ValidateOptions


class Unit(NamedTuple):
    """An object to check: a whole document, or one item of a List."""

    prefix: Path
    data: dict
    default_gv: GroupVersion | None = None
    default_kind: str | None = None


def _units(data: dict, naming: Naming) -> Iterator[Unit]:
    kind = data.get("kind")
    if isinstance(kind, str) and kind.endswith("List") and isinstance(data.get("items"), list):
        gv = naming.api_version(data.get("apiVersion", ""))
        envelope = {k: v for k, v in data.items() if k != "items"}
        yield Unit((), envelope)
        item_kind = naming.kind(kind[:-4]) if kind != "List" else None
        for index, item in enumerate(data["items"]):
            if isinstance(item, dict):
                yield Unit(("items", index), item, gv if item_kind else None, item_kind)
        return
    yield Unit((), data)


LEGACY_ADMISSION_KEYS = frozenset({"imagePolicy", "podNodeSelectorPluginConfig"})
WRONG_TYPE = "wrong-type"  # the schema's decode error (`cannot unmarshal ...`)
# The pseudo-kind of such an unversioned admission plugin file (the rules registry knows its module).
LEGACY_ADMISSION = "LegacyAdmissionPluginConfig"
# Config groups whose tool refuses an old version with its own message before decoding (kubeadm's
# "your configuration file uses an old API spec"), not with the scheme's "no kind ... is registered".
OWN_VERSION_CHECK = frozenset({"kubeadm.k8s.io"})

# Why a document is skipped (said with -v); constants, so that knowing it costs a skipped document nothing.
NOT_A_KIND = "not a kind svcconf checks"
SERVED_API_KIND = "an ordinary API kind at a served version (svcconf checks only the apiVersion of such kinds)"
PAYLOAD = "a webhook or subresource payload, not a stored object or a configuration file"
NO_ITEM = "no item of the list is of a kind svcconf checks"


class DocumentChecker:
    """Checks the units of one document against lifecycle, schema and rules."""

    def __init__(self, options: ValidateOptions, file: str) -> None:
        self.options = options
        self.target = options.resolved_target()
        self.target_text = catalog.format_release(self.target)
        self.field_validation = options.field_validation
        self.file = file
        self.naming = Naming(options.api_domain)
        self.table = catalog.lifecycle()

    def check(self, document: Document, siblings: list[dict]) -> tuple[list[Finding], str | None]:
        """Findings for a document (paths from its root), and why it was skipped (None: it was of a kind svcconf checks)."""
        data = document.data
        if data is None:  # `---` with nothing after it (or null): skipped quietly, as the API server's readers drop it
            return [], "empty document"
        if not isinstance(data, dict):
            shape = "a list" if isinstance(data, list) else "a single value"
            return [
                Finding("not-an-object", (), f"document is {shape}, not an object with apiVersion and kind; skipped", Severity.INFO)
            ], f"{shape}, not an object with apiVersion and kind"
        findings: list[Finding] = []
        skipped: list[str | None] = []
        self._schema_checked: dict[Path, bool] = {}
        self._ambiguous_by_prefix: dict[int, dict[Path, dict[Path, str]]] = {}
        for unit in _units(data, self.naming):
            unit_findings, unit_skipped = self._check_unit(unit, document, siblings)
            skipped.append(unit_skipped)
            findings.extend(f.under(unit.prefix) for f in unit_findings)
        findings.extend(self._ambiguous(document, findings))
        # The schema and a rule may both see an empty required value; say it once.
        unique: dict[tuple, Finding] = {}
        for finding in findings:
            unique.setdefault((finding.rule, finding.path, finding.message, finding.document), finding)
        why = None if None in skipped else skipped[0] if len(skipped) == 1 else NO_ITEM
        return list(unique.values()), why

    def _ambiguous(self, document: Document, findings: list[Finding]) -> Iterator[Finding]:
        """Warn about scalars YAML 1.2 tools read differently, inside objects whose schema was checked."""
        if not document.ambiguous:
            return
        from ..known.secrets import is_secret

        typed = {f.path for f in findings if f.rule == "wrong-type"}
        # The owner is the longest checked prefix: try each length units have (a List has thousands
        # of units but two lengths), never each unit.
        lengths = sorted({len(prefix) for prefix in self._schema_checked}, reverse=True)
        for path, written, value, _line, _col in document.ambiguous:
            owner = next((path[:n] for n in lengths if n <= len(path) and path[:n] in self._schema_checked), None)
            if owner is None or not self._schema_checked[owner] or path in typed:
                continue
            if is_secret(path):  # say how it is read, never what it is
                message = (
                    f"this value is read by the server (YAML 1.1) as {_kind(value, written)} "
                    f"but by YAML 1.2 tools as {_kind_yaml12(written)}; quote it"
                )
            else:
                message = (
                    f"unquoted {written} is read by the server (YAML 1.1) as {_canonical(value)} "
                    f"but by YAML 1.2 tools as {_yaml12(written)}; write {_canonical(value)} or quote it"
                )
            yield Finding("ambiguous-scalar", path, message, Severity.WARNING)

    def _identify(self, unit: Unit) -> tuple[GroupVersion | None, str | None, list[Finding]]:
        data = unit.data
        written_version = data.get("apiVersion")
        written_kind = data.get("kind")
        gv = self.naming.api_version(written_version) if isinstance(written_version, str) else unit.default_gv
        kind = self.naming.kind(written_kind) if isinstance(written_kind, str) else unit.default_kind
        if gv is not None and kind is not None:
            group, version, kind = catalog.canonical(gv.group, gv.version, kind)
            return GroupVersion(group, version), kind, []
        if gv is not None and self.table.group_scope.get(gv.group) == "config" and "kind" not in data:
            return (
                None,
                None,
                [Finding("missing-field", ("kind",), f"Object 'Kind' is missing in {gv} document", Severity.ERROR, Anchor.PARENT)],
            )
        if gv is None and kind is not None and "apiVersion" not in data and any(k == kind for (_g, _v, k) in catalog.schema_index()):
            return (
                None,
                None,
                [
                    Finding(
                        "missing-field",
                        ("apiVersion",),
                        f"Object 'apiVersion' is missing in {kind} document",
                        Severity.ERROR,
                        Anchor.PARENT,
                    )
                ],
            )
        return None, None, []

    def _check_unit(self, unit: Unit, document: Document, siblings: list[dict]) -> tuple[list[Finding], str | None]:
        """A unit's findings, and why it was skipped (None: it was of a kind svcconf checks)."""
        gv, kind, findings = self._identify(unit)
        if gv is None or kind is None:
            if not findings and LEGACY_ADMISSION_KEYS & unit.data.keys() and not {"apiVersion", "kind"} & unit.data.keys():
                # The API server still reads these unversioned files for two admission plugins
                # (staging/src/k8s.io/apiserver/pkg/admission/config.go: ReadAdmissionConfiguration).
                context = self._context(unit, document, siblings, None, None)
                return [
                    f for function in rules.rules_for_unversioned(LEGACY_ADMISSION) for f in _run_rule(function, unit.data, context)
                ], None
            return findings, None if findings else _unidentified(unit.data)
        row = self.table.row(gv.group, gv.version, kind)
        scope = self.table.group_scope.get(gv.group)
        has_schema = (gv.group, gv.version, kind) in catalog.schema_index()
        if row is not None and row.scope == "payload" and not has_schema:
            return [], PAYLOAD
        if row is None and not has_schema:
            if scope != "config":
                return [], NOT_A_KIND
            if gv.version in self.table.group_versions.get(gv.group, ()):
                known_kinds = ", ".join(self.table.kinds_of(gv.group, gv.version))
                return [
                    Finding("unknown-kind", ("kind",), f'no kind "{kind}" is registered for version "{gv}"; known kinds: {known_kinds}')
                ], None
            versions = ", ".join(sorted(self.table.group_versions.get(gv.group, ())))
            return [Finding("unknown-api-version", ("apiVersion",), f"{gv} does not exist; versions of {gv.group}: {versions}")], None
        findings.extend(self._lifecycle(gv, kind, row, scope))
        # A release that does not know the version cannot judge its content either.
        unavailable = any(f.rule == "unavailable-api-version" for f in findings)
        if has_schema and not unavailable:
            checker = checker_for(gv.group, gv.version, kind)
            if checker is not None and not rules.selected(checker.schema.get("x-svcconf-rules"), kind, unit.data):
                return findings, SERVED_API_KIND  # a kind checked in some documents only (a Pod: a component's static Pod)
            findings.extend(self._schema_and_rules(gv, kind, unit, document, siblings))
        # A current version of an ordinary API group has nothing more to check: it counts as skipped.
        return findings, None if has_schema or findings or scope == "config" else SERVED_API_KIND

    def _lifecycle(self, gv: GroupVersion, kind: str, row: catalog.Lifecycle | None, scope: str | None) -> Iterator[Finding]:
        if row is None:
            return
        fmt = catalog.format_release
        target = self.target_text
        instead = f"; migrate to {row.replacement}" if row.replacement else "; it has no replacement"
        if row.introduced and self.target < row.introduced:
            yield Finding(
                "unavailable-api-version",
                ("apiVersion",),
                f"{gv} {kind} is first served in {fmt(row.introduced)}; the target release {target} does not know it",
            )
        elif row.removed and self.target >= row.removed:
            refusal = ""
            if scope == "config" and gv.group not in OWN_VERSION_CHECK:
                # The component decodes its file with its own scheme, which no longer has the version.
                refusal = f'; the component refuses it: no kind "{kind}" is registered for version "{gv}"'
            yield Finding(
                "removed-api-version",
                ("apiVersion",),
                f"{gv} {kind} is no longer served since {fmt(row.removed)} (target {target}){refusal}{instead}",
            )
            return
        elif row.deprecated and self.target >= row.deprecated:
            until = f" and is removed in {fmt(row.removed)}" if row.removed else ""
            yield Finding(
                "deprecated-api-version",
                ("apiVersion",),
                f"{gv} {kind} is deprecated since {fmt(row.deprecated)}{until}{instead}",
                Severity.WARNING,
            )
        if gv.level == "alpha" and self._alpha_matters(row, scope):
            yield Finding(
                "alpha-api-version",
                ("apiVersion",),
                f"{gv} is an alpha version: disabled by default and may change without notice"
                + (f"; prefer {row.replacement}" if row.replacement else ""),
                Severity.WARNING,
            )

    def _alpha_matters(self, row: catalog.Lifecycle, scope: str | None) -> bool:
        if scope != "config":
            return True
        # Config groups often publish only an alpha version; warn only when a newer one exists.
        return any(
            other.group_version.level != "alpha" and (other.introduced is None or other.introduced <= self.target)
            for other in self.table.versions_of_kind(row.group, row.kind)
        )

    def _context(self, unit: Unit, document: Document, siblings: list[dict], gv: GroupVersion | None, kind: str | None):
        """What the rules of a unit may know, including how to check an object embedded in it."""

        def embedded(path: Path, data: dict, api_version: str | None = None, kind_name: str | None = None) -> list[Finding]:
            inner = Unit(unit.prefix + path, data, self.naming.api_version(api_version) if api_version else None, kind_name)
            inner_findings, _skipped = self._check_unit(inner, document, siblings)
            return [f.under(path) for f in inner_findings]

        return rules.Context(self.target, self.file, siblings, self.options, kind=kind, group_version=gv, embedded=embedded)

    def _schema_and_rules(self, gv: GroupVersion, kind: str, unit: Unit, document: Document, siblings: list[dict]) -> list[Finding]:
        checker = checker_for(gv.group, gv.version, kind)
        self._schema_checked[unit.prefix] = checker is not None
        ambiguous = self._ambiguous_under(unit.prefix, document)
        findings = list(checker.check(unit.data, self.field_validation, ambiguous, self.target)) if checker else []
        module = checker.schema.get("x-svcconf-rules") if checker else None
        if module:
            context = self._context(unit, document, siblings, gv, kind)
            undecodable = _undecodable(findings)
            for function in rules.rules_for(module, kind):
                findings.extend(f for f in _run_rule(function, unit.data, context) if not _within(f.path, undecodable))
        return findings

    def _ambiguous_under(self, prefix: Path, document: Document) -> dict[Path, str]:
        """Ambiguous scalars under a unit, by path from it; grouped once per prefix length, not once per unit."""
        if not document.ambiguous:
            return {}
        n = len(prefix)
        groups = self._ambiguous_by_prefix.get(n)
        if groups is None:
            groups = self._ambiguous_by_prefix[n] = {}
            for path, written, _value, _line, _col in document.ambiguous:
                if len(path) >= n:
                    groups.setdefault(path[:n], {})[path[n:]] = written
        return groups.get(prefix, {})


def _unidentified(data: dict) -> str:
    """Why an object whose apiVersion and kind do not name a kind was skipped."""
    missing = [key for key in ("apiVersion", "kind") if key not in data]
    if missing:
        return f"no {' and no '.join(missing)}"
    if not isinstance(data["kind"], str):
        return "kind is not a string"
    return "apiVersion is not a string of the form group/version"


def _undecodable(findings: list[Finding]) -> frozenset:
    """The entries whose decoding fails: the top-level field, or its list item, holding a wrong type.

    The server's decoder stops at a value of the wrong type and never validates the object, so a
    rule's finding in that entry (computed on a shape the server never accepts) is left out.
    """
    owners = set()
    for finding in findings:
        if finding.rule == WRONG_TYPE and finding.path:
            path = finding.path
            owners.add(path[:2] if len(path) > 1 and isinstance(path[1], int) else path[:1])
    return frozenset(owners)


def _within(path: Path, owners: frozenset) -> bool:
    return any(path[: len(owner)] == owner for owner in owners)


def _run_rule(function, data: dict, context) -> list[Finding]:
    """A rule's findings; a rule that fails says so in one diagnostic instead of ending the run."""
    try:
        return list(function(data, context))
    except Exception as err:  # noqa: BLE001 - any bug in one rule must not hide the others' findings
        where = f"{function.__module__.rsplit('.', 1)[-1]}.{function.__name__}"
        return [Finding("internal-error", (), f"rule {where} failed ({type(err).__name__}); please report it. Other checks ran.")]


def _canonical(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _yaml12(written: str) -> str:
    digits = written[1:] if written[:1] in ("+", "-") else written
    if digits.isascii() and digits.isdigit():  # YAML 1.2 reads 010 as ten
        magnitude = digits.lstrip("0") or "0"
        return f"the decimal {'-' if written[0] == '-' and magnitude != '0' else ''}{magnitude}"
    return f'the string "{written}"'


def _kind(value: Any, written: str) -> str:
    if isinstance(value, bool):
        return "a boolean"
    digits = written.lstrip("+-")
    if digits.startswith(("0b", "0B")):
        return "a binary number"
    return "an octal number" if digits[:1] == "0" and digits[1:2].isdigit() else "a number"


def _kind_yaml12(written: str) -> str:
    return "a decimal number" if written.lstrip("+-").isdigit() else "a string"
