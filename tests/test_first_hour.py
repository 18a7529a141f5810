"""Small mistakes of a first run get clear answers: empty folders, releases, mistyped options, colour, which configuration applied."""

from __future__ import annotations

import re

import pytest
import yaml

from svcconf.known.catalog import format_release, lifecycle, parse_release
from tests.cli.test_validate import ENCRYPTION
from tests.conftest import ROOT
from tests.helpers import run

# Removed in 1.25 (batch/v1beta1 CronJob): an error for any target from 1.25, nothing before.
CRONJOB = "apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: x\n"


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / "enc.yaml").write_text(ENCRYPTION)
    (tmp_path / "cronjob.yaml").write_text(CRONJOB)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_folder_without_yaml_or_json_is_a_warning(project) -> None:
    (project / "docs").mkdir()
    (project / "docs" / "notes.txt").write_text("not configuration\n")
    result = run("validate", "docs")
    assert result.code == 0
    assert result.err == "svcconf: warning: docs: no *.yaml, *.yml or *.json file in this folder; nothing checked\n"
    assert run("validate", "docs", "enc.yaml").err.startswith("svcconf: warning: docs: ")
    assert run("validate", ".").err == ""


def test_a_missing_path_is_one_error_line_without_a_summary(project) -> None:
    result = run("validate", "enc.yml")
    assert (result.code, result.out, result.err) == (2, "", "svcconf: enc.yml: no such file or folder\n")


def test_the_cronjob_of_these_tests_is_removed_in_1_25() -> None:
    # Upstream removed batch/v1beta1 CronJob in 1.25 (the deprecated API migration guide).
    row = lifecycle().row("batch", "v1beta1", "CronJob")
    assert row is not None and row.removed == (1, 25)


@pytest.mark.parametrize("written", ["1.31", "v1.31", "1.31.2", "v1.31.0"])
def test_target_version_takes_the_spellings_of_a_release(project, written: str) -> None:
    result = run("validate", "-f", "json", "--target-version", written, "cronjob.yaml")
    assert result.code == 1, result.err
    assert [d["rule"] for d in result.json()["diagnostics"]] == ["removed-api-version"]
    assert run("validate", "--target-version", written.replace("31", "24"), "cronjob.yaml").code == 0


@pytest.mark.parametrize("written", ["1.99", "2.0", "1.0"])
def test_a_release_svcconf_does_not_know_is_refused_with_the_range_it_knows(project, written: str) -> None:
    rows = lifecycle().rows.values()
    named = [release for row in rows for release in (row.introduced, row.deprecated, row.removed) if release]
    oldest, latest = format_release(min(named)), format_release(max(named))
    result = run("validate", "--target-version", written, "enc.yaml")
    assert result.code == 2
    assert f"svcconf does not know release {format_release(parse_release(written))}: it knows {oldest} to {latest}" in result.err
    assert run("migrate", "--to-version", written, "cronjob.yaml").code == 2


def test_the_configuration_file_takes_a_patch_release_and_refuses_an_unknown_one(project) -> None:
    (project / ".svcconf.yaml").write_text('target-version: "1.24.3"\n')
    assert run("validate", "cronjob.yaml").code == 0
    (project / ".svcconf.yaml").write_text('target-version: "1.99"\n')
    result = run("validate", "cronjob.yaml")
    assert result.code == 2
    assert result.err.startswith("svcconf: .svcconf.yaml:1:17: invalid configuration: target-version: svcconf does not know release 1.99")


@pytest.mark.parametrize(("command", "typo", "meant"), [("validate", "--selct", "--select"), ("migrate", "--chek", "--check")])
def test_a_mistyped_option_shows_the_usage_of_its_command(project, command: str, typo: str, meant: str) -> None:
    result = run(command, typo, "x", ".")
    assert result.code == 2
    assert result.err.startswith(f"usage: svcconf {command} ")
    assert result.err.splitlines()[-1] == f"svcconf {command}: error: unrecognized arguments: {typo} (did you mean {meant}?)"


def test_print_defaults_takes_the_component_names_readme_lists() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `svcconf print defaults KIND`"))
    names = re.search(r"\(([a-z, ]+)\)", row).group(1).split(", ")
    assert names == ["scheduler", "proxy", "kubelet"]
    for name in names:
        printed = run("print", "defaults", name)
        assert printed.code == 0, printed.err
        assert yaml.safe_load(printed.out)["kind"].lower().removeprefix("kube").startswith(name.removeprefix("kube"))


# --------------------------------------------------------------------------- colour


@pytest.mark.parametrize(
    ("env", "flag", "coloured"),
    [
        ({}, "auto", False),  # not a terminal
        ({"FORCE_COLOR": "1"}, "auto", True),
        ({"FORCE_COLOR": ""}, "auto", False),  # empty: unset
        ({"FORCE_COLOR": "1"}, "never", False),
        ({"NO_COLOR": "1"}, "always", True),
        ({"NO_COLOR": ""}, "always", True),
        ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, "auto", False),
        ({"TERM": "dumb"}, "always", True),
        ({"TERM": "dumb", "FORCE_COLOR": "1"}, "auto", True),
    ],
)
def test_colour_follows_the_flag_then_no_color_then_force_color(project, monkeypatch, env: dict, flag: str, coloured: bool) -> None:
    for name in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    result = run("validate", "--color", flag, "enc.yaml")
    assert ("\x1b[" in result.out) is coloured
    assert "invalid-key-length" in result.out


# --------------------------------------------------------------------------- which configuration applied


def test_the_summary_names_the_configuration_file_applied(project) -> None:
    (project / ".svcconf.yaml").write_text("ignore: [invalid-key-length]\n")
    result = run("validate", "enc.yaml")
    assert result.code == 0
    assert result.out == "0 errors, 0 warnings in 1 file (1 document checked, 0 skipped; config: .svcconf.yaml)\n"
    assert run("validate", "-f", "json", "enc.yaml").json()["config"] == ".svcconf.yaml"
    artifacts = run("validate", "-f", "sarif", "enc.yaml").json()["runs"][0]["artifacts"]
    assert artifacts == [{"location": {"uri": ".svcconf.yaml", "uriBaseId": "%SRCROOT%"}, "roles": ["userSpecifiedConfiguration"]}]
    assert run("validate", "--no-config", "-f", "json", "enc.yaml").json()["config"] is None


def test_a_configuration_file_found_in_a_parent_folder_is_named_from_here(project, monkeypatch) -> None:
    (project / "pyproject.toml").write_text('[tool.svcconf]\nfail-on = "warning"\n')
    (project / "sub").mkdir()
    (project / "sub" / "enc.yaml").write_text(ENCRYPTION)
    monkeypatch.chdir(project / "sub")
    assert run("validate", "enc.yaml").out.endswith("(1 document checked, 0 skipped; config: ../pyproject.toml)\n")


def test_a_file_named_on_the_command_line_is_never_excluded_silently(project, monkeypatch) -> None:
    monkeypatch.delenv("PRE_COMMIT", raising=False)  # by hand, not from a hook
    (project / ".svcconf.yaml").write_text('exclude: ["enc*"]\n')
    result = run("validate", "enc.yaml", "cronjob.yaml")
    assert result.err == "svcconf: warning: enc.yaml: excluded by 'enc*' (exclude in .svcconf.yaml); not checked\n"
    assert "1 file" in result.out and "invalid-key-length" not in result.out
    flagged = run("validate", "--no-config", "--exclude", "enc.yaml", "enc.yaml")
    assert flagged.err == "svcconf: warning: enc.yaml: excluded by 'enc.yaml' (--exclude); not checked\n"
    assert run("validate", ".").err == ""  # files a folder search leaves out are not named one by one
    quiet = run("validate", "--force-exclude", "-f", "json", "enc.yaml", "cronjob.yaml")
    assert quiet.err == "" and quiet.json()["summary"]["excluded"] == 1
