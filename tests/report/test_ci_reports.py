"""Reports as CI reads them: a failed run never looks green, SARIF that code scanning takes as is, JUnit per file."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from svcconf.known.docs import all_rule_docs
from tests.cli.test_validate import ENCRYPTION, POLICY_WARNING
from tests.conftest import ROOT
from tests.helpers import run

CLEAN = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n"
FORMATS = ("text", "json", "sarif", "github", "junit")


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A folder with a broken, a warning-only and a clean file, as the working directory (no git, no configuration)."""
    (tmp_path / "enc.yaml").write_text(ENCRYPTION)
    (tmp_path / "audit.yaml").write_text(POLICY_WARNING)
    (tmp_path / "clean.yaml").write_text(CLEAN)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _junit(text: str) -> ET.Element:
    return ET.fromstring(text.split("\n", 1)[1]).find("testsuite")


def _says_the_run_failed(fmt: str, text: str, reason: str) -> None:
    """The report tells a reader the run failed, and why."""
    if fmt == "sarif":
        invocation = json.loads(text)["runs"][0]["invocations"][0]
        assert invocation["executionSuccessful"] is False
        assert [n["message"]["text"] for n in invocation["toolExecutionNotifications"]] == [reason]
        assert {n["level"] for n in invocation["toolExecutionNotifications"]} == {"error"}
    elif fmt == "json":
        assert json.loads(text)["error"] == reason
    elif fmt == "junit":
        suite = _junit(text)
        assert suite.get("errors") == "1"
        assert [e.get("message") for e in suite.iter("error")] == [reason]
    elif fmt == "github":
        assert f"::error title=svcconf failed::{reason}\n" in text
    else:
        assert text.splitlines()[-1] == f"svcconf: {reason}"
        assert " in 1 file (" not in text  # no summary: the run did not finish


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_missing_path_writes_a_report_that_says_the_run_failed(project, fmt: str) -> None:
    result = run("validate", "-f", fmt, "-o", "report.out", "clean.yaml", "missing.yaml")
    assert result.code == 2
    assert result.err == "svcconf: missing.yaml: no such file or folder\n"
    _says_the_run_failed(fmt, (project / "report.out").read_text(), "missing.yaml: no such file or folder")


@pytest.mark.parametrize("fmt", ("sarif", "json", "junit"))
def test_an_invalid_configuration_file_gives_a_failed_report_on_stdout(project, fmt: str) -> None:
    (project / ".svcconf.yaml").write_text("fail-on: errors\n")
    result = run("validate", "-f", fmt, ".")
    assert result.code == 2
    [reason] = result.err.removeprefix("svcconf: ").splitlines()
    assert reason.startswith(".svcconf.yaml:1:10: invalid configuration: fail-on:")
    _says_the_run_failed(fmt, result.out, reason)


def test_an_unknown_rule_on_the_command_line_gives_a_failed_report(project) -> None:
    result = run("validate", "-f", "sarif", "-o", "x.sarif", "--ignore", "invalid-key-lenght", ".")
    assert result.code == 2
    reason = "--ignore: unknown rule id 'invalid-key-lenght'; did you mean 'invalid-key-length'? (`svcconf rules` lists them)"
    assert result.err == f"svcconf: {reason}\n"
    _says_the_run_failed("sarif", (project / "x.sarif").read_text(), reason)


def test_an_internal_error_leaves_a_failed_report(project, monkeypatch) -> None:
    def boom(*_args, **_kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr("svcconf.lint.pipeline.validate", boom)
    result = run("validate", "-f", "json", "-o", "r.json", ".")
    assert result.code == 2
    _says_the_run_failed("json", (project / "r.json").read_text(), "internal error: RuntimeError: disk on fire")


def test_a_complete_run_says_it_succeeded(project) -> None:
    log = run("validate", "-f", "sarif", ".").json()
    assert log["runs"][0]["invocations"] == [{"executionSuccessful": True}]
    assert "error" not in run("validate", "-f", "json", ".").json()


def test_a_missing_path_on_a_terminal_is_one_error_line(project) -> None:
    result = run("validate", "missing.yaml")
    assert (result.code, result.out, result.err) == (2, "", "svcconf: missing.yaml: no such file or folder\n")


def test_the_report_folder_is_created(project) -> None:
    result = run("validate", "-f", "sarif", "-o", "reports/svcconf/out.sarif", "enc.yaml")
    assert result.code == 1
    assert json.loads((project / "reports" / "svcconf" / "out.sarif").read_text())["runs"][0]["results"]


def test_a_report_file_that_is_a_symlink_is_refused(project) -> None:
    (project / "keep.txt").write_text("keep me\n")
    (project / "out.sarif").symlink_to(project / "keep.txt")
    result = run("validate", "-f", "sarif", "-o", "out.sarif", "enc.yaml")
    assert result.code == 2
    assert "it is a symlink, and svcconf does not write through symlinks" in result.err
    assert (project / "keep.txt").read_text() == "keep me\n"


@pytest.mark.parametrize("output", ["linked/out.sarif", "linked/new/out.sarif", "linked/../out.sarif"])
def test_a_report_under_a_symlinked_folder_is_refused_before_anything_is_created(project, output) -> None:
    # A pull request can add `linked` pointing anywhere: nothing is written or created through it.
    (project / "real").mkdir()
    (project / "linked").symlink_to(project / "real" / "deeper", target_is_directory=True)
    (project / "real" / "deeper").mkdir()
    result = run("validate", "-f", "sarif", "-o", output, "enc.yaml")
    assert result.code == 2
    assert f"its folder {project / 'linked'} is a symlink, and svcconf does not write through symlinks" in result.err
    assert sorted(p.name for p in (project / "real").rglob("*")) == ["deeper"]


def test_exit_zero_keeps_findings_from_failing_the_run_but_not_errors_of_the_run(project) -> None:
    assert run("validate", "enc.yaml").code == 1
    found = run("validate", "--exit-zero", "-f", "json", "enc.yaml")
    assert found.code == 0 and found.json()["summary"]["errors"] == 1
    assert run("validate", "--exit-zero", "--fail-on", "info", "audit.yaml").code == 0
    assert run("validate", "--exit-zero", "missing.yaml").code == 2
    assert run("validate", "--exit-zero", "--select", "no-such-rule", "enc.yaml").code == 2


def test_exit_zero_and_the_colour_variables_are_in_the_help() -> None:
    assert "--exit-zero" in run("validate", "--help").out
    top = run("--help").out
    assert "--exit-zero" in top and "FORCE_COLOR" in top and "NO_COLOR" in top


# --------------------------------------------------------------------------- SARIF for code scanning


def _locations(log: dict) -> list[dict]:
    return [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in log["runs"][0]["results"]]


def _work_tree(tmp_path: Path, monkeypatch) -> Path:
    """A git work tree holding deploy/enc.yaml, with tools/ as the working directory."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "deploy").mkdir()
    (repo / "tools").mkdir()
    (repo / "deploy" / "enc.yaml").write_text(ENCRYPTION)
    monkeypatch.chdir(repo / "tools")
    return repo


def test_sarif_uris_are_relative_to_the_git_work_tree_from_any_folder(tmp_path, monkeypatch) -> None:
    repo = _work_tree(tmp_path, monkeypatch)
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text(ENCRYPTION)
    log = run("validate", "--no-config", "-f", "sarif", "../deploy/enc.yaml", str(repo / "deploy" / "enc.yaml"), str(outside)).json()
    inside = {"uri": "deploy/enc.yaml", "uriBaseId": "%SRCROOT%"}
    assert sorted(_locations(log), key=lambda location: location["uri"]) == [inside, inside, {"uri": outside.as_uri()}]
    assert log["runs"][0]["originalUriBaseIds"] == {"%SRCROOT%": {"uri": repo.as_uri() + "/"}}


def test_a_linked_work_tree_has_a_git_file(tmp_path, monkeypatch) -> None:
    (tmp_path / ".git").write_text("gitdir: /somewhere/else\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "enc.yaml").write_text(ENCRYPTION)
    monkeypatch.chdir(tmp_path / "sub")
    log = run("validate", "--no-config", "-f", "sarif", "enc.yaml").json()
    assert _locations(log) == [{"uri": "sub/enc.yaml", "uriBaseId": "%SRCROOT%"}]


def test_without_git_the_root_is_the_working_directory(project) -> None:
    log = run("validate", "-f", "sarif", "enc.yaml").json()
    assert _locations(log) == [{"uri": "enc.yaml", "uriBaseId": "%SRCROOT%"}]
    assert log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"] == Path(os.getcwd()).as_uri() + "/"


def test_sarif_rules_have_a_pascal_case_name_and_help_where_upstream_says_so(project) -> None:
    log = run("validate", "-f", "sarif", ".").json()
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    names = {r["id"]: r["name"] for r in rules}
    assert names == {"invalid-key-length": "InvalidKeyLength", "unreachable-audit-rule": "UnreachableAuditRule"}
    docs = all_rule_docs()
    for rule in rules:
        assert rule.get("helpUri") == (docs[rule["id"]].references[0].url if docs[rule["id"]].upstream else None)


# --------------------------------------------------------------------------- JUnit


def test_junit_has_a_test_case_for_every_checked_file(project) -> None:
    suite = _junit(run("validate", "-f", "junit", ".").out)
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert sorted(cases) == ["audit.yaml", "clean.yaml", "enc.yaml"]
    assert suite.get("tests") == "3" and suite.get("failures") == "1"
    assert list(cases["clean.yaml"]) == []  # passed


@pytest.mark.parametrize("fail_on", ("error", "warning", "info"))
def test_junit_failures_follow_fail_on(project, fail_on: str) -> None:
    result = run("validate", "-f", "junit", "--fail-on", fail_on, ".")
    suite = _junit(result.out)
    failed = {c.get("name") for c in suite.findall("testcase") if c.find("failure") is not None}
    assert failed == ({"enc.yaml"} if fail_on == "error" else {"enc.yaml", "audit.yaml"})
    assert suite.get("failures") == str(len(failed))
    assert result.code == 1


def test_junit_of_a_warning_only_file_fails_exactly_when_the_exit_code_does(project) -> None:
    for fail_on, code in (("error", 0), ("warning", 1)):
        result = run("validate", "-f", "junit", "--fail-on", fail_on, "audit.yaml")
        assert result.code == code
        assert _junit(result.out).get("failures") == str(code)


# SARIF 2.1.0 §3.27.10 `level`: "error" a serious problem, "warning" a problem, "note" a minor one; GitHub
# code scanning shows them as Error, Warning and Note. svcconf's info (advice) is a note.
SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def test_sarif_levels_follow_each_findings_severity() -> None:
    # One finding of each severity (the fixture's sidecar lists them: info, error, warning).
    case = str(ROOT / "fixtures" / "controller-manager" / "kcm-client-burst-and-debugging.yaml")
    findings = run("validate", "--no-config", "-f", "json", case).json()["diagnostics"]
    log = run("validate", "--no-config", "-f", "sarif", case).json()["runs"][0]
    assert sorted(d["severity"] for d in findings) == ["error", "info", "warning"]
    assert [(r["ruleId"], r["level"]) for r in log["results"]] == [(d["rule"], SARIF_LEVEL[d["severity"]]) for d in findings]
    defaults = {rule["id"]: rule["defaultConfiguration"]["level"] for rule in log["tool"]["driver"]["rules"]}
    assert defaults == {d["rule"]: SARIF_LEVEL[d["severity"]] for d in findings}


@pytest.mark.parametrize("severity,level", list(SARIF_LEVEL.items()))
def test_the_sarif_level_test_catches_a_swapped_level(monkeypatch, severity: str, level: str) -> None:
    from svcconf.model import Severity
    from svcconf.report import sarif_format

    wrong = next(other for other in ("error", "warning", "note") if other != level)
    monkeypatch.setitem(sarif_format._LEVEL, Severity.parse(severity), wrong)  # the planted bug
    with pytest.raises(AssertionError):
        test_sarif_levels_follow_each_findings_severity()


def test_sarif_names_stdin_by_its_placeholder(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    log = run("validate", "--no-config", "-f", "sarif", "-", stdin=ENCRYPTION.encode()).json()
    assert {location["uri"] for location in _locations(log)} == {"%3Cstdin%3E"}  # "<stdin>", percent-encoded


def test_sarif_names_the_settings_applied_relative_to_the_work_tree_from_any_folder(tmp_path, monkeypatch) -> None:
    repo = _work_tree(tmp_path, monkeypatch)
    (repo / ".svcconf.yaml").write_text("per-file-ignores: {}\n")
    sarif_run = run("validate", "-f", "sarif", "../deploy/enc.yaml").json()["runs"][0]
    assert sarif_run["artifacts"] == [
        {"location": {"uri": ".svcconf.yaml", "uriBaseId": "%SRCROOT%"}, "roles": ["userSpecifiedConfiguration"]}
    ]


def test_sarif_keeps_the_fix_and_the_migrated_version_of_a_finding_outside_any_document() -> None:
    from svcconf.lint.result import Report
    from svcconf.model import Diagnostic, Severity
    from svcconf.report.sarif_format import as_dict

    report = Report(files=1)
    report.diagnostics = [Diagnostic("a.yaml", 1, 1, "yaml-syntax", Severity.ERROR, "m", fix="close the list", migrated="v1")]
    [result] = as_dict(report, root=os.getcwd())["runs"][0]["results"]
    assert result["properties"] == {"fix": "close the list", "migrated": "v1"}


def test_sarif_describes_a_rule_without_documentation_by_its_id_as_an_error() -> None:
    from svcconf.lint.result import Report
    from svcconf.model import Diagnostic, Severity
    from svcconf.report.sarif_format import as_dict

    report = Report(files=1)
    report.diagnostics = [Diagnostic("a.yaml", 1, 1, "undocumented-rule", Severity.WARNING, "m")]
    [rule] = as_dict(report, root=os.getcwd())["runs"][0]["tool"]["driver"]["rules"]
    assert rule == {
        "id": "undocumented-rule",
        "name": "UndocumentedRule",
        "shortDescription": {"text": "undocumented-rule"},
        "defaultConfiguration": {"level": "error"},
    }
