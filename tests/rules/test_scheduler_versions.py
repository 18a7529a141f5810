"""Removed scheduler versions in the real corpus give removed-api-version from their removal release on."""

from __future__ import annotations

import pytest

from svcconf.known.catalog import parse_release
from svcconf.lint.check import check_file
from svcconf.settings.options import ValidateOptions
from tests.conftest import CORPUS, params_or_skip

# rules-components 3.1: deprecated and removed (no longer decodable) releases.
LIFETIME = {"v1beta2": ("1.25", "1.28"), "v1beta3": ("1.26", "1.29")}


def _files() -> list[tuple[str, str]]:
    folder = CORPUS / "scheduler"
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.iterdir()):
        text = path.read_text(encoding="utf-8", errors="replace")
        for version in LIFETIME:
            if f"kubescheduler.config.k8s.io/{version}\n" in text:
                found.append((str(path), version))
    return found


FILES = _files()
ABSENT = "../shared/corpus/scheduler is not present"


def _lifecycle_rules(path: str, target: str) -> set[str]:
    result = check_file(path, ValidateOptions(target=parse_release(target), jobs=1))
    return {d.rule for d in result.diagnostics if d.rule.endswith("-api-version")}


@pytest.mark.skipif(not FILES, reason=ABSENT)
def test_corpus_has_both_removed_versions() -> None:
    assert {version for _path, version in FILES} == set(LIFETIME)


@pytest.mark.parametrize("path,version", params_or_skip(FILES, ABSENT, ids=lambda f: f[0].rsplit("/", 1)[-1], width=2))
def test_removed_at_the_right_release(path: str, version: str) -> None:
    deprecated, removed = LIFETIME[version]
    before = f"1.{int(removed.split('.')[1]) - 1}"
    assert "removed-api-version" not in _lifecycle_rules(path, before)
    assert "deprecated-api-version" in _lifecycle_rules(path, before)
    assert "removed-api-version" in _lifecycle_rules(path, removed)
    assert "removed-api-version" in _lifecycle_rules(path, "1.36")
    assert "deprecated-api-version" not in _lifecycle_rules(path, f"1.{int(deprecated.split('.')[1]) - 1}")
