"""No input makes a rule fail: every fixture, mutated with values of the wrong types, checks cleanly.

A rule that raises becomes an `internal-error` diagnostic (and the run goes on); this test makes
sure no rule does, by replacing or deleting fields of every fixture with odd values.
"""

from __future__ import annotations

import copy
import random

import yaml

from svcconf.options import ValidateOptions
from svcconf.pipeline import check_text
from tests.conftest import FIXTURES

ODD_VALUES = [None, 0, -1, 1.5, True, "", "x", [], {}, [1, "a"], {"a": 1}, "::", "*", 10**20, "-1s"]
MUTATIONS_PER_FIXTURE = 3
SEED = 20261122


def _paths(node, prefix=()):
    if prefix:
        yield prefix
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in children:
        yield from _paths(value, (*prefix, key))


def _mutate(doc, rng: random.Random):
    paths = list(_paths(doc))
    for _ in range(rng.randint(1, 3) if paths else 0):
        path = rng.choice(paths)
        parent = doc
        try:
            for segment in path[:-1]:
                parent = parent[segment]
            if rng.random() < 0.2 and isinstance(parent, dict):
                parent.pop(path[-1], None)
            else:
                parent[path[-1]] = copy.deepcopy(rng.choice(ODD_VALUES))
        except (KeyError, IndexError, TypeError):
            pass
    return doc


def _inputs():
    rng = random.Random(SEED)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    for path in sorted(FIXTURES.rglob("*.yaml")):
        if path.name.endswith(".migrated.yaml") or "alias-bomb" in path.name:
            continue
        try:
            documents = list(yaml.load_all(path.read_text(encoding="utf-8"), Loader=loader))
        except (yaml.YAMLError, UnicodeDecodeError):
            continue
        for _ in range(MUTATIONS_PER_FIXTURE):
            mutated = [_mutate(copy.deepcopy(doc), rng) for doc in documents]
            yield path.relative_to(FIXTURES), yaml.dump_all(mutated, Dumper=dumper)


def test_no_rule_fails_on_mutated_fixtures() -> None:
    failures = []
    count = 0
    for name, text in _inputs():
        count += 1
        result = check_text(text, ValidateOptions(), name=str(name))
        failures += [f"{name}: {d.message}" for d in result.diagnostics if d.rule == "internal-error"]
    assert count > 1000
    assert failures == []


def test_migrate_never_fails_on_mutated_fixtures() -> None:
    from svcconf.migrate import MigrateOptions, migrate_bytes

    failures = []
    for name, text in _inputs():
        outcome = migrate_bytes(str(name), text.encode("utf-8"), MigrateOptions())
        failures += [f"{name}: {d.message}" for d in outcome.diagnostics if d.rule == "internal-error"]
    assert failures == []
