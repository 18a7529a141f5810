"""What pip and readers are told about Python versions agrees: one lowest version, the one every dependency has wheels for."""

from __future__ import annotations

import re
import tomllib

from tests.conftest import ROOT

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
# cel-expr-python, the CEL runtime, publishes wheels for CPython 3.11 and newer only: with 3.10
# allowed, `pip install` on 3.10 failed on that dependency instead of naming the Python version.
LOWEST = (3, 11)


def test_requires_python_is_the_lowest_version_that_installs() -> None:
    assert PROJECT["project"]["requires-python"] == ">={}.{}".format(*LOWEST)
    assert PROJECT["tool"]["ruff"]["target-version"] == "py{}{}".format(*LOWEST)


def test_classifiers_start_at_the_lowest_version() -> None:
    versions = [tuple(map(int, c.rsplit(" ", 1)[1].split("."))) for c in PROJECT["project"]["classifiers"] if re.search(r":: 3\.\d+$", c)]
    assert min(versions) == LOWEST
    assert versions == sorted(versions) and len(set(versions)) == len(versions)


def test_no_dependency_is_for_an_unsupported_python() -> None:
    requirements = PROJECT["project"]["dependencies"] + [r for extra in PROJECT["project"]["optional-dependencies"].values() for r in extra]
    assert not [r for r in requirements if "python_version" in r]


def test_readme_names_the_lowest_version() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Requirements: Python {}.{} or newer".format(*LOWEST) in readme


def test_the_alpine_install_lists_every_dependency_but_the_cel_runtime() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = next(line for line in readme.splitlines() if line.startswith("pip install --no-deps svcconf"))
    listed = command.split("&& pip install ", 1)[1].split()
    names = [re.split(r"[<>=;\s]", requirement, maxsplit=1)[0] for requirement in PROJECT["project"]["dependencies"]]
    assert sorted(listed) == sorted(name for name in names if name != "cel-expr-python")
