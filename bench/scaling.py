"""How svcconf's cost grows: documents per file and files per tree (by kind), and peak memory."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import make_corpus
from corpusgen.all_kinds import KINDS
from timing import compose, corpus_files, find_script, interleaved, median, peak_rss, ratio, validate

GROWTH = 10  # the large case holds GROWTH times the small one


def _link(source: str, target: Path) -> None:
    """A hard link where the file system allows it (cheap, same bytes), else a copy."""
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


# --------------------------------------------------------------------------- documents per file


def write_growth_files(folder: Path, documents: int, seed: int) -> dict[str, tuple[str, str]]:
    """Per kind, one file of `documents` valid documents and one of GROWTH times as many."""
    folder.mkdir(parents=True, exist_ok=True)
    files = {}
    for kind in KINDS:
        small, large = folder / f"{kind.name}-{documents}.yaml", folder / f"{kind.name}-{documents * GROWTH}.yaml"
        make_corpus.write_kind_file(small, kind.name, documents, seed)
        make_corpus.write_kind_file(large, kind.name, documents * GROWTH, seed)
        files[kind.name] = (str(small), str(large))
    return files


def measure_document_growth(files: dict[str, tuple[str, str]], repeats: int) -> dict[str, dict]:
    """svcconf (one job, in-process) and bare composition on the small and the large file of each kind."""
    measurements = {}
    for kind, (small, large) in files.items():
        measurements[f"{kind} svcconf small"] = lambda path=small: validate([path])
        measurements[f"{kind} svcconf large"] = lambda path=large: validate([path])
        measurements[f"{kind} compose small"] = lambda path=small: compose([path])
        measurements[f"{kind} compose large"] = lambda path=large: compose([path])
    samples = interleaved(measurements, repeats)
    result = {}
    for kind, (small, large) in files.items():
        figures = {
            f"{tool}_{size}_s": median(samples[f"{kind} {tool} {size}"]) for tool in ("svcconf", "compose") for size in ("small", "large")
        }
        figures["svcconf_ratio"] = ratio(figures["svcconf_large_s"], figures["svcconf_small_s"])
        figures["compose_ratio"] = ratio(figures["compose_large_s"], figures["compose_small_s"])
        figures["large_bytes"] = os.path.getsize(large)
        result[kind] = figures
    return result


# --------------------------------------------------------------------------- files per tree


def spread_pick(corpus: str, count: int) -> list[str]:
    """count files of a corpus taken in turn from each top-level sub-folder, so that every kind is in."""
    by_folder: dict[str, list[str]] = {}
    for path in corpus_files(corpus):
        by_folder.setdefault(os.path.relpath(path, corpus).split(os.sep)[0], []).append(path)
    queues = [list(reversed(paths)) for _folder, paths in sorted(by_folder.items())]
    picked: list[str] = []
    while len(picked) < count and any(queues):
        for queue in queues:
            if queue and len(picked) < count:
                picked.append(queue.pop())
    return picked


def write_file_trees(corpus: str, folder: Path, files: int) -> tuple[str, str]:
    """A tree of `files` corpus files and one of GROWTH copies of it."""
    picked = spread_pick(corpus, files)
    small, large = folder / f"tree-{files}", folder / f"tree-{files * GROWTH}"
    for number, path in enumerate(picked):
        name = f"{number:04d}-{os.path.basename(path)}"
        _link(path, small / name)
        for copy in range(GROWTH):
            _link(path, large / f"copy-{copy:02d}" / name)
    return str(small), str(large)


def measure_file_growth(trees: tuple[str, str], repeats: int) -> dict:
    small, large = trees
    samples = interleaved({"small": lambda: validate([small]), "large": lambda: validate([large])}, repeats)
    figures = {
        "small_files": len(corpus_files(small)),
        "large_files": len(corpus_files(large)),
        "small_s": median(samples["small"]),
        "large_s": median(samples["large"]),
    }
    figures["ratio"] = ratio(figures["large_s"], figures["small_s"])
    return figures


# --------------------------------------------------------------------------- peak memory


def write_tree(corpus: str, folder: Path, documents: int) -> tuple[str, int, int]:
    """A tree of at least `documents` documents: the corpus's files linked again and again; (path, documents, bytes)."""
    files = corpus_files(corpus)
    counts = compose(files)
    total = size = copy = 0
    while total < documents:
        for path, count in zip(files, counts):
            if total >= documents:
                break
            _link(path, folder / f"copy-{copy:03d}" / os.path.relpath(path, corpus))
            total += count
            size += os.path.getsize(path)
        copy += 1
    return str(folder), total, size


# The floor for the largest file: composing it with libyaml, every node kept, as a tool that reports positions must.
COMPOSE_FILE = (
    "import sys, yaml\nwith open(sys.argv[1], 'rb') as f:\n    nodes = list(yaml.compose_all(f.read().decode(), Loader=yaml.CSafeLoader))"
)


def measure_memory(svcconf_bin: str, cwd: str, baseline_file: str, largest_file: str) -> dict:
    """Peak RSS of `svcconf validate --jobs 1` on a small file (the constant) and on the largest file; libyaml's for reference.

    The peak on the largest tree comes from the --jobs 1 runs of defaults.measure, which go through peak_rss too.
    """

    def run(path: str) -> tuple[int, float]:
        return peak_rss([svcconf_bin, "validate", "--jobs", "1", "--no-config", path], cwd)

    run(baseline_file)  # untimed: byte-code and page caches
    baseline, _ = run(baseline_file)
    largest, _ = run(largest_file)
    compose_small, _ = peak_rss([sys.executable, "-c", COMPOSE_FILE, baseline_file], cwd, (0,))
    compose_largest, _ = peak_rss([sys.executable, "-c", COMPOSE_FILE, largest_file], cwd, (0,))
    largest_bytes = os.path.getsize(largest_file)
    return {
        "baseline_file": baseline_file,
        "baseline_peak_bytes": baseline,
        "largest_file": largest_file,
        "largest_file_bytes": largest_bytes,
        "largest_peak_bytes": largest,
        "largest_growth_over_file": ratio(largest - baseline, largest_bytes),
        "compose_baseline_peak_bytes": compose_small,
        "compose_largest_peak_bytes": compose_largest,
        "compose_growth_over_file": ratio(compose_largest - compose_small, largest_bytes),
    }


# --------------------------------------------------------------------------- worker processes


def small_files(corpus: str, count: int) -> list[str]:
    """count one-document files of different kinds, the smallest of each: what a commit touches."""
    picked = []
    for path in spread_pick(corpus, 40 * count):
        if len(picked) < count and sum(compose([path])) == 1 and not any(os.path.dirname(p) == os.path.dirname(path) for p in picked):
            picked.append(path)
    return picked


def svcconf_script() -> str:
    found = find_script("svcconf")
    if found is None:
        raise SystemExit("bench: no svcconf console script beside this Python or on PATH")
    return found
