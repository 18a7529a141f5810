"""Every regular expression svcconf runs on input takes linear time, including on adversarial text.

Python's `re` backtracks, so a pattern that can match the same text in several ways inside a
repetition hangs on a string that almost matches (the Go originals run on RE2 and never do). This
test imports every svcconf module, finds each compiled pattern held at module level (also inside
lists, tuples and dicts), and times it on strings of 1,000 and 10,000 characters built from the
pattern itself (see linear_check). Schema `pattern`s run in jsonschema-rs and are checked the same
way through it. The checker itself is shown to catch patterns that once hung svcconf.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import re

import pytest

import svcconf
from tests.conftest import ROOT
from tests.linear_check import adversarial_inputs, check_pattern, patterns_in, worst_case


def _module_patterns() -> dict[str, re.Pattern]:
    found: dict[tuple, tuple[str, re.Pattern]] = {}
    for info in pkgutil.walk_packages(svcconf.__path__, "svcconf."):
        if info.name.endswith("__main__"):
            continue  # running it would start the command line
        module = importlib.import_module(info.name)
        for attribute, value in vars(module).items():
            for pattern in patterns_in(value):
                found.setdefault((pattern.pattern, pattern.flags), (f"{info.name}.{attribute}", pattern))
    return dict(found.values())


def _schema_patterns() -> list[str]:
    out: set[str] = set()

    def walk(node) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "pattern" and isinstance(value, str):
                    out.add(value)
                if key == "patternProperties" and isinstance(value, dict):
                    out.update(value)
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    for path in [*(ROOT / "schemas").rglob("*.json"), *(ROOT / "svcconf" / "data").glob("*.json")]:
        walk(json.loads(path.read_text(encoding="utf-8")))
    return sorted(out)


MODULE_PATTERNS = _module_patterns()
SCHEMA_PATTERNS = _schema_patterns()

# Patterns svcconf once shipped, each of which hung on a short input (kept here as the checker's proof).
KNOWN_BAD = {
    # bootstrap_net._REFERENCE: `[-]*` can match nothing inside a repetition; 26 letters and "!" took 6 s.
    "image reference": r"^(?:(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*"
    r"[a-zA-Z0-9]))*(?::[0-9]+)?/)?[a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*)*"
    r"(?::[\w][\w.-]{0,127})?$",
    # durations._DURATION: `\d+\.?\d*` splits a run of digits in many ways; a 61-character timeout took 3.4 s.
    "duration": r"^[-+]?((\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$",
    # authn._PEM: each BEGIN line scanned to the end of the text for its END line (quadratic).
    "pem block": r"-----BEGIN ([A-Z0-9 ]+)-----\r?\n(.*?)-----END \1-----",
}


def test_every_module_pattern_is_found() -> None:
    # The walk must see patterns in plain attributes and inside containers (construct's resolver table).
    assert "svcconf.go.reference.REFERENCE" in MODULE_PATTERNS
    assert any(name.startswith("svcconf.load.construct.") for name in MODULE_PATTERNS)
    assert len(MODULE_PATTERNS) >= 30


@pytest.mark.parametrize("name", sorted(MODULE_PATTERNS))
def test_module_pattern_is_linear(name: str) -> None:
    verdict = check_pattern(MODULE_PATTERNS[name])
    assert verdict.linear, f"{name} is not linear: {verdict}"


@pytest.mark.parametrize("pattern", SCHEMA_PATTERNS)
def test_schema_pattern_is_linear_in_jsonschema_rs(pattern: str) -> None:
    import jsonschema_rs

    validator = jsonschema_rs.validator_for({"type": "string", "pattern": pattern})
    verdict = worst_case(validator.is_valid, list(adversarial_inputs(pattern)))
    assert verdict.linear, f"schema pattern {pattern!r} is not linear: {verdict}"


@pytest.mark.parametrize("name", sorted(KNOWN_BAD))
def test_checker_flags_patterns_that_hung(name: str) -> None:
    flags = re.DOTALL if name == "pem block" else 0
    verdict = check_pattern(re.compile(KNOWN_BAD[name], flags))
    assert not verdict.linear, f"the checker missed the {name} pattern"
