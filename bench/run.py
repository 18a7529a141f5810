#!/usr/bin/env python3
"""svcconf benchmark: throughput by kind against bare composition, growth, peak memory, workers and start-up.

    python bench/run.py [--quick] [--corpus DIR | --corpus-kind KIND --documents N --seed S] [--json FILE]

Run it with the project's Python (the one svcconf is installed in). Without --corpus it generates
the corpus (bench/make_corpus.py) in a temporary folder and removes it afterwards; the growth,
memory and worker measurements build their files there too. --quick runs everything small.

Everything is measured in one run and reported as figures and ratios. The machine is shared and
noisy, so absolute figures move from run to run; ratios taken within one run hold much better.
Repeated measurements are interleaved (a, b, c, a, b, c, ...) so that a slow spell of the machine
hits all of them alike, and each figure is the median of its repetitions.

Standard library plus PyYAML; svcconf is imported only by the measurements that run it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import defaults
import make_corpus
import migrating
import report
import scaling
import startup
import targets
from timing import compose, corpus_files, interleaved, load_average, median, ratio, timed, validate

REAL_CORPUS = HERE.parent.parent / "shared" / "corpus"  # real files beside the project (../shared/corpus), when present


class Settings(NamedTuple):
    documents: int  # of the generated corpus
    repeats: int  # in-process measurements
    command_runs: int  # one-file commands and the handful of files
    tree_runs: int  # commands on the whole corpus
    growth_documents: int  # N of the N vs 10N documents check
    growth_files: int  # F of the F vs 10F files check
    tree_documents: int  # of the largest tree: the default against --jobs 1, --jobs 2 and peak memory
    handful: int  # small files of the "few files" size
    migrate_documents: int  # of the file migrate rewrites a tenth of (about 1 MB for 1,000)


FULL = Settings(make_corpus.DEFAULT_DOCUMENTS, 3, 9, 3, 100, 100, 100_000, 5, 1000)
QUICK = Settings(600, 2, 5, 2, 20, 20, 5_000, 5, 200)


# --------------------------------------------------------------------------- throughput


def kind_folders(corpus: str, files: list[str]) -> dict[str, list[str]]:
    """The corpus's files grouped by top-level sub-folder (one per kind in a generated corpus)."""
    groups: dict[str, list[str]] = {}
    for path in files:
        parts = os.path.relpath(path, corpus).split(os.sep)
        groups.setdefault(parts[0] if len(parts) > 1 else ".", []).append(path)
    return dict(sorted(groups.items()))


def measure_throughput(corpus: str, files: list[str], documents: int, repeats: int) -> tuple[dict, object, object]:
    """a: bare composition, b: svcconf with one job, c: with two (in-process); reports of b and c for the check."""
    reports: dict = {}

    def keep(key: str, jobs: int):
        return lambda: reports.setdefault(key, validate([corpus], jobs))

    samples = interleaved({"a": lambda: compose(files), "b": keep("b", 1), "c": keep("c", 2)}, repeats)
    figures = {}
    for key, taken in samples.items():
        figures[key] = {"docs_per_s": documents / median(taken), "median_s": median(taken), "samples_s": taken}
    figures["b_over_a"] = ratio(figures["b"]["docs_per_s"], figures["a"]["docs_per_s"])
    figures["c_over_b"] = ratio(figures["c"]["docs_per_s"], figures["b"]["docs_per_s"])
    return figures, reports["b"], reports["c"]


def measure_kinds(corpus: str, groups: dict[str, list[str]], counts: dict[str, int], repeats: int) -> dict[str, dict]:
    """Per kind folder: bare composition of its files and svcconf (one job, in-process) on the folder."""
    measurements = {}
    for kind, files in groups.items():
        paths = files if kind == "." else [os.path.join(corpus, kind)]
        measurements[f"{kind} compose"] = lambda f=files: compose(f)
        measurements[f"{kind} svcconf"] = lambda p=paths: validate(p)
    samples = interleaved(measurements, repeats)
    svcconf_total = sum(median(samples[f"{kind} svcconf"]) for kind in groups)
    result = {}
    for kind, files in groups.items():
        a, b = median(samples[f"{kind} compose"]), median(samples[f"{kind} svcconf"])
        n = counts[kind]
        result[kind] = {
            "files": len(files),
            "documents": n,
            "bytes": sum(os.path.getsize(f) for f in files),
            "compose_docs_per_s": n / a if a else None,
            "svcconf_docs_per_s": n / b if b else None,
            "svcconf_ms_per_doc": 1000 * b / n if n else None,
            "b_over_a": ratio(a, b),
            "share_of_svcconf_time": ratio(b, svcconf_total),
        }
    return result


def check_report(report_b, report_c, corpus: str, documents: int, mistakes) -> dict:
    """Does svcconf's report fit the corpus: same document count, errors exactly where mistakes were put, same with 2 jobs?"""
    from svcconf.model import Severity

    errors: dict[tuple[str, int], set[str]] = {}
    for d in report_b.diagnostics:
        if d.severity == Severity.ERROR:
            errors.setdefault((os.path.relpath(d.file, corpus), d.document or 0), set()).add(d.rule)
    result = {
        "documents_counted_by_svcconf": report_b.documents,
        "documents_composed": documents,
        "errors": report_b.errors,
        "warnings": report_b.warnings,
        "infos": report_b.infos,
        "documents_with_errors": len(errors),
        "parallel_report_identical": report_b.diagnostics == report_c.diagnostics and report_b.documents == report_c.documents,
    }
    if mistakes is not None:
        expected = {(row[0], row[1]): set(row[4]) for row in mistakes}
        missed = sorted(k for k in expected if errors.get(k) != expected[k])
        unexpected = sorted(k for k in errors if k not in expected)
        result.update(
            injected_mistakes=len(expected),
            mistakes_reported_as_expected=len(expected) - len(missed),
            differing=[f"{f} document {n}: expected {sorted(expected[(f, n)])}, got {sorted(errors.get((f, n), ()))}" for f, n in missed],
            unexpected=[f"{f} document {n}: {sorted(errors[(f, n)])}" for f, n in unexpected],
        )
    return result


def pick_small_file(files: list[str], counts: list[int], corpus: str, mistakes) -> str:
    """A small configuration file as a commit touches it: one document, no deliberate mistake, median size."""
    flawed = {os.path.join(corpus, row[0]) for row in mistakes or ()}
    skipped = (os.sep + "manifests" + os.sep, os.sep + "payloads" + os.sep)
    candidates = [f for f, n in zip(files, counts) if n == 1 and f not in flawed and not any(s in f for s in skipped)]
    candidates = candidates or [f for f, n in zip(files, counts) if n >= 1] or files
    candidates.sort(key=lambda f: (os.path.getsize(f), f))
    return candidates[len(candidates) // 2]


# --------------------------------------------------------------------------- main


def _sizes(corpus: str, work: Path, settings: Settings, small_file: str, real_corpus: str | None) -> list:
    """What the default is run on against --jobs 1: one file, a few, the corpus, the real corpus, a tree a tenth of the largest, the largest."""
    handful = scaling.small_files(corpus, settings.handful)
    # Runs of a second or less are repeated as often as the one-file commands: there the default and
    # --jobs 1 run alike, and only more rounds narrow the spread of the machine between them.
    sizes = [
        defaults.Size("1 file", [small_file], settings.command_runs),
        defaults.Size(f"{len(handful)} small files", handful, settings.command_runs),
        defaults.Size("the corpus", [corpus], settings.command_runs),
    ]
    if real_corpus and os.path.realpath(real_corpus) != os.path.realpath(corpus):
        name = f"the real corpus ({os.path.basename(os.path.dirname(os.path.abspath(real_corpus)))}/corpus)"
        sizes.append(defaults.Size(name, [real_corpus], settings.command_runs, real=True))
    for documents, largest in ((settings.tree_documents // 10, False), (settings.tree_documents, True)):
        path, count, size = scaling.write_tree(corpus, work / f"tree-{documents}", documents)
        sizes.append(defaults.Size(f"tree of {count:,} documents", [path], settings.tree_runs, largest, documents=count, bytes=size))
    return sizes


def measure(corpus: str, work: Path, settings: Settings, seed: int, real_corpus: str | None = None) -> dict:
    files = corpus_files(corpus)
    if not files:
        raise SystemExit(f"bench: no YAML files in {corpus}")
    mistakes = make_corpus.load_mistakes(corpus)
    counts = compose(files)  # untimed survey: documents per file, and a warm page cache
    documents = sum(counts)
    per_file = dict(zip(files, counts))
    small_file = pick_small_file(files, counts, corpus, mistakes)
    try:
        validate([small_file])  # untimed: imports, schema compilation, rule modules
    except ImportError as err:
        raise SystemExit(f"bench: cannot import svcconf ({err}); run with the Python it is installed in")
    svcconf_bin = scaling.svcconf_script()
    steps: dict[str, float] = {}

    def step(name: str, function, *args):
        print(f"bench: {name} ...", file=sys.stderr, flush=True)  # the report comes at the end
        seconds, value = timed(function, *args)
        steps[name] = seconds
        return value

    throughput, report_b, report_c = step("throughput", measure_throughput, corpus, files, documents, settings.repeats)
    groups = kind_folders(corpus, files)
    kinds = step("kinds", measure_kinds, corpus, groups, {k: sum(per_file[f] for f in fs) for k, fs in groups.items()}, settings.repeats)
    check = check_report(report_b, report_c, corpus, documents, mistakes)
    del report_b, report_c

    growth_files = scaling.write_growth_files(work / "growth", settings.growth_documents, seed)
    growth = step("growth", scaling.measure_document_growth, growth_files, settings.repeats)
    trees = scaling.write_file_trees(corpus, work / "trees", settings.growth_files)
    file_growth = step("file_growth", scaling.measure_file_growth, trees, settings.repeats)

    largest = max([f for pair in growth_files.values() for f in pair] + files, key=os.path.getsize)
    memory = step("memory", scaling.measure_memory, svcconf_bin, corpus, small_file, largest)

    sizes = _sizes(corpus, work, settings, small_file, real_corpus)
    by_size = step("defaults", defaults.measure, svcconf_bin, corpus, sizes)
    tree = by_size["largest"]
    memory.update(
        tree_documents=sizes[-1].documents,
        tree_files=tree["files"],
        tree_bytes=sizes[-1].bytes,
        tree_peak_bytes=tree["peak_rss_bytes"],
        tree_seconds=tree["jobs1_s"],
    )
    migrate_files = migrating.write_files(work / "migrate", settings.migrate_documents, seed)
    migrate = step("migrate", migrating.measure, migrate_files, settings.repeats)
    commands = step("startup", startup.measure_commands, svcconf_bin, small_file, corpus, settings.command_runs)
    imports = step("imports", startup.measure_imports, small_file, corpus)

    import yaml

    return {
        "version": 2,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "pyyaml": yaml.__version__,
        "settings": settings._asdict(),
        "corpus": {"path": corpus, "files": len(files), "documents": documents, "bytes": sum(os.path.getsize(f) for f in files)},
        "throughput": throughput,
        "kinds": kinds,
        "check": check,
        "growth": growth,
        "file_growth": file_growth,
        "memory": memory,
        "defaults": by_size,
        "migrate": migrate,
        "startup": {"file": small_file, "file_bytes": os.path.getsize(small_file), **commands},
        "imports": imports,
        "step_seconds": steps,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark svcconf against bare YAML composition and yamllint.")
    parser.add_argument("--quick", action="store_true", help="everything small: a run of well under a minute, for development")
    parser.add_argument("--corpus", metavar="DIR", help="an existing corpus folder (default: generate one in a temporary folder)")
    parser.add_argument("--corpus-kind", choices=make_corpus.CORPUS_KINDS, default=make_corpus.CORPUS_KINDS[0], help="what to generate")
    parser.add_argument(
        "--documents", type=int, metavar="N", help=f"documents of the generated corpus (default {FULL.documents}, quick {QUICK.documents})"
    )
    parser.add_argument("--seed", type=int, default=make_corpus.DEFAULT_SEED, metavar="S", help="seed of the generated corpus")
    parser.add_argument(
        "--growth-documents",
        type=int,
        metavar="N",
        help=f"N of the N vs {scaling.GROWTH}N documents check (default {FULL.growth_documents})",
    )
    parser.add_argument(
        "--tree-documents", type=int, metavar="N", help=f"documents of the peak-memory tree (default {FULL.tree_documents:,})"
    )
    parser.add_argument(
        "--real-corpus",
        metavar="DIR",
        default=str(REAL_CORPUS) if REAL_CORPUS.is_dir() else None,
        help="real files the default must run on at the CPU time of one process (default: ../shared/corpus, when present)",
    )
    parser.add_argument("--json", metavar="FILE", help="also write the figures and ratios as JSON to FILE")
    args = parser.parse_args(argv)
    settings = QUICK if args.quick else FULL
    for field in ("documents", "growth_documents", "tree_documents"):
        value = getattr(args, field)
        if value is not None:
            if value < 1:
                parser.error(f"--{field.replace('_', '-')} must be at least 1")
            settings = settings._replace(**{field: value})
    if args.corpus and not os.path.isdir(args.corpus):
        parser.error(f"--corpus {args.corpus}: no such folder")

    started = time.perf_counter()
    load_at_start = load_average()
    with tempfile.TemporaryDirectory(prefix="svcconf-bench-") as tmp:
        work = Path(tmp)
        generated = None
        corpus = os.path.abspath(args.corpus) if args.corpus else None  # commands run with the corpus as their folder
        if corpus is None:
            corpus = str(work / "corpus")
            seconds, stats = timed(make_corpus.generate, corpus, settings.documents, args.seed, False, args.corpus_kind)
            generated = {**stats, "seconds": seconds}
        result = measure(corpus, work, settings, args.seed, args.real_corpus)
    result["corpus"]["generated"] = generated
    result["load_average"] = {"start": load_at_start, "end": load_average()}
    result["total_seconds"] = time.perf_counter() - started
    result["machine"] = platform.machine()
    result["date"] = time.strftime("%Y-%m-%d")
    result["targets"] = [{**t._asdict(), "verdict": t.verdict} for t in targets.judge(result)]
    report.print_report(result)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(result, handle, indent=2)
            handle.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
