"""The validate pipeline: paths -> files -> diagnostics, in one process or several (workers.py).

Named pipeline, not validate, so that `svcconf.validate` can be the library function.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

from ..load.discovery import STDIN, Selection, discover
from ..model import Diagnostic
from ..settings.options import ValidateOptions
from . import workers
from .check import check_file, special_file, stdin_name
from .result import BASELINE_FILE, FileResult, Report


def _sizes(files: list[str]) -> list[int]:
    sizes = []
    for path in files:
        try:
            sizes.append(os.path.getsize(path))
        except OSError:
            sizes.append(0)
    return sizes


def _check_many(paths: list[str], options: ValidateOptions) -> list[tuple]:
    """Files' results as plain tuples, which a worker sends back (a fifth of the pickling cost of FileResults)."""
    results = [check_file(path, options) for path in paths]
    return [
        (r.documents, r.skipped, [tuple(d) for d in r.diagnostics], r.skipped_documents, [tuple(d) for d in r.suppressed], r.skip_reason)
        for r in results
    ]


def _unpacked(packed: tuple) -> FileResult:
    documents, skipped, diagnostics, skipped_documents, suppressed, skip_reason = packed
    result = FileResult([Diagnostic._make(d) for d in diagnostics])
    result.suppressed = [Diagnostic._make(d) for d in suppressed]
    result.documents, result.skipped = documents, skipped
    result.skipped_documents = skipped_documents
    result.skip_reason = skip_reason
    return result


Progress = Callable[[int, int], None]  # told (files done, files found) as a run goes on


def _serial(files: list[str], options: ValidateOptions, progress: Progress | None) -> list[FileResult]:
    results = []
    for path in files:
        results.append(check_file(path, options))
        if progress is not None:
            progress(len(results), len(files))
    return results


def _parallel(files: list[str], sizes: list[int], count: int, options: ValidateOptions, progress: Progress | None) -> list[FileResult]:
    """The files checked by `count` processes (workers.py), chunk by chunk, the results in the files' order."""
    from functools import partial

    from . import workers

    chunked = workers.chunks(files, sizes, workers.chunk_count(sizes, count))
    done = (lambda checked: progress(checked, len(files))) if progress is not None else None
    # Compiling every kind first pays when the work is large; a few files forced onto workers compile what they meet.
    warm = workers.work_of(sizes) >= workers.WORK_PER_PROCESS
    packed = workers.run(chunked, partial(_check_many, options=options), count, done, warm=warm)
    return [_unpacked(p) for p in packed]


def _without_baseline(files: list[str], baseline: str, skipped: list[tuple[str, str]]) -> list[str]:
    """The files but the baseline (a walk finds it, the pre-commit hook names it): its entries are no configuration."""
    real = os.path.realpath(baseline)
    kept = []
    for path in files:
        if path != STDIN and os.path.realpath(path) == real:
            skipped.append((path, BASELINE_FILE))
        else:
            kept.append(path)
    return kept


def validate(paths: Iterable[str], options: ValidateOptions | None = None, progress: Progress | None = None) -> Report:
    """Validate files, folders and `-` (stdin); the library entry point behind `svcconf validate`.

    `progress`, when given, is told (files done, files found) as files are checked.
    """
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
    sizes = _sizes(files) if len(files) > 1 and STDIN not in files else []
    count = workers.processes(sizes, options.jobs) if sizes else 1
    results = _parallel(files, sizes, count, options, progress) if count > 1 else _serial(files, options, progress)
    results += [special_file(path, options) for path in not_regular]
    for result in results:
        report.diagnostics.extend(result.diagnostics)
        report.suppressed.extend(result.suppressed)
        report.documents += result.documents
        report.skipped += result.skipped
        report.skipped_documents += result.skipped_documents
    report.skipped_paths += [
        (stdin_name(options) if path == STDIN else path, r.skip_reason) for path, r in zip(files, results) if r.skip_reason
    ]
    report.diagnostics.sort(key=Diagnostic.sort_key)
    return report
