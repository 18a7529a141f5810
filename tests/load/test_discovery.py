"""Which files a run checks: exclude and per-file-ignores relative to the config file's folder, --exclude to the
working directory, what git ignores left out of folder walks; however paths are written, wherever svcconf runs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from tests.helpers import run
from tests.test_linear_input import deadline

# A policy with one warning (unreachable-audit-rule), so that a checked file shows in the report.
POLICY = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n  - level: None\n    verbs: [watch]\n"


def tree(root, *paths: str) -> None:
    for path in paths:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(POLICY, encoding="utf-8")


def checked(*args: str) -> list[str]:
    """The files a validate run reports on, as it names them."""
    result = run("validate", "-f", "json", *args)
    assert result.code in (0, 1), result.err
    return sorted({d["file"] for d in result.json()["diagnostics"]})


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A project with a config file at its top, vendored and generated files; the working directory is its top."""
    tree(tmp_path, "a.yaml", "deploy/x.yaml", "deploy/vendor/v.yaml", "vendor/top.yaml", "deploy/gen/g.yaml")
    (tmp_path / ".svcconf.yaml").write_text('exclude: ["**/vendor/**", "deploy/gen/"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_config_patterns_are_relative_to_its_folder_from_the_top(repo) -> None:
    # `**/vendor/**` also matches the vendor folder at the top, as in .gitignore.
    assert checked(".") == ["a.yaml", "deploy/x.yaml"]


def test_config_patterns_are_relative_to_its_folder_from_a_subfolder(repo, monkeypatch) -> None:
    monkeypatch.chdir(repo / "deploy")
    assert checked(".") == ["x.yaml"]
    assert checked("gen/g.yaml", "vendor/v.yaml", "x.yaml") == ["x.yaml"]


def test_config_patterns_match_absolute_relative_and_dotted_paths(repo) -> None:
    given = ["deploy/gen/g.yaml", "./deploy/gen/g.yaml", str(repo / "deploy" / "gen" / "g.yaml"), "deploy/../deploy/vendor/v.yaml"]
    assert checked(*given, "./deploy/x.yaml") == ["./deploy/x.yaml"]


def test_an_explicit_config_file_elsewhere_keeps_its_folder(repo, tmp_path_factory, monkeypatch) -> None:
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    monkeypatch.chdir(elsewhere)
    config = str(repo / ".svcconf.yaml")
    assert checked("--config", config, str(repo / "deploy")) == [str(repo / "deploy" / "x.yaml")]


def test_command_line_patterns_are_relative_to_the_working_directory(repo, monkeypatch) -> None:
    monkeypatch.chdir(repo / "deploy")
    assert checked("--no-config", "--exclude", "vendor/", "--exclude", "./gen", ".") == ["x.yaml"]
    # Anchored at the working directory: deploy/x.yaml is `x.yaml` here, not `deploy/x.yaml`.
    assert "x.yaml" in checked("--no-config", "--exclude", "/deploy/x.yaml", ".")
    assert "x.yaml" not in checked("--no-config", "--exclude", "/x.yaml", ".")


def test_per_file_ignores_are_relative_to_the_config_folder(repo, monkeypatch) -> None:
    (repo / ".svcconf.yaml").write_text('per-file-ignores:\n  "deploy/**": [unreachable-audit-rule]\n', encoding="utf-8")
    assert checked(".") == ["a.yaml", "vendor/top.yaml"]
    monkeypatch.chdir(repo / "deploy")
    assert checked(".", "../a.yaml", str(repo / "vendor" / "top.yaml")) == ["../a.yaml", str(repo / "vendor" / "top.yaml")]


def test_verbose_lists_what_was_left_out_and_why(repo) -> None:
    result = run("validate", "-v", ".", "deploy/gen/g.yaml")
    paths = [line for line in result.err.splitlines() if ": document " not in line]  # skipped documents are listed too
    assert sorted(paths) == [
        "svcconf: .svcconf.yaml: skipped: svcconf's configuration file",  # settings, never a document
        "svcconf: deploy/gen/g.yaml: skipped: excluded by 'deploy/gen/' (exclude in .svcconf.yaml)",
        "svcconf: deploy/gen: skipped: excluded by 'deploy/gen/' (exclude in .svcconf.yaml)",
        # `vendor/**` is what a vendor folder holds, not the folder itself (git's reading: `!vendor/keep.yaml` after it works).
        "svcconf: deploy/vendor/v.yaml: skipped: excluded by '**/vendor/**' (exclude in .svcconf.yaml)",
        "svcconf: vendor/top.yaml: skipped: excluded by '**/vendor/**' (exclude in .svcconf.yaml)",
    ]
    assert run("validate", ".").err == ""


def test_migrate_reads_the_same_files(repo, monkeypatch) -> None:
    monkeypatch.chdir(repo / "deploy")
    report = run("migrate", "-f", "json", ".").json()
    assert report["summary"]["files"] == 1


# --------------------------------------------------------------------------- git


@pytest.fixture
def work_tree(tmp_path, monkeypatch):
    """A git work tree (a `.git` folder is what git and svcconf look for) with ignore files at several levels."""
    tree(tmp_path, "a.yaml", "build/b.yaml", "x.local.yaml", "keep.local.yaml", "mine.yaml")
    tree(tmp_path, "sub/keep.yaml", "sub/drop.yaml", "sub/gen/g.yaml", "sub/build/again.yaml", "sub/x.local.yaml")
    (tmp_path / ".git" / "info").mkdir(parents=True)
    (tmp_path / ".git" / "info" / "exclude").write_text("# mine\nmine.yaml\n", encoding="utf-8")
    (tmp_path / ".gitignore").write_text("/build/\n*.local.yaml\n!keep.local.yaml\n", encoding="utf-8")
    (tmp_path / "sub" / ".gitignore").write_text("gen/\ndrop.yaml\n!x.local.yaml\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


EVERYTHING = [
    "a.yaml",
    "build/b.yaml",
    "keep.local.yaml",
    "mine.yaml",
    "sub/build/again.yaml",
    "sub/drop.yaml",
    "sub/gen/g.yaml",
    "sub/keep.yaml",
    "sub/x.local.yaml",
    "x.local.yaml",
]
NOT_IGNORED = ["a.yaml", "keep.local.yaml", "sub/build/again.yaml", "sub/keep.yaml", "sub/x.local.yaml"]


def test_folders_are_walked_without_what_git_ignores(work_tree) -> None:
    # /build/ is anchored (sub/build stays); `!` re-includes; the deeper .gitignore wins; info/exclude counts too.
    assert checked(".") == NOT_IGNORED


def test_ignore_files_above_the_walked_folder_apply(work_tree, monkeypatch) -> None:
    monkeypatch.chdir(work_tree / "sub")
    assert checked(".") == ["build/again.yaml", "keep.yaml", "x.local.yaml"]
    assert checked(str(work_tree / "sub" / "build")) == [str(work_tree / "sub" / "build" / "again.yaml")]


def test_files_named_on_the_command_line_are_checked_even_if_git_ignores_them(work_tree) -> None:
    assert checked("build/b.yaml", "mine.yaml") == ["build/b.yaml", "mine.yaml"]


def test_respecting_gitignore_can_be_turned_off(work_tree) -> None:
    assert checked("--no-respect-gitignore", ".") == EVERYTHING
    (work_tree / ".svcconf.yaml").write_text("respect-gitignore: false\n", encoding="utf-8")
    assert checked(".") == EVERYTHING
    assert checked("--respect-gitignore", ".") == NOT_IGNORED


def test_verbose_names_the_ignore_file(work_tree) -> None:
    lines = run("validate", "-v", ".").err.splitlines()
    assert sorted(lines) == [
        f"svcconf: build: skipped: ignored by git ('/build/' in {work_tree / '.gitignore'})",
        f"svcconf: mine.yaml: skipped: ignored by git ('mine.yaml' in {work_tree / '.git' / 'info' / 'exclude'})",
        f"svcconf: sub/drop.yaml: skipped: ignored by git ('drop.yaml' in {work_tree / 'sub' / '.gitignore'})",
        f"svcconf: sub/gen: skipped: ignored by git ('gen/' in {work_tree / 'sub' / '.gitignore'})",
        f"svcconf: x.local.yaml: skipped: ignored by git ('*.local.yaml' in {work_tree / '.gitignore'})",
    ]


def test_a_nested_repository_has_its_own_ignore_files(work_tree) -> None:
    tree(work_tree, "sub/inner/keep.yaml", "sub/inner/drop.yaml")
    (work_tree / "sub" / "inner" / ".git").mkdir()
    (work_tree / "sub" / "inner" / ".gitignore").write_text("drop.yaml\n", encoding="utf-8")
    assert "sub/inner/keep.yaml" in checked(".") and "sub/inner/drop.yaml" not in checked(".")


def test_outside_a_work_tree_gitignore_files_are_not_read(tmp_path, monkeypatch) -> None:
    tree(tmp_path, "a.yaml", "b.yaml")
    (tmp_path / ".gitignore").write_text("b.yaml\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert checked(".") == ["a.yaml", "b.yaml"]


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_a_linked_work_tree_reads_the_shared_info_exclude(tmp_path, monkeypatch) -> None:
    main = tmp_path / "main"
    main.mkdir()
    git = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "init.defaultBranch=main"]
    subprocess.run([*git, "init", "-q", str(main)], check=True)
    subprocess.run([*git, "-C", str(main), "commit", "-q", "--allow-empty", "-m", "start"], check=True)
    subprocess.run([*git, "-C", str(main), "worktree", "add", "-q", str(tmp_path / "linked")], check=True)
    (main / ".git" / "info" / "exclude").write_text("local.yaml\n", encoding="utf-8")
    tree(tmp_path / "linked", "a.yaml", "local.yaml")
    monkeypatch.chdir(tmp_path / "linked")
    assert checked(".") == ["a.yaml"]


def test_paths_in_reports_keep_the_spelling_given(repo) -> None:
    assert checked(os.path.join(".", "a.yaml")) == ["./a.yaml"]


@pytest.mark.parametrize("pattern", ["deploy\\", "deploy/[gen", "deploy//gen"])
def test_a_pattern_that_can_match_nothing_is_refused(repo, pattern) -> None:
    """git reads such a line and never matches it; written in a setting it is a mistake, said with its reason (exit code 2)."""
    result = run("validate", "--exclude", pattern, ".")
    assert result.code == 2 and f"--exclude: {pattern!r}" in result.err and "matches nothing" in result.err
    (repo / ".svcconf.yaml").write_text(f"exclude: [{json.dumps(pattern)}]\n", encoding="utf-8")
    result = run("validate", "-f", "json", "-o", "report.json", ".")
    assert result.code == 2 and f"exclude in .svcconf.yaml: {pattern!r}" in result.err
    assert "matches nothing" in json.loads((repo / "report.json").read_text(encoding="utf-8"))["error"]


def test_a_crafted_gitignore_on_a_deep_folder_chain_is_matched_in_linear_time(tmp_path, monkeypatch) -> None:
    """Matching `**/a/**/a/**/b` at every level with backtracking regular expressions ran for minutes."""
    deep = tmp_path.joinpath("b", *["a"] * 400)
    deep.mkdir(parents=True)
    tree(tmp_path, "b.yaml", str(deep.relative_to(tmp_path) / "c.yaml"))
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("**/a/**/a/**/b\n*.yaml\n!c.yaml\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with deadline():
        assert checked(".") == [str(deep.relative_to(tmp_path) / "c.yaml")]
