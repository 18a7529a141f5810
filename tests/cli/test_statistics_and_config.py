"""Day-two output: --statistics, --quiet, -v on skipped documents, and `svcconf config` showing the settings validate applies."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
import yaml

from svcconf.known.catalog import format_release, lifecycle
from svcconf.known.docs import all_rule_docs
from svcconf.lint import pipeline
from tests.conftest import FIXTURES
from tests.helpers import run

# Areas whose fixtures (those without fixture-args) hold many rules at all three severities, and
# one rule, unknown-controller, at two: a warning for the cloud and leader-migration controllers,
# an error for the controller manager's own list.
AREAS = ("encryption", "audit", "controller-manager")
SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}
SUMMARY = re.compile(r"^\d+ errors?, \d+ warnings?(, \d+ infos?)? in \d+ files? \(\d+ documents? checked, \d+ skipped\)$")


def _fixture_cases() -> list[Path]:
    return [
        case
        for area in AREAS
        for case in sorted((FIXTURES / area).glob("*.yaml"))
        if not case.name.endswith(".migrated.yaml")
        and case.with_suffix(".expected").is_file()
        and not case.read_text(encoding="utf-8", errors="replace").startswith("# fixture-args:")
    ]


def _expected_counts(cases: list[Path]) -> Counter:
    """(rule, severity) -> count, from the fixtures' sidecars (`LINE:COL SEVERITY RULE PATH`)."""
    counts: Counter = Counter()
    for case in cases:
        for line in case.with_suffix(".expected").read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                _position, severity, rule = line.split()[:3]
                counts[(rule, severity)] += 1
    return counts


@pytest.fixture
def fixtures_tree(tmp_path, monkeypatch) -> Counter:
    """The fixtures of AREAS copied into the working directory, one folder per area; their expected counts."""
    cases = _fixture_cases()
    for case in cases:
        target = tmp_path / case.parent.name / case.name
        target.parent.mkdir(exist_ok=True)
        shutil.copyfile(case, target)
    monkeypatch.chdir(tmp_path)
    return _expected_counts(cases)


def _statistics_lines(text: str) -> list[tuple[int, str, str]]:
    """(count, severity, rule) of each statistics line of a text report."""
    rows = []
    for line in text.splitlines():
        match = re.fullmatch(r" *(\d+) (error|warning|info) +(\S+)", line)
        if match:
            rows.append((int(match[1]), match[2], match[3]))
    return rows


# --------------------------------------------------------------------------- --statistics


def test_statistics_count_each_rule_and_severity_as_the_fixtures_and_the_json_report_do(fixtures_tree: Counter) -> None:
    assert len({rule for rule, _severity in fixtures_tree}) >= 20
    assert {severity for _rule, severity in fixtures_tree} == {"error", "warning", "info"}
    assert {severity for rule, severity in fixtures_tree if rule == "unknown-controller"} == {"error", "warning"}

    report = run("validate", "--no-config", "-f", "json", ".")
    from_report = Counter((d["rule"], d["severity"]) for d in report.json()["diagnostics"])
    assert from_report == fixtures_tree

    as_json = run("validate", "--no-config", "--statistics", "-f", "json", ".")
    assert {(row["rule"], row["severity"]): row["count"] for row in as_json.json()["statistics"]} == from_report

    as_text = run("validate", "--no-config", "--statistics", ".")
    rows = _statistics_lines(as_text.out)
    assert {(rule, severity): count for count, severity, rule in rows} == from_report
    assert len(rows) == len(from_report)  # one line per rule and severity: unknown-controller has two
    assert [rule for _count, _severity, rule in rows].count("unknown-controller") == 2


def test_statistics_are_ordered_by_count_then_rule_id_in_aligned_columns(fixtures_tree: Counter) -> None:
    result = run("validate", "--no-config", "--statistics", ".")
    *lines, summary = result.out.splitlines()
    rows = _statistics_lines(result.out)
    assert len(rows) == len(lines)  # every line before the summary is a count
    expected = sorted(fixtures_tree.items(), key=lambda item: (-item[1], item[0][0], SEVERITY_RANK[item[0][1]]))
    assert rows == [(count, severity, rule) for (rule, severity), count in expected]
    # Columns: counts right-aligned, severities and rule ids each starting at one column.
    assert len({len(line) - len(line.lstrip(" ")) + len(line.split()[0]) for line in lines}) == 1
    assert len({line.index(line.split()[1]) for line in lines}) == 1
    assert len({line.index(line.split()[2], line.index(line.split()[1]) + 4) for line in lines}) == 1
    assert summary == run("validate", "--no-config", ".").out.splitlines()[-1]
    assert SUMMARY.match(summary)


def test_statistics_as_json_hold_the_summary_of_the_json_report(fixtures_tree: Counter) -> None:
    document = run("validate", "--no-config", "--statistics", "-f", "json", ".").json()
    assert set(document) >= {"statistics", "summary"}
    assert "diagnostics" not in document
    assert document["summary"] == run("validate", "--no-config", "-f", "json", ".").json()["summary"]
    for row in document["statistics"]:
        assert set(row) == {"rule", "severity", "count"}
        assert row["rule"] in all_rule_docs()
    counts = [row["count"] for row in document["statistics"]]
    assert counts == sorted(counts, reverse=True)


def test_statistics_keep_the_exit_code(fixtures_tree: Counter) -> None:
    assert run("validate", "--no-config", "--statistics", ".").code == 1
    assert run("validate", "--no-config", "--statistics", "-f", "json", ".").code == 1
    assert run("validate", "--no-config", "--statistics", "--exit-zero", ".").code == 0
    assert ("identity-first", "warning") in fixtures_tree
    warnings_only = run("validate", "--no-config", "--statistics", "-f", "json", "--select", "identity-first", ".")
    assert {row["severity"] for row in warnings_only.json()["statistics"]} == {"warning"}
    assert warnings_only.code == 0
    assert run("validate", "--no-config", "--statistics", "--select", "identity-first", "--fail-on", "warning", ".").code == 1


@pytest.mark.parametrize("fmt", ("sarif", "github", "junit", "gitlab"))
def test_statistics_with_a_machine_format_is_a_usage_error(fixtures_tree: Counter, fmt: str) -> None:
    result = run("validate", "--no-config", "--statistics", "-f", fmt, ".")
    assert result.code == 2
    [line] = result.err.splitlines()
    assert f"-f {fmt}" in line and "-f text" in line and "-f json" in line
    assert "unknown-controller" not in result.out  # no findings: the run did not check anything


# --------------------------------------------------------------------------- --quiet


def test_quiet_prints_the_same_findings_without_the_summary(fixtures_tree: Counter) -> None:
    full = run("validate", "--no-config", ".")
    quiet = run("validate", "--no-config", "--quiet", ".")
    assert quiet.code == full.code == 1
    assert SUMMARY.match(full.out.splitlines()[-1])
    assert quiet.out.splitlines() == full.out.splitlines()[:-1]
    assert len(quiet.out.splitlines()) == sum(fixtures_tree.values())
    assert not any(SUMMARY.match(line) for line in quiet.out.splitlines())


def test_quiet_statistics_have_no_summary_and_quiet_changes_no_machine_format(fixtures_tree: Counter) -> None:
    statistics = run("validate", "--no-config", "--statistics", ".").out.splitlines()
    assert run("validate", "--no-config", "--statistics", "-q", ".").out.splitlines() == statistics[:-1]
    for fmt in ("json", "sarif", "junit", "gitlab"):
        assert run("validate", "--no-config", "-q", "-f", fmt, ".").out == run("validate", "--no-config", "-f", fmt, ".").out


def test_quiet_github_annotations_have_no_summary_line(fixtures_tree: Counter) -> None:
    # What pre-commit prints inside GitHub Actions, where -f auto means github.
    full = run("validate", "--no-config", "-f", "github", ".").out.splitlines()
    quiet = run("validate", "--no-config", "-f", "github", "-q", ".").out.splitlines()
    assert [line for line in full if not SUMMARY.match(line)] == quiet
    assert len(full) == len(quiet) + 1
    assert sum(1 for line in quiet if line.startswith("::")) == sum(fixtures_tree.values())


def test_statistics_in_github_actions_are_text_where_auto_would_annotate(fixtures_tree: Counter, monkeypatch) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result = run("validate", "--no-config", "--statistics", ".")
    assert result.code == 1
    assert {(rule, severity): count for count, severity, rule in _statistics_lines(result.out)} == fixtures_tree


def test_quiet_keeps_the_warnings_about_the_run(tmp_path, monkeypatch) -> None:
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path)
    result = run("validate", "--no-config", "-q", "empty")
    assert result.out == ""
    assert result.err == "svcconf: warning: empty: no *.yaml, *.yml or *.json file in this folder; nothing checked\n"


# --------------------------------------------------------------------------- -v on documents

DEPLOYMENT = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"
CONFIG_MAP = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n"
AUDIT = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n"


def _skipped_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if ": skipped: " in line]


@pytest.mark.parametrize("workers", (False, True), ids=("one-process", "workers"))
def test_verbose_lists_each_skipped_document_and_why(tmp_path, monkeypatch, workers: bool) -> None:
    (tmp_path / "app.yaml").write_text(f"{DEPLOYMENT}---\n---\n{AUDIT}---\nfoo: bar\n")
    (tmp_path / "other.yaml").write_text(CONFIG_MAP)
    monkeypatch.chdir(tmp_path)
    result = run("validate", "--no-config", "-v", "-j", "2" if workers else "1", "app.yaml", "other.yaml")  # -j forces its count
    assert result.code == 0
    lines = _skipped_lines(result.err)
    assert lines[0].startswith("svcconf: app.yaml: document 1 (Deployment apps/v1): skipped: ")
    assert lines[1] == "svcconf: app.yaml: document 2: skipped: empty document"
    assert lines[2].startswith("svcconf: app.yaml: document 4: skipped: ")  # document 3, the audit policy, was checked
    assert "apiVersion" in lines[2] and "kind" in lines[2]
    assert lines[3].startswith("svcconf: other.yaml: document 1 (ConfigMap v1): skipped: ")
    assert len(lines) == 4
    # Each reason is said, and every document the summary counts as skipped is listed.
    assert all(line.partition(": skipped: ")[2] for line in lines)
    assert result.out.splitlines()[-1].endswith("(1 document checked, 4 skipped)")


def test_without_verbose_no_document_is_listed_and_none_is_collected(tmp_path, monkeypatch) -> None:
    (tmp_path / "app.yaml").write_text(DEPLOYMENT)
    monkeypatch.chdir(tmp_path)
    assert run("validate", "--no-config", "app.yaml").err == ""
    report = pipeline.validate(["app.yaml"])
    assert report.skipped == 1 and report.skipped_documents == []


def test_verbose_escapes_file_names_and_kinds(tmp_path, monkeypatch) -> None:
    (tmp_path / "a\nb.yaml").write_text('apiVersion: v1\nkind: "Evil\\e[31m\\nKind"\n')
    monkeypatch.chdir(tmp_path)
    result = run("validate", "--no-config", "-v", ".")
    [line] = _skipped_lines(result.err)
    assert line.startswith("svcconf: a\\nb.yaml: document 1 (Evil\\x1b[31m\\nKind v1): skipped: ")
    assert "\x1b" not in result.err
    assert len(result.err.splitlines()) == 1


# --------------------------------------------------------------------------- svcconf config

CONFIG = """\
target-version: "1.31"
ignore: [encryption]
severity:
  unknown-controller: info
per-file-ignores:
  "audit/**": [missing-field]
exclude: ["**/vendor/**"]
fail-on: warning
"""


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A configuration file in the parent of the working directory, which holds one fixture of each area."""
    (tmp_path / ".svcconf.yaml").write_text(CONFIG)
    work = tmp_path / "work"
    for case in ("encryption/identity-first.yaml", "audit/empty-rules-list.yaml", "controller-manager/kcm-unknown-controller.yaml"):
        target = work / case
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(FIXTURES / case, target)
    monkeypatch.chdir(work)
    return tmp_path


def test_config_found_in_a_parent_folder_is_shown_with_its_settings(project: Path) -> None:
    result = run("config", "-f", "json")
    assert result.code == 0, result.err
    settings = result.json()
    assert settings["config"] == "../.svcconf.yaml"
    assert settings["target-version"] == "1.31" and settings["target-version-is-default"] is False
    encryption_rules = {doc.id for doc in all_rule_docs().values() if doc.area == "encryption"}
    assert set(settings["ignore"]) == encryption_rules  # the area, expanded to its rule ids
    assert settings["severity"] == {"unknown-controller": "info"}
    assert settings["per-file-ignores"] == {"audit/**": ["missing-field"]}
    assert settings["exclude"] == [{"pattern": "**/vendor/**", "from": "../.svcconf.yaml"}]
    assert settings["fail-on"] == "warning"
    assert settings["select"] == []


def test_config_shows_what_validate_applies(project: Path) -> None:
    settings = run("config", "-f", "json").json()
    applied = run("validate", "-f", "json", ".")
    unconfigured = run("validate", "--no-config", "-f", "json", ".")
    rules = {d["rule"] for d in unconfigured.json()["diagnostics"]}
    ignored = rules & set(settings["ignore"])
    assert ignored  # identity-first: the fixture reports it unless the configuration ignores it
    assert not ignored & {d["rule"] for d in applied.json()["diagnostics"]}
    for rule, level in settings["severity"].items():
        assert {d["severity"] for d in applied.json()["diagnostics"] if d["rule"] == rule} == {level}
    assert applied.json()["config"] == settings["config"]
    assert "missing-field" not in {d["rule"] for d in applied.json()["diagnostics"] if d["file"].startswith("audit/")}


def test_no_config_shows_the_defaults(project: Path) -> None:
    settings = run("config", "--no-config", "-f", "json").json()
    assert settings["config"] is None
    assert settings["target-version"] == format_release(lifecycle().newest)
    assert settings["target-version-is-default"] is True
    assert (settings["ignore"], settings["severity"], settings["exclude"], settings["fail-on"]) == ([], {}, [], "error")
    text = run("config", "--no-config").out
    assert "config: null  # --no-config\n" in text


def test_flags_override_the_configuration_file(project: Path) -> None:
    settings = run("config", "-f", "json", "--target-version", "1.30", "--fail-on", "error", "--exclude", "gen/").json()
    assert settings["target-version"] == "1.30"
    assert settings["fail-on"] == "error"
    assert settings["exclude"] == [
        {"pattern": "gen/", "from": "--exclude"},
        {"pattern": "**/vendor/**", "from": "../.svcconf.yaml"},
    ]
    selected = run("config", "-f", "json", "--select", "audit").json()["select"]
    assert selected and {all_rule_docs()[rule].area for rule in selected} == {"audit"}


def test_text_output_is_yaml_that_says_what_the_json_says(project: Path) -> None:
    (project / ".svcconf.yaml").write_text(CONFIG + 'service-account-issuers: ["https://a.example/##[x]\\nb"]\n')
    text = run("config").out
    json_settings = run("config", "-f", "json").json()
    del json_settings["target-version-is-default"]
    json_settings["exclude"] = [entry["pattern"] for entry in json_settings["exclude"]]
    assert yaml.safe_load(text) == json_settings
    assert "##[" not in text and '\n  - "https://a.example/' in text  # escaped, on its own line
    assert '  - "**/vendor/**"  # ../.svcconf.yaml, relative to its folder\n' in text


def test_an_invalid_configuration_file_is_the_usage_error_validate_gives(project: Path) -> None:
    (project / ".svcconf.yaml").write_text("fail-on: errors\nignore: [no-such-rule]\n")
    shown = run("config")
    validated = run("validate", ".")
    assert shown.code == validated.code == 2
    assert shown.err == validated.err
    assert shown.err.startswith("svcconf: ../.svcconf.yaml:1:10: invalid configuration: fail-on:")
    assert shown.out == ""


def test_an_unknown_rule_on_the_command_line_is_a_usage_error(project: Path) -> None:
    result = run("config", "--no-config", "--ignore", "invalid-key-lenght")
    assert result.code == 2
    assert "did you mean 'invalid-key-length'?" in result.err
