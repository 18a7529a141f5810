"""What changed the verdict shows in every format: the config file, the baseline, what it and inline suppressions accepted,
and the files left unchecked; a padded configuration is an error; odd settings files are config errors, not crashes."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET

import pytest

from tests.helpers import run

# A policy without rules: one error (empty-audit-policy) at 3:8.
POLICY = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []\n"


@pytest.fixture
def project(tmp_path, monkeypatch):
    """a.yaml's finding suppressed inline, b.yaml's accepted by the baseline the config file names, vendor/ excluded."""
    (tmp_path / "a.yaml").write_text(POLICY.replace("[]", "[]  # svcconf: ignore[empty-audit-policy]"), encoding="utf-8")
    (tmp_path / "b.yaml").write_text(POLICY, encoding="utf-8")
    (tmp_path / "vendor").mkdir()
    (tmp_path / "vendor" / "v.yaml").write_text(POLICY, encoding="utf-8")
    (tmp_path / ".ci").mkdir()
    monkeypatch.chdir(tmp_path)
    assert run("validate", "--no-config", "--write-baseline", ".ci/baseline.json", "b.yaml").code == 0
    (tmp_path / ".svcconf.yaml").write_text('baseline: .ci/baseline.json\nexclude: ["vendor/"]\n', encoding="utf-8")
    return tmp_path


SUMMARY = (
    "0 errors, 0 warnings in 2 files (2 documents checked, 0 skipped, 1 excluded; config: .svcconf.yaml; "
    "baseline: .ci/baseline.json (1 accepted); 1 suppressed inline)"
)


def test_text_summary_names_config_baseline_and_counts(project) -> None:
    result = run("validate", "-f", "text", ".")
    assert result.code == 0, result.out + result.err
    assert result.out.splitlines()[-1] == SUMMARY


def test_github_ends_with_the_same_summary(project) -> None:
    result = run("validate", "-f", "github", ".")
    assert result.code == 0 and result.out.splitlines()[-1] == SUMMARY


def test_json_names_both_and_lists_what_it_accepted(project) -> None:
    report = run("validate", "-f", "json", ".").json()
    assert report["config"] == ".svcconf.yaml" and report["baseline"] == ".ci/baseline.json"
    assert (report["summary"]["suppressed"], report["summary"]["baselined"], report["summary"]["excluded"]) == (1, 1, 1)
    assert sorted((d["file"], d["rule"], d["acceptedBy"]) for d in report["accepted"]) == [
        ("a.yaml", "empty-audit-policy", "suppression"),
        ("b.yaml", "empty-audit-policy", "baseline"),
    ]
    assert report["excluded"] == [{"file": "vendor", "reason": "excluded by 'vendor/' (exclude in .svcconf.yaml)"}]
    assert report["diagnostics"] == []


def test_sarif_keeps_accepted_findings_as_suppressed_results(project) -> None:
    log = json.loads(run("validate", "-f", "sarif", ".").out)  # run() checks every SARIF log against the schema
    [sarif_run] = log["runs"]
    kinds = sorted(
        (r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], r["suppressions"][0]["kind"]) for r in sarif_run["results"]
    )
    assert kinds == [("a.yaml", "inSource"), ("b.yaml", "external")]
    assert {a["location"]["uri"] for a in sarif_run["artifacts"]} == {".svcconf.yaml", ".ci/baseline.json"}
    assert sarif_run["properties"] == {
        "config": ".svcconf.yaml",
        "baseline": ".ci/baseline.json",
        "suppressed": 1,
        "baselined": 1,
        "excluded": 1,
    }
    [note] = sarif_run["invocations"][0]["toolExecutionNotifications"]
    assert note["message"]["text"] == "vendor: not checked: excluded by 'vendor/' (exclude in .svcconf.yaml)"


def test_junit_properties_name_both_and_the_excluded_file_is_skipped(project) -> None:
    suite = ET.fromstring(run("validate", "-f", "junit", ".").out).find("testsuite")
    properties = {p.get("name"): p.get("value") for p in suite.find("properties")}
    assert properties == {"config": ".svcconf.yaml", "baseline": ".ci/baseline.json", "baselined": "1", "suppressed": "1", "excluded": "1"}
    assert suite.get("skipped") == "1"
    assert [case.get("name") for case in suite.iter("testcase") if case.find("skipped") is not None] == ["vendor"]


def test_gitlab_report_stays_code_quality_and_the_summary_goes_to_the_job_log(project) -> None:
    result = run("validate", "-f", "gitlab", ".")
    assert json.loads(result.out) == []
    assert result.err.strip() == f"svcconf: {SUMMARY}"


def test_config_command_lists_the_baseline(project) -> None:
    assert run("config", "-f", "json").json()["baseline"] == os.path.join(".ci", "baseline.json")
    assert "baseline: .ci/baseline.json  # findings recorded there do not count" in run("config").out
    assert run("config", "--no-config", "-f", "json").json()["baseline"] is None


@pytest.mark.parametrize("name", ["../elsewhere.json", "/tmp/elsewhere.json", "link/b.json"])
def test_a_config_baseline_outside_its_folder_is_refused(project, tmp_path_factory, name) -> None:
    """A repository's settings accept findings only with a record inside the repository: exit 2, the setting's position."""
    os.symlink(tmp_path_factory.mktemp("outside"), project / "link")
    (project / ".svcconf.yaml").write_text(f"baseline: {name}\n", encoding="utf-8")
    result = run("validate", "-f", "json", "-o", "report.json", ".")
    assert result.code == 2
    assert ".svcconf.yaml:1:11: invalid configuration: baseline:" in result.err and "lies outside the folder" in result.err
    assert "lies outside the folder" in json.loads((project / "report.json").read_text(encoding="utf-8"))["error"]


# --------------------------------------------------------------------------- padded files


def test_a_padded_configuration_over_the_size_limit_is_an_error(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "enc.yaml").write_text(POLICY + "#" * 5000 + "\n", encoding="utf-8")  # padded past the limit
    (tmp_path / "data.json").write_text('{"items": [' + "1," * 3000 + "1]}", encoding="utf-8")
    result = run("validate", "-f", "json", "--max-file-size", "4k", ".")
    assert result.code == 1
    found = {d["file"]: (d["rule"], d["severity"]) for d in result.json()["diagnostics"]}
    assert found == {"enc.yaml": ("file-too-large", "error"), "data.json": ("file-too-large", "warning")}
    assert result.json()["summary"]["excluded"] == 2
    piped = run("validate", "-f", "json", "--max-file-size", "4k", "-", stdin=(POLICY + "#" * 5000).encode())
    assert piped.code == 1 and piped.json()["diagnostics"][0]["severity"] == "error"


# --------------------------------------------------------------------------- settings files that crashed


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('tool = """\n[tool.svcconf]\n"""\n', "pyproject.toml:2:1: invalid configuration: [tool.svcconf] is written inside a string"),
        ("a = " + "[" * 5000 + "]" * 5000 + "\n[tool.svcconf]\n", "pyproject.toml:1:1: invalid configuration: TOML nested too deeply"),
    ],
)
def test_a_pyproject_that_crashed_is_a_config_error_with_a_report(tmp_path, monkeypatch, text, message) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
    (tmp_path / "p.yaml").write_text(POLICY, encoding="utf-8")
    result = run("validate", "-f", "json", "-o", "report.json", "p.yaml")
    assert result.code == 2 and message in result.err
    assert message in json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["error"]


def test_a_baseline_name_holding_a_nul_is_a_config_error(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".svcconf.yaml").write_text('baseline: "a\\0b"\n', encoding="utf-8")
    (tmp_path / "p.yaml").write_text(POLICY, encoding="utf-8")
    result = run("validate", "-f", "json", "-o", "report.json", "p.yaml")
    assert result.code == 2 and "baseline: the baseline's name holds a NUL character" in result.err
    assert "NUL" in json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["error"]


def test_an_api_version_on_the_next_line_still_names_the_group(tmp_path) -> None:
    """A file that does not parse is skipped only when it names no group svcconf checks; the value may sit on the next line."""
    path = tmp_path / "kubeadm.yaml"
    path.write_text(
        "apiVersion:\n  # the release we run\n  kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\nnetworking: {podSubnet: 1\n"
    )
    result = run("validate", "-f", "json", str(path))
    assert result.code == 1 and [d["rule"] for d in result.json()["diagnostics"]] == ["yaml-syntax"]


def test_migrate_says_what_exclude_left_out(project) -> None:
    result = run("migrate", "--check", ".")
    assert "svcconf: vendor: not read: excluded by 'vendor/' (exclude in .svcconf.yaml)" in result.err
    assert "svcconf: .svcconf.yaml" not in result.err  # its own configuration file is no left-out document
