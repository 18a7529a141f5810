"""svcconf migrate on its fixtures: exact output bytes, reported diagnostics, and the invariants of every conversion."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from svcconf.migrate import Options, migrate_bytes
from svcconf.pipeline import check_text
from svcconf.registry import parse_release

from .conftest import FIXTURES

MIGRATE = FIXTURES / "migrate"
CASES = sorted(p for p in MIGRATE.glob("*.yaml") if not p.name.endswith(".migrated.yaml"))


def options_for(case: Path) -> Options:
    head = case.read_text(encoding="utf-8").split("\n", 2)[:2]
    target = None
    unsafe = any(line.startswith("# migrate-args:") and "--unsafe" in line for line in head)
    for line in head:
        if line.startswith("# fixture-args:"):
            words = shlex.split(line[len("# fixture-args:") :])
            target = parse_release(words[words.index("--target-version") + 1])
    return Options(target=target, unsafe=unsafe)


def migrated(case: Path) -> bytes:
    outcome = migrate_bytes(str(case), case.read_bytes(), options_for(case))
    return outcome.output if outcome.output is not None else outcome.original


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_output_is_exactly_the_known_answer(case: Path) -> None:
    expected = case.with_name(case.name[: -len(".yaml")] + ".migrated.yaml")
    assert expected.exists(), f"{case.name} has no .migrated.yaml"
    assert migrated(case).decode("utf-8") == expected.read_text(encoding="utf-8")


def _lines(diagnostics) -> list[str]:
    return sorted(f"{d.line}:{d.column} {d.severity} {d.rule} {d.path_text or '-'}" for d in diagnostics)


def _sidecar(case: Path) -> Path:
    return case.with_name(case.name[: -len(".yaml")] + ".migrate-diagnostics")


# The sidecar is optional: a case without one has no diagnostics to compare (not a skip: it never could run).
WITH_SIDECAR = [c for c in CASES if _sidecar(c).exists()]


@pytest.mark.parametrize("case", WITH_SIDECAR, ids=[c.name for c in WITH_SIDECAR])
def test_migrate_diagnostics(case: Path) -> None:
    sidecar = _sidecar(case)
    wanted = sorted(line.strip() for line in sidecar.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#"))
    outcome = migrate_bytes(str(case), case.read_bytes(), options_for(case))
    assert _lines(outcome.diagnostics) == wanted


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_migrating_again_changes_nothing(case: Path) -> None:
    once = migrated(case)
    again = migrate_bytes(str(case), once, options_for(case))
    assert again.output is None or again.output == once


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_output_has_no_removed_api_version(case: Path) -> None:
    outcome = migrate_bytes(str(case), case.read_bytes(), options_for(case))
    left = {d.document for d in outcome.diagnostics if d.rule == "migration-needs-review"}
    result = check_text(migrated(case).decode("utf-8"), name=str(case))
    removed = [d for d in result.diagnostics if d.rule == "removed-api-version" and d.document not in left]
    assert removed == []
