"""Formats CI systems consume (-f auto, github's summary and limit note, GitLab Code Quality) and --stdin-filename for editors."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import jsonschema
import pytest
import yaml

from svcconf.cli import build_parser
from tests.cli.test_validate import ENCRYPTION, KEY_9_BYTES, POLICY_WARNING
from tests.conftest import ROOT
from tests.helpers import run


def _encryption_with_keys(count: int) -> str:
    """An EncryptionConfiguration whose `count` keys are each too short: one invalid-key-length error per key."""
    keys = "".join(f"            - name: key{i}\n              secret: {KEY_9_BYTES}\n" for i in range(count))
    head = "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n"
    return head + "    providers:\n      - aesgcm:\n          keys:\n" + keys + "      - identity: {}\n"


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A folder with a file that has an error and one with a warning, as the working directory (no git, no configuration)."""
    (tmp_path / "enc.yaml").write_text(ENCRYPTION)
    (tmp_path / "audit.yaml").write_text(POLICY_WARNING)
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --------------------------------------------------------------------------- -f auto


def test_auto_is_github_inside_github_actions(project, monkeypatch) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    for args in (("validate", "."), ("validate", "-f", "auto", ".")):
        result = run(*args)
        assert result.code == 1
        assert result.out.startswith("::warning file=audit.yaml,line=5,col=5,title=svcconf unreachable-audit-rule::")
        assert "::error file=enc.yaml,line=9,col=23,title=svcconf invalid-key-length::" in result.out


@pytest.mark.parametrize("value", (None, "false", ""))
def test_auto_is_text_outside_github_actions(project, monkeypatch, value: str | None) -> None:
    if value is not None:
        monkeypatch.setenv("GITHUB_ACTIONS", value)
    result = run("validate", ".")
    assert result.out.startswith("audit.yaml:5:5: warning [unreachable-audit-rule]")
    assert "::" not in result.out


def test_auto_writes_text_to_a_report_file_even_inside_github_actions(project, monkeypatch) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result = run("validate", "-o", "report.txt", ".")
    assert (result.code, result.out) == (1, "")
    assert (project / "report.txt").read_text().startswith("audit.yaml:5:5: warning [unreachable-audit-rule]")


def test_auto_is_the_documented_default() -> None:
    assert "default: auto: github inside GitHub Actions" in " ".join(run("validate", "--help").out.split())


# --------------------------------------------------------------------------- github: summary and annotation limits


def test_github_ends_with_the_summary_the_text_report_gives(project) -> None:
    github = run("validate", "-f", "github", ".").out.splitlines()
    text = run("validate", "-f", "text", ".").out.splitlines()
    assert github[-1] == text[-1] == "1 error, 1 warning in 2 files (2 documents checked, 0 skipped)"
    assert all(line.startswith("::") for line in github[:-1]) and len(github) == 3


def _github_lines(folder: Path, errors: int) -> list[str]:
    """The github report of a file with `errors` errors, having checked that each is an annotation."""
    path = folder / "enc.yaml"
    path.write_text(_encryption_with_keys(errors))
    lines = run("validate", "--no-config", "-f", "github", str(path)).out.splitlines()
    assert sum(1 for line in lines if line.startswith("::error ")) == errors
    return lines


def test_more_errors_than_github_shows_are_said_on_a_line_of_their_own(tmp_path) -> None:
    lines = _github_lines(tmp_path, 11)
    assert lines[-2] == "11 errors, 0 warnings in 1 file (1 document checked, 0 skipped)"
    note = lines[-1]
    assert not note.lstrip().startswith("::")  # a plain line, not an annotation that would itself be cut
    assert note.startswith("svcconf: 11 errors: GitHub shows at most 10 annotations of each level per step")
    assert "this step's log lists every finding" in note and "SARIF" in note


def test_ten_errors_need_no_note(tmp_path) -> None:
    assert _github_lines(tmp_path, 10)[-1] == "10 errors, 0 warnings in 1 file (1 document checked, 0 skipped)"


def test_a_failed_github_run_has_its_error_annotation_and_no_summary(project) -> None:
    result = run("validate", "-f", "github", "enc.yaml", "missing.yaml")
    assert result.code == 2
    assert result.out.splitlines()[-1] == "::error title=svcconf failed::missing.yaml: no such file or folder"


# --------------------------------------------------------------------------- GitLab Code Quality

# The fields GitLab reads, as its documentation lists them ("Implement a custom tool",
# https://docs.gitlab.com/ee/ci/testing/code_quality.html): svcconf always writes location.lines.begin.
CODE_QUALITY_ISSUES = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["description", "check_name", "fingerprint", "severity", "location"],
        "properties": {
            "description": {"type": "string", "minLength": 1},
            "check_name": {"type": "string", "minLength": 1},
            "fingerprint": {"type": "string", "minLength": 1},
            "severity": {"enum": ["info", "minor", "major", "critical", "blocker"]},
            "location": {
                "type": "object",
                "required": ["path", "lines"],
                "properties": {
                    "path": {"type": "string", "minLength": 1},
                    "lines": {"type": "object", "required": ["begin"], "properties": {"begin": {"type": "integer", "minimum": 1}}},
                },
            },
        },
    },
}


def _gitlab(*args: str) -> list[dict]:
    result = run("validate", "-f", "gitlab", *args)
    assert result.code in (0, 1), result.err
    assert not result.out.startswith("\ufeff")  # GitLab's parser refuses a byte order mark
    issues = json.loads(result.out)
    jsonschema.validate(issues, CODE_QUALITY_ISSUES)
    return issues


def test_gitlab_issues_have_the_fields_gitlab_requires(project) -> None:
    issues = _gitlab(".")
    by_rule = {issue["check_name"]: issue for issue in issues}
    assert sorted(by_rule) == ["invalid-key-length", "unreachable-audit-rule"]
    assert by_rule["invalid-key-length"]["severity"] == "major"
    assert by_rule["invalid-key-length"]["location"] == {"path": "enc.yaml", "lines": {"begin": 9}}
    assert by_rule["invalid-key-length"]["description"].startswith("resources[0].providers[0].aesgcm.keys[0].secret: Invalid value:")
    assert by_rule["unreachable-audit-rule"]["severity"] == "minor"
    assert by_rule["unreachable-audit-rule"]["location"] == {"path": "audit.yaml", "lines": {"begin": 5}}


def test_gitlab_severity_of_advice_is_info(tmp_path) -> None:
    path = tmp_path / "enc.yaml"
    path.write_text(ENCRYPTION.replace("aesgcm", "aescbc"))
    issues = _gitlab("--no-config", str(path))
    assert {issue["check_name"]: issue["severity"] for issue in issues}["aescbc-discouraged"] == "info"


def test_gitlab_fingerprints_are_unique_and_stable(project) -> None:
    (project / "many.yaml").write_text(_encryption_with_keys(3))
    first = _gitlab(".")
    assert len({issue["fingerprint"] for issue in first}) == len(first) == 5
    assert _gitlab(".") == first
    # A line inserted above every finding moves them, and GitLab still knows them by their fingerprints.
    for name in ("enc.yaml", "audit.yaml", "many.yaml"):
        (project / name).write_text("# moved down a line\n" + (project / name).read_text())
    moved = _gitlab(".")
    assert [issue["fingerprint"] for issue in moved] == [issue["fingerprint"] for issue in first]
    assert [issue["location"]["lines"]["begin"] for issue in moved] == [issue["location"]["lines"]["begin"] + 1 for issue in first]


def test_identical_findings_in_one_file_have_fingerprints_of_their_own(tmp_path) -> None:
    path = tmp_path / "twice.yaml"
    path.write_text(ENCRYPTION + "---\n" + ENCRYPTION)  # the same finding in two documents: same file, rule, path, message
    issues = [issue for issue in _gitlab("--no-config", str(path)) if issue["check_name"] == "invalid-key-length"]
    assert len(issues) == 2 and issues[0]["description"] == issues[1]["description"]
    assert issues[0]["fingerprint"] != issues[1]["fingerprint"]


def test_gitlab_paths_are_relative_to_the_repository_root_from_any_folder(tmp_path, monkeypatch) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "deploy").mkdir()
    (repo / "tools").mkdir()
    (repo / "deploy" / "enc.yaml").write_text(ENCRYPTION)
    monkeypatch.chdir(repo / "tools")
    from_tools = _gitlab("--no-config", "../deploy/enc.yaml")
    monkeypatch.chdir(repo)
    from_root = _gitlab("--no-config", "deploy/enc.yaml")
    assert [issue["location"]["path"] for issue in from_tools] == ["deploy/enc.yaml"]
    assert from_tools == from_root  # same fingerprints too: they hash the path GitLab sees


@pytest.mark.parametrize("cause", ("missing path", "invalid configuration"))
def test_a_failed_run_writes_an_empty_gitlab_report(project, cause: str) -> None:
    if cause == "invalid configuration":
        (project / ".svcconf.yaml").write_text("fail-on: errors\n")
        args = ("enc.yaml",)
    else:
        args = ("enc.yaml", "missing.yaml")
    (project / "gl-code-quality-report.json").write_text("[]\n")  # a clean report from an earlier run is not left behind
    result = run("validate", "-f", "gitlab", "-o", "gl-code-quality-report.json", *args)
    assert result.code == 2 and result.err.startswith("svcconf: ")
    assert (project / "gl-code-quality-report.json").read_bytes() == b""
    assert run("validate", "-f", "gitlab", *args).out == ""


def test_gitlab_report_shows_no_secret(tmp_path) -> None:
    planted = "UExBTlRFRC1TRUNSRVQtMTIz"  # "PLANTED-SECRET-123", 18 bytes: a wrong length, so the key is reported
    path = tmp_path / "enc.yaml"
    path.write_text(ENCRYPTION.replace(KEY_9_BYTES, planted))
    result = run("validate", "--no-config", "-f", "gitlab", str(path))
    assert "invalid-key-length" in result.out
    assert planted not in result.out and "PLANTED-SECRET" not in result.out


# --------------------------------------------------------------------------- --stdin-filename


@pytest.fixture
def repository(tmp_path, monkeypatch) -> Path:
    """A repository with a configuration file, and a working directory outside it (as an editor's may be)."""
    repo = tmp_path / "repo"
    (repo / "deploy" / "generated").mkdir(parents=True)
    (repo / ".svcconf.yaml").write_text('exclude: ["deploy/generated/"]\nper-file-ignores:\n  "deploy/quiet.yaml": [invalid-key-length]\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    return repo


def test_stdin_is_reported_under_the_given_name(repository) -> None:
    name = str(repository / "deploy" / "enc.yaml")  # it need not exist
    for paths in ((), ("-",)):
        result = run("validate", "-f", "json", "--stdin-filename", name, *paths, stdin=ENCRYPTION.encode())
        assert result.code == 1
        assert [(d["file"], d["rule"]) for d in result.json()["diagnostics"]] == [(name, "invalid-key-length")]


def test_the_configuration_file_is_found_from_the_given_files_folder(repository) -> None:
    name = str(repository / "deploy" / "enc.yaml")
    report = run("validate", "-f", "json", "--stdin-filename", name, stdin=ENCRYPTION.encode()).json()
    assert Path(report["config"]).resolve() == (repository / ".svcconf.yaml").resolve()  # named relative to the working directory
    assert run("validate", "-f", "json", "--no-config", "--stdin-filename", name, stdin=ENCRYPTION.encode()).json()["config"] is None


def test_per_file_ignores_apply_to_the_given_name(repository) -> None:
    result = run("validate", "-f", "json", "--stdin-filename", str(repository / "deploy" / "quiet.yaml"), stdin=ENCRYPTION.encode())
    assert result.code == 0
    assert result.json()["diagnostics"] == []


def test_an_excluded_name_gives_no_findings_and_says_why_with_verbose(repository) -> None:
    name = str(repository / "deploy" / "generated" / "enc.yaml")
    quiet = run("validate", "--stdin-filename", name, stdin=ENCRYPTION.encode())
    assert (quiet.code, quiet.err) == (0, "")
    assert quiet.out.startswith("0 errors, 0 warnings in 0 files")
    verbose = run("validate", "-v", "-f", "json", "--stdin-filename", name, stdin=ENCRYPTION.encode())
    assert verbose.code == 0 and verbose.json()["diagnostics"] == []
    assert verbose.err == f"svcconf: {name}: skipped: excluded by 'deploy/generated/' (exclude in ../repo/.svcconf.yaml)\n"


def test_the_given_suffix_decides_json_handling(tmp_path) -> None:
    # JSON allows a tab as white space, YAML does not: a tab-indented JSON file is fine as .json only.
    text = '\t{"apiVersion": "audit.k8s.io/v1", "kind": "Policy", "rules": [{"level": "Metadata"}]}\n'
    as_json = run("validate", "--no-config", "-f", "json", "--stdin-filename", str(tmp_path / "policy.json"), stdin=text.encode())
    assert (as_json.code, as_json.json()["diagnostics"]) == (0, [])
    as_yaml = run("validate", "--no-config", "-f", "json", "--stdin-filename", str(tmp_path / "policy.yaml"), stdin=text.encode())
    assert [d["rule"] for d in as_yaml.json()["diagnostics"]] == ["yaml-syntax"]


def test_stdin_filename_without_stdin_is_a_usage_error(project) -> None:
    result = run("validate", "--stdin-filename", "enc.yaml", "audit.yaml")
    assert result.code == 2
    assert result.err == "svcconf: --stdin-filename names what is read from stdin: give - or no PATH\n"
    assert run("validate", "--stdin-filename", "", stdin=b"").code == 2


def test_the_readme_gitlab_job_uploads_the_report_it_writes() -> None:
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("\n### GitLab CI\n", 1)[1].split("\n## ", 1)[0]
    [job] = yaml.safe_load(re.search(r"```yaml\n(.*?)```", section, re.DOTALL).group(1)).values()
    [command] = [shlex.split(line) for line in job["script"] if line.startswith("svcconf ")]
    args = build_parser().parse_args(command[1:])  # a usage error exits
    assert (args.format, args.output) == ("gitlab", job["artifacts"]["reports"]["codequality"])
    assert job["artifacts"]["when"] == "always"  # a failed run's empty report is uploaded too


REMOVED_INGRESS = (
    "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: x\nspec:\n  backend:\n    serviceName: s\n    servicePort: 80\n"
)


def test_migrate_names_stdin_and_converts_it_as_the_given_file(repository) -> None:
    name = str(repository / "deploy" / "ingress.yaml")
    result = run("migrate", "--stdin-filename", name, stdin=REMOVED_INGRESS.encode())
    assert result.code == 0
    assert result.out.startswith("apiVersion: networking.k8s.io/v1\nkind: Ingress\n")
    assert result.err.startswith(f"{name}: document 1 (line 1): extensions/v1beta1 Ingress -> networking.k8s.io/v1 Ingress")


def test_migrate_passes_an_excluded_buffer_through_unchanged(repository) -> None:
    name = str(repository / "deploy" / "generated" / "ingress.yaml")  # exclude in the configuration file found from its folder
    result = run("migrate", "--stdin-filename", name, "-", stdin=REMOVED_INGRESS.encode())
    assert (result.code, result.out) == (0, REMOVED_INGRESS)
    assert "->" not in result.err


def test_the_annotation_of_a_failed_run_counts_towards_githubs_limit(tmp_path) -> None:
    path = tmp_path / "enc.yaml"
    path.write_text(_encryption_with_keys(10))
    result = run("validate", "--no-config", "-f", "github", str(path), str(tmp_path / "missing.yaml"))
    assert result.code == 2 and result.out.splitlines()[-1].startswith("svcconf: 11 errors: GitHub shows at most 10")


def test_a_github_annotation_without_a_field_path_is_the_rule_then_the_message(tmp_path) -> None:
    (tmp_path / "broken.yaml").write_text("apiVersion: audit.k8s.io/v1\nkind: [\n")
    [annotation] = [
        line
        for line in run("validate", "--no-config", "-f", "github", str(tmp_path / "broken.yaml")).out.splitlines()
        if line.startswith("::")
    ]
    assert annotation.split("::")[2].startswith("[yaml-syntax] while parsing")


def test_the_limit_note_names_each_level_over_the_limit_and_where_to_see_them_all(tmp_path) -> None:
    (tmp_path / "enc.yaml").write_text(_encryption_with_keys(11))
    typos = "".join(f"    typo{i}: 1\n" for i in range(12))  # unknown fields: warnings under --field-validation Warn
    (tmp_path / "audit.yaml").write_text("apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n" + typos)
    result = run(
        "validate", "--no-config", "-f", "github", "--field-validation", "Warn", str(tmp_path / "enc.yaml"), str(tmp_path / "audit.yaml")
    )
    note = result.out.splitlines()[-1]
    assert note.startswith("svcconf: 11 errors and 12 warnings: GitHub shows at most 10 annotations of each level per step (50 per job)")
    # Where to find the rest: the step's log, and a SARIF upload to code scanning.
    assert note.endswith("this step's log lists every finding, and a SARIF report uploaded to code scanning shows them all")
