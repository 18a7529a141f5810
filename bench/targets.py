"""Every target of the benchmark, judged on one run's figures: met, within noise, MISSED, or not judged and why."""

from __future__ import annotations

from typing import NamedTuple

NOISE = 0.05  # a ratio this close to its target is within the spread of one run on a shared machine
IDLE_CORES = 1.9  # the parallel loop got about two cores: the machine was idle enough to judge a speed-up

# The targets (bench/README.md says why each is what it is).
DEFAULT_WALL_MAX = 1.0  # the default against --jobs 1, at every size
DEFAULT_CPU_MAX = 1.1  # the default against --jobs 1 on the real corpus: no worker where it does not pay
JOBS2_SPEEDUP_MIN = 1.8  # --jobs 2 on the largest tree, on 2 idle cores
FLOOR_MAX = 1.15  # svcconf on one small file against python -c "import yaml, jsonschema_rs"
MIGRATE_MB_S_MIN = 1.0  # migrate on a 1 MB file in which one document in ten is rewritten
MIGRATE_OVER_VALIDATE_MIN = 0.5  # migrate with nothing to convert, against validate on the same file
MIGRATE_GROWTH_MAX = 11.0  # migrate on 10x the documents
THROUGHPUT_MIN = 0.7  # b/a on the whole corpus, in-process
DOCUMENT_GROWTH_MAX = 11.0  # 10x the documents in one file, every kind
FILE_GROWTH_MAX = 10.0  # 10x the files
LARGEST_FILE_MEMORY_MAX = 10.0  # peak memory above the constant, per byte of the largest file
TREE_MEMORY_MAX_MB = 150.0  # the largest tree


class Target(NamedTuple):
    name: str
    value: float | None
    limit: float
    at_most: bool
    unjudged: str | None = None  # why the figure cannot be judged fairly in this run

    @property
    def verdict(self) -> str:
        if self.value is None:
            return "not measured"
        met = self.value <= self.limit if self.at_most else self.value >= self.limit
        outcome = "met" if met else "within noise" if abs(self.value - self.limit) <= NOISE * self.limit else "MISSED"
        return f"{outcome} (not judged fairly: {self.unjudged})" if self.unjudged and not met else outcome

    def line(self) -> str:
        value = "n/a" if self.value is None else f"{self.value:.2f}"
        return f"{self.name:<58} {value:>7}  {'<=' if self.at_most else '>='} {self.limit:g}  {self.verdict}"


def judge(r: dict) -> list[Target]:
    """The targets of a run's figures (the dict bench/run.py builds), in the order the report gives them."""
    out: list[Target] = []
    busy = _busy(r)
    d = r.get("defaults") or {}
    for size in d.get("sizes", []):
        out.append(Target(f"default / --jobs 1 wall, {size['name']}", size["default_wall_ratio"], DEFAULT_WALL_MAX, True, busy))
        if size.get("real_corpus"):
            out.append(Target(f"default / --jobs 1 CPU, {size['name']}", size["default_cpu_ratio"], DEFAULT_CPU_MAX, True))
    largest = d.get("largest")
    if largest:
        cores = d.get("cores_available")
        scaled = largest["jobs2_speedup"] * 2 / cores if largest.get("jobs2_speedup") and cores else None
        idle = None if cores and cores >= IDLE_CORES else f"the parallel loop got {cores or 0:.2f} of 2 cores"
        out.append(
            Target(f"--jobs 2 speed-up on 2 idle cores (scaled by the loop), {largest['name']}", scaled, JOBS2_SPEEDUP_MIN, False, idle)
        )
    startup = r.get("startup", {}).get("ratios", {})
    out.append(Target("one small file / import yaml, jsonschema_rs (wall)", startup.get("svcconf_over_floor"), FLOOR_MAX, True))
    m = r.get("migrate")
    if m:
        mb = m["files"]["rewrite"]["bytes"] / 1e6
        out.append(Target(f"migrate MB/s, {mb:.1f} MB, one document in ten rewritten", m["rewrite_mb_per_s"], MIGRATE_MB_S_MIN, False))
        out.append(Target("migrate / validate speed, nothing to convert", m["nothing_over_validate"], MIGRATE_OVER_VALIDATE_MIN, False))
        out.append(Target("migrate growth for 10x the documents", m["growth"], MIGRATE_GROWTH_MAX, True))
    out.append(Target("b/a, whole corpus, in-process", r["throughput"]["b_over_a"], THROUGHPUT_MIN, False))
    worst = max(r["growth"].values(), key=lambda g: g["svcconf_ratio"] or 0)
    out.append(Target("growth for 10x the documents in one file, worst kind", worst["svcconf_ratio"], DOCUMENT_GROWTH_MAX, True))
    out.append(Target("growth for 10x the files", r["file_growth"]["ratio"], FILE_GROWTH_MAX, True))
    memory = r["memory"]
    out.append(
        Target("peak memory above the constant / largest file size", memory["largest_growth_over_file"], LARGEST_FILE_MEMORY_MAX, True)
    )
    if memory.get("tree_peak_bytes"):
        out.append(Target("peak memory MB, largest tree, --jobs 1", memory["tree_peak_bytes"] / 1e6, TREE_MEMORY_MAX_MB, True))
    return out


def _busy(r: dict) -> str | None:
    """Why wall-time comparisons of processes are not fair in this run (other work held the cores), or None."""
    load = r.get("load_average") or {}
    highest = max(
        load.get("start") or 0, load.get("end") or 0, *(s.get("load_average") or 0 for s in (r.get("defaults") or {}).get("sizes", []))
    )
    return f"load average up to {highest:.1f} on {r['cpus']} cores" if highest > r["cpus"] else None
