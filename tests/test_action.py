"""action.yml: valid GitHub Action metadata, inputs that reach the shell only as data, and steps that run svcconf as documented."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from tests.conftest import FIXTURES, ROOT

ACTION = ROOT / "action.yml"
DATA = ROOT / "tests" / "data"
# action.yml is a repository file: the check against an installed wheel copies tests and fixtures only.
pytestmark = pytest.mark.skipif(not ACTION.exists(), reason="action.yml is not beside the tests")
EXPRESSION = re.compile(r"\$\{\{(.*?)\}\}", re.DOTALL)
INPUT_REFERENCE = re.compile(r"\binputs\.([A-Za-z0-9_-]+)")
WITH_ERRORS = FIXTURES / "scheduler" / "backoff.yaml"
WARNINGS_ONLY = FIXTURES / "admission" / "adm-duplicate-plugin.yaml"
REMOVED_VERSION = FIXTURES / "audit" / "removed-v1beta1-policy.yaml"


def _action() -> dict:
    return yaml.safe_load(ACTION.read_text(encoding="utf-8"))


def _steps() -> list[dict]:
    return _action()["runs"]["steps"]


def test_metadata_is_valid_for_github() -> None:
    schema = json.loads((DATA / "github-action.json").read_text(encoding="utf-8"))
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in jsonschema.Draft7Validator(schema).iter_errors(_action())]
    assert errors == []


def test_scripts_take_inputs_only_from_the_environment() -> None:
    """`${{ }}` inside `run:` is pasted into the script before the shell reads it: an input could run commands."""
    for step in _steps():
        assert "${{" not in step.get("run", ""), step["name"]


def test_every_input_is_declared_and_used() -> None:
    declared = set(_action()["inputs"])
    used = {name for expression in EXPRESSION.findall(ACTION.read_text(encoding="utf-8")) for name in INPUT_REFERENCE.findall(expression)}
    assert used == declared
    assert {"paths", "target-version", "format", "fail-on", "config", "sarif-file", "migrate-check"} <= declared


def _run_step(name: str, tmp_path: Path, **inputs: str) -> subprocess.CompletedProcess:
    """Run one shell step as GitHub runs it (bash -eo pipefail), its env filled as the step maps the inputs."""
    step = next(s for s in _steps() if s["name"] == name)
    defaults = {key: spec.get("default", "") for key, spec in _action()["inputs"].items()}
    values = {**defaults, **{key.replace("_", "-"): value for key, value in inputs.items()}}
    env = {**os.environ}
    for variable, expression in step["env"].items():
        env[variable] = values[INPUT_REFERENCE.search(expression).group(1)]
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    python = bin_dir / "python"  # the Python setup-python would provide, with svcconf installed
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    script = tmp_path / "step.sh"
    script.write_text(step["run"], encoding="utf-8")
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
        check=False,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )


def test_validate_step_annotates_findings_and_fails(tmp_path: Path) -> None:
    clean = _run_step("Validate", tmp_path, paths="fixtures/examples")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    found = _run_step("Validate", tmp_path, paths=f"fixtures/examples\n{WITH_ERRORS.relative_to(ROOT)}\n")
    assert found.returncode == 1
    assert "::error file=fixtures/scheduler/backoff.yaml,line=3" in found.stdout


def test_validate_step_passes_settings(tmp_path: Path) -> None:
    assert _run_step("Validate", tmp_path, paths=str(WARNINGS_ONLY)).returncode == 0
    strict = _run_step("Validate", tmp_path, paths=str(WARNINGS_ONLY), fail_on="warning", format="json")
    assert strict.returncode == 1 and json.loads(strict.stdout)["summary"]["warnings"] >= 1
    bad_release = _run_step("Validate", tmp_path, paths=str(WITH_ERRORS), target_version="one")
    assert bad_release.returncode == 2 and "not a release" in bad_release.stderr


def test_validate_step_writes_sarif_and_still_fails_on_findings(tmp_path: Path) -> None:
    sarif = tmp_path / "svcconf.sarif"
    done = _run_step("Validate", tmp_path, paths=str(WITH_ERRORS), sarif_file=str(sarif))
    assert done.returncode == 1
    report = json.loads(sarif.read_text(encoding="utf-8"))
    assert report["version"] == "2.1.0" and report["runs"][0]["results"]


def test_paths_are_data_not_shell(tmp_path: Path) -> None:
    """A path with spaces, quotes and `$(...)` is one path: nothing in it runs."""
    folder = tmp_path / "odd $(touch pwned) 'name'"
    folder.mkdir()
    (folder / "policy.yaml").write_text("apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n", encoding="utf-8")
    done = _run_step("Validate", tmp_path, paths=f"{folder}\n", format="json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["summary"]["documents"] == 1
    assert not (ROOT / "pwned").exists() and not (tmp_path / "pwned").exists()


def test_migrate_check_step_fails_on_a_removed_version(tmp_path: Path) -> None:
    assert _run_step("Check for removed API versions", tmp_path, paths="fixtures/examples").returncode == 0
    done = _run_step("Check for removed API versions", tmp_path, paths=str(REMOVED_VERSION.relative_to(ROOT)))
    assert done.returncode == 1, done.stdout + done.stderr


def test_readme_workflow_uses_the_action_with_its_inputs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## GitHub Action\n", 1)[1].split("\n## ", 1)[0]
    workflow = yaml.safe_load(re.search(r"```yaml\n(.*?)```", section, re.DOTALL).group(1))
    workflow["on"] = workflow.pop(True)  # a YAML 1.1 reader's boolean; GitHub reads the key `on`
    schema = json.loads((DATA / "github-workflow.json").read_text(encoding="utf-8"))
    assert [e.message for e in jsonschema.Draft7Validator(schema).iter_errors(workflow)] == []
    steps = [step for job in workflow["jobs"].values() for step in job["steps"]]
    uses = [step for step in steps if "svcconf" in step.get("uses", "")]
    assert uses and set(uses[0].get("with", {})) <= set(_action()["inputs"])
