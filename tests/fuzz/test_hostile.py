"""The generators of hostile named inputs, CEL past the budget and fat-leaf aliases aim where they should, and their checks catch a crash."""

from __future__ import annotations

import random
import subprocess

import pytest

from svcconf.lint.check import check_text

from . import hostile, mutators
from .generate import HOSTILE_FILES, NAMED_INPUTS, Case, cel_cost_config, hostile_input
from .seeds import load_seeds


def _case(index: int, seed: str = "fixtures/x.yaml") -> Case:
    return Case(index, seed, (), b"x.yaml", b"apiVersion: v1\nkind: ConfigMap\n", (), ())


def test_every_named_input_meets_every_kind_of_hostile_file() -> None:
    met = {(hostile_input(_case(i)).args, hostile_input(_case(i)).kind) for i in range(2000)}
    stdin = [args for args in NAMED_INPUTS if "-" in args]
    expected = {(args, kind) for args in NAMED_INPUTS for kind in HOSTILE_FILES if args not in stdin or kind not in ("pipe", "folder")}
    assert met == expected


def test_cel_past_the_budget_is_in_configurations_the_server_accepts() -> None:
    # A configuration validate refuses is never evaluated: explain would stop before any CEL runs.
    pytest.importorskip("cel_expr_python")
    for index in range(60):
        cost = cel_cost_config(_case(index))
        errors = [d for d in check_text(cost.config).diagnostics if d.severity.name == "ERROR"]
        assert errors == [], (index, errors[0].message[:200])


def test_fat_leaf_aliases_land_on_both_sides_of_the_byte_budget() -> None:
    rng, outcomes = random.Random(5), set()
    for seed in load_seeds(False)[:80]:
        text = mutators.fat_leaf_alias(rng, seed.data.decode("utf-8", "replace"))
        if text is not None:
            rules = {d.rule for d in check_text(text).diagnostics}
            outcomes.add("alias-expansion-too-large" in rules)
    assert outcomes == {True, False}


@pytest.mark.parametrize(
    "ran,cause",
    [
        (subprocess.CompletedProcess([], -6, b"", b""), "traceback: process explain"),
        (
            subprocess.CompletedProcess([], 2, b"", b"svcconf: internal error: MemoryError: (set SVCCONF_DEBUG=1)"),
            "traceback: process explain",
        ),
        (None, "hang: process explain"),
    ],
    ids=["abort", "MemoryError", "hang"],
)
def test_a_crash_or_a_hang_of_explain_is_caught(tmp_path, monkeypatch, ran, cause: str) -> None:
    def planted(args, failures, label, cpu_limit=0, stdin=None):
        if ran is None:
            failures.append(hostile.Failure("hang", f"hang: process {label}", "planted"))
        return ran

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(hostile, "_run", planted)
    failures = hostile.check_hostile(_case(7))
    assert [f.cause.startswith(cause) for f in failures if "CEL" in f.cause] == [True]
    assert not list(tmp_path.iterdir())  # the hostile folder is gone, pipe and links included
