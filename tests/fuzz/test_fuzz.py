"""The fuzz campaign in the suite: a small seeded run and a wrong-type sweep of every fixture.

Both pass only where every failure's cause is listed in KNOWN_FAILURES, and fail when a listed
cause no longer occurs (its fix landed: remove the entry). Seeds come from fixtures/ only, so the
run is the same with or without ../shared.
"""

from __future__ import annotations

import pytest

from .campaign import SWEEP_ROUNDS, Pool, Settings, cause_table, causes
from .known import KNOWN_FAILURES
from .seeds import load_seeds

SEED = 20261122
COUNT = 200  # some 10 s of CPU
JOBS = 2


@pytest.fixture(scope="module")
def found() -> dict[str, list]:
    campaign = Pool(Settings(SEED, COUNT, JOBS, corpus=False, process_every=25)).run(list(range(COUNT)))
    sweep_count = len(load_seeds(False)) * SWEEP_ROUNDS
    sweep = Pool(Settings(SEED, sweep_count, JOBS, corpus=False, sweep=True)).run(list(range(sweep_count)))
    assert len(campaign) == COUNT and len(sweep) == sweep_count
    return {"campaign": causes(campaign), "sweep": causes(sweep)}


@pytest.mark.parametrize("run", ["campaign", "sweep"])
def test_every_failure_has_a_known_cause(found, run: str) -> None:
    new = [c for c in found[run] if c.cause not in KNOWN_FAILURES]
    assert not new, f"new failure causes (reproduce with python -m tests.fuzz --no-corpus --seed {SEED} --case N):\n" + cause_table(
        new, KNOWN_FAILURES
    )


def test_every_known_cause_still_occurs(found) -> None:
    seen = {c.cause for run in found.values() for c in run}
    fixed = sorted(set(KNOWN_FAILURES) - seen)
    assert not fixed, "these causes no longer occur: remove them from KNOWN_FAILURES\n" + "\n".join(fixed)
