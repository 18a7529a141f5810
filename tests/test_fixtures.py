"""Every fixtures/<area>/<case>.yaml yields exactly the diagnostics its .expected sidecar lists.

Sidecar lines are `LINE:COL SEVERITY RULE PATH` (PATH `-` when a diagnostic has none); blank
lines and lines starting with `#` are notes for readers. Expectations come from the spec and the
reference catalogues' known answers, never from copying current output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from svcconf.lint.check import check_file
from tests.conftest import FIXTURES, rewrite_sidecar
from tests.fixture_args import options_for

CASES = sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".yaml", ".yml", ".json") and not p.name.endswith(".migrated.yaml"))


def render(case: Path) -> list[str]:
    options = options_for(case.read_text(encoding="utf-8", errors="replace"))
    result = check_file(str(case), options)
    return sorted(
        (f"{d.line}:{d.column} {d.severity} {d.rule} {d.path_text or '-'}" for d in result.diagnostics),
        key=lambda line: (int(line.split(":")[0]), int(line.split(":")[1].split()[0]), line),
    )


def expected_lines(sidecar: Path) -> list[str]:
    lines = [line.strip() for line in sidecar.read_text(encoding="utf-8").splitlines()]
    return sorted(
        (line for line in lines if line and not line.startswith("#")),
        key=lambda line: (int(line.split(":")[0]), int(line.split(":")[1].split()[0]), line),
    )


@pytest.mark.parametrize("case", CASES, ids=[str(c.relative_to(FIXTURES)) for c in CASES])
def test_fixture(case: Path, update_fixtures: bool) -> None:
    sidecar = case.with_suffix(".expected")
    actual = render(case)
    if update_fixtures:
        notes = [line for line in sidecar.read_text(encoding="utf-8").splitlines() if line.startswith("#")] if sidecar.exists() else []
        rewrite_sidecar(sidecar, "\n".join(notes + actual) + "\n")
        pytest.skip("--update-fixtures: the sidecar was written from this output, not checked against it")
    assert sidecar.exists(), f"{case.name} has no .expected sidecar"
    assert actual == expected_lines(sidecar)


def test_there_are_fixtures() -> None:
    assert len(CASES) >= 20


def test_update_fixtures_records_the_diff_of_a_rewritten_sidecar_only(tmp_path, monkeypatch) -> None:
    from tests import conftest

    monkeypatch.setattr(conftest, "REWRITTEN", [])
    sidecar = tmp_path / "case.expected"
    sidecar.write_text("# a note\n3:1 error invalid-value rules[0].level\n", encoding="utf-8")
    rewrite_sidecar(sidecar, "# a note\n3:1 error invalid-value rules[0].level\n")
    assert conftest.REWRITTEN == []
    rewrite_sidecar(sidecar, "# a note\n3:1 warning invalid-value rules[0].level\n")
    [diff] = conftest.REWRITTEN
    assert "\n-3:1 error invalid-value rules[0].level\n+3:1 warning invalid-value rules[0].level\n" in diff
    assert sidecar.read_text(encoding="utf-8") == "# a note\n3:1 warning invalid-value rules[0].level\n"


@pytest.mark.parametrize("ci,refused", [("true", True), ("1", True), ("", False), ("false", False)])
def test_update_fixtures_refuses_to_run_under_ci(ci: str, refused: bool) -> None:
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    env = {**os.environ, "CI": ci}
    args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--update-fixtures", "--collect-only", "-q", "tests/test_fixtures.py"]
    ran = subprocess.run([*args, "-k", "no_such_test"], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert (ran.returncode == pytest.ExitCode.USAGE_ERROR) == refused, ran.stdout + ran.stderr
    assert ("never under CI" in ran.stderr) == refused


def test_a_test_that_reaches_no_assertion_fails(tmp_path) -> None:
    import subprocess
    import sys

    from tests.conftest import ROOT

    (tmp_path / "test_planted.py").write_text(
        "import pytest\n\n"
        "@pytest.mark.parametrize('documents', [[], [{'kind': 'Policy'}]])\n"
        "def test_every_document(documents):\n"
        "    for document in documents:\n"
        "        assert document['kind']\n",
        encoding="utf-8",
    )
    args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "tests.conftest", "-q", str(tmp_path)]
    ran = subprocess.run([*args, "-o", "enable_assertion_pass_hook=true"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert "test_every_document[documents0]" in ran.stdout and "the test passed without reaching an assertion" in ran.stdout
    assert ran.stdout.rstrip().endswith("1 failed, 1 passed") or "1 failed, 1 passed in " in ran.stdout
