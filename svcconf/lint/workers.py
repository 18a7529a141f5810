"""Worker processes for a validate run: only as many as the work found pays for, forked from a parent that has compiled what they need.

A process that starts cold imports svcconf and compiles the schemas and rule modules of every kind
it meets: on a repository of a few hundred files that costs more than the checking, so workers
started by the number of cores made most runs dearer (1.3x the CPU time, and as much wall time
when other work shares the cores). Here the number of processes follows the work found (bytes,
and a fixed cost per file) and the cores idle when the run starts; on Linux the parent compiles
every schema and rule module once and then forks, so each worker starts with all of it; the
parent checks files too. Files go out in chunks of about equal work, in their order, taken by
whichever process is free; each chunk's results stream back as soon as it is done.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from ..settings.options import AUTO_JOBS

# A file costs about as much as 1 KB of its content (opening, reading, the per-file steps of the
# report). A forked worker costs about 0.1 s of CPU time (every kind compiled first, the pages it
# writes copied): with about 4 MB of work each (a second or more of checking) that is a few percent,
# and on the 100,000-document tree of bench/run.py 1.03x the CPU time of one process.
FILE_COST = 1024
WORK_PER_PROCESS = 4 << 20
# A worker started without fork imports and compiles everything itself: it needs several times the work.
SPAWNED_WORK_PER_PROCESS = 6 * WORK_PER_PROCESS
CHUNK_WORK = 256 << 10  # a chunk is about this much work; more chunks than processes even out the end
MOST_CHUNKS = 4096  # their numbers, 4 bytes each, wait in one pipe (64 KB on Linux)

Chunk = list[str]


def work_of(sizes: list[int]) -> int:
    """The work of files of these sizes, in bytes of content."""
    return sum(sizes) + FILE_COST * len(sizes)


def processes(sizes: list[int], jobs: int) -> int:
    """How many processes check files of these sizes: `jobs` when given (at most one per file), else what the work pays for."""
    if len(sizes) < 2:
        return 1
    if jobs != AUTO_JOBS:
        return max(1, min(jobs, len(sizes)))
    per_process = WORK_PER_PROCESS if can_fork() else SPAWNED_WORK_PER_PROCESS
    return max(1, min(idle_cores(), len(sizes), work_of(sizes) // per_process))


def idle_cores() -> int:
    """The cores this process may use that nothing else is running on right now (itself counted as idle).

    Where other work holds the cores (a CI runner's other jobs, an editor beside a hook), a second
    process gets no more CPU time: Linux shares a busy machine between sessions and containers, not
    processes (autogroups, cgroups). Measured on a 2-core machine at load 3-4, --jobs 2 took 1.13x
    the time and 1.14x the CPU time of --jobs 1 on a 16 MB tree. On Linux the count of runnable
    threads says what runs now; elsewhere the load average of the last minute.
    """
    cores = available_cores()
    try:
        with open("/proc/loadavg", encoding="ascii") as handle:
            others = int(handle.read().split()[3].split("/")[0]) - 1  # runnable now, this process included
    except (OSError, ValueError, IndexError):
        try:
            others = int(os.getloadavg()[0])
        except (AttributeError, OSError):
            others = 0
    return max(1, cores - max(0, others))


def available_cores() -> int:
    """The cores this process may run on: its CPU affinity, within a cgroup's CPU quota (a CI container's --cpus)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    try:
        with open("/sys/fs/cgroup/cpu.max", encoding="ascii") as handle:
            quota, period = handle.read().split()[:2]
        if quota != "max":
            cores = min(cores, max(1, -(-int(quota) // int(period))))
    except (OSError, ValueError):
        pass  # no cgroup v2 quota (not Linux, or no limit)
    return cores


def can_fork() -> bool:
    """Whether a worker may be forked: on Linux, from a process running one thread (a fork copies no other thread, and a
    lock another thread held stays locked in the child); elsewhere fork is unsafe or missing and workers start afresh."""
    if sys.platform != "linux" or not hasattr(os, "fork"):
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def chunks(files: list[str], sizes: list[int], count: int) -> list[Chunk]:
    """The files in `count` runs of about equal work, in their order (a folder's files, mostly of one kind, stay together)."""
    total = work_of(sizes)
    out: list[Chunk] = [[] for _ in range(count)]
    before = 0
    for path, size in zip(files, sizes):
        work = size + FILE_COST
        out[min(count - 1, (before + work // 2) * count // total)].append(path)  # where the file's middle falls
        before += work
    return [chunk for chunk in out if chunk]


def chunk_count(sizes: list[int], workers: int) -> int:
    return max(1, min(len(sizes), MOST_CHUNKS, max(4 * workers, work_of(sizes) // CHUNK_WORK)))


def warm_up() -> None:
    """Compile every schema, import every rule module, the CEL binding and what checking a document as migrate converts it
    needs, so that forked workers share them instead of each compiling what it meets."""
    from .. import cel, rules
    from ..known import catalog
    from ..known.schema import checker_for
    from . import after_migration  # noqa: F401 - imported to be inherited
    from .conversion import provided

    provided()  # migrate's conversions, imported to be inherited
    catalog.lifecycle()
    catalog.aliases()
    cel.missing_runtime()  # loads the CEL binding where it is installed
    for group, version, kind in catalog.schema_index():
        checker = checker_for(group, version, kind)
        if checker is not None:
            rules.rules_for(checker.schema.get("x-svcconf-rules"), kind)


def run(
    chunked: list[Chunk], check: Callable[[Chunk], list], count: int, done: Callable[[int], None] | None = None, warm: bool = False
) -> list:
    """`check` of every chunk in `count` processes; the results in the chunks' order. `done` is told how many files are done.

    With `warm`, forked workers start with every kind compiled (warm_up).
    """
    if can_fork():
        from .forking import run_forked

        if warm:
            warm_up()
        by_chunk = run_forked(chunked, check, count, done)
    else:
        by_chunk = _run_spawned(chunked, check, count, done)
    return [result for results in by_chunk for result in results]


def _run_spawned(chunked: list[Chunk], check: Callable[[Chunk], list], count: int, done: Callable[[int], None] | None) -> list[list]:
    """A pool of fresh processes where fork is not safe (`check` must pickle: a module's function, bound with partial)."""
    from concurrent.futures import ProcessPoolExecutor

    out = []
    files = 0
    with ProcessPoolExecutor(max_workers=count) as pool:
        for results in pool.map(check, chunked):
            out.append(results)
            files += len(results)
            if done is not None:
                done(files)
    return out
