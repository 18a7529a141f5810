"""The hooks of .pre-commit-hooks.yaml on an ordinary repository, run as pre-commit runs them.

`pre-commit try-repo` would run them for real, but it builds a virtual environment from this
repository and pip-installs svcconf's dependencies into it each time (about 15 s here, and never
offline: every uncommitted change is a new revision, hence a new environment). This test does
what pre-commit does around a hook instead: it lists the repository's files with `git ls-files`
(as `--all-files` does), keeps those the hook's `files` and `exclude` regular expressions select
(`re.search`) and whose identify tags meet `types_or`, and runs the hook's `entry` with them as
arguments from the top of the repository. (pre-commit may spread the files over several
processes, each printing its own summary line; the findings and the exit code are the same.)
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest
import yaml

from tests.conftest import ROOT

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git to list the repository's files")

HOOKS = {hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
# identify's yaml and json tags (identify 2.6: extensions.EXTENSIONS and NAMES), which pre-commit filters types_or by.
TAGGED_EXTENSIONS = {
    "yaml": {"yaml", "yml", "eyaml", "yamlld"},
    "json": {"json", "ejson", "geojson", "ipynb", "jsonld", "piskel", "xctestplan"},
}
TAGGED_NAMES = {
    "yaml": {".ansible-lint", ".clang-format", ".clang-tidy", ".salt-lint", ".yamllint"},
    "json": {".babelrc", ".bowerrc", ".csslintrc", ".jshintrc", ".mention-bot", "Pipfile.lock"},
}

AUDIT_POLICY = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n"
ENCRYPTION = """\
apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - identity: {}
"""
BROKEN_ENCRYPTION = ENCRYPTION.replace("[secrets]", "[secrets")
REPOSITORY = {
    "README.md": "# app\n",
    "charts/app/Chart.yaml": "apiVersion: v2\nname: app\nversion: 0.1.0\n",
    "charts/app/templates/deployment.yaml": "apiVersion: apps/v1\nkind: Deployment\nspec:\n  {{- toYaml .Values.spec | nindent 2 }}\n",
    # A template that embeds scheduler settings: it names a group svcconf checks, so only the exclude keeps it out.
    "deploy/helm/templates/scheduler.yaml": (
        "apiVersion: v1\nkind: ConfigMap\ndata:\n  config.yaml: |\n    apiVersion: kubescheduler.config.k8s.io/v1\n"
        "    kind: KubeSchedulerConfiguration\n    {{- toYaml .Values.scheduler | nindent 4 }}\n"
    ),
    "ops/app.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ app_name }}\nspec:\n  {% for x in y %}\n",
    "vendor/github.com/x/y/testdata/bad.yaml": BROKEN_ENCRYPTION,
    "tsconfig.json": '{\n  // compiler settings\n  "compilerOptions": {"strict": true,},\n}\n',
    ".babelrc": '{\n  /* presets */\n  "presets": ["@babel/env"],\n}\n',
    ".github/workflows/ci.yml": "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.sha }}\n",
    "config/audit-policy.yaml": AUDIT_POLICY,
    "config/encryption.yaml": BROKEN_ENCRYPTION,
}


def tags(path: str) -> set[str]:
    name = os.path.basename(path)
    extension = name.rsplit(".", 1)[-1].lower() if "." in name.lstrip(".") else ""
    return {tag for tag in TAGGED_EXTENSIONS if extension in TAGGED_EXTENSIONS[tag] or name in TAGGED_NAMES[tag]}


def selected(hook: dict, repository) -> list[str]:
    """The files pre-commit passes to a hook: tracked, matched by `files`, not by `exclude`, tagged as one of `types_or`."""
    listed = subprocess.run(["git", "ls-files"], cwd=repository, capture_output=True, text=True, check=True).stdout.splitlines()
    include, exclude = re.compile(hook.get("files", "")), re.compile(hook.get("exclude", "^$"))
    return [f for f in listed if include.search(f) and not exclude.search(f) and tags(f) & set(hook["types_or"])]


def run_hook(hook_id: str, repository, *args: str) -> tuple[int, str, str, list[str]]:
    """(exit code, stdout, stderr, files passed) of a hook's entry run on the repository's files."""
    hook = HOOKS[hook_id]
    files = selected(hook, repository)
    command, *entry_args = shlex.split(hook["entry"])
    assert command == "svcconf"
    process = subprocess.run(
        [sys.executable, "-m", "svcconf", *entry_args, *args, *files],
        cwd=repository,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    return process.returncode, process.stdout, process.stderr, files


@pytest.fixture
def repository(tmp_path):
    for name, text in REPOSITORY.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "add", "-A"], cwd=tmp_path, check=True)
    return tmp_path


def test_the_hooks_get_the_repository_s_yaml_and_json_without_charts_and_vendored_code(repository) -> None:
    expected = [
        ".babelrc",
        ".github/workflows/ci.yml",
        "config/audit-policy.yaml",
        "config/encryption.yaml",
        "ops/app.yaml",
        "tsconfig.json",
    ]
    for hook in HOOKS.values():
        assert sorted(selected(hook, repository)) == expected


def test_validate_fails_only_for_the_broken_configuration(repository) -> None:
    code, out, err, files = run_hook("svcconf", repository)
    assert code == 1
    error, summary = out.splitlines()
    assert re.match(r"config/encryption\.yaml:\d+:\d+: error \[yaml-syntax\] ", error), error
    # The template, the two JSON files with comments and the workflow are skipped; the policy is checked.
    assert summary == f"1 error, 0 warnings in {len(files)} files (1 document checked, 4 skipped)"
    assert err == ""


def test_validate_with_verbose_says_what_it_skipped(repository) -> None:
    code, _out, err, _files = run_hook("svcconf", repository, "-v")
    assert code == 1
    # The four skipped documents of the summary: three files that do not parse, and the workflow.
    assert sorted(line.split(": skipped: ")[0] for line in err.splitlines()) == [
        "svcconf: .babelrc",
        "svcconf: .github/workflows/ci.yml: document 1",
        "svcconf: ops/app.yaml",
        "svcconf: tsconfig.json",
    ]


def test_both_hooks_pass_once_the_configuration_is_fixed(repository) -> None:
    (repository / "config" / "encryption.yaml").write_text(ENCRYPTION, encoding="utf-8")
    before = {name: (repository / name).read_bytes() for name in REPOSITORY}
    for hook_id in HOOKS:
        code, out, err, _files = run_hook(hook_id, repository)
        assert (code, err) == (0, ""), out
    assert {name: (repository / name).read_bytes() for name in REPOSITORY} == before


def test_migrate_leaves_the_broken_configuration_unchanged_and_fails(repository) -> None:
    code, out, _err, _files = run_hook("svcconf-migrate", repository)
    assert code == 1
    [error] = [line for line in out.splitlines() if "error [" in line]
    assert error.startswith("config/encryption.yaml:") and "[yaml-syntax]" in error and error.endswith("file left unchanged")
    assert (repository / "config" / "encryption.yaml").read_text(encoding="utf-8") == BROKEN_ENCRYPTION


def test_the_readme_quotes_the_default_exclude() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    default = HOOKS["svcconf"]["exclude"]
    assert HOOKS["svcconf-migrate"]["exclude"] == default
    assert f"`{default}`" in readme  # pre-commit section
    assert f"        exclude: {default}\n" in readme  # the local hook for Alpine


def test_a_file_the_configuration_excludes_is_skipped_quietly_and_counted(repository) -> None:
    """pre-commit names every staged file: one that `exclude` leaves out is expected, as ruff's --force-exclude hooks have it."""
    (repository / ".svcconf.yaml").write_text("exclude: [config/encryption.yaml]\n", encoding="utf-8")
    code, out, err, files = run_hook("svcconf", repository)
    assert "config/encryption.yaml" in files
    assert (code, err) == (0, "")
    assert out.endswith(f"in {len(files) - 1} files (1 document checked, 4 skipped, 1 excluded; config: .svcconf.yaml)\n")
    code, out, err, _files = run_hook("svcconf-migrate", repository)
    assert (code, err) == (0, ""), out
    assert (repository / "config" / "encryption.yaml").read_text(encoding="utf-8") == BROKEN_ENCRYPTION


def test_under_pre_commit_the_warning_is_left_out_without_the_flag_too(repository) -> None:
    (repository / ".svcconf.yaml").write_text("exclude: [config/encryption.yaml]\n", encoding="utf-8")
    command = [sys.executable, "-m", "svcconf", "validate", "config/encryption.yaml", "config/audit-policy.yaml"]
    environment = {key: value for key, value in os.environ.items() if key != "PRE_COMMIT"}
    by_hand = subprocess.run(command, cwd=repository, capture_output=True, text=True, check=False, env=environment)
    assert (
        by_hand.stderr
        == "svcconf: warning: config/encryption.yaml: excluded by 'config/encryption.yaml' (exclude in .svcconf.yaml); not checked\n"
    )
    hooked = subprocess.run(command, cwd=repository, capture_output=True, text=True, check=False, env={**environment, "PRE_COMMIT": "1"})
    assert (hooked.returncode, hooked.stderr) == (0, "")
    assert "1 excluded" in hooked.stdout
