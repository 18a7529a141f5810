"""Shared test helpers: paths, the fixture switch, and the real-world corpus beside the project."""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from types import CodeType

import pytest

ROOT = Path(__file__).resolve().parent.parent

UNDER_MUTMUT = "MUTANT_UNDER_TEST" in os.environ  # under `mutmut run` (README: Development), in its copy of the tree
if UNDER_MUTMUT:
    # Its trampolines read pyproject.toml from the working directory at first use; a test may have moved it by then.
    from mutmut.configuration import config as mutmut_config

    mutmut_config()
    if os.environ["MUTANT_UNDER_TEST"] == "stats":
        # Its first pass records which tests reach each function, in this process only (mutmut keeps its own copy of
        # the mode): a child svcconf would try to record from its own working directory, find no pyproject.toml and fail.
        del os.environ["MUTANT_UNDER_TEST"]
FIXTURES = ROOT / "fixtures"
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus"


def pytest_addoption(parser):
    parser.addoption(
        "--update-fixtures", action="store_true", help="rewrite fixture .expected sidecars from current output and print the diff"
    )


def under_ci() -> bool:
    """CI services set CI (GitHub Actions, GitLab, .ci/run's runner: CI=true)."""
    return os.environ.get("CI", "").lower() not in ("", "0", "false")


def pytest_configure(config) -> None:
    # Expectations rewritten from the output under test would let any bug pass: a person reviews the diff, never CI.
    if config.getoption("--update-fixtures") and under_ci():
        raise pytest.UsageError(
            "--update-fixtures rewrites expectations from current output: run it locally and review the diff, never under CI"
        )
    if config.getoption("--update-fixtures") and getattr(config.option, "numprocesses", None):
        raise pytest.UsageError("--update-fixtures prints its diffs from one process: run it without -n")


REWRITTEN: list[str] = []  # the diff of each sidecar --update-fixtures changed


def rewrite_sidecar(path: Path, text: str) -> None:
    """Write a fixture's expectations and keep the diff for the end of the run; an unchanged file is left alone."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    if old == text:
        return
    name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
    REWRITTEN.append("".join(difflib.unified_diff(old.splitlines(True), text.splitlines(True), f"a/{name}", f"b/{name}")))
    path.write_text(text, encoding="utf-8")


def pytest_terminal_summary(terminalreporter) -> None:
    if REWRITTEN:
        terminalreporter.section("--update-fixtures rewrote these sidecars: review every line before committing")
        for diff in REWRITTEN:
            terminalreporter.write(diff)
        terminalreporter.write_line(f"{len(REWRITTEN)} sidecars rewritten")


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


# --------------------------------------------------------------------------- no test passes without checking something

PASSED_ASSERTIONS: dict[str, int] = {}  # by test: asserts that held (pytest calls the hook below for each one)


def pytest_assertion_pass(item, lineno, orig, expl) -> None:
    PASSED_ASSERTIONS[item.nodeid] = PASSED_ASSERTIONS.get(item.nodeid, 0) + 1


def _names(code: CodeType):
    yield from code.co_names
    for constant in code.co_consts:
        if isinstance(constant, CodeType):
            yield from _names(constant)


def _counts_assertions(item) -> bool:
    """Does this test's code report its passing asserts? Not when its module was rewritten before the hook was on (a stale cache)."""
    if not item.config.getini("enable_assertion_pass_hook") or not hasattr(item, "function"):
        return False
    names = set(_names(item.function.__code__))
    return "_call_assertion_pass" in names or "@pytest_ar" not in names


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """A test that ends without one assertion holding fails: with its parameters it checked nothing (a loop that
    skipped every input, a `continue` on every document). Checks made only in helpers outside tests/ do not count."""
    before = PASSED_ASSERTIONS.get(item.nodeid, 0)
    result = yield
    if _counts_assertions(item) and PASSED_ASSERTIONS.get(item.nodeid, 0) == before:
        pytest.fail("the test passed without reaching an assertion: with these parameters it checks nothing", pytrace=False)
    return result
