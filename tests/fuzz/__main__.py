"""`python -m tests.fuzz`: run a campaign and print its summary, or re-run one case and show what fails.

python -m tests.fuzz --count 10000 --seed 7 --jobs 2     # campaign; failing inputs go to --out
python -m tests.fuzz --seed 7 --case 1234                 # one case: its input, its failures
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

from .campaign import SWEEP_ROUNDS, Pool, Settings, case_for, cause_table, causes, run_one, summary_table, write_failures
from .known import KNOWN_FAILURES
from .seeds import load_seeds


def _progress(outcome, done: int, total: int) -> None:
    if done % 100 == 0 or done == total:
        sys.stderr.write(f"\r{done}/{total} cases")
        sys.stderr.flush()
        if done == total:
            sys.stderr.write("\n")


def _one(settings: Settings, index: int, keep: str | None) -> int:
    from .checks import install_hooks

    case = case_for(settings, index, load_seeds(settings.corpus))
    print(f"case {index}: seed {case.seed}, steps {'+'.join(case.steps) or '-'}, name {case.name!r}, {len(case.data)} bytes")
    if keep:
        with open(keep, "wb") as handle:
            handle.write(case.data)
        print(f"input written to {keep}")
    install_hooks()
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="svcconf-fuzz-") as scratch:
        os.chdir(scratch)
        try:
            failures = run_one(case, settings._replace(process_every=1))
        finally:
            os.chdir(cwd)
    for failure in failures:
        print(f"{failure.category}: {failure.cause}\n    {failure.detail}")
    print("no failure" if not failures else f"{len(failures)} failures")
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description="Hostile and mutated inputs against svcconf.")
    parser.add_argument("--seed", type=int, default=1, help="campaign seed: the same seed makes the same cases (default: 1)")
    parser.add_argument("--count", type=int, default=1000, help="number of cases (default: 1000)")
    parser.add_argument("--start", type=int, default=0, help="first case number (default: 0)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (default: number of cores)")
    parser.add_argument("--process-every", type=int, default=25, metavar="N", help="run every N-th case as child processes too (0: never)")
    parser.add_argument("--no-corpus", action="store_true", help="seed from fixtures/ only, not ../shared/corpus")
    parser.add_argument("--out", default="fuzz-failures", help="folder for failing inputs (default: ./fuzz-failures)")
    parser.add_argument("--sweep", action="store_true", help=f"instead: every seed {SWEEP_ROUNDS} times with wrong types, quick checks")
    parser.add_argument("--case", type=int, help="re-run this one case, with every check, and print its failures")
    parser.add_argument("--keep", metavar="FILE", help="with --case: also write the case's input to FILE")
    args = parser.parse_args(argv)
    settings = Settings(args.seed, args.count, args.jobs, not args.no_corpus, args.process_every, args.start, args.sweep)
    if args.case is not None:
        return _one(settings, args.case, args.keep)

    seeds = load_seeds(settings.corpus)
    if settings.sweep:
        settings = settings._replace(start=0, count=len(seeds) * SWEEP_ROUNDS)
    print(
        f"seed {settings.seed}: cases {settings.start}..{settings.start + settings.count - 1} from {len(seeds)} seed files, {settings.jobs} jobs"
    )
    started = time.monotonic()
    outcomes = Pool(settings).run(list(range(settings.start, settings.start + settings.count)), _progress)
    found = causes(outcomes)
    print(f"{time.monotonic() - started:.0f} s\n")
    print(summary_table(outcomes))
    slow = sorted((o for o in outcomes if not o.failures and o.seconds > 1), key=lambda o: -o.seconds)[:10]
    if slow:
        print("\nslowest passing cases (CPU seconds of one call):")
        for o in slow:
            print(f"  {o.seconds:5.1f} s  {o.phase:18} case {o.index} ({o.size} bytes, {o.seed}, {'+'.join(o.steps)})")
    if found:
        print(f"\n{len(found)} causes (inputs, cause, smallest input):")
        print(cause_table(found, KNOWN_FAILURES))
        write_failures(args.out, settings, outcomes)
        print(f"\nfailing inputs and failures.json written to {args.out}/")
    new = [c for c in found if c.cause not in KNOWN_FAILURES]
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main())
