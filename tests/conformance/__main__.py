"""Print how far svcconf agrees with the upstream validation tests: python -m tests.conformance --summary."""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from tests.conformance.check import agrees
from tests.conformance.table import load_all


def tally(cases) -> dict[str, Counter]:
    """Per area: cases run, cases agreeing, skipped, deliberate differences and known disagreements."""
    counts: dict[str, Counter] = {}
    for case in cases:
        count = counts.setdefault(case.area, Counter())
        if case.skip:
            count["skipped"] += 1
        elif case.deliberate:
            count["deliberate"] += 1
        else:
            count["run"] += 1
            count["agrees"] += agrees(case)
            count["disagrees"] += bool(case.disagrees)
    return counts


def sentence(count: Counter) -> str:
    return (
        f"agrees with {count['agrees']} of {count['run']} upstream validation test cases; "
        f"{count['skipped']} skipped; {count['deliberate']} deliberate differences"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.conformance", description=__doc__.splitlines()[0])
    parser.add_argument("--summary", action="store_true", help="print only the one-line total")
    args = parser.parse_args(argv)
    counts = tally(load_all())
    total = sum(counts.values(), Counter())
    if not args.summary:
        width = max(map(len, counts))
        for area, count in sorted(counts.items()):
            known = count["disagrees"]
            marked = f" ({known} known disagreement{'s' * (known != 1)})" if known else ""
            print(f"{area:<{width}}  {sentence(count)}{marked}")
    print(f"svcconf {sentence(total)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
