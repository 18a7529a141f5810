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


def _run_step(name: str, tmp_path: Path, cwd: Path = ROOT, extra_env: dict | None = None, **inputs: str) -> subprocess.CompletedProcess:
    """Run one shell step as GitHub runs it (bash -eo pipefail) in `cwd`, its env filled as the step maps the inputs."""
    step = next(s for s in _steps() if s["name"] == name)
    defaults = {key: spec.get("default", "") for key, spec in _action()["inputs"].items()}
    values = {**defaults, **{key.replace("_", "-"): value for key, value in inputs.items()}}
    env = {**os.environ}
    for variable, expression in step["env"].items():
        if reference := INPUT_REFERENCE.search(expression):  # others (github.action_path) come in extra_env
            env[variable] = values[reference.group(1)]
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    python = bin_dir / "python"  # the Python setup-python would provide, with svcconf installed
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    env.update(extra_env or {})
    script = tmp_path / "step.sh"
    script.write_text(step["run"], encoding="utf-8")
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
        check=False,
        capture_output=True,
        text=True,
        cwd=cwd,
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


# --------------------------------------------------------------------------- nothing from the repository runs

# What a pull request could add at the root of the checkout, the working folder of every step: each
# module, if imported, leaves a mark and ends the process with exit code 0, as a passing step would.
HOSTILE_MODULES = ("yaml", "svcconf", "pip", "sitecustomize", "usercustomize", "ruamel", "pathspec", "rich")


def _hostile_checkout(folder: Path) -> None:
    for module in HOSTILE_MODULES:
        (folder / f"{module}.py").write_text(
            f"import pathlib, os\npathlib.Path({str(folder)!r}, 'RAN-{module}').touch()\nos._exit(0)\n", encoding="utf-8"
        )
    (folder / "policy.yaml").write_text("apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []\n", encoding="utf-8")
    (folder / "removed.yaml").write_bytes(REMOVED_VERSION.read_bytes())


def _probe_wheel(folder: Path) -> Path:
    """A wheel of one empty module: the install step installs it for real, from the hostile folder, without a network."""
    import base64
    import hashlib
    import zipfile

    files = {
        "svcconf_action_probe.py": b"",
        "svcconf_action_probe-0.0.0.dist-info/METADATA": b"Metadata-Version: 2.1\nName: svcconf-action-probe\nVersion: 0.0.0\n",
        "svcconf_action_probe-0.0.0.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = "".join(
        f"{name},sha256={base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()},{len(data)}\n"
        for name, data in files.items()
    )
    wheel = folder / "svcconf_action_probe-0.0.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
        archive.writestr("svcconf_action_probe-0.0.0.dist-info/RECORD", record + "svcconf_action_probe-0.0.0.dist-info/RECORD,,\n")
    return wheel


def test_every_step_runs_the_installed_code_never_the_checkout(tmp_path: Path) -> None:
    """`python -m` puts the working folder first on sys.path: a pull request's pip.py or yaml.py would run with the step's token."""
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    _hostile_checkout(checkout)
    shell_steps = [step["name"] for step in _steps() if "run" in step]
    assert shell_steps == ["Install svcconf", "Validate", "Check for removed API versions"]

    target = tmp_path / "site"
    install_env = {"SVCCONF_SOURCE": str(_probe_wheel(tmp_path)), "PIP_TARGET": str(target), "PIP_NO_INDEX": "1"}
    installed = _run_step("Install svcconf", tmp_path, cwd=checkout, extra_env=install_env)
    assert installed.returncode == 0, installed.stderr
    assert (target / "svcconf_action_probe.py").exists()  # pip ran, and installed what it was given

    sarif = tmp_path / "out.sarif"
    validated = _run_step("Validate", tmp_path, cwd=checkout, paths="policy.yaml", sarif_file=str(sarif))
    assert validated.returncode == 1, validated.stdout + validated.stderr
    assert "::error file=policy.yaml,line=3" in validated.stdout and "empty-audit-policy" in validated.stdout
    assert json.loads(sarif.read_text(encoding="utf-8"))["runs"][0]["results"]

    migrated = _run_step("Check for removed API versions", tmp_path, cwd=checkout, paths="removed.yaml")
    assert migrated.returncode == 1, migrated.stdout + migrated.stderr
    assert "would change" in migrated.stdout

    assert sorted(path.name for path in checkout.iterdir() if path.name.startswith("RAN-")) == []


def test_every_python_command_of_the_action_uses_the_safe_path() -> None:
    """Each `python` the steps call has -P (the test above runs them; this names a new step that forgets it)."""
    for step in _steps():
        for line in step.get("run", "").splitlines():
            words = line.split()
            for at, word in enumerate(words):
                if word in ("python", "python3"):
                    assert words[at + 1 : at + 2] == ["-P"], (step["name"], line)
