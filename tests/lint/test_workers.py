"""Worker processes: started only when the work found pays for them, forced by --jobs, and giving the report one process gives."""

from __future__ import annotations

import os

import pytest

from svcconf.lint import forking, pipeline, workers
from svcconf.settings.options import AUTO_JOBS, ValidateOptions

POLICY = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: None\n  bogus: {n}\n"
KUBELET = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nhealthzPort: {n}\n"
# An old version: checked again as migrate would convert it (after_migration.py), in whichever process.
OLD_POLICY = "apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules:\n- level: Nonesuch\n"

needs_fork = pytest.mark.skipif(not workers.can_fork(), reason="workers are forked on Linux only")


def write_tree(folder, count: int) -> None:
    for n in range(count):
        template = (POLICY, KUBELET, OLD_POLICY)[n % 3]
        (folder / f"f{n:03}.yaml").write_text(template.format(n=70_000 + n) + "---\n" + "a: [1\n" * (n % 7 == 0))
    (folder / "bad.yaml").write_bytes(b"\xff\xfe\x00")
    (folder / "chart.yaml").write_text("{{ if .Values.x }}\nkind: {{ .Values.kind }}\n")  # not for svcconf: skipped, said with -v


def report(folder, jobs: int) -> tuple:
    found = pipeline.validate([str(folder)], ValidateOptions(jobs=jobs, list_skipped=True))
    return found.files, found.documents, found.skipped, found.diagnostics, found.skipped_paths, found.skipped_documents, found.suppressed


def started_processes(monkeypatch) -> list[int]:
    """The process counts runs ask workers.run for (nothing when a run stays in one process)."""
    counts: list[int] = []
    real = workers.run

    def counted(chunked, check, count, done=None, warm=False):
        counts.append(count)
        return real(chunked, check, count, done, warm)

    monkeypatch.setattr(workers, "run", counted)
    return counts


@pytest.mark.parametrize("jobs", [2, 3, 7])
def test_workers_give_the_report_one_process_gives(tmp_path, monkeypatch, jobs: int) -> None:
    write_tree(tmp_path, 40)
    alone = report(tmp_path, 1)
    counts = started_processes(monkeypatch)
    assert report(tmp_path, jobs) == alone
    assert counts == [jobs]
    rules = {d.rule for d in alone[3]}
    assert rules >= {"unknown-field", "yaml-syntax", "encoding-error", "kubelet-value-out-of-range", "removed-api-version"}
    assert any(d.migrated for d in alone[3])  # a finding of the converted document
    assert any(path.endswith("chart.yaml") for path, _why in alone[4])


@needs_fork
def test_warmed_workers_give_the_same_report(tmp_path, monkeypatch) -> None:
    write_tree(tmp_path, 30)
    alone = report(tmp_path, 1)
    monkeypatch.setattr(workers, "WORK_PER_PROCESS", 1)  # every kind compiled before forking, as for a large tree
    assert report(tmp_path, 2) == alone


def test_the_default_starts_workers_only_for_work_that_pays(tmp_path, monkeypatch) -> None:
    write_tree(tmp_path, 24)
    counts = started_processes(monkeypatch)
    monkeypatch.setattr(workers, "idle_cores", lambda: 4)
    alone = report(tmp_path, 1)
    assert report(tmp_path, AUTO_JOBS) == alone
    assert counts == []  # 26 small files: one process
    work = workers.work_of([path.stat().st_size for path in tmp_path.iterdir()])
    monkeypatch.setattr(workers, "WORK_PER_PROCESS", work // 3)  # three processes' worth
    monkeypatch.setattr(workers, "SPAWNED_WORK_PER_PROCESS", work // 3)
    assert report(tmp_path, AUTO_JOBS) == alone
    assert counts == [3]


@pytest.mark.parametrize("count", [2, 12])
def test_a_few_small_files_are_checked_in_one_process(tmp_path, monkeypatch, count: int) -> None:
    write_tree(tmp_path, count)
    counts = started_processes(monkeypatch)
    assert report(tmp_path, AUTO_JOBS)[1] > 0
    assert counts == []


def test_processes_follow_the_work_and_never_pass_the_files_or_idle_cores(monkeypatch) -> None:
    monkeypatch.setattr(workers, "idle_cores", lambda: 2)
    monkeypatch.setattr(workers, "can_fork", lambda: True)
    big = workers.WORK_PER_PROCESS
    assert workers.processes([big], AUTO_JOBS) == 1  # one file: nothing to share
    assert workers.processes([big // 4] * 7, AUTO_JOBS) == 1  # less than two processes' worth
    assert workers.processes([big] * 2, AUTO_JOBS) == 2
    assert workers.processes([big] * 9, AUTO_JOBS) == 2  # no more than the cores
    assert workers.processes([10] * 5, 8) == 5  # --jobs forces its count, one file a process at most
    assert workers.processes([10] * 5, 3) == 3
    monkeypatch.setattr(workers, "idle_cores", lambda: 1)
    assert workers.processes([big] * 9, AUTO_JOBS) == 1  # other work holds the other core
    assert workers.processes([10] * 5, 3) == 3  # --jobs forces its count whatever runs beside it
    monkeypatch.setattr(workers, "idle_cores", lambda: 2)
    monkeypatch.setattr(workers, "can_fork", lambda: False)
    assert workers.processes([big] * 2, AUTO_JOBS) == 1  # a fresh worker needs more work to pay


def test_chunks_keep_the_files_order_and_even_out_the_work() -> None:
    files = [f"f{n}" for n in range(10)]
    sizes = [100, 100, 100, 100, 10_000, 100, 100, 100, 100, 100]
    chunked = workers.chunks(files, sizes, 4)
    assert [path for chunk in chunked for path in chunk] == files
    assert ["f4"] in chunked  # the large file alone; the others around it


def fake_proc(monkeypatch, tmp_path) -> dict:
    """/sys/fs/cgroup/cpu.max and /proc/loadavg read from files of the test's own; a machine of 4 cores."""
    files = {"/sys/fs/cgroup/cpu.max": tmp_path / "cpu.max", "/proc/loadavg": tmp_path / "loadavg"}
    real_open = open

    def fake_open(path, *args, **kwargs):
        return real_open(files.get(path, path), *args, **kwargs)

    monkeypatch.setattr("builtins.open", fake_open)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1, 2, 3}, raising=False)
    return files


def test_a_cgroup_quota_caps_the_cores(monkeypatch, tmp_path) -> None:
    quota = fake_proc(monkeypatch, tmp_path)["/sys/fs/cgroup/cpu.max"]
    quota.write_text("150000 100000\n")
    assert workers.available_cores() == 2
    quota.write_text("max 100000\n")
    assert workers.available_cores() == 4


@pytest.mark.parametrize(("runnable", "idle"), [(1, 4), (2, 3), (4, 1), (9, 1)])
def test_cores_other_work_runs_on_are_not_idle(monkeypatch, tmp_path, runnable: int, idle: int) -> None:
    files = fake_proc(monkeypatch, tmp_path)
    files["/sys/fs/cgroup/cpu.max"].write_text("max 100000\n")
    files["/proc/loadavg"].write_text(f"3.10 2.90 2.50 {runnable}/312 4242\n")  # this process is one of the runnable
    assert workers.idle_cores() == idle


@needs_fork
def test_a_worker_that_dies_leaves_its_chunks_to_the_parent(monkeypatch) -> None:
    parent = os.getpid()

    def check(chunk: list[str]) -> list:
        if os.getpid() != parent:
            os._exit(3)  # the worker dies before it answers
        return [name.upper() for name in chunk]

    chunked = [[f"c{n}a", f"c{n}b"] for n in range(12)]
    assert forking.run_forked(chunked, check, 3) == [[name.upper() for name in chunk] for chunk in chunked]


@needs_fork
def test_progress_counts_every_file_once() -> None:
    seen: list[int] = []
    chunked = [[f"{n}-{i}" for i in range(n % 3 + 1)] for n in range(20)]
    results = forking.run_forked(chunked, lambda chunk: [len(name) for name in chunk], 2, seen.append)
    assert results == [[len(name) for name in chunk] for chunk in chunked]
    assert seen == sorted(seen) and seen[-1] == sum(map(len, chunked))
