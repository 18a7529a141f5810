"""One file through validate: its documents checked, findings placed at their lines, suppressions and settings applied."""

from __future__ import annotations

import gc
import os

from ..known import catalog
from ..known.naming import Naming
from ..load.discovery import STDIN, per_file_ignored, special
from ..load.files import NotAFile, TooLarge, read_limited
from ..load.source import SourceFile, load_bytes, too_large
from ..model import Diagnostic, Finding, Severity, Subject
from ..rules import Siblings
from ..settings.options import ValidateOptions
from . import suppression
from .document import DocumentChecker
from .result import STDIN_NAME, FileResult

# A document at such a version is checked again as migrate would convert it (after_migration.py).
DUE_FOR_MIGRATION = frozenset({"removed-api-version", "deprecated-api-version"})


def _load(path: str, name: str, options: ValidateOptions) -> SourceFile:
    """A file's documents, never reading more than max_size + 1 bytes (stdin, pipes and devices have no size)."""
    try:
        data = read_limited(path, options.max_file_size)
    except TooLarge as large:
        return SourceFile(name, problems=[too_large(large.limit, large.size, _names_group(large.head, options))])
    return load_bytes(name, data, max_size=options.max_file_size, keep_nodes=False)


def _names_group(head: bytes, options: ValidateOptions) -> str | None:
    """The first apiVersion of a group svcconf checks in a file's first bytes (any encoding read as UTF-8 or UTF-16)."""
    from ..load.mentions import checked_api_version

    naming = Naming(options.api_domain)
    texts = [head.decode("utf-8", errors="replace")]
    if head[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\0" in head[:64]:
        texts += [head.decode(encoding, errors="replace") for encoding in ("utf-16-le", "utf-16-be")]
    return next((found for text in texts if (found := checked_api_version(text, naming))), None)


def _not_for_svcconf(source: SourceFile, options: ValidateOptions) -> FileResult | None:
    """A file that does not parse and names no group svcconf checks (a Helm template, JSON with comments): one skipped document.

    pre-commit passes every YAML and JSON file of a repository; a syntax error in a file that is
    not configuration svcconf checks is not an error, but it is counted and `-v` lists it.
    """
    if not source.problems:
        return None
    from ..load.mentions import skip_reason

    reason = skip_reason(source.problems, source.text, Naming(options.api_domain))
    if reason is None:
        return None
    result = FileResult()
    result.documents = result.skipped = 1
    result.skip_reason = reason
    return result


def check_source(source: SourceFile, options: ValidateOptions, checker: DocumentChecker | None = None) -> FileResult:
    """A loaded file's diagnostics; `checker` checks its documents (the language server's remembers unchanged ones)."""
    result = FileResult()
    name = source.name
    for problem in source.problems:
        result.diagnostics.append(Diagnostic(name, problem.line, problem.column, problem.rule, problem.severity, problem.message))
    fingerprints = _fingerprinter(options)
    if not source.problems and all(document.data is None for document in source.documents):
        content = "only empty documents" if source.documents else "no YAML document"
        result.diagnostics.append(Diagnostic(name, 1, 1, "empty-file", Severity.INFO, f"file holds {content}; skipped"))
    checker = checker or DocumentChecker(options, name)
    siblings = Siblings(doc.data for doc in source.documents)
    unplaced: list[tuple[int, int, Finding]] = []  # (document, index in diagnostics, finding) of findings without a position
    for position, document in enumerate(source.documents):
        for problem in document.problems:  # duplicate keys: the path names the key
            placed = Diagnostic(
                name, problem.line, problem.column, problem.rule, problem.severity, problem.message, problem.path, document.index + 1
            )
            if fingerprints is not None:
                placed = placed._replace(fingerprint=fingerprints(document.data, problem.path, Subject.PATH_ONLY))
            result.diagnostics.append(placed)
        findings, skipped = checker.check(document, siblings)
        result.documents += 1
        if skipped is not None:
            result.skipped += 1
            if options.list_skipped:
                result.skipped_documents.append((name, document.index + 1, *_written_kind(document.data), skipped))
        for finding in findings:
            # A cross-document rule may place its finding in a sibling document.
            where = finding.document if finding.document is not None else position
            unplaced.append((where, len(result.diagnostics), finding))
            result.diagnostics.append(None)  # type: ignore[arg-type] - placed below
    _place(source, unplaced, result.diagnostics, fingerprints)
    due = {d.document for d in result.diagnostics if d.rule in DUE_FOR_MIGRATION and d.document is not None}
    if due:
        from .after_migration import findings_after_migration

        result.diagnostics += findings_after_migration(source, options, due, result.diagnostics)
    result.diagnostics = [_with_fix(d, options) if d.rule == "removed-api-version" else d for d in result.diagnostics]
    # Suppressions first: one for a rule that --select or ignore leaves out is not unused.
    suppressed: list[Diagnostic] = []
    result.diagnostics = suppression.apply(name, source.text, result.diagnostics, _held_by(source), suppressed)
    result.diagnostics = configure(result.diagnostics, name, options)
    result.suppressed = configure(suppressed, name, options)  # only what would have counted
    return result


def _fingerprinter(options: ValidateOptions):
    """What fingerprints a finding for the baseline (None when no baseline is read or written): cheap to skip, paid only then."""
    if not options.baseline_format:
        return None
    from .fingerprint import fingerprint

    naming = Naming(options.api_domain)
    legacy = options.baseline_format == 1
    return lambda data, path, subject: fingerprint(data, path, subject, naming, legacy)


def _written_kind(data) -> tuple[str | None, str | None]:
    """A document's kind and apiVersion as written, where they are strings."""
    if not isinstance(data, dict):
        return None, None
    return tuple(value if isinstance(value, str) else None for value in (data.get("kind"), data.get("apiVersion")))  # type: ignore[return-value]


def _place(source: SourceFile, unplaced: list[tuple[int, int, Finding]], diagnostics: list[Diagnostic], fingerprints=None) -> None:
    """Give findings their positions, document by document: a large file composes each document again
    at most once, and holds the nodes of one document at a time."""
    locator = None
    for where, slot, finding in sorted(unplaced, key=lambda entry: entry[0]):
        target = source.documents[where]
        if locator is None or locator[0] != where:
            locator = (where, source.locator(where))
        data = target.data if isinstance(target.data, dict) else {}
        api_version = data.get("apiVersion") if isinstance(data.get("apiVersion"), str) else None
        kind = data.get("kind") if isinstance(data.get("kind"), str) else None
        line, column = locator[1].position(finding.path, finding.anchor)
        diagnostics[slot] = Diagnostic(
            source.name, line, column, finding.rule, finding.severity, finding.message, finding.path, target.index + 1, api_version, kind
        )
        if fingerprints is not None:
            diagnostics[slot] = diagnostics[slot]._replace(fingerprint=fingerprints(target.data, finding.path, finding.subject))


def _held_by(source: SourceFile):
    """The lines of the keys and list items that hold a diagnostic's value, for suppressions written there."""
    positions = {document.index + 1: position for position, document in enumerate(source.documents)}
    last: list = [None, None]  # (document, its locator): diagnostics come document by document

    def lines(diagnostic: Diagnostic) -> list[int]:
        position = positions.get(diagnostic.document)  # type: ignore[arg-type]
        if position is None:
            return []
        if last[0] != position:
            last[:] = [position, source.locator(position)]
        return last[1].lines_along(diagnostic.path)

    return lines


def _with_fix(diagnostic: Diagnostic, options: ValidateOptions) -> Diagnostic:
    """Offer migrate's conversion as the fix of a removed API version: the same table decides both."""
    from .conversion import provided

    conversions = provided()
    if conversions is None:
        return diagnostic
    gv = Naming(options.api_domain).api_version(diagnostic.api_version or "")
    if gv is None or not diagnostic.kind:
        return diagnostic
    gvk = catalog.canonical(gv.group, gv.version, Naming.kind(diagnostic.kind))
    return diagnostic._replace(fix=conversions.fix_for(gvk, options.resolved_target()))


def configure(diagnostics: list[Diagnostic], name: str, options: ValidateOptions) -> list[Diagnostic]:
    """Apply select, ignore, per-file ignores and severity overrides from the configuration."""
    if not (options.select or options.ignore or options.severity or options.per_file_ignores):
        return diagnostics
    ignored = set(options.ignore)
    selected = set(options.select)
    severity = options.severity or {}
    if options.per_file_ignores:
        ignored.update(per_file_ignored(name, options.per_file_ignores, options.config_file))
    kept = []
    for diagnostic in diagnostics:
        if diagnostic.rule in ignored or "*" in ignored:
            continue
        if selected and diagnostic.rule not in selected:
            continue
        override = severity.get(diagnostic.rule)
        kept.append(diagnostic.with_severity(override) if override else diagnostic)
    return kept


def check_file(path: str, options: ValidateOptions) -> FileResult:
    """Validate one file (`-`: stdin); whatever goes wrong becomes a diagnostic of this file alone."""
    # A file's nodes and values are many small objects that live exactly as long as its check and
    # form no reference cycles. With the cyclic collector running, each of its collections during
    # the check would walk all of them, and for a large file that cost grew faster than the file
    # (a 1,000-document file: 60% of the time). Paused for the file, it finds them freed by
    # reference counting when it runs again.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _check_file(path, options)
    finally:
        if collecting:
            gc.enable()


def _check_file(path: str, options: ValidateOptions) -> FileResult:
    path = os.fsdecode(path)
    name = stdin_name(options) if path == STDIN else path
    try:
        try:
            source = _load(path, name, options)
        except NotAFile:
            return special_file(name, options)
        except OSError as err:
            return FileResult([Diagnostic(name, 1, 1, "unreadable-file", Severity.ERROR, f"cannot read file: {err.strerror or err}")])
        return _not_for_svcconf(source, options) or check_source(source, options)
    except Exception as err:  # noqa: BLE001 - one file must not end the run for the others
        return _failed(name, err)


def _failed(name: str, err: Exception) -> FileResult:
    message = f"svcconf failed on this file ({type(err).__name__}); please report it. Other files were checked."
    return FileResult([Diagnostic(name, 1, 1, "internal-error", Severity.ERROR, message)])


def check_bytes(name: str, data: bytes, options: ValidateOptions) -> FileResult:
    """Validate a file's bytes held in memory (an editor's buffer) as `validate --stdin-filename name` checks them."""
    collecting = gc.isenabled()
    gc.disable()  # as check_file: the nodes of one file form no cycles
    try:
        source = load_bytes(name, data, max_size=options.max_file_size, keep_nodes=False)
        return _not_for_svcconf(source, options) or check_source(source, options)
    except Exception as err:  # noqa: BLE001 - as check_file: a bug becomes one diagnostic
        return _failed(name, err)
    finally:
        if collecting:
            gc.enable()


def special_file(path: str, options: ValidateOptions) -> FileResult:
    """A device or socket (or, met in a folder, a named pipe): reported, never read."""
    message = f"{special(path) or 'a special file'}, not a regular file; skipped without reading it"
    return FileResult(configure([Diagnostic(path, 1, 1, "not-a-regular-file", Severity.WARNING, message)], path, options))


def stdin_name(options: ValidateOptions) -> str:
    """What stdin is called in reports: the file --stdin-filename names, else `<stdin>`."""
    return options.stdin_filename or STDIN_NAME


def check_text(text: str, options: ValidateOptions | None = None, name: str = "<text>") -> FileResult:
    """Validate YAML text held in memory (for library users and tests)."""
    return check_source(load_bytes(name, text.encode("utf-8")), options or ValidateOptions())
