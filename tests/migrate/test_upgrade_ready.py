"""Upgrade-ready: nothing hidden behind a removed version, and migrate checks what it hands back.

Known answers, each from upstream:
- kubeadm's feature gate IPv6DualStack was removed in 1.24 ("Kubeadm: remove the IPv6DualStack feature gate",
  kubernetes#106648, CHANGELOG-1.24); cmd/kubeadm/app/apis/kubeadm/validation/validation.go ValidateFeatureGates
  refuses an unknown gate with "<name> is not a valid feature name.".
- kubeadm's MinimumControlPlaneVersion is its own minor release minus one (cmd/kubeadm/app/constants/constants.go,
  getSkewedKubernetesVersion(-1)); NormalizeKubernetesVersion (cmd/kubeadm/app/util/config/common.go) refuses an older
  kubernetesVersion with "this version of kubeadm only supports deploying clusters with the control plane version >= ...",
  and a pre-release kubeadm tolerates one minor release more (isKubeadmPrereleaseVersion).
- kubeadm upgrades one minor release at a time (cmd/kubeadm/app/phases/upgrade/policy.go EnforceVersionPolicies,
  MaximumAllowedMinorVersionUpgradeSkew = 1); v1beta4 was enabled and v1beta3 deprecated in 1.31 (kubernetes#125029);
  networking.k8s.io/v1alpha1 IPAddress and ServiceCIDR stopped being served in 1.31 (v1beta1 from 1.31).
- kubeadm v1beta3 is removed in 1.37 (kubernetes#136016, CHANGELOG-1.37 v1.37.0-alpha.1); v1.37.0 is out (CHANGELOG-1.38
  lists the changes since v1.37.0), 1.38 is not.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from svcconf.lint.check import check_text
from svcconf.load.source import parse
from svcconf.migrate import MigrateOptions, migrate_bytes
from svcconf.migrate.preview import Converted, preview
from svcconf.model import Anchor
from svcconf.settings.options import ValidateOptions
from tests.helpers import run

HOMELAB = """\
apiVersion: kubeadm.k8s.io/v1beta2
kind: ClusterConfiguration
kubernetesVersion: v1.30.2
featureGates:
  IPv6DualStack: true
networking:
  podSubnet: 10.244.0.0/16
"""
GATE = 'Invalid value: map[string]bool{"IPv6DualStack":true}: IPv6DualStack is not a valid feature name.'


@pytest.fixture
def homelab(tmp_path: Path) -> Path:
    path = tmp_path / "kubeadm.yaml"
    path.write_text(HOMELAB)
    return path


# --------------------------------------------------------------------------- validate checks through the conversion


def test_validate_reports_the_gate_of_a_removed_version_at_its_line(homelab: Path) -> None:
    result = run("validate", "--no-config", "--target-version", "1.31", "-f", "json", str(homelab))
    assert result.code == 1
    found = {(d["line"], d["column"], d["rule"], d["path"]): d for d in result.json()["diagnostics"]}
    gate = found[(5, 18, "unknown-bootstrap-feature-gate", "featureGates.IPv6DualStack")]
    assert gate["message"] == f"{GATE} (after migration to kubeadm.k8s.io/v1beta4)"
    assert gate["migrated"] == "kubeadm.k8s.io/v1beta4" and gate["severity"] == "error"
    assert found[(1, 13, "removed-api-version", "apiVersion")]["migrated"] is None
    assert len(found) == 2  # v1.30.2 is what kubeadm 1.31 deploys


def test_sarif_results_carry_the_migrated_version(homelab: Path) -> None:
    result = run("validate", "--no-config", "--target-version", "1.31", "-f", "sarif", str(homelab))
    properties = {r["ruleId"]: r.get("properties", {}) for r in result.json()["runs"][0]["results"]}
    assert properties["unknown-bootstrap-feature-gate"]["migrated"] == "kubeadm.k8s.io/v1beta4"
    assert "migrated" not in properties["removed-api-version"]


def test_a_secret_checked_through_the_conversion_stays_redacted(tmp_path: Path) -> None:
    path = tmp_path / "init.yaml"
    path.write_text("apiVersion: kubeadm.k8s.io/v1beta2\nkind: InitConfiguration\nbootstrapTokens:\n- token: ABCDEF.0123456789secret\n")
    result = run("validate", "--no-config", "-f", "json", str(path))
    token = [d for d in result.json()["diagnostics"] if d["rule"] == "invalid-bootstrap-token"]
    assert [(d["line"], d["migrated"]) for d in token] == [(4, "kubeadm.k8s.io/v1beta4")]
    assert "0123456789secret" not in result.out


def test_a_document_migrate_cannot_convert_says_how_much_went_unchecked(tmp_path: Path) -> None:
    # kubeadm reads v1alpha3 no more (removed 1.14), and migrate's table starts at v1beta1: no conversion.
    path = tmp_path / "old.yaml"
    path.write_text("apiVersion: kubeadm.k8s.io/v1alpha3\nkind: InitConfiguration\nnodeRegistration:\n  name: a\n  taints: []\n")
    info = [d for d in run("validate", "--no-config", "-f", "json", str(path)).json()["diagnostics"] if d["rule"] == "content-not-checked"]
    assert [(d["line"], d["severity"]) for d in info] == [(1, "info")]
    assert info[0]["message"].startswith("the document's 2 other values were not checked: migrate leaves it unconverted")
    assert "has no automatic conversion" in info[0]["message"]


def test_a_large_file_is_checked_through_the_conversion_at_the_right_line(tmp_path: Path) -> None:
    # Past source.KEEP_NODES_UP_TO characters a file keeps no nodes: the removed document is composed again alone.
    filler = "".join(f"---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{n}\ndata:\n  k: '{'x' * 200}'\n" for n in range(1500))
    path = tmp_path / "big.yaml"
    path.write_text(filler + "---\n" + HOMELAB)
    before = filler.count("\n") + 1
    rules = run("validate", "--no-config", "--target-version", "1.31", "-f", "json", str(path)).rules()
    assert (before + 5, 18, "error", "unknown-bootstrap-feature-gate", "featureGates.IPv6DualStack") in rules


def _origin(text: str, target: tuple = (1, 37)):
    documents = parse("k.yaml", text).documents
    return [p for p in preview(documents, MigrateOptions(target=target, deprecated=True)) if isinstance(p, Converted)]


def test_moved_and_renamed_values_map_to_where_they_were_written() -> None:
    (cluster,) = _origin("apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\napiServer:\n  extraArgs:\n    v: '4'\n")
    source = cluster.origin.source
    assert source(("apiServer", "extraArgs", 0, "value")) == (("apiServer", "extraArgs", "v"), Anchor.VALUE)
    assert source(("apiServer", "extraArgs", 0, "name")) == (("apiServer", "extraArgs", "v"), Anchor.KEY)
    assert source(("apiServer", "extraArgs", 0)) == (("apiServer", "extraArgs", "v"), Anchor.KEY)
    assert source(("apiServer",), Anchor.KEY) == (("apiServer",), Anchor.KEY)
    (join,) = _origin("apiVersion: kubeadm.k8s.io/v1beta3\nkind: JoinConfiguration\ndiscovery:\n  timeout: 5m0s\n")
    assert join.origin.source(("timeouts", "discovery")) == (("discovery", "timeout"), Anchor.VALUE)
    assert join.label(("timeouts", "discovery")) == "kubeadm.k8s.io/v1beta4"


def test_a_field_the_conversion_adds_maps_to_the_api_version() -> None:
    # kubeadm config migrate moves timeoutForControlPlane into the InitConfiguration, from another document.
    text = (
        "apiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration\n---\n"
        "apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\napiServer:\n  timeoutForControlPlane: 2m0s\n"
    )
    init, _cluster = _origin(text)
    assert init.data["timeouts"] == {"controlPlaneComponentHealthCheck": "2m0s"}
    assert init.origin.source(("timeouts", "controlPlaneComponentHealthCheck")) is None


# --------------------------------------------------------------------------- migrate checks what it hands back


def test_migrate_exits_1_after_a_conversion_with_errors_and_says_where(homelab: Path) -> None:
    result = run("migrate", "--no-config", "--to-version", "1.31", str(homelab))
    assert result.code == 1
    assert homelab.read_text() == HOMELAB
    assert f"{homelab}:5:18: error [unknown-bootstrap-feature-gate] featureGates.IPv6DualStack: {GATE}\n" in result.out
    assert "1 document in 1 of 1 file would change; 0 of 1 converted document clean at 1.31\n" in result.out
    assert "exit code 1: 1 converted document would have errors at 1.31" in result.out


def test_migrate_write_writes_the_conversion_and_says_the_errors_were_there_before(homelab: Path) -> None:
    result = run("migrate", "--no-config", "--to-version", "1.31", "--write", str(homelab))
    assert result.code == 1
    assert homelab.read_text() == HOMELAB.replace("v1beta2", "v1beta4")
    assert "1 converted document written with errors at 1.31 (above); they were in the files before the conversion" in result.out
    again = run("validate", "--no-config", "--target-version", "1.31", "-f", "json", str(homelab))
    assert [(d["line"], d["rule"], d["migrated"]) for d in again.json()["diagnostics"]] == [(5, "unknown-bootstrap-feature-gate", None)]


def test_migrate_check_counts_the_converted_documents_and_their_errors(homelab: Path) -> None:
    report = run("migrate", "--no-config", "--to-version", "1.31", "--check", "-f", "json", str(homelab))
    assert report.code == 1
    summary, verification = report.json()["summary"], report.json()["verification"]
    assert (summary["converted"], summary["converted-clean"]) == (1, 0)
    assert [(d["line"], d["rule"], d["migrated"]) for d in verification] == [
        (5, "unknown-bootstrap-feature-gate", "kubeadm.k8s.io/v1beta4")
    ]
    # One line per finding, as in the other lists of the report, for grep and diff.
    assert '    {"file": ' in report.out.split('"verification": [', 1)[1]


def test_a_clean_conversion_exits_0_and_says_it_is_clean(tmp_path: Path) -> None:
    path = tmp_path / "kubeadm.yaml"
    path.write_text(HOMELAB.replace("featureGates:\n  IPv6DualStack: true\n", ""))
    result = run("migrate", "--no-config", "--to-version", "1.31", "--write", str(path))
    assert result.code == 0
    assert "; 1 of 1 converted document clean at 1.31\n" in result.out


# --------------------------------------------------------------------------- kubeadm's control-plane versions


@pytest.mark.parametrize(
    "target,version,minimum",
    [("1.31", "v1.18.2", "1.30.0"), ("1.36", "v1.31.4", "1.35.0"), ("1.36", "1.35.0-rc.1", "1.35.0")],
)
def test_kubernetes_version_below_the_minimum_of_the_target(tmp_path: Path, target: str, version: str, minimum: str) -> None:
    path = tmp_path / "cluster.yaml"
    path.write_text(f"apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\nkubernetesVersion: {version}\n")
    result = run("validate", "--no-config", "--target-version", target, "-f", "json", str(path))
    (finding,) = result.json()["diagnostics"]
    current = version if version.startswith("v") else f"v{version}"
    assert (finding["line"], finding["rule"], finding["severity"]) == (3, "control-plane-version-too-old", "error")
    assert finding["message"].startswith(
        f"this version of kubeadm only supports deploying clusters with the control plane version >= {minimum}. Current version: {current}"
    )


@pytest.mark.parametrize(
    "target,version",
    [("1.31", "v1.30.0"), ("1.31", "release/v1.31.9"), ("1.36", "stable-1"), ("1.38", "v1.36.4"), ("1.37", "v1.36.0")],
)
def test_kubernetes_versions_the_target_deploys(tmp_path: Path, target: str, version: str) -> None:
    # 1.38 is not released: a pre-release kubeadm tolerates one minor release below its minimum (1.36 for 1.38's 1.37).
    path = tmp_path / "cluster.yaml"
    path.write_text(f"apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\nkubernetesVersion: {version}\n")
    result = run("validate", "--no-config", "--target-version", target, "-f", "json", "--ignore", "target-not-released", str(path))
    assert result.json()["diagnostics"] == []


def test_a_released_kubeadm_does_not_tolerate_the_release_before_its_minimum(tmp_path: Path) -> None:
    path = tmp_path / "cluster.yaml"
    path.write_text("apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\nkubernetesVersion: v1.35.9\n")
    rules = run("validate", "--no-config", "--target-version", "1.37", "-f", "json", str(path)).rules()
    assert (3, 20, "error", "control-plane-version-too-old", "kubernetesVersion") in rules


# --------------------------------------------------------------------------- releases not yet released


def test_target_1_38_warns_on_the_command_line(homelab: Path) -> None:
    result = run("validate", "--no-config", "--target-version", "1.38", str(homelab))
    assert result.code == 1  # the file's own errors; the warning alone does not fail the run
    assert result.out.startswith(
        "<command line>:1:1: warning [target-not-released] --target-version 1.38: Kubernetes 1.38 is not released yet"
    )
    ignored = run("validate", "--no-config", "--target-version", "1.38", "--ignore", "target-not-released", str(homelab))
    assert "target-not-released" not in ignored.out


def test_target_from_the_configuration_file_warns_at_its_line(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".svcconf.yaml").write_text('# pinned\ntarget-version: "1.39"\n')
    (tmp_path / "c.yaml").write_text("apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\n")
    report = run("validate", "-f", "json", "c.yaml").json()
    assert [(d["file"], d["line"], d["rule"], d["path"]) for d in report["diagnostics"]] == [
        (".svcconf.yaml", 2, "target-not-released", "target-version")
    ]
    migrate = run("migrate", "c.yaml")
    assert migrate.out.startswith(".svcconf.yaml:2:17: warning [target-not-released] target-version: Kubernetes 1.39 is not released")
    assert "versions removed in 1.39 (target-version in .svcconf.yaml): rewritten" in migrate.out


def test_1_37_is_out_but_its_data_is_not_final(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\n")
    report = run("validate", "--no-config", "--target-version", "1.37", "-f", "json", str(path)).json()
    warning, removed = report["diagnostics"]
    assert (
        warning["rule"] == "target-not-released"
        and "Kubernetes 1.37 is released, but svcconf's data for it is not final" in warning["message"]
    )
    assert removed["rule"] == "removed-api-version" and removed["message"].startswith(
        "kubeadm.k8s.io/v1beta3 ClusterConfiguration is no longer served since 1.37"
    )


@pytest.mark.parametrize("release", ["1.36", "1.31"])
def test_final_releases_do_not_warn(homelab: Path, release: str) -> None:
    assert "target-not-released" not in run("validate", "--no-config", "--target-version", release, str(homelab)).out


def test_a_release_past_every_table_is_a_usage_error(homelab: Path) -> None:
    result = run("validate", "--no-config", "--target-version", "1.41", str(homelab))
    assert result.code == 2 and "svcconf does not know release 1.41" in result.err


# --------------------------------------------------------------------------- migrate's summary, hops and diff


def test_an_upgrade_over_two_minor_releases_lists_the_hops(homelab: Path) -> None:
    result = run("migrate", "--no-config", "--from-version", "1.29", "--to-version", "1.31", str(homelab))
    lines = result.out.splitlines()
    start = lines.index("kubeadm upgrades a control plane one minor release at a time (it refuses a larger step): 1.29 -> 1.30 -> 1.31")
    first, second = lines[start + 1], lines[start + 2]
    assert first.startswith("  1.29 -> 1.30: ")
    assert second.startswith("  1.30 -> 1.31: removed: networking.k8s.io/v1alpha1 (IPAddress, ServiceCIDR)")
    assert "kubeadm.k8s.io/v1beta3 (ClusterConfiguration, InitConfiguration, JoinConfiguration)" in second.split("deprecated: ")[1]
    assert "first served: kubeadm.k8s.io/v1beta4 (5 kinds)" in second
    hops = run("migrate", "--no-config", "-f", "json", "--from-version", "1.29", "--to-version", "1.31", str(homelab)).json()
    assert [(h["from"], h["to"]) for h in hops["summary"]["hops"]] == [("1.29", "1.30"), ("1.30", "1.31")]
    assert f"  1.30 -> 1.31: {'; '.join(hops['summary']['hops'][1]['changes'])}" == second  # the text report's line, as data
    assert hops["summary"]["to-version-from"] == "--to-version 1.31"


def test_an_upgrade_of_one_minor_release_lists_no_hops(homelab: Path) -> None:
    result = run("migrate", "--no-config", "--from-version", "1.30", "--to-version", "1.31", str(homelab))
    assert "one minor release at a time" not in result.out


def test_the_summary_names_the_default_target(homelab: Path) -> None:
    assert "versions removed in 1.36 (default: the newest release svcconf knows): " in run("migrate", "--no-config", str(homelab)).out


def test_diff_exits_1_when_something_would_change_and_0_when_nothing(homelab: Path, tmp_path: Path) -> None:
    assert run("migrate", "--no-config", "--to-version", "1.30", "--diff", str(homelab)).code == 1
    current = tmp_path / "current.yaml"
    current.write_text("apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\n")
    result = run("migrate", "--no-config", "--diff", str(current))
    assert (result.code, result.out) == (0, "")


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_patch_keeps_the_hunks_that_need_no_secret_and_applies(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    subprocess.run(["git", "init", "-q"], check=True)
    text = (
        "apiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration\nbootstrapTokens:\n- token: abcdef.0123456789abcdef\n---\n"
        + "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  a: '1'\n  b: '2'\n  c: '3'\n---\n"
        + "apiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {name: x}\n"
    )
    Path("two.yaml").write_text(text)
    result = run("migrate", "--no-config", "--to-version", "1.37", "--diff", "two.yaml")
    assert "0123456789abcdef" not in result.out + result.err
    hunk = "# svcconf: this change to two.yaml is not in the patch: line 4 holds a secret value, shown as REDACTED"
    assert hunk in result.out and "#  - token: REDACTED\n" in result.out
    Path("p.diff").write_text(result.out)
    subprocess.run(["git", "apply", "p.diff"], check=True)
    assert Path("two.yaml").read_text() == text.replace("batch/v1beta1", "batch/v1")  # the secret's hunk is left to do by hand


# --------------------------------------------------------------------------- the library


def test_check_text_gives_the_migrated_member() -> None:
    result = check_text(HOMELAB, ValidateOptions(target=(1, 31)))
    assert {(d.line, d.rule, d.migrated) for d in result.diagnostics} == {
        (1, "removed-api-version", None),
        (5, "unknown-bootstrap-feature-gate", "kubeadm.k8s.io/v1beta4"),
    }


def test_migrate_bytes_stays_a_plain_conversion() -> None:
    outcome = migrate_bytes("k.yaml", HOMELAB.encode(), MigrateOptions(target=(1, 31)))
    assert outcome.output == HOMELAB.replace("v1beta2", "v1beta4").encode()
    assert [d.rule for d in outcome.diagnostics] == ["migrated"]


def test_a_failing_conversion_check_is_reported_and_hides_nothing(monkeypatch) -> None:
    import svcconf.migrate.preview

    def broken(*_args, **_kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(svcconf.migrate.preview, "preview", broken)
    rules = {(d.line, d.rule) for d in check_text(HOMELAB, ValidateOptions(target=(1, 31))).diagnostics}
    assert rules == {(1, "removed-api-version"), (1, "internal-error")}
