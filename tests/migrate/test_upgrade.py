"""svcconf migrate before an upgrade: versions both releases serve, removed versions only by default, and what the run prints."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from svcconf.migrate import MigrateOptions, migrate_bytes
from tests.conftest import FIXTURES
from tests.helpers import run

MIGRATE = FIXTURES / "migrate"
FLOWCONTROL = MIGRATE / "upgrade-1.28-to-1.29-flowcontrol.yaml"
KUBEADM = MIGRATE / "upgrade-1.28-to-1.29-kubeadm.yaml"


@pytest.fixture
def cluster_files(tmp_path: Path) -> Path:
    """The README's example: a folder with the API server's flowcontrol objects and the kubeadm file of a 1.28 cluster."""
    shutil.copy(FLOWCONTROL, tmp_path / "flowcontrol.yaml")
    shutil.copy(KUBEADM, tmp_path / "kubeadm.yaml")
    return tmp_path


# --------------------------------------------------------------------------- from and to


def test_upgrade_from_1_28_to_1_29_writes_versions_both_serve(cluster_files: Path) -> None:
    # flowcontrol v1beta2 is removed in 1.29, v1 first served in 1.29: v1beta3 is what both serve.
    # kubeadm v1beta3 is served by both (deprecated only in 1.31): untouched, also with --deprecated.
    result = run("migrate", "--write", "--from-version", "1.28", "--to-version", "1.29", "--deprecated", str(cluster_files))
    assert result.code == 0
    assert (cluster_files / "flowcontrol.yaml").read_bytes() == FLOWCONTROL.with_name(FLOWCONTROL.stem + ".migrated.yaml").read_bytes()
    assert (cluster_files / "kubeadm.yaml").read_bytes() == KUBEADM.read_bytes()
    assert "flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema -> flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema" in result.out
    assert (
        "versions removed or deprecated in 1.29 (--to-version 1.29): rewritten as the newest version both 1.28 and 1.29 serve\n"
        in result.out
    )


def test_without_from_version_the_newest_version_of_the_target_is_chosen_and_said(cluster_files: Path) -> None:
    result = run("migrate", "--to-version", "1.29", str(cluster_files / "flowcontrol.yaml"))
    assert "flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema -> flowcontrol.apiserver.k8s.io/v1 FlowSchema" in result.out
    assert (
        "versions removed in 1.29 (--to-version 1.29): rewritten as the newest version 1.29 serves, "
        "which the running cluster may not serve yet" in result.out
    )
    newest = run("migrate", "--no-config", str(cluster_files / "flowcontrol.yaml"))
    assert "versions removed in 1.36 (default: the newest release svcconf knows): rewritten" in newest.out


def test_json_summary_names_the_releases(cluster_files: Path) -> None:
    summary = run("migrate", "-f", "json", "--from-version", "1.28", "--to-version", "1.29", str(cluster_files)).json()["summary"]
    assert (summary["from-version"], summary["to-version"], summary["deprecated"]) == ("1.28", "1.29", False)


KUBEADM_V1BETA3 = b"apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\nkubernetesVersion: v1.23.0\n"


def test_plain_migrate_leaves_a_deprecated_kubeadm_file_alone() -> None:
    # v1beta3 is deprecated in 1.31 but not removed: plain migrate (the pre-commit hook) does not touch it.
    for options in (MigrateOptions(), MigrateOptions(from_version=(1, 30)), MigrateOptions(from_version=(1, 31))):
        outcome = migrate_bytes("kubeadm.yaml", KUBEADM_V1BETA3, options)
        assert outcome.output is None and outcome.diagnostics == []


def test_deprecated_kubeadm_file_from_1_30_stays_and_from_1_31_becomes_v1beta4() -> None:
    stays = migrate_bytes("kubeadm.yaml", KUBEADM_V1BETA3, MigrateOptions(from_version=(1, 30), deprecated=True))
    assert stays.output is None
    assert [(d.rule, str(d.severity)) for d in stays.diagnostics] == [("migration-needs-review", "info")]
    assert "first served in 1.31" in stays.diagnostics[0].message
    moved = migrate_bytes("kubeadm.yaml", KUBEADM_V1BETA3, MigrateOptions(from_version=(1, 31), deprecated=True))
    assert moved.output == KUBEADM_V1BETA3.replace(b"v1beta3", b"v1beta4")


def test_a_deprecated_document_that_must_wait_does_not_fail_the_run(tmp_path: Path) -> None:
    path = tmp_path / "kubeadm.yaml"
    path.write_bytes(KUBEADM_V1BETA3)
    result = run("migrate", "--check", "--deprecated", "--from-version", "1.30", str(path))
    assert result.code == 0 and "info [migration-needs-review]" in result.out and "exit code 1" not in result.out


CRONJOB = b"apiVersion: batch/v1beta1   # jobs\nkind: CronJob\nmetadata:\n  name: nightly\n"


def test_a_removed_version_without_a_version_both_serve_needs_review_and_unsafe_writes_the_target(tmp_path: Path) -> None:
    # batch/v1 is first served in 1.21 and v1beta1 is gone in 1.25: from 1.20 nothing is served before and after.
    path = tmp_path / "cron.yaml"
    path.write_bytes(CRONJOB)
    result = run("migrate", "--write", "--from-version", "1.20", "--to-version", "1.25", str(path))
    assert result.code == 1 and path.read_bytes() == CRONJOB
    assert "warning [migration-needs-review] apiVersion: batch/v1beta1 CronJob is not served by 1.25" in result.out
    assert "the document must be applied after the upgrade" in result.out
    result = run("migrate", "--write", "--unsafe", "--from-version", "1.20", "--to-version", "1.25", str(path))
    assert result.code == 0 and path.read_bytes() == CRONJOB.replace(b"batch/v1beta1", b"batch/v1")
    assert "warning [migrated] apiVersion: applied under --unsafe" in result.out and "applies only after the upgrade" in result.out


# --------------------------------------------------------------------------- kubeadm's own moves


def test_cluster_configuration_alone_gets_an_init_configuration_for_its_timeout(tmp_path: Path) -> None:
    path = tmp_path / "kubeadm.yaml"
    path.write_bytes(b"apiVersion: kubeadm.k8s.io/v1beta3\r\nkind: ClusterConfiguration\r\napiServer:\r\n    timeoutForControlPlane: '5m'")
    result = run("migrate", "--write", "--deprecated", "-f", "json", str(path))
    assert result.code == 0
    # The file's line endings and indentation, the value as written; a final newline where there was none.
    assert path.read_bytes() == (
        b"apiVersion: kubeadm.k8s.io/v1beta4\r\nkind: ClusterConfiguration\r\n---\r\n"
        b"apiVersion: kubeadm.k8s.io/v1beta4\r\nkind: InitConfiguration\r\ntimeouts:\r\n    controlPlaneComponentHealthCheck: '5m'\r\n"
    )
    appended = [e for e in result.json()["edits"] if e["mode"] == "append"]
    assert appended == [
        {
            "file": str(path),
            "document": 2,
            "line": 6,
            "from": "(none)",
            "to": "kubeadm.k8s.io/v1beta4 InitConfiguration",
            "mode": "append",
            "notes": [],
        }
    ]
    assert run("migrate", "--check", "--deprecated", str(path)).code == 0  # and then nothing more to do


def test_cluster_and_join_files_get_the_timeout_in_both_as_kubeadm_does() -> None:
    # kubeadm converts the ClusterConfiguration before the JoinConfiguration in one run, so both new documents carry it.
    data = (
        b"apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\napiServer:\n  timeoutForControlPlane: 7m0s\n---\n"
        b"apiVersion: kubeadm.k8s.io/v1beta3\nkind: JoinConfiguration\ndiscovery:\n  timeout: 2m0s\n"
    )
    out = migrate_bytes("kubeadm.yaml", data, MigrateOptions(deprecated=True)).output or b""
    assert out.count(b"controlPlaneComponentHealthCheck: 7m0s") == 2
    assert out.endswith(
        b"---\napiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\ntimeouts:\n  controlPlaneComponentHealthCheck: 7m0s\n"
    )
    assert b"timeouts:\n  discovery: 2m0s\n  controlPlaneComponentHealthCheck: 7m0s\n" in out


@pytest.mark.parametrize(
    "data,why",
    [
        (
            b'{"apiVersion": "kubeadm.k8s.io/v1beta3", "kind": "ClusterConfiguration", "apiServer": {"timeoutForControlPlane": "8m"}}\n',
            "JSON",
        ),
        (
            (
                b"apiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\n---\n"
                b"apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\napiServer:\n  timeoutForControlPlane: 8m\n"
            ),
            "already v1beta4",
        ),
        (b"apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\napiServer:\n  timeoutForControlPlane: soon\n", "not a duration"),
    ],
)
def test_a_timeout_with_nowhere_to_go_needs_review(data: bytes, why: str) -> None:
    name = "kubeadm.json" if data.startswith(b"{") else "kubeadm.yaml"
    outcome = migrate_bytes(name, data, MigrateOptions(deprecated=True))
    assert outcome.output is None
    reviews = [d for d in outcome.diagnostics if d.rule == "migration-needs-review"]
    assert [d.path for d in reviews] == [("apiServer", "timeoutForControlPlane")] and why in reviews[0].message


# --------------------------------------------------------------------------- what the run prints


@pytest.mark.parametrize(
    "before,after",
    [
        # re-emitted documents (the spec changes too): the comment keeps its distance, shorter or longer
        ("apiVersion: extensions/v1beta1   # old\nkind: Ingress\nspec:\n  backend: {serviceName: s, servicePort: 80}\n",
         "apiVersion: networking.k8s.io/v1   # old\nkind: Ingress\nspec:\n  defaultBackend: {service: {name: s, port: {number: 80}}}\n"),
        ("apiVersion: extensions/v1beta1       # old\nkind: DaemonSet  # ds\nspec:\n  templateGeneration: 2\n  template:\n    metadata:\n      labels: {a: b}\n",
         "apiVersion: apps/v1       # old\nkind: DaemonSet  # ds\nspec:\n  selector:\n    matchLabels: {a: b}\n  updateStrategy:\n    type: OnDelete\n  template:\n    metadata:\n      labels: {a: b}\n"),
        # a spliced scalar
        ("apiVersion: batch/v1beta1   # old\nkind: CronJob\n", "apiVersion: batch/v1   # old\nkind: CronJob\n"),
    ],
)  # fmt: skip
def test_a_rewritten_api_version_keeps_the_spacing_before_its_comment(before: str, after: str) -> None:
    assert migrate_bytes("x.yaml", before.encode()).output == after.encode()


def test_check_says_why_it_exits_1_when_nothing_would_change(tmp_path: Path) -> None:
    path = tmp_path / "pdb.yaml"
    path.write_bytes(b"apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nspec:\n  selector: {}\n")
    result = run("migrate", "--check", str(path))
    assert result.code == 1
    assert result.out.endswith("exit code 1: 1 document needs review (migration-needs-review)\n")


def _git_apply(patch: str, cwd: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    applied = subprocess.run(["git", "apply", "-"], input=patch.encode(), cwd=cwd, capture_output=True, check=False)
    assert applied.returncode == 0, applied.stderr.decode()


CRON_WITH_COMMANDS = b"metadata:\n  annotations:\n    note: |\n      ::error::boom\n      ##[warning]x\n      ::add-mask::y\napiVersion: batch/v1beta1\nkind: CronJob\n"


def test_diff_of_an_absolute_path_applies_with_git(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "cron.yaml"
    path.write_bytes(CRONJOB)
    monkeypatch.chdir("/")
    patch = run("migrate", "--diff", str(path)).out
    assert patch.startswith(f"--- a{path}\n+++ b{path}\n")  # a/tmp/..., not a//tmp/...
    _git_apply(patch, Path("/"))
    assert path.read_bytes() == CRONJOB.replace(b"batch/v1beta1", b"batch/v1")
    monkeypatch.chdir(tmp_path)  # inside the working folder: relative to it
    path.write_bytes(CRONJOB)
    assert run("migrate", "--diff", str(path)).out.startswith("--- a/cron.yaml\n+++ b/cron.yaml\n")


def test_diff_inside_github_actions_stops_workflow_commands_and_still_applies(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "cron.yaml"
    path.write_bytes(CRON_WITH_COMMANDS)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    first, second = run("migrate", "--diff", "cron.yaml").out, run("migrate", "--diff", "cron.yaml").out
    lines = first.splitlines()
    start = re.fullmatch(r"::stop-commands::([0-9a-f]{32})", lines[0])
    assert start is not None and lines[-1] == f"::{start.group(1)}::"
    assert "       ::error::boom" in lines and "       ##[warning]x" in lines  # the content, raw, between the two
    assert second.splitlines()[0] != lines[0]  # a new token every run: file content cannot guess it
    _git_apply(first, tmp_path)
    assert path.read_bytes() == CRON_WITH_COMMANDS.replace(b"batch/v1beta1", b"batch/v1")
    monkeypatch.setenv("GITHUB_ACTIONS", "false")
    assert run("migrate", "--diff", "cron.yaml").out == ""  # nothing changes any more, and no marker is printed
