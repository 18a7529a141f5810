#!/usr/bin/env python3
"""svcconf benchmark: throughput against bare libyaml composition, parallel speed-up, one-file wall time.

    python bench/run.py [--corpus DIR] [--documents N] [--seed S] [--json FILE]

Run it with the project's Python (the one svcconf is installed in). Without --corpus it generates
the corpus (bench/make_corpus.py) in a temporary folder and removes it afterwards.

Everything is measured in one run and reported as figures and ratios. The machine is shared and
noisy, so absolute figures move from run to run; ratios taken within one run hold much better.
Each throughput figure is the median of 3 repetitions and each command the median of 9, with the
measurements interleaved so that a slow spell of the machine hits all of them alike.

Standard library plus PyYAML; svcconf is imported only by the measurements that run it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import make_corpus

REPEATS = 3  # throughput measurements a, b, c
COMMAND_RUNS = 9  # one-file commands d
SUFFIXES = (".yaml", ".yml", ".json")  # what `svcconf validate DIR` reads


# --------------------------------------------------------------------------- corpus


def corpus_files(corpus: str) -> list[str]:
    """The files svcconf validate reads in a folder, in its order (hidden folders skipped)."""
    found = []
    for folder, dirs, names in os.walk(corpus):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "node_modules")
        found.extend(os.path.join(folder, n) for n in sorted(names) if n.endswith(SUFFIXES))
    return found


def compose(files: list[str]) -> list[int]:
    """Measurement a: read, decode and compose every file with libyaml; documents per file."""
    import yaml

    loader = yaml.CSafeLoader
    counts = []
    for path in files:
        with open(path, "rb") as handle:
            data = handle.read()
        documents = 0
        try:  # a corpus of real files may hold broken ones: count what composes, as svcconf keeps it
            for _node in yaml.compose_all(data.decode("utf-8"), Loader=loader):
                documents += 1
        except (UnicodeDecodeError, yaml.YAMLError):
            pass
        counts.append(documents)
    return counts


def pick_file(files: list[str], counts: list[int], corpus: str, mistakes) -> str:
    """A typical file for the one-file timings: 10-20 documents, no deliberate mistake, median size."""
    flawed = {os.path.join(corpus, row[0]) for row in mistakes or ()}
    candidates = [f for f, n in zip(files, counts) if 10 <= n <= 20 and f not in flawed]
    candidates = candidates or [f for f, n in zip(files, counts) if 10 <= n <= 20]
    if not candidates:  # a small corpus: the file with the most documents
        return max(zip(counts, files))[1]
    candidates.sort(key=lambda f: (os.path.getsize(f), f))
    return candidates[len(candidates) // 2]


# --------------------------------------------------------------------------- measurements


def timed(function, *args):
    start = time.perf_counter()
    result = function(*args)
    return time.perf_counter() - start, result


def svcconf_validate(corpus: str, jobs: int):
    """Measurements b and c: the library entry point behind `svcconf validate`, without rendering."""
    from svcconf.options import ValidateOptions
    from svcconf.pipeline import validate

    return validate([corpus], ValidateOptions(jobs=jobs))


# Commands run as an installed tool runs: with byte-code caches (pip writes them at install time).
COMMAND_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_command(argv: list[str], cwd: str, ok: tuple[int, ...] = (0,)) -> float:
    start = time.perf_counter()
    done = subprocess.run(
        argv, check=False, cwd=cwd, env=COMMAND_ENV, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    elapsed = time.perf_counter() - start
    if done.returncode not in ok:
        raise SystemExit(f"bench: {' '.join(argv)} exited {done.returncode}:\n{done.stderr.decode(errors='replace')[-2000:]}")
    return elapsed


def find_script(name: str) -> str | None:
    """A console script of the running Python's environment (the venv), else one on PATH."""
    beside = Path(sys.executable).parent / name  # not resolved: a venv's python is a symlink
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which(name)


def check_report(report, corpus: str, documents: int, mistakes) -> dict:
    """Does svcconf's report fit the corpus: same document count, errors exactly where mistakes were put?"""
    from svcconf.model import Severity

    errors: dict[tuple[str, int], set[str]] = {}
    for d in report.diagnostics:
        if d.severity == Severity.ERROR:
            errors.setdefault((os.path.relpath(d.file, corpus), d.document or 0), set()).add(d.rule)
    result = {
        "documents_counted_by_svcconf": report.documents,
        "documents_composed": documents,
        "errors": report.errors,
        "warnings": report.warnings,
        "infos": report.infos,
        "documents_with_errors": len(errors),
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


# --------------------------------------------------------------------------- report


def _rate(documents: int, seconds: float) -> float:
    return documents / seconds if seconds > 0 else float("inf")


def _ms(seconds: float | None) -> str:
    return "n/a" if seconds is None else f"{seconds * 1000:.0f} ms"


def print_report(r: dict) -> None:
    c = r["corpus"]
    m = r["measurements"]
    print("svcconf benchmark: one run on a shared machine; read the ratios, the absolute figures move between runs")
    print(
        f"python {r['python']}, {r['cpus']} cores; corpus {c['path']}: {c['files']} files, {c['documents']} documents, "
        f"{c['bytes'] / 1e6:.1f} MB" + (f" (generated, seed {c['seed']}, in {c['generated_seconds']:.1f} s)" if c["generated"] else "")
    )
    print(f"throughput: median of {REPEATS}; commands: median of {COMMAND_RUNS}; interleaved")
    print()
    rows = []
    for key, label in (
        ("a", "a  compose, libyaml (CSafeLoader)"),
        ("b", "b  svcconf validate, jobs=1"),
        ("c", "c  svcconf validate, jobs=2"),
    ):
        x = m[key]
        rows.append(
            (label, f"{x['docs_per_s']:,.0f} docs/s", f"{x['median_s']:.2f} s", f"{min(x['samples_s']):.2f}-{max(x['samples_s']):.2f} s")
        )
    d = m["d"]
    f = d["file"]
    for key, label in (
        ("svcconf_file", "d  svcconf validate FILE"),
        ("yamllint_file", "   yamllint -d relaxed FILE"),
        ("svcconf_help", "   svcconf --help"),
        ("python_pass", "   python -c pass"),
    ):
        x = d[key]
        rows.append((label, _ms(x["median_s"] if x else None), "", f"{_ms(min(x['samples_s']))}-{_ms(max(x['samples_s']))}" if x else ""))
    print(f"{'measurement':<34} {'median':>14} {'time':>8}  {'range':>15}")
    for label, value, seconds, spread in rows:
        print(f"{label:<34} {value:>14} {seconds:>8}  {spread:>15}")
    print(f"   FILE = {f['path']} ({f['documents']} documents, {f['bytes']:,} bytes)")
    print()
    print("ratios")
    for key, label in (
        ("b_over_a", "b/a  svcconf throughput / bare composition"),
        ("c_over_b", "c/b  speed-up with 2 jobs"),
        ("svcconf_over_yamllint", "d    svcconf FILE / yamllint FILE"),
        ("svcconf_file_over_help", "d    svcconf FILE / svcconf --help"),
        ("svcconf_help_over_python", "d    svcconf --help / python -c pass"),
    ):
        value = r["ratios"].get(key)
        print(f"  {label:<46} {'n/a' if value is None else f'{value:.2f}'}")
    k = r["check"]
    print()
    print(
        f"check: svcconf read {k['documents_counted_by_svcconf']} documents (composition: {k['documents_composed']}); "
        f"{k['errors']} errors, {k['warnings']} warnings, {k['infos']} infos; jobs=2 report identical: {k['parallel_report_identical']}"
    )
    if "injected_mistakes" in k:
        print(
            f"       {k['mistakes_reported_as_expected']} of {k['injected_mistakes']} injected mistakes reported as expected; "
            f"{len(k['unexpected'])} documents with unexpected errors"
        )
        for line in (k["differing"] + k["unexpected"])[:10]:
            print(f"       ! {line}")


# --------------------------------------------------------------------------- main


def measure(corpus: str, generated: dict | None) -> dict:
    files = corpus_files(corpus)
    if not files:
        raise SystemExit(f"bench: no YAML files in {corpus}")
    mistakes = make_corpus.load_mistakes(corpus)
    counts = compose(files)  # untimed survey: documents per file, and a warm page cache
    documents = sum(counts)
    one_file = pick_file(files, counts, corpus, mistakes)

    try:
        svcconf_validate(one_file, 1)  # untimed: imports, schema compilation, rule modules
    except ImportError as err:
        raise SystemExit(f"bench: cannot import svcconf ({err}); run with the Python it is installed in, e.g. /work/venv/bin/python")

    samples: dict[str, list[float]] = {"a": [], "b": [], "c": []}
    report_b = report_c = None
    for _ in range(REPEATS):
        seconds, composed = timed(compose, files)
        assert sum(composed) == documents
        samples["a"].append(seconds)
        seconds, report = timed(svcconf_validate, corpus, 1)
        samples["b"].append(seconds)
        report_b = report_b or report
        seconds, report = timed(svcconf_validate, corpus, 2)
        samples["c"].append(seconds)
        report_c = report_c or report
        del report

    svcconf_bin, yamllint_bin = find_script("svcconf"), find_script("yamllint")
    if svcconf_bin is None:
        raise SystemExit("bench: no svcconf console script beside this Python or on PATH")
    commands = {
        "svcconf_file": ([svcconf_bin, "validate", "--no-config", one_file], (0, 1)),
        "yamllint_file": ([yamllint_bin, "-d", "relaxed", one_file], (0, 1)) if yamllint_bin else None,
        "svcconf_help": ([svcconf_bin, "--help"], (0,)),
        "python_pass": ([sys.executable, "-c", "pass"], (0,)),
    }
    command_samples: dict[str, list[float]] = {k: [] for k, v in commands.items() if v}
    for key in command_samples:  # untimed: byte-code caches, page cache
        run_command(commands[key][0], corpus, commands[key][1])
    for _ in range(COMMAND_RUNS):
        for key, taken in command_samples.items():
            taken.append(run_command(commands[key][0], corpus, commands[key][1]))

    def throughput(key: str) -> dict:
        median = statistics.median(samples[key])
        return {"docs_per_s": _rate(documents, median), "median_s": median, "samples_s": samples[key]}

    def command(key: str) -> dict | None:
        if key not in command_samples:
            return None
        return {"argv": commands[key][0], "median_s": statistics.median(command_samples[key]), "samples_s": command_samples[key]}

    m = {"a": throughput("a"), "b": throughput("b"), "c": throughput("c")}
    m["d"] = {
        "file": {"path": os.path.relpath(one_file, corpus), "documents": counts[files.index(one_file)], "bytes": os.path.getsize(one_file)},
        **{key: command(key) for key in commands},
    }
    d = m["d"]

    def ratio(x: float | None, y: float | None) -> float | None:
        return x / y if x is not None and y else None

    def med(key: str) -> float | None:
        return d[key]["median_s"] if d.get(key) else None

    ratios = {
        "b_over_a": ratio(m["b"]["docs_per_s"], m["a"]["docs_per_s"]),
        "c_over_b": ratio(m["c"]["docs_per_s"], m["b"]["docs_per_s"]),
        "svcconf_over_yamllint": ratio(med("svcconf_file"), med("yamllint_file")),
        "svcconf_file_over_help": ratio(med("svcconf_file"), med("svcconf_help")),
        "svcconf_help_over_python": ratio(med("svcconf_help"), med("python_pass")),
    }
    check = check_report(report_b, corpus, documents, mistakes)
    check["parallel_report_identical"] = report_b.diagnostics == report_c.diagnostics and report_b.documents == report_c.documents
    import yaml

    return {
        "version": 1,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "pyyaml": yaml.__version__,
        "corpus": {
            "path": corpus,
            "generated": generated is not None,
            "seed": generated["seed"] if generated else None,
            "generated_seconds": generated["seconds"] if generated else None,
            "files": len(files),
            "documents": documents,
            "bytes": sum(os.path.getsize(f) for f in files),
        },
        "measurements": m,
        "ratios": ratios,
        "check": check,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark svcconf against bare YAML composition and yamllint.")
    parser.add_argument("--corpus", metavar="DIR", help="an existing corpus folder (default: generate one in a temporary folder)")
    parser.add_argument(
        "--documents",
        type=int,
        default=make_corpus.DEFAULT_DOCUMENTS,
        metavar="N",
        help=f"documents of the generated corpus (default {make_corpus.DEFAULT_DOCUMENTS})",
    )
    parser.add_argument("--seed", type=int, default=make_corpus.DEFAULT_SEED, metavar="S", help="seed of the generated corpus")
    parser.add_argument("--json", metavar="FILE", help="also write the figures and ratios as JSON to FILE")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    if args.corpus:
        if not os.path.isdir(args.corpus):
            parser.error(f"--corpus {args.corpus}: no such folder")
        result = measure(args.corpus, None)
    else:
        with tempfile.TemporaryDirectory(prefix="svcconf-bench-") as tmp:
            corpus = os.path.join(tmp, "corpus")
            seconds, stats = timed(make_corpus.generate, corpus, args.documents, args.seed)
            result = measure(corpus, {**stats, "seconds": seconds})
    result["total_seconds"] = time.perf_counter() - started
    print_report(result)
    print(f"\n(whole run {result['total_seconds']:.0f} s)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(result, handle, indent=2)
            handle.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
