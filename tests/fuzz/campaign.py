"""A campaign: cases 0..N-1 of one seed checked by worker processes, a summary, and the failing inputs kept.

Workers are separate processes so that a hang the time limit cannot interrupt (inside C code)
costs one worker, which is killed and replaced, not the campaign.
"""

from __future__ import annotations

import gc
import json
import multiprocessing
import os
import re
import resource
import shutil
import tempfile
import time
from multiprocessing.connection import wait
from typing import NamedTuple

from .checks import CATEGORIES, TIME_LIMIT, Failure, migrate_limit
from .generate import SWEEP_ROUNDS, Case, make_case, sweep_case
from .seeds import Seed, load_seeds

HARD_LIMIT = 8 * TIME_LIMIT + 20  # seconds of CPU time for a whole case (several calls, each under TIME_LIMIT)
WALL_LIMIT = 900  # seconds for a whole case however busy the machine: only a worker that waits forever meets it
MEMORY_LIMIT = 6 * 1024**3  # bytes of address space per worker: an input that needs more fails as MemoryError


class Outcome(NamedTuple):
    index: int
    seed: str
    steps: tuple[str, ...]
    name: bytes
    size: int
    seconds: float  # CPU time of the slowest call into svcconf
    phase: str  # that call
    failures: tuple[Failure, ...]


class Settings(NamedTuple):
    seed: int
    count: int
    jobs: int = 1
    corpus: bool = True
    process_every: int = 25  # every n-th case also runs as child processes (0: never)
    start: int = 0
    sweep: bool = False  # instead of the campaign: every seed SWEEP_ROUNDS times with wrong types, checked quickly


def case_for(settings: Settings, index: int, seeds: tuple[Seed, ...]) -> Case:
    if settings.sweep:
        return sweep_case(settings.seed, seeds[index // SWEEP_ROUNDS], index)
    return make_case(settings.seed, index, seeds)


def run_one(case: Case, settings: Settings) -> list[Failure]:
    from .checks import check_case, guarded

    failures = check_case(case, full=not settings.sweep)
    sampled = settings.process_every and case.index % settings.process_every == 0
    # A file name meets argv and stdout only in a process: cases with odd names are sampled five times as often.
    sampled = sampled or (settings.process_every and "odd-name" in case.steps and case.index % 5 == 0)
    if not settings.sweep and sampled and not any(f.category == "hang" for f in failures):
        from svcconf.migrate import migrate_bytes

        from .process import check_process

        migrated = (
            guarded(
                "migrate for a killed write", lambda: migrate_bytes(case.path, case.data).output, failures, migrate_limit(len(case.data))
            )
            if not failures
            else None
        )
        failures += check_process(case, migrated)
        from .settings import check_settings  # hostile .gitignore, exclude and baseline around the case's file

        failures += check_settings(case)
        from .server import check_server  # the same file through a long-lived language server

        failures += check_server(case)
        from .hostile import check_hostile  # budget-busting aliases and CEL, special files named to every command

        failures += check_hostile(case)
    return failures


def _worker(connection, settings: Settings, scratch: str) -> None:
    from .checks import SLOWEST, install_hooks

    # What lives on from case to case (the heap forked from the parent, all of pytest's in the suite; modules;
    # the seeds' parsed nodes) is frozen: the collection after each case walks only what that case made.
    gc.freeze()
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    os.chdir(tempfile.mkdtemp(dir=scratch))  # each case's file is written here under its odd name
    install_hooks()
    seeds = load_seeds(settings.corpus)
    while True:
        index = connection.recv()
        if index is None:
            break
        try:
            case = case_for(settings, index, seeds)
        except Exception as err:  # noqa: BLE001 - a generator bug must show, not stop the campaign
            connection.send(Outcome(index, "?", ("generator",), b"", 0, 0.0, "", (Failure("traceback", f"generator: {err!r}", ""),)))
            continue
        SLOWEST[:] = [0.0, ""]
        failures = run_one(case, settings)
        connection.send(Outcome(index, case.seed, case.steps, case.name, len(case.data), SLOWEST[0], SLOWEST[1], tuple(failures)))
        # An interrupted call leaves its work in reference cycles (traceback <-> frames): free it now,
        # untimed, rather than inside the next case's time limit; what survives is frozen (see above).
        del case, failures
        gc.collect()
        gc.freeze()


def _cpu_seconds(pid: int) -> float:
    """User and system time of a process so far (Linux): a hard limit that a busy machine does not trip."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Pool:
    """Worker processes fed one case number at a time; a worker stuck past HARD_LIMIT is replaced."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.context = multiprocessing.get_context("fork")
        self.workers: list[list] = []  # [process, connection, case index or None, started (wall), started (CPU)]
        self.scratch = ""

    def _spawn(self) -> list:
        parent, child = self.context.Pipe()
        process = self.context.Process(target=_worker, args=(child, self.settings, self.scratch), daemon=True)
        process.start()
        return [process, parent, None, 0.0, 0.0]

    def run(self, indices: list[int], progress=None) -> list[Outcome]:
        pending = list(reversed(indices))
        results: list[Outcome] = []
        self.scratch = tempfile.mkdtemp(prefix="svcconf-fuzz-")
        self.workers = [self._spawn() for _ in range(max(1, min(self.settings.jobs, len(indices))))]
        try:
            while pending or any(w[2] is not None for w in self.workers):
                for worker in self.workers:
                    if worker[2] is None and pending:
                        worker[2], worker[3], worker[4] = pending.pop(), time.monotonic(), _cpu_seconds(worker[0].pid)
                        worker[1].send(worker[2])
                busy = [w for w in self.workers if w[2] is not None]
                for connection in wait([w[1] for w in busy], timeout=1.0):
                    worker = next(w for w in busy if w[1] is connection)
                    try:
                        results.append(connection.recv())
                    except EOFError:  # the worker died (out of memory, a signal): the case is the cause
                        results.append(self._lost(worker, "worker died"))
                        continue
                    worker[2] = None
                    if progress:
                        progress(results[-1], len(results), len(indices))
                for worker in busy:
                    if worker[2] is None:
                        continue
                    if _cpu_seconds(worker[0].pid) - worker[4] > HARD_LIMIT:
                        results.append(self._lost(worker, f"not interruptible, over {HARD_LIMIT:g} s of CPU time"))
                    elif time.monotonic() - worker[3] > WALL_LIMIT:
                        results.append(self._lost(worker, f"not interruptible, waiting over {WALL_LIMIT} s"))
        finally:
            for worker in self.workers:
                if worker[0].is_alive():
                    worker[1].send(None)
                    worker[0].join(timeout=5)
                    if worker[0].is_alive():
                        worker[0].kill()
            shutil.rmtree(self.scratch, ignore_errors=True)
        return sorted(results, key=lambda o: o.index)

    def _lost(self, worker: list, why: str) -> Outcome:
        index = worker[2]
        worker[0].kill()
        worker[0].join()
        worker[:] = self._spawn()
        case = case_for(self.settings, index, load_seeds(self.settings.corpus))
        category = "hang" if "interruptible" in why else "traceback"
        failure = Failure(category, f"{category}: worker {why.split(',')[0]}", why)
        return Outcome(index, case.seed, case.steps, case.name, len(case.data), HARD_LIMIT, "?", (failure,))


# --------------------------------------------------------------------------- results


HEADERS = {
    "traceback": "tracebacks",
    "internal-error": "internal errors",
    "hang": "hangs",
    "secret": "secrets shown",
    "malformed-report": "malformed reports",
    "migrate-loss": "migrate losses",
    "stray-write": "stray writes",
}
assert tuple(HEADERS) == CATEGORIES


class Cause(NamedTuple):
    category: str
    cause: str
    inputs: int
    smallest: Outcome  # the smallest failing input: the one to reproduce with
    detail: str


def causes(outcomes: list[Outcome]) -> list[Cause]:
    grouped: dict[str, list[tuple[Outcome, Failure]]] = {}
    for outcome in outcomes:
        seen = set()
        for failure in outcome.failures:
            if failure.cause not in seen:
                seen.add(failure.cause)
                grouped.setdefault(failure.cause, []).append((outcome, failure))
    out = []
    for cause, hits in grouped.items():
        outcome, failure = min(hits, key=lambda h: (h[0].size, h[0].index))
        out.append(Cause(failure.category, cause, len(hits), outcome, failure.detail))
    return sorted(out, key=lambda c: (CATEGORIES.index(c.category), -c.inputs, c.cause))


def summary_table(outcomes: list[Outcome]) -> str:
    """One row of counts: inputs, and inputs with at least one failure of each category."""
    headers = ("inputs", *HEADERS.values(), "slow (>1 s CPU)")
    counts = [len(outcomes)]
    counts += [sum(1 for o in outcomes if any(f.category == c for f in o.failures)) for c in CATEGORIES]
    counts.append(sum(1 for o in outcomes if o.seconds > 1 and not o.failures))
    widths = [max(len(h), len(str(n))) for h, n in zip(headers, counts)]
    return "  ".join(h.rjust(w) for h, w in zip(headers, widths)) + "\n" + "  ".join(str(n).rjust(w) for n, w in zip(counts, widths))


def cause_table(found: list[Cause], known: dict[str, str]) -> str:
    lines = []
    for cause in found:
        mark = "known" if cause.cause in known else "NEW"
        o = cause.smallest
        lines.append(
            f"{mark:5} {cause.inputs:5}  {cause.cause}\n             smallest: case {o.index} ({o.size} bytes, {o.seed}, {'+'.join(o.steps)})"
        )
    return "\n".join(lines)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.]+", "-", text).strip("-")[:90]


def write_failures(folder: str, settings: Settings, outcomes: list[Outcome]) -> None:
    """Each failing input in a folder named after its cause, and failures.json listing all of them."""
    seeds = load_seeds(settings.corpus)
    os.makedirs(folder, exist_ok=True)
    listing = []
    for outcome in outcomes:
        if not outcome.failures:
            continue
        case = case_for(settings, outcome.index, seeds)
        for failure in outcome.failures:
            target = os.path.join(folder, failure.category, _slug(failure.cause))
            os.makedirs(target, exist_ok=True)
            suffix = os.fsdecode(case.name)[-5:] if case.name.endswith((b".yaml", b".json")) else ".yaml"
            with open(os.path.join(target, f"case-{case.index}{suffix}"), "wb") as handle:
                handle.write(case.data)
        listing.append(
            {
                "case": case.index,
                "seed": case.seed,
                "steps": list(case.steps),
                "name": repr(case.name),
                "size": len(case.data),
                "failures": [f._asdict() for f in outcome.failures],
                "reproduce": f"python -m tests.fuzz --seed {settings.seed} --case {case.index}"
                + " --sweep" * settings.sweep
                + " --no-corpus" * (not settings.corpus),
            }
        )
    with open(os.path.join(folder, "failures.json"), "w", encoding="utf-8") as handle:
        json.dump(listing, handle, indent=1, ensure_ascii=False)
        handle.write("\n")
