"""The validate pipeline: paths -> documents -> lifecycle, schema and rule findings -> diagnostics.

Named pipeline, not validate, so that `svcconf.validate` can be the library function.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterable
from typing import Any

from . import catalog, suppression
from .discovery import STDIN, Selection, discover, per_file_ignored, special
from .document import DocumentChecker
from .files import NotAFile, TooLarge, read_limited
from .model import Diagnostic, Finding, Path, Severity
from .naming import Naming
from .options import ValidateOptions
from .rules import Siblings
from .secrets import holds_secret
from .source import SourceFile, load_bytes, too_large

STDIN_NAME = "<stdin>"


# A skipped document as -v lists it: (file, document number, kind, apiVersion, why); kind and apiVersion as written, or None.
SkippedDocument = tuple[str, int, str | None, str | None, str]


class FileResult:
    __slots__ = ("diagnostics", "documents", "skip_reason", "skipped", "skipped_documents", "value_hashes")

    def __init__(self, diagnostics: list[Diagnostic] | None = None) -> None:
        self.diagnostics: list[Diagnostic] = diagnostics or []
        self.documents = 0
        self.skipped = 0
        self.skip_reason: str | None = None  # why the whole file was skipped (said with -v)
        self.skipped_documents: list[SkippedDocument] = []  # only when options.list_skipped
        self.value_hashes: list[str | None] | None = None  # with options.value_hashes: one per diagnostic


class Report:
    """What validate found: diagnostics in file order, the files checked and the counts of the summary line."""

    def __init__(self, files: int = 0, unreadable: list[str] | None = None, options: ValidateOptions | None = None) -> None:
        self.diagnostics: list[Diagnostic] = []
        self.files = files
        self.documents = 0
        self.skipped = 0
        self.unreadable: list[str] = unreadable or []  # paths that could not be read at all
        self.skipped_paths: list[tuple[str, str]] = []  # (path, why) of each file or folder left out, for -v
        self.skipped_documents: list[SkippedDocument] = []  # each document skipped, for -v (options.list_skipped)
        self.checked: list[str] = []  # the files checked, as diagnostics name them
        self.options = options or ValidateOptions()  # the settings of the run (fail_on, config_file, ...)
        self.failures: list[str] = []  # why the run failed (exit code 2), for the reports to say so
        self.value_hashes: dict[Diagnostic, str | None] = {}  # with options.value_hashes (see value_hash)

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


# --------------------------------------------------------------------------- one file


def _load(path: str, name: str, max_size: int) -> SourceFile:
    """A file's documents, never reading more than max_size + 1 bytes (stdin, pipes and devices have no size)."""
    try:
        data = read_limited(path, max_size)
    except TooLarge as large:
        return SourceFile(name, problems=[too_large(max_size, large.size)])
    return load_bytes(name, data, max_size=max_size, keep_nodes=False)


def _not_for_svcconf(source: SourceFile, options: ValidateOptions) -> FileResult | None:
    """A file that does not parse and names no group svcconf checks (a Helm template, JSON with comments): one skipped document.

    pre-commit passes every YAML and JSON file of a repository; a syntax error in a file that is
    not configuration svcconf checks is not an error, but it is counted and `-v` lists it.
    """
    if not source.problems:
        return None
    from .mentions import skip_reason

    reason = skip_reason(source.problems, source.text, Naming(options.api_domain))
    if reason is None:
        return None
    result = FileResult()
    result.documents = result.skipped = 1
    result.skip_reason = reason
    return result


def check_source(source: SourceFile, options: ValidateOptions) -> FileResult:
    result = FileResult()
    name = source.name
    for problem in source.problems:
        result.diagnostics.append(Diagnostic(name, problem.line, problem.column, problem.rule, problem.severity, problem.message))
    if not source.problems and all(document.data is None for document in source.documents):
        content = "only empty documents" if source.documents else "no YAML document"
        result.diagnostics.append(Diagnostic(name, 1, 1, "empty-file", Severity.INFO, f"file holds {content}; skipped"))
    checker = DocumentChecker(options, name)
    siblings = Siblings(doc.data for doc in source.documents)
    unplaced: list[tuple[int, int, Finding]] = []  # (document, index in diagnostics, finding) of findings without a position
    for position, document in enumerate(source.documents):
        for problem in document.problems:
            result.diagnostics.append(
                Diagnostic(
                    name, problem.line, problem.column, problem.rule, problem.severity, problem.message, problem.path, document.index + 1
                )
            )
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
    _place(source, unplaced, result.diagnostics)
    result.diagnostics = [_with_fix(d, options) if d.rule == "removed-api-version" else d for d in result.diagnostics]
    # Suppressions first: one for a rule that --select or ignore leaves out is not unused.
    result.diagnostics = suppression.apply(name, source.text, result.diagnostics, _held_by(source))
    result.diagnostics = _configure(result.diagnostics, name, options)
    if options.value_hashes:
        result.value_hashes = _value_hashes(source, result.diagnostics)
    return result


def _written_kind(data) -> tuple[str | None, str | None]:
    """A document's kind and apiVersion as written, where they are strings."""
    if not isinstance(data, dict):
        return None, None
    return tuple(value if isinstance(value, str) else None for value in (data.get("kind"), data.get("apiVersion")))  # type: ignore[return-value]


def _value_hashes(source: SourceFile, diagnostics: list[Diagnostic]) -> list[str | None]:
    """The hash of the value each diagnostic's path holds in its document, while the documents' data is at hand."""
    data = {document.index + 1: document.data for document in source.documents}
    return [value_hash(data[d.document], d.path) if d.document in data else None for d in diagnostics]


SECRET_VALUE = "secret"  # in place of the hash of a value that is, or holds, a secret


def value_hash(data: Any, path: Path) -> str | None:
    """A short hash of the value at `path` in a document's data, for a baseline entry: a changed value is a new finding.

    None where there is no value to tell findings apart (the whole document, a missing field);
    SECRET_VALUE for a secret or a value holding one, so that no secret reaches the baseline, not even hashed.
    """
    if not path:
        return None  # the whole document: any edit anywhere would make its findings new
    value = data
    for segment in path:
        listed = isinstance(value, list) and isinstance(segment, int) and 0 <= segment < len(value)
        if not (listed or (isinstance(value, dict) and segment in value)):
            return None  # a missing field
        value = value[segment]
    if holds_secret(path, value):
        return SECRET_VALUE
    import hashlib
    import json

    try:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=repr)
    except (TypeError, ValueError):  # keys of several types cannot be sorted
        text = repr(value)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]


def _place(source: SourceFile, unplaced: list[tuple[int, int, Finding]], diagnostics: list[Diagnostic]) -> None:
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
    from .migrate.steps import fix_for

    gv = Naming(options.api_domain).api_version(diagnostic.api_version or "")
    if gv is None or not diagnostic.kind:
        return diagnostic
    gvk = catalog.canonical(gv.group, gv.version, Naming.kind(diagnostic.kind))
    return diagnostic._replace(fix=fix_for(gvk, options.resolved_target()))


def _configure(diagnostics: list[Diagnostic], name: str, options: ValidateOptions) -> list[Diagnostic]:
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
            source = _load(path, name, options.max_file_size)
        except NotAFile:
            return _not_regular(name, options)
        except OSError as err:
            return FileResult([Diagnostic(name, 1, 1, "unreadable-file", Severity.ERROR, f"cannot read file: {err.strerror or err}")])
        return _not_for_svcconf(source, options) or check_source(source, options)
    except Exception as err:  # noqa: BLE001 - one file must not end the run for the others
        message = f"svcconf failed on this file ({type(err).__name__}); please report it. Other files were checked."
        return FileResult([Diagnostic(name, 1, 1, "internal-error", Severity.ERROR, message)])


def _not_regular(path: str, options: ValidateOptions) -> FileResult:
    """A device or socket (or, met in a folder, a named pipe): reported, never read."""
    message = f"{special(path) or 'a special file'}, not a regular file; skipped without reading it"
    return FileResult(_configure([Diagnostic(path, 1, 1, "not-a-regular-file", Severity.WARNING, message)], path, options))


def stdin_name(options: ValidateOptions) -> str:
    """What stdin is called in reports: the file --stdin-filename names, else `<stdin>`."""
    return options.stdin_filename or STDIN_NAME


def check_text(text: str, options: ValidateOptions | None = None, name: str = "<text>") -> FileResult:
    """Validate YAML text held in memory (for library users and tests)."""
    return check_source(load_bytes(name, text.encode("utf-8")), options or ValidateOptions())


# Each worker process starts, imports and compiles the schemas of its kinds on its own (tens of
# milliseconds): it pays off only for this much input or more, so that is what each one gets.
BYTES_PER_WORKER = 1 << 18


def _workers(files: list[str], jobs: int) -> tuple[int, list[int]]:
    """How many worker processes pay off for these files (below 2: none), and the files' sizes."""
    if jobs < 2 or len(files) < 2 or STDIN in files:
        return 0, []
    sizes = []
    for path in files:
        try:
            sizes.append(os.path.getsize(path))
        except OSError:
            sizes.append(0)
    return min(jobs, len(files), sum(sizes) // BYTES_PER_WORKER), sizes


def _check_many(paths: list[str], options: ValidateOptions) -> list[tuple[int, int, list[tuple], list[SkippedDocument], list | None]]:
    """A worker's files, sent back as plain tuples (a fifth of the pickling cost of FileResults)."""
    results = [check_file(path, options) for path in paths]
    return [(r.documents, r.skipped, [tuple(d) for d in r.diagnostics], r.skipped_documents, r.value_hashes) for r in results]


def _parallel(files: list[str], sizes: list[int], jobs: int, options: ValidateOptions) -> list[FileResult]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # Chunks are runs of files in their order, of about equal size. A folder's files are mostly of
    # one kind, so each worker meets fewer kinds (and compiles fewer schemas, imports fewer rules)
    # than if files were dealt out one by one; a worker takes the next chunk when it is done with
    # one, which evens out the end. Results come back in the order of the files.
    count = jobs * 4
    total = sum(sizes) + len(sizes)
    chunks: list[list[str]] = [[] for _ in range(count)]
    before = 0
    for path, size in zip(files, sizes):
        chunks[min(count - 1, before * count // total)].append(path)
        before += size + 1
    chunks = [c for c in chunks if c]
    # What every file needs is read before forking, so that the workers share it. The collector
    # leaves the inherited objects alone (gc.freeze): walking them would copy every page they sit on.
    catalog.lifecycle()
    catalog.schema_index()
    catalog.aliases()
    gc.freeze()
    context = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
    results: list[FileResult] = []
    try:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            for batch in pool.map(_check_many, chunks, [options] * len(chunks)):
                for documents, skipped, diagnostics, skipped_documents, value_hashes in batch:
                    result = FileResult([Diagnostic._make(d) for d in diagnostics])
                    result.documents, result.skipped = documents, skipped
                    result.skipped_documents, result.value_hashes = skipped_documents, value_hashes
                    results.append(result)
    finally:
        gc.unfreeze()
    return results


def _without_baseline(files: list[str], baseline: str, skipped: list[tuple[str, str]]) -> list[str]:
    """The files but the baseline (a walk finds it, the pre-commit hook names it): its entries are no configuration."""
    real = os.path.realpath(baseline)
    kept = []
    for path in files:
        if path != STDIN and os.path.realpath(path) == real:
            skipped.append((path, "svcconf's baseline file"))
        else:
            kept.append(path)
    return kept


def validate(paths: Iterable[str], options: ValidateOptions | None = None) -> Report:
    """Validate files, folders and `-` (stdin); the library entry point behind `svcconf validate`."""
    options = options or ValidateOptions()
    if not isinstance(options, ValidateOptions):
        raise TypeError(f"validate takes svcconf.ValidateOptions, not {type(options).__name__}")
    not_regular: list[str] = []
    skipped_paths: list[tuple[str, str]] = []
    selection = Selection.of(options)
    files, unreadable = discover(paths, selection, not_regular, skipped_paths)
    if options.baseline_file:
        files = _without_baseline(files, options.baseline_file, skipped_paths)
    if STDIN in files and options.stdin_filename and (why := selection.excluded(options.stdin_filename)):
        # Excluded as the file it stands for: an editor gets no findings for it (-v says why).
        files = [path for path in files if path != STDIN]
        skipped_paths.append((options.stdin_filename, why))
    report = Report(files=len(files) + len(not_regular), unreadable=unreadable, options=options)
    report.skipped_paths = skipped_paths
    report.checked = [stdin_name(options) if path == STDIN else path for path in files] + not_regular
    jobs, sizes = _workers(files, options.jobs)
    results = _parallel(files, sizes, jobs, options) if jobs > 1 else [check_file(path, options) for path in files]
    results += [_not_regular(path, options) for path in not_regular]
    for result in results:
        report.diagnostics.extend(result.diagnostics)
        report.documents += result.documents
        report.skipped += result.skipped
        report.skipped_documents += result.skipped_documents
        if result.value_hashes:
            report.value_hashes.update(zip(result.diagnostics, result.value_hashes))
    report.skipped_paths += [
        (stdin_name(options) if path == STDIN else path, r.skip_reason) for path, r in zip(files, results) if r.skip_reason
    ]
    report.diagnostics.sort(key=Diagnostic.sort_key)
    return report
