"""README's way into CI works as written: the pre-commit snippet, the GitHub workflow, the suppression example and the options."""

from __future__ import annotations

import json
import re
import shlex

import pytest
import yaml

from svcconf.cli import build_parser
from tests.conftest import ROOT
from tests.helpers import run

README = (ROOT / "README.md").read_text(encoding="utf-8")
WORKFLOW_SCHEMA = ROOT / "tests" / "data" / "github-workflow.json"


def _section(title: str) -> str:
    """README from a heading to the next heading of level 2 to 4 (a `# comment` in a code block is not one)."""
    start = README.index(f"\n{title}\n") + len(title) + 2
    end = re.compile(r"^#{2,4} ", re.MULTILINE).search(README, start)
    return README[start : end.start() if end else len(README)]


def _yaml_block(section: str) -> str:
    return _section(section).split("```yaml\n", 1)[1].split("```", 1)[0]


def test_the_pre_commit_snippet_uses_the_hooks_this_repository_defines() -> None:
    config = yaml.safe_load(_yaml_block("### pre-commit"))
    [repo] = config["repos"]
    hooks = {hook["id"] for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    assert {hook["id"] for hook in repo["hooks"]} <= hooks
    # A full commit id: pre-commit warns about a branch or short id as a mutable reference.
    assert re.fullmatch(r"[0-9a-f]{40}", repo["rev"])


def test_the_pre_commit_snippet_is_a_valid_pre_commit_configuration(tmp_path) -> None:
    clientlib = pytest.importorskip("pre_commit.clientlib", reason="pre-commit is not installed")
    path = tmp_path / ".pre-commit-config.yaml"
    path.write_text(_yaml_block("### pre-commit"), encoding="utf-8")
    assert clientlib.load_config(str(path))["repos"][0]["hooks"][0]["id"] == "svcconf"


def _workflow() -> dict:
    return yaml.safe_load(_yaml_block("### GitHub Actions"))


def test_the_workflow_passes_the_workflow_schema() -> None:
    import jsonschema

    schema = json.loads(WORKFLOW_SCHEMA.read_text(encoding="utf-8"))
    workflow = _workflow()
    # YAML 1.1 reads the key `on` as true; GitHub's reader does not.
    workflow["on"] = workflow.pop(True)
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in jsonschema.Draft7Validator(schema).iter_errors(workflow)]
    assert errors == []


def _steps() -> list[dict]:
    [job] = _workflow()["jobs"].values()
    return job["steps"]


def test_every_svcconf_command_of_the_workflow_is_one_svcconf_takes() -> None:
    commands = [shlex.split(step["run"], comments=True) for step in _steps() if step.get("run", "").startswith("svcconf ")]
    assert len(commands) == 3
    for words in commands:
        build_parser().parse_args(words[1:])  # a usage error exits


def test_the_sarif_is_uploaded_whatever_happened_and_findings_do_not_stop_it() -> None:
    steps = _steps()
    sarif = next(step for step in steps if " -f sarif " in step.get("run", ""))
    upload = next(step for step in steps if step.get("uses", "").startswith("github/codeql-action/upload-sarif@"))
    words = shlex.split(sarif["run"])
    assert words[words.index("-o") + 1] == upload["with"]["sarif_file"]
    assert "--exit-zero" in words
    assert sarif["if"] == upload["if"] == "always()"
    assert any(step.get("run", "").startswith("svcconf validate -f github") for step in steps)
    assert any(step.get("run", "").startswith("svcconf migrate --check") for step in steps)
    assert _workflow()["permissions"]["security-events"] == "write"


def test_the_suppression_example_suppresses_what_it_says(tmp_path) -> None:
    example = _yaml_block("### Suppressing a finding")
    header = "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n"
    path = tmp_path / "enc.yaml"
    path.write_text(header + example, encoding="utf-8")
    found = {d["rule"] for d in run("validate", "--no-config", "-f", "json", str(path)).json()["diagnostics"]}
    assert not found & {"kms-v1-disabled", "invalid-key-length", "unused-suppression", "unknown-rule"}
    path.write_text(header + re.sub(r"#.*", "", example), encoding="utf-8")
    found = {d["rule"] for d in run("validate", "--no-config", "-f", "json", str(path)).json()["diagnostics"]}
    assert {"kms-v1-disabled", "invalid-key-length"} <= found


def test_every_validate_option_is_in_the_readme_table() -> None:
    table = _section("### validate")
    options = set(re.findall(r"(?<![\w-])--[a-z][a-z-]+", run("validate", "--help").out)) - {"--help"}
    assert "--exit-zero" in options
    assert sorted(option for option in options if f"`{option}" not in table and f", {option}" not in table) == []
