"""Worker processes: started only when the input pays for them, and giving the report one process gives."""

from __future__ import annotations

import concurrent.futures

import pytest

from svcconf import pipeline
from svcconf.options import ValidateOptions

POLICY = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: None\n  bogus: {n}\n"
KUBELET = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nhealthzPort: {n}\n"


def write_tree(folder, count: int) -> None:
    for n in range(count):
        template = POLICY if n % 3 else KUBELET
        (folder / f"f{n:03}.yaml").write_text(template.format(n=70_000 + n) + "---\n" + "a: [1\n" * (n % 7 == 0))
    (folder / "bad.yaml").write_bytes(b"\xff\xfe\x00")


def report(folder, jobs: int) -> tuple:
    found = pipeline.validate([str(folder)], ValidateOptions(jobs=jobs))
    return found.files, found.documents, found.skipped, found.diagnostics


def test_workers_give_the_report_one_process_gives(tmp_path, monkeypatch) -> None:
    write_tree(tmp_path, 40)
    alone = report(tmp_path, 1)
    monkeypatch.setattr(pipeline, "BYTES_PER_WORKER", 1)  # workers for any input
    started = []
    real = concurrent.futures.ProcessPoolExecutor

    def counted(*args, **kwargs):
        started.append(kwargs.get("max_workers"))
        return real(*args, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", counted)
    assert report(tmp_path, 3) == alone
    assert started == [3]
    assert {d.rule for d in alone[3]} >= {"unknown-field", "yaml-syntax", "encoding-error", "kubelet-value-out-of-range"}


@pytest.mark.parametrize("count", [2, 12])
def test_a_few_small_files_are_checked_without_workers(tmp_path, monkeypatch, count: int) -> None:
    write_tree(tmp_path, count)

    def refuse(*args, **kwargs):
        raise AssertionError("a worker process was started")

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", refuse)
    assert report(tmp_path, 8)[1] > 0
