"""Releases: CHANGELOG.md is kept, the version says what changed, and README names refs that exist.

A ref README names for the Action is `main` or the tag of a version CHANGELOG.md dates (the tag
the release step in README creates); the version is that release, or the next one with `.dev`.
"""

from __future__ import annotations

import re

import svcconf
from tests.conftest import ROOT

CHANGELOG = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")
HEADING = re.compile(r"^## \[([^\]\n]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", re.MULTILINE)
VERSION = re.compile(r"^(\d+)\.(\d+)\.(\d+)(?:\.dev(\d+))?\Z")


def _release(text: str) -> tuple[int, int, int]:
    match = VERSION.match(text)
    assert match, f"not a version: {text}"
    return tuple(int(part) for part in match.groups()[:3])  # type: ignore[return-value]


def _sections() -> list[tuple[str, str | None, str]]:
    """(name, date, text) of each version section, in file order."""
    found = list(HEADING.finditer(CHANGELOG))
    ends = [match.start() for match in found[1:]] + [len(CHANGELOG)]
    return [(match.group(1), match.group(2), CHANGELOG[match.end() : end]) for match, end in zip(found, ends)]


def test_the_changelog_starts_with_unreleased_then_versions_newest_first() -> None:
    sections = _sections()
    assert sections[0][0] == "Unreleased"
    versions = [_release(name) for name, _date, _text in sections[1:]]
    assert versions and versions == sorted(versions, reverse=True) and len(set(versions)) == len(versions)
    dates = [date for _name, date, _text in sections[1:] if date]
    assert dates == sorted(dates, reverse=True)


def test_the_version_is_the_newest_release_or_the_next_one_in_development() -> None:
    sections = _sections()
    newest = max(_release(name) for name, _date, _text in sections[1:])
    match = VERSION.match(svcconf.__version__)
    assert match, svcconf.__version__
    if match.group(4) is None:  # a release: CHANGELOG dates it, and nothing is unreleased yet
        assert _release(svcconf.__version__) == newest
        assert {name: date for name, date, _text in sections}[svcconf.__version__]
    else:  # on the way to a version CHANGELOG does not hold yet, with what changed written down
        assert _release(svcconf.__version__) > newest
        assert re.search(r"^- ", sections[0][2], re.MULTILINE), "the Unreleased section names no change"


def test_readme_names_only_refs_that_exist() -> None:
    dated = {name for name, date, _text in _sections()[1:] if date}
    refs = re.findall(r"^ *(?:- )?uses: \S*svcconf@(\S+)", README, re.MULTILINE)  # the workflow steps' refs
    assert refs, "README shows the Action"
    for ref in refs:
        assert ref == "main" or (ref.startswith("v") and ref[1:] in dated), f"svcconf@{ref} names no branch or release tag"
    assert "## Releasing" in README and "git tag -a vX.Y.Z" in README


def test_this_rounds_changes_are_in_the_unreleased_section() -> None:
    unreleased = _sections()[0][2]
    for change in ("--bootstrap upgrade", "--force-exclude", "progress bar", "Baseline format version 2", "--target-version"):
        assert change in unreleased, change
