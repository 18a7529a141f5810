"""svcconf migrate on hostile input: bounded time, and documents it cannot convert safely left as they are."""

from __future__ import annotations

import difflib
import subprocess
import sys
from pathlib import Path

import pytest

from svcconf.migrate.match import opcodes

ROOT = Path(__file__).resolve().parent.parent


# --------------------------------------------------------------------------- the line matcher


def _apply(a: list[str], b: list[str]) -> list[str]:
    out: list[str] = []
    for tag, i1, i2, j1, j2 in opcodes(a, b):
        if tag == "equal":
            assert a[i1:i2] == b[j1:j2]
            out.extend(a[i1:i2])
        else:
            out.extend(b[j1:j2])
    return out


@pytest.mark.parametrize(
    "a,b",
    [
        ([], []),
        (["x"], []),
        ([], ["x"]),
        (list("abcdef"), list("abXdef")),
        (list("abcabc"), list("cbacba")),
        (["- a"] * 50, ["- a"] * 49 + ["- b"]),
        (list("aaaaxbbbb"), list("bbbbxaaaa")),
    ],
)
def test_opcodes_rebuild_the_second_sequence(a: list[str], b: list[str]) -> None:
    assert _apply(a, b) == b


def test_opcodes_match_as_many_lines_as_a_longest_match_on_ordinary_edits() -> None:
    a = [f"line {i}" for i in range(200)]
    b = a[:50] + ["inserted"] + a[50:120] + a[130:]
    matched = sum(i2 - i1 for tag, i1, i2, _j1, _j2 in opcodes(a, b) if tag == "equal")
    assert matched == sum(block.size for block in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks())


def test_a_large_structural_rewrite_finishes(tmp_path: Path) -> None:
    # 28,000 equal list lines in a 110 KB Deployment that must be re-emitted (selector and defaults
    # written): a quadratic matcher needs minutes here. The limit only catches a hang.
    head = "apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata:\n  name: big\nspec:\n  template:\n    metadata:\n      labels: {app: big}\nextra:\n"
    path = tmp_path / "big.yaml"
    path.write_text(head + "- a\n" * 28_000)
    assert path.stat().st_size > 110_000
    process = subprocess.run(
        [sys.executable, "-m", "svcconf", "migrate", "--check", str(path)], capture_output=True, cwd=ROOT, check=False, timeout=90
    )
    assert process.returncode == 1
    assert b"extensions/v1beta1 Deployment -> apps/v1 Deployment [rewrite]" in process.stdout
