"""Shared test helpers: paths, the fixture switch, and the real-world corpus beside the project."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus"


def pytest_addoption(parser):
    parser.addoption(
        "--update-fixtures", action="store_true", help="rewrite fixture .expected sidecars from current output (review the diff!)"
    )


def params_or_skip(values: list, reason: str, ids=None, width: int = 1) -> list:
    """Parameters for `parametrize`, or one skipped parameter saying why there are none.

    An empty list would make pytest collect nothing, or a `[NOTSET]` item: the test would vanish
    from the counts instead of being reported as skipped.
    """
    if values:
        return [pytest.param(*(v if isinstance(v, tuple) else (v,)), id=ids(v) if ids else None) for v in values]
    return [pytest.param(*([None] * width), marks=pytest.mark.skip(reason=reason), id="absent")]


@pytest.fixture(autouse=True)
def outside_github_actions(monkeypatch) -> None:
    """Every test runs svcconf as outside GitHub Actions, whose runner sets GITHUB_ACTIONS=true: `-f auto` gives text.

    A test that needs the variable sets it itself; processes a test starts inherit the environment without it.
    """
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)


@pytest.fixture
def update_fixtures(request) -> bool:
    return request.config.getoption("--update-fixtures")
