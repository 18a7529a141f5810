"""svcconf migrate on its fixtures: exact output bytes, reported diagnostics, and the invariants of every conversion."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from svcconf.cli import build_parser
from svcconf.lint.check import check_text
from svcconf.migrate import MigrateOptions, migrate_bytes
from svcconf.settings.config import Config
from svcconf.settings.options import ValidateOptions, migrate_options
from tests.conftest import FIXTURES

MIGRATE = FIXTURES / "migrate"
CASES = sorted(p for p in MIGRATE.glob("*.yaml") if not p.name.endswith(".migrated.yaml"))


def options_for(case: Path) -> MigrateOptions:
    """The options a fixture's first lines ask for: `# migrate-args:` (migrate's flags) and validate's `--target-version`."""
    head = case.read_text(encoding="utf-8").split("\n", 2)[:2]
    words: list[str] = []
    for line in head:
        if line.startswith("# migrate-args:"):
            words += shlex.split(line[len("# migrate-args:") :])
        elif line.startswith("# fixture-args:"):
            given = shlex.split(line[len("# fixture-args:") :])
            words += ["--to-version", given[given.index("--target-version") + 1]]
    args = build_parser().parse_args(["migrate", "--no-config", *words])
    return migrate_options(args, Config())


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


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_migrate_diagnostics(case: Path) -> None:
    sidecar = case.with_name(case.name[: -len(".yaml")] + ".migrate-diagnostics")
    assert sidecar.exists(), f"{case.name} has no .migrate-diagnostics (every case states the findings it expects)"
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
    options = options_for(case)
    outcome = migrate_bytes(str(case), case.read_bytes(), options)
    left = {d.document for d in outcome.diagnostics if d.rule == "migration-needs-review"}
    result = check_text(migrated(case).decode("utf-8"), ValidateOptions(target=options.target), name=str(case))
    removed = [d for d in result.diagnostics if d.rule == "removed-api-version" and d.document not in left]
    assert removed == []
