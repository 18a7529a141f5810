"""Measuring tools of the benchmark: the files svcconf reads, bare composition, interleaved repetitions, timed commands and peak memory."""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

SUFFIXES = (".yaml", ".yml", ".json")  # what `svcconf validate DIR` reads
# Commands run as an installed tool runs: with byte-code caches (pip writes them at install time).
COMMAND_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def corpus_files(corpus: str) -> list[str]:
    """The files svcconf validate reads in a folder, in its order (hidden folders skipped)."""
    found = []
    for folder, dirs, names in os.walk(corpus):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "node_modules")
        found.extend(os.path.join(folder, n) for n in sorted(names) if n.endswith(SUFFIXES))
    return found


def compose(files: list[str]) -> list[int]:
    """Bare libyaml composition: read, decode and compose every file; documents per file."""
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


def validate(paths: list[str], jobs: int = 1):
    """The library entry point behind `svcconf validate`, without rendering."""
    import svcconf

    try:  # the library's options since they moved out of the pipeline; before that, pipeline.Options
        from svcconf import ValidateOptions as options
    except ImportError:
        from svcconf.pipeline import Options as options
    return svcconf.validate(paths, options(jobs=jobs))


def timed(function: Callable, *args):
    start = time.perf_counter()
    result = function(*args)
    return time.perf_counter() - start, result


def interleaved(measurements: dict[str, Callable[[], object]], repeats: int) -> dict[str, list[float]]:
    """Seconds of each measurement, repeated in turn (a, b, c, a, b, c, ...) so a slow spell of the machine hits all alike."""
    samples: dict[str, list[float]] = {key: [] for key in measurements}
    for _ in range(repeats):
        for key, measurement in measurements.items():
            samples[key].append(timed(measurement)[0])
    return samples


def median(samples: list[float]) -> float:
    return statistics.median(samples)


def ratio(x: float | None, y: float | None) -> float | None:
    return x / y if x is not None and y else None


def find_script(name: str) -> str | None:
    """A console script of the running Python's environment (the venv), else one on PATH."""
    beside = Path(sys.executable).parent / name  # not resolved: a venv's python is a symlink
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which(name)


def children_cpu() -> float:
    """CPU seconds (user + system) of every child process reaped so far, with the children they reaped."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def load_average() -> float | None:
    try:
        return os.getloadavg()[0]
    except OSError:  # not on every platform
        return None


def run_command(argv: list[str], cwd: str, ok: tuple[int, ...] = (0,)) -> float:
    """Wall time of a fresh process; a failing command stops the benchmark with its stderr."""
    start = time.perf_counter()
    done = subprocess.run(
        argv, check=False, cwd=cwd, env=COMMAND_ENV, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    elapsed = time.perf_counter() - start
    if done.returncode not in ok:
        raise SystemExit(f"bench: {' '.join(argv)} exited {done.returncode}:\n{done.stderr.decode(errors='replace')[-2000:]}")
    return elapsed


# Peak memory is read from the child's rusage (wait4), but on Linux a process's ru_maxrss also
# counts the memory of whatever process it was started from (the kernel keeps the high-water mark
# of the address space replaced at exec): a child of this benchmark, which holds the corpus in
# memory, would report at least the benchmark's own size. So a minimal Python (-S, os only)
# starts the command and reports the command's rusage; its own few megabytes are below any
# svcconf run. The command's output goes to /dev/null, its errors to ours.
_SPAWN = (
    "import os, sys\n"
    "devnull = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)]\n"
    "pid = os.posix_spawn(sys.argv[1], sys.argv[1:], os.environ, file_actions=devnull)\n"
    "_pid, status, usage = os.wait4(pid, 0)\n"
    "print(usage.ru_maxrss, os.waitstatus_to_exitcode(status))\n"
)


def peak_rss(argv: list[str], cwd: str, ok: tuple[int, ...] = (0, 1)) -> tuple[int, float]:
    """(peak resident set size in bytes, wall seconds) of one fresh process running argv (argv[0] a path)."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-S", "-c", _SPAWN, *argv], check=False, cwd=cwd, env=COMMAND_ENV, stdin=subprocess.DEVNULL, capture_output=True
    )
    elapsed = time.perf_counter() - start
    fields = done.stdout.split()
    if done.returncode != 0 or len(fields) != 2 or int(fields[1]) not in ok:
        raise SystemExit(f"bench: {' '.join(argv)} failed ({done.returncode}, {fields}):\n{done.stderr.decode(errors='replace')[-2000:]}")
    # ru_maxrss is in kilobytes on Linux, in bytes on macOS.
    return int(fields[0]) * (1 if sys.platform == "darwin" else 1024), elapsed
