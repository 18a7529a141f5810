"""`svcconf completion SHELL`: scripts that complete commands, options, choices, rule ids and paths, without slowing start-up."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.helpers import run

COMMANDS = ("validate", "migrate", "print", "explain", "rules", "kinds", "schema", "completion")


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_script_names_every_command_and_option(shell: str) -> None:
    result = run("completion", shell)
    assert result.code == 0, result.err
    for word in (*COMMANDS, "--format", "--target-version", "--select", "sarif", "init-defaults", "unknown-field"):
        assert word in result.out, f"{shell} script lacks {word}"


def test_unknown_shell_is_a_usage_error() -> None:
    result = run("completion", "tcsh")
    assert result.code == 2 and "invalid choice" in result.err


def _bash_complete(script: Path, *words: str, cwd: Path = ROOT) -> list[str]:
    """What bash offers for the last of `words`, through the script's completion function."""
    line = " ".join(words)
    program = (
        f'source "{script}"\n'
        'COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}\n'
        "_shtab_svcconf\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    done = subprocess.run(["bash", "-c", program, "bash", *words], check=False, capture_output=True, text=True, cwd=cwd, timeout=30)
    assert done.returncode == 0, (line, done.stderr)
    return [word for word in done.stdout.splitlines() if word]


@pytest.fixture(scope="module")
def bash_script(tmp_path_factory) -> Path:
    script = tmp_path_factory.mktemp("completion") / "svcconf.bash"
    script.write_text(run("completion", "bash").out, encoding="utf-8")
    return script


def test_bash_script_is_valid_bash(bash_script: Path) -> None:
    done = subprocess.run(["bash", "-n", str(bash_script)], check=False, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr


def test_bash_completes_commands_choices_and_rule_ids(bash_script: Path) -> None:
    assert _bash_complete(bash_script, "svcconf", "va") == ["validate"]
    assert _bash_complete(bash_script, "svcconf", "validate", "--format", "") == [
        "auto",
        "text",
        "json",
        "sarif",
        "github",
        "junit",
        "gitlab",
    ]
    assert _bash_complete(bash_script, "svcconf", "validate", "--fail-on", "w") == ["warning"]
    assert _bash_complete(bash_script, "svcconf", "schema", "") == ["export"]
    assert "unknown-field" in _bash_complete(bash_script, "svcconf", "validate", "--select", "unknown-")
    assert _bash_complete(bash_script, "svcconf", "validate", "--select", "encry") == ["encryption"]  # an area
    # After a comma the next id is completed, keeping the ones before it.
    assert _bash_complete(bash_script, "svcconf", "validate", "--ignore", "unknown-field,wrong-t") == ["unknown-field,wrong-type"]


def test_bash_completes_files_and_folders(bash_script: Path, tmp_path: Path) -> None:
    (tmp_path / "scheduler.yaml").write_text("kind: x\n")
    (tmp_path / "deploy").mkdir()
    assert _bash_complete(bash_script, "svcconf", "validate", "sch", cwd=tmp_path) == ["scheduler.yaml"]
    assert _bash_complete(bash_script, "svcconf", "validate", "--config", "sch", cwd=tmp_path) == ["scheduler.yaml"]
    assert _bash_complete(bash_script, "svcconf", "schema", "export", "", cwd=tmp_path) == ["deploy"]


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_completes_rule_ids_after_a_comma(tmp_path: Path) -> None:
    script = tmp_path / "svcconf.fish"
    script.write_text(run("completion", "fish").out, encoding="utf-8")
    program = f"source {script}; complete -C 'svcconf validate --ignore unknown-field,wrong-t'; complete -C 'svcconf validate --format j'"
    done = subprocess.run(["fish", "--no-config", "-c", program], check=False, capture_output=True, text=True, timeout=30)
    offered = [line.split("\t")[0] for line in done.stdout.splitlines()]
    assert offered == ["unknown-field,wrong-type", "json", "junit"], done.stderr


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_zsh_script_parses(tmp_path: Path) -> None:
    script = tmp_path / "_svcconf"
    script.write_text(run("completion", "zsh").out, encoding="utf-8")
    done = subprocess.run(["zsh", "-n", str(script)], check=False, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr


def test_starting_svcconf_does_not_import_the_completion_library() -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "svcconf", "--help"], check=False, capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert done.returncode == 0 and "completion" in done.stdout
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "argparse" in imported  # the listing is real
    assert not {name for name in imported if name.split(".")[0] == "shtab"}
