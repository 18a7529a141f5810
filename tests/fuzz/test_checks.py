"""The campaign's own parts can fail: each check catches the fault it is for, and cases are reproducible."""

from __future__ import annotations

import random

import pytest

from . import mutators, reports
from .checks import Failure, check_case
from .frames import Hang, time_limit
from .generate import TEXT_MUTATIONS, Case, make_case
from .seeds import FIXTURES, load_seeds


def test_a_case_is_the_same_every_time_and_differs_by_seed() -> None:
    seeds = load_seeds(False)
    assert make_case(5, 42, seeds) == make_case(5, 42, seeds)
    assert {make_case(5, i, seeds).data for i in range(20)} != {make_case(6, i, seeds).data for i in range(20)}


@pytest.mark.parametrize("label,mutation", [(label, mutation) for label, _weight, mutation in TEXT_MUTATIONS])
def test_every_mutation_changes_a_fixture(label: str, mutation) -> None:
    text = (FIXTURES / "encryption" / "key-invalid-length-secretbox.yaml").read_text(encoding="utf-8")
    mutated = mutation(random.Random(1), text)
    assert mutated is not None and mutated != text, label


def test_planted_secrets_reach_every_secret_field() -> None:
    text = (FIXTURES / "bootstrap" / "join-valid.yaml").read_text(encoding="utf-8")
    planted = mutators.plant_secrets(random.Random(2), text, 9)
    assert planted is not None
    assert planted.text.count(mutators.MARKER) >= 2 and planted.markers[0] == mutators.MARKER


@pytest.mark.parametrize(
    "fmt,output",
    [
        ("text", "a.yaml:1:1: error [x] \x1b[31mred\n"),
        ("text", "a.yaml:1:1: error [x] y\n::error::injected\n"),
        ("github", "::error file=a,b.yaml,line=1,col=1,title=svcconf x::m\n"),
        ("github", "::error file=a.yaml,line=1,col=1,title=svcconf x::m\n::warning::z\nplain\n"),
        ("json", '{"version": 1, "summary": {}'),
        ("junit", "<testsuites><testsuite></testsuites>"),
        ("sarif", '{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"level": "error"}]}]}'),
        ("gitlab", '{"description": "x"}'),
        ("gitlab", '[{"description": "x", "location": {"path": "a.yaml"}}]'),
        (
            "gitlab",
            '[{"fingerprint": "f", "location": {"path": "a", "lines": {"begin": 1}}}, '
            + '{"fingerprint": "f", "location": {"path": "a", "lines": {"begin": 2}}}]',
        ),
    ],
)
def test_a_malformed_report_is_caught(fmt: str, output: str) -> None:
    assert reports.CHECKS[fmt](output)


def test_a_well_formed_github_line_passes() -> None:
    line = "::error file=a%3Ab%2Cc.yaml,line=3,col=7,title=svcconf wrong-type::[wrong-type] x: 50%25 done%0A::error::no\n"
    assert reports.check_github(line) == []
    assert reports.check_github(line + "1 error, 0 warnings in 1 file (1 document checked, 0 skipped)\n") == []


def test_a_shown_secret_is_found() -> None:
    markers = ("SVCCONF-SECRET-MARKER",)
    assert reports.secrets_shown("ok\nkey: SVCCONF-SECRET-MARKER-3\n", markers) == ["key: SVCCONF-SECRET-MARKER-3"]
    assert reports.secrets_shown("ok\n", markers) == []


def test_a_busy_loop_is_stopped_and_charged_to_the_module_it_spins_in() -> None:
    import itertools

    from svcconf.model import render_path

    with pytest.raises(Hang) as stopped, time_limit(0.5):
        render_path(itertools.repeat("a"))  # an endless path: the loop runs inside svcconf
    assert stopped.value.owner == "svcconf/model.py"


def _case(data: bytes) -> Case:
    return Case(0, "fixtures/x.yaml", (), b"x.yaml", data, (), ())


OLD = (
    b"apiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {name: nightly}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: keep\n"
)


def _migrate_that(monkeypatch, damage) -> list[Failure]:
    import svcconf.migrate

    real = svcconf.migrate.migrate_bytes

    def damaged(name, data, options=None):
        outcome = real(name, data, options)
        outcome.output = damage(data, outcome.output)
        return outcome

    monkeypatch.setattr(svcconf.migrate, "migrate_bytes", damaged)
    return check_case(_case(OLD), full=False)


def test_a_migrate_that_touches_another_document_is_caught(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    failures = _migrate_that(monkeypatch, lambda _data, out: out and out.replace(b"name: keep", b"name: kept"))
    assert [f.cause for f in failures] == ["migrate-loss: bytes outside converted documents changed"]


def test_a_migrate_that_is_not_idempotent_is_caught(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    failures = _migrate_that(monkeypatch, lambda data, out: (out or data) + b"# again\n")
    assert "migrate-loss: migrating the output changes it again" in [f.cause for f in failures]


def test_a_migrate_that_leaves_a_removed_version_is_caught(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    failures = _migrate_that(monkeypatch, lambda _data, out: out and out.replace(b"batch/v1\n", b"batch/v1beta1\n"))
    assert "migrate-loss: success claimed, removed apiVersion left" in [f.cause for f in failures]


def test_an_unchanged_clean_file_passes(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert check_case(_case(OLD)) == []
