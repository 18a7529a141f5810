"""In a git work tree a tracked file is always checked: git never ignores one, whatever a `.gitignore` says."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from svcconf.load.gitindex import tracked
from tests.helpers import run

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git makes the index these tests read")

# One error (empty-audit-policy): a file that is checked shows in the report.
FAILING = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []\n"


def git(top, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "-C", str(top), *args], check=True, capture_output=True, env=env)


def files(top, *names: str) -> None:
    for name in names:
        (top / name).parent.mkdir(parents=True, exist_ok=True)
        (top / name).write_text(FAILING, encoding="utf-8")


def checked(*args: str) -> list[str]:
    result = run("validate", "-f", "json", *args)
    assert result.code in (0, 1), result.err
    return sorted({d["file"] for d in result.json()["diagnostics"]})


@pytest.fixture
def repository(tmp_path, monkeypatch):
    """deploy/enc.yaml and build/kept.yaml are committed; a pull request then adds ignore files naming them."""
    git(tmp_path, "init", "-q")
    files(tmp_path, "deploy/enc.yaml", "build/kept.yaml", "ok.yaml")
    git(tmp_path, "add", ".")
    files(tmp_path, "build/generated.yaml", "deploy/local.yaml")  # untracked
    (tmp_path / "deploy" / ".gitignore").write_text("enc.yaml\nlocal.yaml\n", encoding="utf-8")
    (tmp_path / ".gitignore").write_text("build/\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_gitignore_cannot_hide_a_tracked_file(repository) -> None:
    # Untracked files stay ignored, also inside an ignored folder entered for the file it tracks.
    assert checked(".") == ["build/kept.yaml", "deploy/enc.yaml", "ok.yaml"]
    assert checked("deploy") == ["deploy/enc.yaml"]


def test_migrate_check_sees_the_tracked_file_too(repository) -> None:
    (repository / "deploy" / "enc.yaml").write_text("apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules: [{level: None}]\n")
    result = run("migrate", "--check", ".")
    assert result.code == 1 and "deploy/enc.yaml" in result.out


def test_index_versions_and_split_index_read_alike(repository) -> None:
    expected = {"build/kept.yaml", "deploy/enc.yaml", "ok.yaml", ".gitignore"}
    git(repository, "add", ".gitignore")
    for version in ("2", "3", "4"):
        git(repository, "update-index", "--index-version", version)
        assert tracked(str(repository)).files == expected
    git(repository, "update-index", "--split-index")
    files(repository, "more.yaml")
    git(repository, "add", "more.yaml")
    assert tracked(str(repository)).files == expected | {"more.yaml"}
    assert "build" in tracked(str(repository)).folders


def test_nothing_the_repository_configures_runs(repository) -> None:
    """The index is read as bytes: a core.fsmonitor command (which `git ls-files` may run) never starts."""
    marker = repository / "fsmonitor-ran"
    script = repository / "monitor.sh"
    script.write_text(f"#!/bin/sh\ntouch {marker}\n", encoding="utf-8")
    script.chmod(0o755)
    git(repository, "config", "core.fsmonitor", str(script))
    assert checked(".") == ["build/kept.yaml", "deploy/enc.yaml", "ok.yaml"]
    assert not marker.exists()


@pytest.mark.parametrize("damage", [b"", b"DIRC\x00\x00\x00\x09\x00\x00\x00\x01", b"DIRC\x00\x00\x00\x02\x00\x00\x00\x05" + b"\xff" * 40])
def test_an_index_that_cannot_be_read_leaves_the_ignore_files_in_force(repository, damage) -> None:
    (repository / ".git" / "index").write_bytes(damage)
    assert tracked(str(repository)) is None
    assert checked(".") == ["ok.yaml"]
