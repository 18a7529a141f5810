"""The validate pipeline: paths -> documents -> lifecycle, schema and rule findings -> diagnostics.

Named pipeline, not validate, so that `svcconf.validate` can be the library function.
"""

from __future__ import annotations

import fnmatch
import os
import sys
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from . import registry, suppression
from .model import Anchor, Diagnostic, Finding, Path, Severity
from .naming import UPSTREAM_DOMAIN, GroupVersion, Naming
from .source import DEFAULT_MAX_FILE_SIZE, Document, SourceFile, load_bytes, position

YAML_SUFFIXES = (".yaml", ".yml", ".json")
STDIN = "-"
STDIN_NAME = "<stdin>"


class Options:
    """What to check and how: the library's equivalent of validate's flags and config file."""

    def __init__(
        self,
        target: tuple | None = None,  # default: the newest release the lifecycle table knows
        api_domain: str = UPSTREAM_DOMAIN,
        field_validation: str = "Strict",
        max_file_size: int = DEFAULT_MAX_FILE_SIZE,
        exclude: list[str] | None = None,
        jobs: int = 1,
        select: list[str] | None = None,
        ignore: list[str] | None = None,
        severity: dict[str, Severity] | None = None,
        per_file_ignores: dict[str, list[str]] | None = None,
    ) -> None:
        self.target = target
        self.api_domain = api_domain
        self.field_validation = field_validation
        self.max_file_size = max_file_size
        self.exclude = exclude or []
        self.jobs = jobs
        self.select = select or []
        self.ignore = ignore or []
        self.severity = severity or {}
        self.per_file_ignores = per_file_ignores or {}

    def resolved_target(self) -> tuple:
        return self.target or registry.lifecycle().newest


class FileResult:
    __slots__ = ("diagnostics", "documents", "skipped")

    def __init__(self, diagnostics: list[Diagnostic] | None = None) -> None:
        self.diagnostics: list[Diagnostic] = diagnostics or []
        self.documents = 0
        self.skipped = 0


class Report:
    """What validate found: diagnostics in file order and the counts of the summary line."""

    def __init__(self, files: int = 0, unreadable: list[str] | None = None) -> None:
        self.diagnostics: list[Diagnostic] = []
        self.files = files
        self.documents = 0
        self.skipped = 0
        self.unreadable: list[str] = unreadable or []  # paths that could not be read at all

    def count(self, severity: Severity) -> int:
        return sum(1 for d in self.diagnostics if d.severity == severity)

    @property
    def errors(self) -> int:
        return self.count(Severity.ERROR)

    @property
    def warnings(self) -> int:
        return self.count(Severity.WARNING)

    @property
    def infos(self) -> int:
        return self.count(Severity.INFO)


# --------------------------------------------------------------------------- finding files


def _excluded(path: str, patterns: list[str]) -> bool:
    posix = path.replace(os.sep, "/")
    posix = posix.removeprefix("./")
    name = posix.rsplit("/", 1)[-1]
    return any(fnmatch.fnmatch(posix, p) or fnmatch.fnmatch(name, p) or fnmatch.fnmatch(posix, p.rstrip("/") + "/*") for p in patterns)


def discover(paths: Iterable[str], exclude: list[str]) -> tuple[list[str], list[str]]:
    """Expand folders into their YAML and JSON files; return (files, unreadable paths)."""
    files: list[str] = []
    unreadable: list[str] = []
    for path in paths:
        if path == STDIN:
            files.append(STDIN)
        elif os.path.isdir(path):
            for folder, dirs, names in os.walk(path):
                dirs[:] = sorted(
                    d for d in dirs if not d.startswith(".") and d != "node_modules" and not _excluded(os.path.join(folder, d), exclude)
                )
                for name in sorted(names):
                    full = os.path.normpath(os.path.join(folder, name))
                    if name.endswith(YAML_SUFFIXES) and not _excluded(full, exclude):
                        files.append(full)
        elif os.path.isfile(path):
            if not _excluded(path, exclude):
                files.append(path)
        else:
            unreadable.append(path)
    return files, unreadable


# --------------------------------------------------------------------------- one document


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


class DocumentChecker:
    """Checks the units of one document against lifecycle, schema and rules."""

    def __init__(self, options: Options, file: str) -> None:
        self.options = options
        self.file = file
        self.naming = Naming(options.api_domain)
        self.target = options.resolved_target()
        self.table = registry.lifecycle()

    def check(self, document: Document, siblings: list[dict]) -> tuple[list[Finding], bool]:
        """Findings for a document (paths from its root) and whether it was of a kind svcconf knows."""
        data = document.data
        if not isinstance(data, dict):
            shape = "a list" if isinstance(data, list) else "a single value"
            return [
                Finding("not-an-object", (), f"document is {shape}, not an object with apiVersion and kind; skipped", Severity.INFO)
            ], False
        findings: list[Finding] = []
        known = False
        for unit in _units(data, self.naming):
            unit_findings, unit_known = self._check_unit(unit, document, siblings)
            known = known or unit_known
            findings.extend(Finding(f.rule, unit.prefix + f.path, f.message, f.severity, f.anchor) for f in unit_findings)
        return findings, known

    def _identify(self, unit: Unit) -> tuple[GroupVersion | None, str | None, list[Finding]]:
        data = unit.data
        written_version = data.get("apiVersion")
        written_kind = data.get("kind")
        gv = self.naming.api_version(written_version) if isinstance(written_version, str) else unit.default_gv
        kind = self.naming.kind(written_kind) if isinstance(written_kind, str) else unit.default_kind
        if gv is not None and kind is not None:
            return gv, kind, []
        if gv is not None and self.table.group_scope.get(gv.group) == "config" and "kind" not in data:
            return (
                None,
                None,
                [Finding("missing-field", ("kind",), f"Object 'Kind' is missing in {gv} document", Severity.ERROR, Anchor.PARENT)],
            )
        if gv is None and kind is not None and "apiVersion" not in data and any(k == kind for (_g, _v, k) in registry.schema_index()):
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

    def _check_unit(self, unit: Unit, document: Document, siblings: list[dict]) -> tuple[list[Finding], bool]:
        gv, kind, findings = self._identify(unit)
        if gv is None or kind is None:
            return findings, bool(findings)
        row = self.table.row(gv.group, gv.version, kind)
        scope = self.table.group_scope.get(gv.group)
        has_schema = (gv.group, gv.version, kind) in registry.schema_index()
        if row is not None and row.scope == "payload" and not has_schema:
            return [], False
        if row is None and not has_schema:
            if scope != "config":
                return [], False
            if gv.version in self.table.group_versions.get(gv.group, ()):
                known_kinds = ", ".join(self.table.kinds_of(gv.group, gv.version))
                return [
                    Finding("unknown-kind", ("kind",), f'no kind "{kind}" is registered for version "{gv}"; known kinds: {known_kinds}')
                ], True
            versions = ", ".join(sorted(self.table.group_versions.get(gv.group, ())))
            return [Finding("unknown-api-version", ("apiVersion",), f"{gv} does not exist; versions of {gv.group}: {versions}")], True
        findings.extend(self._lifecycle(gv, kind, row, scope))
        if has_schema:
            findings.extend(self._schema_and_rules(gv, kind, unit, document, siblings))
        # A current version of an ordinary API group has nothing more to check: it counts as skipped.
        return findings, has_schema or bool(findings) or scope == "config"

    def _lifecycle(self, gv: GroupVersion, kind: str, row: registry.Lifecycle | None, scope: str | None) -> Iterator[Finding]:
        if row is None:
            return
        fmt = registry.format_release
        target = fmt(self.target)
        instead = f"; migrate to {row.replacement}" if row.replacement else "; it has no replacement"
        if row.introduced and self.target < row.introduced:
            yield Finding(
                "unavailable-api-version",
                ("apiVersion",),
                f"{gv} {kind} is first served in {fmt(row.introduced)}; the target release {target} does not know it",
            )
        elif row.removed and self.target >= row.removed:
            yield Finding(
                "removed-api-version",
                ("apiVersion",),
                f"{gv} {kind} is no longer served since {fmt(row.removed)} (target {target}){instead}",
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

    def _alpha_matters(self, row: registry.Lifecycle, scope: str | None) -> bool:
        if scope != "config":
            return True
        # Config groups often publish only an alpha version; warn only when a newer one exists.
        return any(
            other.group_version.level != "alpha" and (other.introduced is None or other.introduced <= self.target)
            for other in self.table.versions_of_kind(row.group, row.kind)
        )

    def _schema_and_rules(self, gv: GroupVersion, kind: str, unit: Unit, document: Document, siblings: list[dict]) -> list[Finding]:
        from .rules import Context
        from .schema import checker_for

        checker = checker_for(gv.group, gv.version, kind)
        ambiguous = {
            path[len(unit.prefix) :]: written
            for (path, written, _v, _l, _c) in document.ambiguous
            if path[: len(unit.prefix)] == unit.prefix
        }
        findings = list(checker.check(unit.data, self.options.field_validation, ambiguous)) if checker else []
        module = checker.schema.get("x-svcconf-rules") if checker else None
        if module:
            context = Context(
                self.target, self.file, siblings, {"field_validation": self.options.field_validation, "kind": kind, "group_version": gv}
            )
            for function in registry.rules_for(module, kind):
                findings.extend(function(unit.data, context))
        # The schema and a rule may both see an empty required value; say it once.
        unique: dict[tuple, Finding] = {}
        for finding in findings:
            unique.setdefault((finding.rule, finding.path, finding.message), finding)
        findings = list(unique.values())
        typed = {f.path for f in findings if f.rule == "wrong-type"}
        for path, written, value, _line, _col in document.ambiguous:
            relative = path[len(unit.prefix) :]
            if (
                path[: len(unit.prefix)] != unit.prefix
                or relative in typed
                or (unit.prefix == () and relative[:1] == ("items",) and kind.endswith("List"))
            ):
                continue
            from .schema import is_secret

            shown = "this value" if is_secret(relative) else f"unquoted {written}"
            findings.append(
                Finding(
                    "ambiguous-scalar",
                    relative,
                    f"{shown} is read by the server (YAML 1.1) as {_canonical(value)} but by YAML 1.2 tools as {_yaml12(written)}; write {_canonical(value)} or quote it",
                    Severity.WARNING,
                )
            )
        return findings


def _canonical(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _yaml12(written: str) -> str:
    if written.lstrip("+-").isdigit():
        return f"the decimal {int(written)}"
    return f'the string "{written}"'


# --------------------------------------------------------------------------- one file


def _read(path: str) -> bytes:
    if path == STDIN:
        return sys.stdin.buffer.read()
    with open(path, "rb") as handle:
        return handle.read()


def check_source(source: SourceFile, options: Options) -> FileResult:
    result = FileResult()
    name = source.name
    for problem in source.problems:
        result.diagnostics.append(Diagnostic(name, problem.line, problem.column, problem.rule, problem.severity, problem.message))
    if not source.documents and not source.problems:
        result.diagnostics.append(Diagnostic(name, 1, 1, "empty-file", Severity.INFO, "file holds no YAML document; skipped"))
    checker = DocumentChecker(options, name)
    siblings = [doc.data for doc in source.documents]
    for document in source.documents:
        for problem in document.problems:
            result.diagnostics.append(
                Diagnostic(
                    name, problem.line, problem.column, problem.rule, problem.severity, problem.message, problem.path, document.index + 1
                )
            )
        findings, known = checker.check(document, siblings)
        result.documents += 1
        if not known:
            result.skipped += 1
        data = document.data if isinstance(document.data, dict) else {}
        api_version = data.get("apiVersion") if isinstance(data.get("apiVersion"), str) else None
        kind = data.get("kind") if isinstance(data.get("kind"), str) else None
        for finding in findings:
            line, column = position(document.root, finding.path, finding.anchor)
            result.diagnostics.append(
                Diagnostic(
                    name, line, column, finding.rule, finding.severity, finding.message, finding.path, document.index + 1, api_version, kind
                )
            )
    result.diagnostics = _configure(result.diagnostics, name, options)
    result.diagnostics = suppression.apply(name, source.text, result.diagnostics)
    return result


def _configure(diagnostics: list[Diagnostic], name: str, options: Options) -> list[Diagnostic]:
    """Apply select, ignore, per-file ignores and severity overrides from the configuration."""
    if not (options.select or options.ignore or options.severity or options.per_file_ignores):
        return diagnostics
    ignored = set(options.ignore)
    for pattern, rules in options.per_file_ignores.items():
        if _excluded(name, [pattern]):
            ignored.update(rules)
    kept = []
    for diagnostic in diagnostics:
        if diagnostic.rule in ignored or "*" in ignored:
            continue
        if options.select and diagnostic.rule not in options.select:
            continue
        override = options.severity.get(diagnostic.rule)
        kept.append(diagnostic.with_severity(override) if override else diagnostic)
    return kept


def check_file(path: str, options: Options) -> FileResult:
    name = STDIN_NAME if path == STDIN else path
    try:
        data = _read(path)
    except OSError as err:
        return FileResult([Diagnostic(name, 1, 1, "unreadable-file", Severity.ERROR, f"cannot read file: {err.strerror or err}")])
    return check_source(load_bytes(name, data, max_size=options.max_file_size), options)


def check_text(text: str, options: Options | None = None, name: str = "<text>") -> FileResult:
    """Validate YAML text held in memory (for library users and tests)."""
    return check_source(load_bytes(name, text.encode("utf-8")), options or Options())


def _check_many(paths: list[str], options: Options) -> list[FileResult]:
    return [check_file(path, options) for path in paths]


def _parallel(files: list[str], options: Options) -> list[FileResult]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    jobs = min(options.jobs, len(files))
    # Chunks of equal total size (largest files first) keep every worker busy to the end;
    # the order of results is restored afterwards.
    chunks: list[list[int]] = [[] for _ in range(jobs * 4)]
    loads = [0] * len(chunks)
    sizes = []
    for index, path in enumerate(files):
        try:
            sizes.append((os.path.getsize(path), index))
        except OSError:
            sizes.append((0, index))
    for size, index in sorted(sizes, reverse=True):
        lightest = loads.index(min(loads))
        chunks[lightest].append(index)
        loads[lightest] += size + 1
    chunks = [c for c in chunks if c]
    context = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
    results: list[FileResult | None] = [None] * len(files)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        for chunk, chunk_results in zip(chunks, pool.map(_check_many, [[files[i] for i in c] for c in chunks], [options] * len(chunks))):
            for index, result in zip(chunk, chunk_results):
                results[index] = result
    return [r for r in results if r is not None]


PARALLEL_MIN_FILES = 8


def validate(paths: Iterable[str], options: Options | None = None) -> Report:
    """Validate files, folders and `-` (stdin); the library entry point behind `svcconf validate`."""
    options = options or Options()
    files, unreadable = discover(paths, options.exclude)
    report = Report(files=len(files), unreadable=unreadable)
    use_pool = options.jobs > 1 and len([f for f in files if f != STDIN]) >= PARALLEL_MIN_FILES and STDIN not in files
    results = _parallel(files, options) if use_pool else [check_file(path, options) for path in files]
    for result in results:
        report.diagnostics.extend(result.diagnostics)
        report.documents += result.documents
        report.skipped += result.skipped
    report.diagnostics.sort(key=Diagnostic.sort_key)
    return report
