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


@pytest.fixture
def update_fixtures(request) -> bool:
    return request.config.getoption("--update-fixtures")
