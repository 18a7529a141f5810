"""The data contract: schemas, lifecycle table, rule ids, rule docs and fixtures agree."""

from __future__ import annotations

import importlib.util
import json
import os
import re

import pytest

from svcconf.known.catalog import lifecycle, schema_index, schema_root
from svcconf.known.docs import all_rule_docs
from tests.conftest import FIXTURES

KEBAB = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
SCHEMAS = sorted(schema_index().items())


@pytest.mark.parametrize("key,path", SCHEMAS, ids=[os.path.relpath(p, schema_root()) for _k, p in SCHEMAS])
def test_schema_is_valid_and_placed_by_its_gvk(key, path: str) -> None:
    import jsonschema

    with open(path, encoding="utf-8") as handle:
        schema = json.load(handle)
    jsonschema.Draft202012Validator.check_schema(schema)
    gvk = schema["x-svcconf-gvk"]
    assert (gvk["group"], gvk["version"], gvk["kind"]) == key
    modules = schema.get("x-svcconf-rules") or []
    for module in [modules] if isinstance(modules, str) else modules:
        assert importlib.util.find_spec(f"svcconf.rules.{module}") is not None, module


def test_every_schema_kind_is_in_the_lifecycle_table() -> None:
    table = lifecycle()
    missing = [key for key in schema_index() if table.row(*key) is None]
    assert missing == []


def test_lifecycle_rows_are_consistent() -> None:
    table = lifecycle()
    assert table.newest >= (1, 30)
    for row in table.rows.values():
        assert row.scope in ("config", "api", "payload"), row
        if row.deprecated and row.removed:
            assert row.deprecated <= row.removed, row
        if row.introduced and row.removed:
            assert row.introduced <= row.removed, row
    # The core group is an ordinary API group: Pods and ConfigMaps are never "unknown kinds".
    assert table.group_scope.get("") != "config"


def test_rule_ids_are_kebab_case_and_documented_fully() -> None:
    docs = all_rule_docs()
    assert len(docs) >= 40
    for rule_id, doc in docs.items():
        assert KEBAB.match(rule_id), rule_id
        assert doc.summary and doc.why, rule_id
        assert doc.example and doc.fix, rule_id


def _expectations():
    """(sidecar name, line, severity, rule) of every expectation line in fixtures/ (validate and migrate)."""
    for sidecar in [*FIXTURES.rglob("*.expected"), *FIXTURES.rglob("*.migrate-diagnostics")]:
        for line in sidecar.read_text(encoding="utf-8").splitlines():
            parts = line.split()
            if len(parts) >= 3 and not line.startswith("#"):
                yield sidecar.name, line, parts[1], parts[2]


def test_every_documented_rule_is_hit_by_a_fixture() -> None:
    hit = {rule for _name, _line, _severity, rule in _expectations()}
    # Rules whose inputs cannot be a fixture file (unreadable, 10 MB, a named pipe, config, a machine without the CEL
    # runtime, a baseline, a second file) are tested in test_bad_input, test_cli, test_cel_optional and test_baseline.
    by_other_tests = {
        *("unreadable-file", "invalid-config", "file-too-large", "internal-error", "not-a-regular-file", "cel-not-checked"),
        "baseline-stale",
        "target-not-released",  # a release given on the command line or in .svcconf.yaml: tests/migrate/test_upgrade_ready.py
        "flag-file-wrong-kind",  # a second file of the repository, named by a flag: tests/rules/test_flags.py
    }
    missing = sorted(set(all_rule_docs()) - hit - by_other_tests)
    assert missing == []


def test_fixture_sidecars_use_documented_rules() -> None:
    docs = all_rule_docs()
    for name, line, severity, rule in _expectations():
        assert rule in docs, f"{name}: {line}"
        assert severity in ("error", "warning", "info"), f"{name}: {line}"
