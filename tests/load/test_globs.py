"""Gitignore patterns: matched as git matches them, and in time linear in the path however the patterns are written."""

from __future__ import annotations

import itertools
import json
import os
import random
import shutil
import subprocess
import time

import pytest

from svcconf.load.discovery import Patterns, Selection
from svcconf.load.globs import compile_rule, ignored
from svcconf.settings.options import ValidateOptions
from tests.helpers import run
from tests.test_linear_input import deadline

PATTERN_PARTS = ["a", "b", "ab", "/", "*", "**", "?", "[ab]", "[!a]", "[a-c]", "\\*", "!", " ", ".", "/**/", "[", "]"]
NAMES = ["a", "b", "ab", "ba", "a.b", "aab", "b*", "c", "[a]", "!a", "a b"]


def _random_tree(rng: random.Random, top) -> None:
    for _ in range(20):
        parts = [rng.choice(NAMES) for _ in range(rng.randint(1, 3))]
        full = os.path.join(top, *parts)
        try:
            if rng.random() < 0.3:
                os.makedirs(full, exist_ok=True)
            else:
                os.makedirs(os.path.dirname(full), exist_ok=True)
                if not os.path.isdir(full):
                    open(full, "w").close()
        except OSError:  # a file already stands where a folder is wanted
            continue


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_random_patterns_leave_out_exactly_what_git_leaves_out(tmp_path) -> None:
    """git itself is the reference: `git ls-files --others --exclude-standard` lists the untracked files it does not ignore."""
    rng = random.Random(20261201)
    disagreements = []
    for round_ in range(60):
        top = tmp_path / str(round_)
        subprocess.run(["git", "init", "-q", str(top)], check=True)
        lines = ["".join(rng.choices(PATTERN_PARTS, k=rng.randint(1, 6))) for _ in range(rng.randint(1, 4))]
        (top / ".gitignore").write_text("\n".join(lines) + "\n", encoding="utf-8")
        _random_tree(rng, top)
        listed = subprocess.run(
            ["git", "-C", str(top), "ls-files", "--others", "--exclude-standard", "-z"], check=True, capture_output=True
        ).stdout
        shown = {os.fsdecode(name) for name in listed.split(b"\0") if name}
        rules = tuple(rule for rule in map(compile_rule, lines) if rule is not None)
        for folder, dirs, files in os.walk(top):
            dirs[:] = [name for name in dirs if name != ".git"]
            for name in files:
                relative = os.path.relpath(os.path.join(folder, name), top).replace(os.sep, "/")
                if relative != ".gitignore" and bool(ignored(rules, relative, False)[0]) != (relative not in shown):
                    disagreements.append((lines, relative, relative not in shown))
    assert disagreements == []


# 16 ways to write "one character, an `a`" in a glob: 1,000 distinct patterns that all need the regex to say no.
ONE_A = ["a", "[a]", "[!b]", "[a-a]", "?", "[ab]", "[!c]", "[a-b]", "[ba]", "[!/b]", "[?a]", "[a\\]]", "\\a", "[[a]", "[!d]", "[a-c]"]
HOSTILE = [f"**/{x}/**/{y}*c" for x, y in itertools.product(ONE_A, ONE_A)] * 4


def test_1000_patterns_on_a_1000_folder_deep_path() -> None:
    """`**/a/**/a*c` took 0.25 s per pattern on such a path with backtracking: 1,000 of them, minutes per path."""
    patterns = Patterns.of(HOSTILE[:1000], "/", "exclude in .svcconf.yaml")
    deep = "a/" * 1000
    started = time.process_time()
    assert patterns.verdict("c/" + deep + "x.yaml", False) == (None, "")  # holds every literal, matches no pattern
    assert patterns.verdict(deep + "abc", False) == (True, HOSTILE[999])  # the last pattern that matches decides
    assert patterns.verdict(deep + "abc/x.yaml", False) == (True, HOSTILE[999])  # inside a matched folder
    assert time.process_time() - started < 5  # linear work takes well under a second


def test_1000_exclude_lines_on_a_deep_tree(tmp_path, monkeypatch) -> None:
    deep = tmp_path.joinpath(*["a"] * 300)
    deep.mkdir(parents=True)
    (deep / "ac").mkdir()
    policy = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []\n"
    for folder in (tmp_path, deep, deep / "ac"):
        (folder / "c.yaml").write_text(policy, encoding="utf-8")
    (tmp_path / ".svcconf.yaml").write_text("exclude:\n" + "".join(f"  - {pattern!r}\n" for pattern in HOSTILE[:1000]))
    monkeypatch.chdir(tmp_path)
    with deadline():
        result = run("validate", "-f", "json", "-v", ".")
    checked = sorted(d["file"] for d in result.json()["diagnostics"])
    inside = os.path.join(*["a"] * 300)
    assert checked == sorted(["c.yaml", os.path.join(inside, "c.yaml")])
    assert f"svcconf: {inside}/ac: skipped: excluded by {HOSTILE[999]!r} (exclude in .svcconf.yaml)" in result.err


def test_a_negated_pattern_brings_back_a_file_of_a_folder_whose_content_is_ignored(tmp_path, monkeypatch) -> None:
    (tmp_path / "vendor").mkdir()
    policy = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []\n"
    for name in ("vendor/keep.yaml", "vendor/drop.yaml", "top.yaml"):
        (tmp_path / name).write_text(policy, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    selection = Selection.of(ValidateOptions(exclude=("vendor/**", "!vendor/keep.yaml")))
    assert selection.excluded("vendor/drop.yaml") and not selection.excluded("vendor/keep.yaml")
    result = run("validate", "-f", "json", "--exclude", "vendor/**", "--exclude", "!vendor/keep.yaml", ".")
    assert sorted({d["file"] for d in result.json()["diagnostics"]}) == ["top.yaml", "vendor/keep.yaml"]


def test_a_gitignore_line_ending_in_a_backslash_matches_nothing(tmp_path, monkeypatch) -> None:
    """git reads such a line and never matches it; pathspec raised on it, and the run ended in an internal error."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("enc.yaml\\\n", encoding="utf-8")
    (tmp_path / "enc.yaml").write_text("apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = run("validate", "-f", "json", "-o", "report.json", ".")
    assert result.code == 1, result.err
    assert [d["rule"] for d in json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["diagnostics"]] == ["empty-audit-policy"]
