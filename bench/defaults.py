"""The default run (no --jobs) against --jobs 1 at every size, and --jobs 2 on the largest tree: fresh processes, paired.

The default chooses its worker processes from the work it finds (svcconf/lint/workers.py); it must
never be slower than one process, from one file to the largest tree, and on the real corpus it
must cost no more CPU time than one process either. Each round runs every mode once, one after the
other (--jobs 1, the default, and --jobs 2 on the largest tree), so that a slow spell of the machine
hits them alike; each figure is the median of its rounds, each ratio taken from those medians.
CPU time is that of the process and its workers. On the largest tree the --jobs 1 runs go through
timing.peak_rss, which also gives the tree's peak memory; each of its rounds runs the CPU-bound loop
alone and two at once too, to say how many cores a perfectly parallel job got meanwhile.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import NamedTuple

from timing import children_cpu, corpus_files, load_average, median, peak_rss, ratio, run_command

MODES = {"jobs1": ["--jobs", "1"], "default": [], "jobs2": ["--jobs", "2"]}
# A CPU-bound loop of about 0.2 s: run alone and two at once, it shows how many cores the machine gives right now.
BUSY_LOOP = "total = 0\nfor i in range(3_000_000):\n    total += i"


class Size(NamedTuple):
    name: str  # how the report names it
    paths: list[str]
    runs: int  # rounds
    largest: bool = False  # --jobs 2 too, the parallel loop, and the peak memory of --jobs 1
    real: bool = False  # real files: the default must cost no more CPU time than one process
    documents: int = 0  # of a tree (for the report)
    bytes: int = 0


def _two_at_once(argv: list[str], cwd: str) -> float:
    start = time.perf_counter()
    processes = [subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL) for _ in range(2)]
    for process in processes:
        process.wait()
    return time.perf_counter() - start


def _run(svcconf_bin: str, mode: str, paths: list[str], cwd: str, peak: bool) -> tuple[float, float, int | None]:
    """(wall seconds, CPU seconds of the process and its workers, peak RSS when asked) of one fresh run."""
    argv = [svcconf_bin, "validate", "--no-config", *MODES[mode], *paths]
    before = children_cpu()
    if peak:
        rss, wall = peak_rss(argv, cwd)
    else:
        rss, wall = None, run_command(argv, cwd, (0, 1))
    return wall, children_cpu() - before, rss


def _processes(files: list[str]) -> int | None:
    """How many processes the default starts for these files on an idle machine: svcconf's own choice, made here the same way
    but for the cores other work holds when a run starts (then it starts fewer)."""
    try:
        from svcconf.lint import workers
        from svcconf.settings.options import AUTO_JOBS
    except ImportError:  # a version of svcconf before this choice: one worker per core
        return None

    idle_cores = workers.idle_cores
    workers.idle_cores = workers.available_cores
    try:
        return workers.processes([os.path.getsize(f) for f in files], AUTO_JOBS)
    finally:
        workers.idle_cores = idle_cores


def measure(svcconf_bin: str, cwd: str, sizes: list[Size]) -> dict:
    """Per size: medians of wall and CPU time of each mode, and the ratios to --jobs 1."""
    out: dict = {"sizes": []}
    loop = [sys.executable, "-c", BUSY_LOOP]
    alone: list[float] = []
    together: list[float] = []
    for size in sizes:
        modes = ["jobs1", "default", "jobs2"] if size.largest else ["jobs1", "default"]
        samples: dict[str, list[tuple[float, float]]] = {mode: [] for mode in modes}
        peaks: list[int] = []
        if not size.largest:
            run_command([svcconf_bin, "validate", "--no-config", *size.paths], cwd, (0, 1))  # untimed: page cache
        loads = [load_average()]
        for _ in range(size.runs):
            for mode in modes:
                wall, cpu, rss = _run(svcconf_bin, mode, size.paths, cwd, peak=size.largest and mode == "jobs1")
                samples[mode].append((wall, cpu))
                peaks += [rss] if rss else []
            if size.largest:
                alone.append(run_command(loop, cwd))
                together.append(_two_at_once(loop, cwd))
        loads.append(load_average())
        files = [f for p in size.paths for f in (corpus_files(p) if os.path.isdir(p) else [p])]
        figures: dict = {"name": size.name, "files": len(files), "real_corpus": size.real, "default_processes": _processes(files)}
        for mode in modes:
            figures[f"{mode}_s"] = median([wall for wall, _cpu in samples[mode]])
            figures[f"{mode}_cpu_s"] = median([cpu for _wall, cpu in samples[mode]])
        figures["default_wall_ratio"] = ratio(figures["default_s"], figures["jobs1_s"])
        figures["default_cpu_ratio"] = ratio(figures["default_cpu_s"], figures["jobs1_cpu_s"])
        figures["load_average"] = max((load for load in loads if load is not None), default=None)
        if size.largest:
            figures["jobs2_speedup"] = ratio(figures["jobs1_s"], figures["jobs2_s"])
            figures["jobs2_cpu_ratio"] = ratio(figures["jobs2_cpu_s"], figures["jobs1_cpu_s"])
            figures["peak_rss_bytes"] = max(peaks) if peaks else None
            out["largest"] = figures
        out["sizes"].append(figures)
    out["cores_available"] = ratio(2 * median(alone), median(together)) if alone else None
    return out
