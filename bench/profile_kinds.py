#!/usr/bin/env python3
"""Where svcconf's time goes, kind by kind: cProfile of `validate` (one job, in-process) on each sub-folder of a corpus.

    python bench/profile_kinds.py [--corpus DIR | --documents N --seed S] [--kind NAME ...] [--top N]

Without --corpus it generates the all-kinds corpus (bench/make_corpus.py) in a temporary folder.
Each kind folder is validated once untimed (imports, schema compilation) and once under the
profiler. For each kind it prints the functions with the most time of their own and the svcconf
functions with the most cumulative time, as file:function and share of the kind's profiled time.

cProfile adds a cost to every Python call and none to C code (libyaml, jsonschema-rs, the CEL
runtime), so Python-heavy code weighs a little more here than it does in the benchmark's timings;
read the shares as where to look, and the benchmark's ratios as what a change gained.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import make_corpus
from run import kind_folders
from timing import corpus_files, validate

ROOT = str(HERE.parent) + os.sep


def _where(key: tuple[str, int, str]) -> str:
    """file:function, paths relative to the checkout; site-packages and built-ins by module."""
    filename, line, function = key
    if filename == "~":  # a built-in: the method name says enough
        return function
    if filename.startswith(ROOT):
        filename = filename[len(ROOT) :]
    elif "site-packages" + os.sep in filename:
        filename = filename.split("site-packages" + os.sep, 1)[1]
    else:
        filename = os.path.basename(filename)
    return f"{filename}:{line}:{function}"


def profile(paths: list[str], repeat: int) -> pstats.Stats:
    """The profiles of `repeat` runs added up (one run of a small folder is mostly noise)."""
    stats = None
    for _ in range(repeat):
        profiler = cProfile.Profile()
        profiler.enable()
        validate(paths)
        profiler.disable()
        stats = pstats.Stats(profiler) if stats is None else stats.add(profiler)
    return stats


# The phases of a document's check, by the svcconf function that spans each (file, function).
PHASES = (
    ("parse", ("source.py", "load_bytes")),  # decoding, libyaml composition, construction of values
    ("schema", ("schema.py", "check")),  # JSON Schema and the translation of its errors
    ("rules", ("document.py", "_run_rule")),  # rule functions (embedded documents' schema checks included)
)


def phases(stats: pstats.Stats) -> dict[str, float]:
    """Share of the profiled time spent under each phase's function; the rest is discovery, lookup, sorting and GC."""
    total = stats.total_tt or 1e-9
    shares = {}
    for phase, (filename, function) in PHASES:
        shares[phase] = (
            sum(
                v[3]
                for (f, _line, name), v in stats.stats.items()
                if name == function and f.endswith(os.sep + "svcconf" + os.sep + filename)
            )
            / total
        )
    return shares


def hot_spots(stats: pstats.Stats, top: int) -> dict:
    """Own-time and cumulative-time leaders of one profile, with their shares of its total time."""
    entries = stats.stats  # (file, line, function) -> (primitive calls, calls, own time, cumulative time, callers)
    total = stats.total_tt or 1e-9
    own = sorted(entries.items(), key=lambda item: -item[1][2])[:top]
    ours = [item for item in entries.items() if (os.sep + "svcconf" + os.sep) in item[0][0]]
    # The pipeline's own frames span everything: leave them out of the cumulative list.
    ours = [item for item in ours if not item[0][0].endswith(("pipeline.py", "document.py", os.sep + "rules" + os.sep + "__init__.py"))]
    cumulative = sorted(ours, key=lambda item: -item[1][3])[:top]
    return {
        "total_s": total,
        "phases": phases(stats),
        "own": [{"where": _where(k), "calls": v[1], "own_s": v[2], "share": v[2] / total} for k, v in own],
        "cumulative": [{"where": _where(k), "calls": v[1], "cumulative_s": v[3], "share": v[3] / total} for k, v in cumulative],
    }


def print_kind(kind: str, documents: int, spots: dict, repeat: int) -> None:
    total = spots["total_s"] / repeat
    print(f"\n== {kind}: {documents} documents, {total:.2f} s per run profiled ({1000 * total / max(documents, 1):.2f} ms per document)")
    print("   " + ", ".join(f"{phase} {100 * share:.0f}%" for phase, share in spots["phases"].items()))
    print("   own time (the function itself)        share, calls per run, file:line:function")
    for row in spots["own"]:
        print(f"   {100 * row['share']:5.1f}%  {row['calls'] // repeat:>8}  {row['where']}")
    print("   svcconf functions by cumulative time (with what they call)")
    for row in spots["cumulative"]:
        print(f"   {100 * row['share']:5.1f}%  {row['calls'] // repeat:>8}  {row['where']}")


def run(corpus: str, kinds: list[str] | None, top: int, repeat: int) -> None:
    from timing import compose

    files = corpus_files(corpus)
    groups = kind_folders(corpus, files)
    chosen = [k for k in groups if not kinds or k in kinds]
    if kinds and set(kinds) - set(groups):
        raise SystemExit(f"profile: no folder {sorted(set(kinds) - set(groups))} in {corpus}; there are {sorted(groups)}")
    print(f"profile of svcconf validate (jobs=1, in-process) on {corpus}, {repeat} runs per kind; shares are of each kind's profiled time")
    everything = None
    for kind in chosen:
        paths = groups[kind] if kind == "." else [os.path.join(corpus, kind)]
        validate(paths)  # untimed: imports, schemas and first-use caches
        stats = profile(paths, repeat)
        print_kind(kind, sum(compose(groups[kind])), hot_spots(stats, top), repeat)
        everything = stats if everything is None else everything.add(stats)
    if len(chosen) > 1:
        print_kind("all kinds above", sum(sum(compose(groups[k])) for k in chosen), hot_spots(everything, top), repeat)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Profile svcconf validate on each kind folder of a corpus.")
    parser.add_argument("--corpus", metavar="DIR", help="an existing corpus (default: generate the all-kinds corpus)")
    parser.add_argument(
        "--documents", type=int, default=make_corpus.DEFAULT_DOCUMENTS, metavar="N", help="documents of the generated corpus"
    )
    parser.add_argument("--seed", type=int, default=make_corpus.DEFAULT_SEED, metavar="S", help="seed of the generated corpus")
    parser.add_argument("--kind", action="append", metavar="NAME", help="profile only this sub-folder (repeatable)")
    parser.add_argument("--top", type=int, default=12, metavar="N", help="functions listed per kind and list (default 12)")
    parser.add_argument("--repeat", type=int, default=3, metavar="N", help="profiled runs per kind, added up (default 3)")
    args = parser.parse_args(argv)
    if args.corpus:
        run(args.corpus, args.kind, args.top, args.repeat)
        return 0
    with tempfile.TemporaryDirectory(prefix="svcconf-profile-") as tmp:
        corpus = os.path.join(tmp, "corpus")
        make_corpus.generate(corpus, args.documents, args.seed)
        run(corpus, args.kind, args.top, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
