"""The command line as a user meets it: formats, exit codes, stdin, folders, config, suppressions."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from tests.conftest import FIXTURES, ROOT
from tests.helpers import run

KEY_9_BYTES = "cGFzc3dvcmQK"
ENCRYPTION = f"""apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - aesgcm:
          keys:
            - name: key1
              secret: {KEY_9_BYTES}
      - identity: {{}}
"""
POLICY_WARNING = """apiVersion: audit.k8s.io/v1
kind: Policy
rules:
  - level: Metadata
  - level: None
    verbs: [watch]
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A folder with one broken and one warning-only file, as the working directory."""
    (tmp_path / "enc.yaml").write_text(ENCRYPTION)
    (tmp_path / "audit.yaml").write_text(POLICY_WARNING)
    (tmp_path / "notes.txt").write_text("not yaml: [")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_text_report_and_exit_code(project) -> None:
    result = run("validate", ".")
    assert result.code == 1
    lines = result.out.splitlines()
    assert (
        lines[0]
        == "audit.yaml:5:5: warning [unreachable-audit-rule] rules[1]: rules[0] matches every request, so this rule is never used; move it before rules[0]"
    )
    assert lines[1].startswith(
        'enc.yaml:9:23: error [invalid-key-length] resources[0].providers[0].aesgcm.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 9'
    )
    assert lines[-1] == "1 error, 1 warning in 2 files (2 documents checked, 0 skipped)"
    assert "\x1b[" not in result.out  # no colour when not on a terminal


def test_fail_on_warning(project) -> None:
    assert run("validate", "audit.yaml").code == 0
    assert run("validate", "--fail-on", "warning", "audit.yaml").code == 1


def test_json_contract(project) -> None:
    result = run("validate", "-f", "json", ".")
    report = result.json()
    assert report["version"] == 1
    assert report["summary"] == {
        "files": 2,
        "documents": 2,
        "errors": 1,
        "warnings": 1,
        "infos": 0,
        "skipped": 0,
        "excluded": 0,
        "suppressed": 0,
        "baselined": 0,
    }
    diagnostic = next(d for d in report["diagnostics"] if d["rule"] == "invalid-key-length")
    assert diagnostic == {
        "file": "enc.yaml",
        "line": 9,
        "column": 23,
        "document": 1,
        "apiVersion": "apiserver.config.k8s.io/v1",
        "kind": "EncryptionConfiguration",
        "path": "resources[0].providers[0].aesgcm.keys[0].secret",
        "rule": "invalid-key-length",
        "severity": "error",
        "message": 'Invalid value: "REDACTED": secret is not of the expected length, got 9, expected one of [16 24 32]',
        "fix": None,
        "migrated": None,
    }


def test_sarif_validates_against_the_sarif_schema(project) -> None:
    import jsonschema

    schema = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
    result = run("validate", "-f", "sarif", ".")
    log = result.json()
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(log))
    assert errors == []
    run_ = log["runs"][0]
    rules = {r["id"]: r for r in run_["tool"]["driver"]["rules"]}
    assert set(rules) == {"invalid-key-length", "unreachable-audit-rule"}
    assert "16, 24 or 32" in rules["invalid-key-length"]["help"]["text"]
    result_ = next(r for r in run_["results"] if r["ruleId"] == "invalid-key-length")
    assert result_["level"] == "error"
    assert result_["locations"][0]["physicalLocation"]["region"] == {"startLine": 9, "startColumn": 23}
    assert result_["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == "resources[0].providers[0].aesgcm.keys[0].secret"
    assert run_["tool"]["driver"]["rules"][result_["ruleIndex"]]["id"] == "invalid-key-length"


def test_github_annotations(project) -> None:
    lines = run("validate", "-f", "github", ".").out.splitlines()
    assert lines[0].startswith(
        "::warning file=audit.yaml,line=5,col=5,title=svcconf unreachable-audit-rule::[unreachable-audit-rule] rules[1]: "
    )
    assert lines[1].startswith("::error file=enc.yaml,line=9,col=23,title=svcconf invalid-key-length::")


def test_junit_report(project) -> None:
    result = run("validate", "-f", "junit", ".")
    root = ET.fromstring(result.out.split("\n", 1)[1])
    suite = root.find("testsuite")
    assert suite.get("failures") == "1"
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert cases["enc.yaml"].find("failure").get("type") == "invalid-key-length"
    assert cases["audit.yaml"].find("failure") is None
    assert "unreachable-audit-rule" in cases["audit.yaml"].find("system-out").text


def test_output_file(project) -> None:
    result = run("validate", "-f", "json", "-o", "report.json", "enc.yaml")
    assert result.code == 1 and result.out == ""
    assert json.loads((project / "report.json").read_text())["summary"]["errors"] == 1


def test_stdin(project) -> None:
    result = run("validate", "-f", "json", "-", stdin=ENCRYPTION.encode())
    assert result.code == 1
    assert {d["file"] for d in result.json()["diagnostics"]} == {"<stdin>"}


def test_stdin_in_a_real_process() -> None:
    process = subprocess.run(
        [sys.executable, "-m", "svcconf", "validate", "--no-config", "-"],
        input=ENCRYPTION.encode(),
        capture_output=True,
        check=False,
        cwd=ROOT,
        timeout=60,
    )
    assert process.returncode == 1
    assert b"<stdin>:9:23: error [invalid-key-length]" in process.stdout
    assert process.stderr == b""


def test_exclude_and_folders(project) -> None:
    (project / "sub").mkdir()
    (project / "sub" / "more.yml").write_text(ENCRYPTION)
    (project / ".hidden").mkdir()
    (project / ".hidden" / "x.yaml").write_text(ENCRYPTION)
    report = run("validate", "-f", "json", ".").json()
    assert report["summary"]["files"] == 3
    report = run("validate", "-f", "json", "--exclude", "sub", "--exclude", "audit.yaml", ".").json()
    assert report["summary"]["files"] == 1


def test_usage_errors_exit_2(project) -> None:
    assert run("validate", "--format", "xml", ".").code == 2
    assert run("validate", "--target-version", "one", ".").code == 2
    assert run("validate", "--api-domain", "not a domain", ".").code == 2
    assert run("rules", "no-such-rule").code == 2


def test_config_file_select_ignore_severity(project) -> None:
    (project / ".svcconf.yaml").write_text("ignore: [invalid-key-length]\nseverity:\n  unreachable-audit-rule: error\n")
    result = run("validate", "-f", "json", ".")
    assert [(d["rule"], d["severity"]) for d in result.json()["diagnostics"]] == [("unreachable-audit-rule", "error")]
    assert result.code == 1
    assert run("validate", "--no-config", "-f", "json", ".").json()["summary"]["errors"] == 1


def test_config_in_pyproject(project) -> None:
    (project / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.svcconf]\nignore = ["unreachable-audit-rule"]\nfail-on = "warning"\n'
    )
    result = run("validate", "audit.yaml")
    assert result.code == 0
    assert result.out.splitlines()[-1].startswith("0 errors, 0 warnings")


def test_invalid_config_is_reported_with_its_position(project) -> None:
    (project / ".svcconf.yaml").write_text("ignore:\n  - unknwon-field\ntarget-version: 1.30\nfield-validation: strict\n")
    result = run("validate", ".")
    assert result.code == 2
    errors = result.err.splitlines()
    assert any(".svcconf.yaml:2:5: invalid configuration: ignore[0]: unknown rule id 'unknwon-field'" in e for e in errors)
    assert any(".svcconf.yaml:3:17: invalid configuration: target-version: cannot unmarshal number" in e for e in errors)
    assert any(".svcconf.yaml:4:19: invalid configuration: field-validation: Unsupported value" in e for e in errors)
    bad_toml = project / "broken.toml"
    bad_toml.write_text("[tool.svcconf\n")
    bad_pyproject = project / "sub"
    bad_pyproject.mkdir()
    (bad_pyproject / "pyproject.toml").write_text('[tool.svcconf]\nselect = "unknown-field"\n')
    result = run("validate", "--config", str(bad_pyproject / "pyproject.toml"), ".")
    assert result.code == 2
    assert "pyproject.toml:2:1: invalid configuration: select: cannot unmarshal string" in result.err


def test_config_errors_come_in_line_order_and_a_numeric_release_says_to_quote_it(project) -> None:
    # The schema's findings come before the rule names' and the releases' own checks: printed by line.
    (project / ".svcconf.yaml").write_text("target-version: 1.30\nselect: [nope]\nfail-on: bogus\n")
    result = run("validate", ".")
    assert result.code == 2
    positions = [line.split(": invalid configuration")[0].rsplit(":", 2)[1:] for line in result.err.splitlines()]
    assert positions == [["1", "17"], ["2", "10"], ["3", "10"]]
    assert result.err.splitlines()[0].endswith(
        "target-version: cannot unmarshal number into a field of type string: unquoted, 1.30 is the number 1.3, "
        'not a release; quote it: target-version: "1.30"'
    )
    (project / ".svcconf.yaml").unlink()
    (project / "pyproject.toml").write_text("[tool.svcconf]\nfrom-version = 1.29  # the release running now\n")
    result = run("validate", ".")
    assert result.err.endswith('unquoted, 1.29 is the number 1.29, not a release; quote it: from-version = "1.29"\n')


def test_inline_suppressions(tmp_path) -> None:
    path = tmp_path / "enc.yaml"
    path.write_text(ENCRYPTION.replace(f"secret: {KEY_9_BYTES}", f"secret: {KEY_9_BYTES}  # svcconf: ignore[invalid-key-length]"))
    assert run("validate", "--no-config", "-f", "json", str(path)).rules() == []
    path.write_text("# svcconf: ignore-file[invalid-key-length, identity-first]\n" + ENCRYPTION)
    assert run("validate", "--no-config", "-f", "json", str(path)).rules() == [(1, 1, "warning", "unused-suppression", "")]


def test_target_version_and_domain_spelling(tmp_path) -> None:
    path = tmp_path / "p.yaml"
    path.write_text("apiVersion: audit.example.com/v1beta1\nkind: Policy\nrules:\n  - level: Metadata\n")
    assert run("validate", "--no-config", "-f", "json", str(path)).rules() == []  # unknown group: skipped
    removed = run("validate", "--no-config", "-f", "json", "--api-domain", "example.com", str(path))
    assert removed.rules() == [(1, 13, "error", "removed-api-version", "apiVersion")]
    assert "migrate to audit.k8s.io/v1" in removed.json()["diagnostics"][0]["message"]
    # The fix is the conversion migrate applies, from the same table.
    assert (
        removed.json()["diagnostics"][0]["fix"]
        == "`svcconf migrate --write` rewrites it as audit.k8s.io/v1 Policy (only the apiVersion changes)"
    )
    text = run("validate", "--no-config", "--api-domain", "example.com", str(path)).out.splitlines()[0]
    assert text.endswith(f"(fix: {removed.json()['diagnostics'][0]['fix']})")  # the text report gives the fix too
    deprecated = run("validate", "--no-config", "-f", "json", "--api-domain", "example.com", "--target-version", "1.22", str(path))
    assert deprecated.rules() == [(1, 13, "warning", "deprecated-api-version", "apiVersion")]


def test_parallel_jobs_give_the_same_report(tmp_path) -> None:
    for i in range(12):
        (tmp_path / f"f{i:02}.yaml").write_text(ENCRYPTION if i % 2 else POLICY_WARNING)
    serial = run("validate", "--no-config", "-f", "json", "-j", "1", str(tmp_path)).json()
    parallel = run("validate", "--no-config", "-f", "json", "-j", "2", str(tmp_path)).json()
    assert serial == parallel
    assert serial["summary"]["files"] == 12


def test_rules_and_kinds_commands() -> None:
    listing = run("rules")
    assert listing.code == 0
    assert any(line.startswith("kms-v1-disabled ") for line in listing.out.splitlines())
    one = run("rules", "identity-first")
    assert one.code == 0
    assert "Fails:" in one.out and "Write instead:" in one.out
    kinds = run("kinds")
    assert kinds.code == 0
    assert any(line.split()[:3] == ["audit.k8s.io/v1", "Policy", "yes"] for line in kinds.out.splitlines())
    assert any(line.split()[:2] == ["audit.k8s.io/v1beta1", "Policy"] and "1.24" in line for line in kinds.out.splitlines())
    assert "batch/v1beta1" not in kinds.out
    assert "batch/v1beta1" in run("kinds", "--all").out


def test_bundled_examples_are_clean() -> None:
    result = run("validate", "--no-config", str(FIXTURES / "examples"))
    assert result.code == 0
    assert result.out.splitlines()[-1] == "0 errors, 0 warnings in 2 files (2 documents checked, 0 skipped)"


def test_colour_only_when_asked_and_no_color_wins(project, monkeypatch) -> None:
    coloured = run("validate", "--color", "always", "enc.yaml")
    assert "\x1b[" in coloured.out
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in run("validate", "enc.yaml").out


def test_readme_example_output_is_what_svcconf_prints(tmp_path, monkeypatch) -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("```console\n", 1)[1].split("```", 1)[0]
    shown_file, shown_run = block.split("$ svcconf validate ", 1)
    name, _, expected = shown_run.partition("\n")
    (tmp_path / name).write_text(shown_file.split("\n", 1)[1], encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert run("validate", "--no-config", name).out == expected


def test_config_per_file_ignores_target_version_and_field_validation(project) -> None:
    (project / "old").mkdir()
    (project / "old" / "policy.yaml").write_text(
        "apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules:\n  - level: Metadata\n"
        "---\napiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n    verbz: [get]\n"
    )
    (project / ".svcconf.yaml").write_text(
        'target-version: "1.23"\nfield-validation: Warn\nper-file-ignores:\n  "enc.yaml": [invalid-key-length]\nexclude: [audit.yaml]\n'
    )
    report = run("validate", "-f", "json", ".").json()
    assert [(d["file"], d["rule"], d["severity"]) for d in report["diagnostics"]] == [
        ("old/policy.yaml", "deprecated-api-version", "warning"),
        ("old/policy.yaml", "unknown-field", "warning"),
    ]


def test_an_unexpected_failure_is_one_line_and_exit_2(project, monkeypatch) -> None:
    def boom(*_args, **_kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr("svcconf.lint.pipeline.validate", boom)
    result = run("validate", ".")
    assert result.code == 2
    assert result.err == "svcconf: internal error: RuntimeError: disk on fire (set SVCCONF_DEBUG=1 for the traceback; please report it)\n"


def test_output_file_replaces_an_existing_report(project) -> None:
    (project / "report.txt").write_text("an older, longer report\n" * 100)
    assert run("validate", "-o", "report.txt", "audit.yaml").code == 0
    assert (project / "report.txt").read_text().splitlines()[-1] == "0 errors, 1 warning in 1 file (1 document checked, 0 skipped)"


@pytest.mark.parametrize("dangling", [False, True])
def test_output_never_goes_through_a_symlink(project, dangling: bool) -> None:
    target = project / "precious.txt"
    if not dangling:
        target.write_text("keep me\n")
    (project / "report.txt").symlink_to(target)
    result = run("validate", "-o", "report.txt", "enc.yaml")
    assert result.code == 2
    assert result.out == ""
    assert result.err == "svcconf: report.txt: cannot write the report: it is a symlink, and svcconf does not write through symlinks\n"
    if dangling:
        assert not target.exists()
    else:
        assert target.read_text() == "keep me\n"


def test_output_onto_a_folder_is_a_usage_error(project) -> None:
    (project / "out").mkdir()
    result = run("validate", "-f", "json", "-o", "out", "enc.yaml")
    assert (result.code, result.out, result.err) == (2, "", "svcconf: out: cannot write the report: it is a folder\n")
    assert list((project / "out").iterdir()) == []


def test_a_file_named_like_an_option_is_a_file_not_an_option(tmp_path, monkeypatch) -> None:
    # pre-commit passes staged names after the hook's arguments: `-ostray.yaml` must not become `-o stray.yaml`.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-ostray.yaml").write_text("apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Everything\n")
    result = run("validate", "--no-config", "-ostray.yaml")
    assert result.code == 1 and "./-ostray.yaml:4:12: error [invalid-value]" in result.out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["-ostray.yaml"]
