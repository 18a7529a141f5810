"""Every upstream validation test case in cases/*.yaml gets the upstream verdict from svcconf.

A case marked `disagrees` is a strict expected failure: when svcconf is fixed it passes, and the
strict mark turns that into a failure until the mark is removed from the table.
"""

from __future__ import annotations

import pytest

from tests.conformance import check
from tests.conformance.check import errors, mismatches, verdict
from tests.conformance.generate import differences
from tests.conformance.table import Expected, load_all

CASES = load_all()


def _param(case):
    marks = []
    if case.skip:
        marks.append(pytest.mark.skip(reason=case.skip))
    elif case.disagrees:
        marks.append(pytest.mark.xfail(strict=True, reason=case.disagrees))
    return pytest.param(case, id=case.name, marks=marks)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_case(case) -> None:
    problems = mismatches(verdict(case), errors(case))
    assert not problems, f"{case.source}\n" + "\n".join(problems)


def test_files_match_tables() -> None:
    assert differences(CASES) == [], "run `python -m tests.conformance.generate` and commit the files"


def test_sources_name_upstream_cases() -> None:
    # Two table rows for one upstream case would count it twice.
    sources = [c.source for c in CASES]
    assert len(sources) == len(set(sources)), sorted({s for s in sources if sources.count(s) > 1})


def test_upstream_messages_are_compared() -> None:
    # A case that names upstream's message fails when svcconf words the error otherwise.
    expected = (Expected("jwt[0].issuer.url", "URL scheme must be https"),)
    assert mismatches(expected, {"jwt[0].issuer.url": ['Invalid value: "http://x": URL scheme must be https']}) == []
    assert mismatches(expected, {"jwt[0].issuer.url": ['Invalid value: "http://x": scheme is not https']}) == [
        "at jwt[0].issuer.url: expected message 'URL scheme must be https', got ['Invalid value: \"http://x\": scheme is not https']"
    ]


def _compared(monkeypatch, diagnostics: list) -> list:
    """Every case run as the suite runs it, with svcconf's findings replaced by `diagnostics` (the planted bug)."""
    from types import SimpleNamespace

    monkeypatch.setattr(check, "check_file", lambda *_args: SimpleNamespace(diagnostics=diagnostics))
    return [(case, mismatches(verdict(case), errors(case))) for case in CASES if case.text is not None and not case.skip]


def test_the_comparator_catches_a_missing_error(monkeypatch) -> None:
    assert mismatches((Expected("jwt[0].issuer.url"),), {}) == ["missing error at jwt[0].issuer.url"]
    assert mismatches((Expected(""),), {}) == ["missing error at <document>"]  # an error of the document as a whole
    expecting = [(case, problems) for case, problems in _compared(monkeypatch, []) if verdict(case)]
    assert len(expecting) >= 100  # every case that expects an error fails when svcconf reports none
    assert [case.name for case, problems in expecting if not problems] == []


def test_the_comparator_catches_an_unexpected_error_on_a_clean_case(monkeypatch) -> None:
    from types import SimpleNamespace

    from svcconf.model import Severity

    assert mismatches((), {"": ["no kind"]}) == ["unexpected error at <document>: ['no kind']"]
    planted = SimpleNamespace(severity=Severity.ERROR, path_text="spec.planted", message="planted")
    clean = [(case, problems) for case, problems in _compared(monkeypatch, [planted]) if not verdict(case)]
    assert len(clean) >= 100  # every case upstream accepts fails when svcconf reports an error
    assert [case.name for case, problems in clean if problems != ["unexpected error at spec.planted: ['planted']"]] == []


def test_warnings_are_not_errors_to_the_comparator(monkeypatch) -> None:
    from types import SimpleNamespace

    from svcconf.model import Severity

    warning = SimpleNamespace(severity=Severity.WARNING, path_text="spec.planted", message="planted")
    clean = [(case, problems) for case, problems in _compared(monkeypatch, [warning]) if not verdict(case)]
    assert len(clean) >= 100 and [case.name for case, problems in clean if problems] == []


def test_readme_states_the_figures_of_the_suite() -> None:
    from collections import Counter
    from pathlib import Path

    from tests.conformance.__main__ import tally

    readme = Path(__file__).resolve().parents[2] / "README.md"
    if not readme.exists():
        pytest.skip("README.md is not beside the tests (installed package)")
    total = sum(tally(load_all()).values(), Counter())
    text = " ".join(readme.read_text(encoding="utf-8").split())
    assert f"agrees with {total['agrees']} of {total['run']} upstream validation test cases" in text
    assert f"{total['skipped']} cases are skipped" in text
    assert f"{total['deliberate']} cases differ on purpose" in text


def _case(**fields):
    from tests.conformance.table import Case

    return Case(**{"area": "x", "id": "y", "source": "s", "text": "", "expect": (), "flags": {}, **fields})


def test_a_case_runs_with_the_flags_its_table_gives() -> None:
    plain = check.options(_case())
    assert (plain.field_validation, plain.target, plain.service_account_issuers, plain.bootstrap) == ("Strict", None, (), None)
    flags = {"field_validation": "Warn", "target": "1.29", "service_account_issuers": ["https://a"], "bootstrap": "init"}
    given = check.options(_case(flags=flags))
    assert (given.field_validation, given.target, given.service_account_issuers, given.bootstrap) == (
        "Warn",
        (1, 29),
        ("https://a",),
        "init",
    )


def test_the_verdict_is_upstreams_unless_a_deliberate_difference_says_otherwise() -> None:
    upstream, ours = (Expected("a"),), (Expected("b"),)
    assert verdict(_case(expect=upstream)) == upstream
    assert verdict(_case(expect=upstream, svcconf=ours)) == upstream  # not marked deliberate
    assert verdict(_case(expect=upstream, deliberate="why")) == upstream  # no other verdict given
    assert verdict(_case(expect=upstream, svcconf=ours, deliberate="why")) == ours


def test_only_errors_count_and_they_are_grouped_by_path(monkeypatch) -> None:
    from types import SimpleNamespace

    from svcconf.model import Severity

    found = [
        SimpleNamespace(severity=Severity.ERROR, path_text="a", message="one"),
        SimpleNamespace(severity=Severity.ERROR, path_text="a", message="two"),
        SimpleNamespace(severity=Severity.WARNING, path_text="b", message="three"),
        SimpleNamespace(severity=Severity.INFO, path_text="c", message="four"),
    ]
    monkeypatch.setattr(check, "check_file", lambda *_args: SimpleNamespace(diagnostics=found))
    assert errors(_case()) == {"a": ["one", "two"]}
    assert check.agrees(_case(expect=(Expected("a", "tw"),)))
    assert not check.agrees(_case(expect=(Expected("a", "three"),)))


def test_a_message_is_compared_only_where_both_sides_have_an_error() -> None:
    assert mismatches((Expected("a", "must be https"),), {}) == ["missing error at a"]  # no message complaint on top
    assert mismatches((Expected("a"),), {"a": ["anything"]}) == []
    assert mismatches((Expected("a", "https"),), {"a": ["x", "must be https"]}) == []  # one of the messages at the path
