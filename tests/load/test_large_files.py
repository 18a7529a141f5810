"""Large files keep their text and values, not their nodes: findings are placed exactly as with nodes kept.

A file over source.KEEP_NODES_UP_TO characters drops each document's nodes once its values are
built and keeps its Span: findings at the top level are placed from it, deeper ones from the
document composed again from its span of the text. Lowering the limit to 0 sends every file
down that path.
"""

from __future__ import annotations

import pytest

from svcconf.lint.check import check_file, check_source
from svcconf.load import source
from svcconf.settings.options import ValidateOptions
from tests.conftest import FIXTURES
from tests.test_fixtures import expected_lines, render

POLICY = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, bogus: 1}]\n"  # unknown field at 3:23

MULTI_DOCUMENT = sorted(
    p
    for p in FIXTURES.rglob("*")
    if p.suffix in (".yaml", ".yml")
    and not p.name.endswith(".migrated.yaml")
    and "\n---" in p.read_text(encoding="utf-8", errors="replace")
)

# Document separators and line breaks a span must find its way through.
TEXTS = {
    "end markers and comments": POLICY + "...\n---\n" + POLICY + "... # end\n\n# next\n---\n" + POLICY + "...\n",
    "directives": "%YAML 1.1\n---\n" + POLICY + "...\n%TAG !e! tag:example.com,2000:\n---\n" + POLICY,
    "CRLF": (POLICY + "---\n" + POLICY).replace("\n", "\r\n"),
    "CR": (POLICY + "---\n" + POLICY).replace("\n", "\r"),
    "NEL and line separator": (POLICY + "---\n" + POLICY).replace("\n", "\x85") + "---\n# x\u2028---\n" + POLICY,
    "flow roots ending mid-line": "--- {apiVersion: audit.k8s.io/v1, kind: Policy,\n  rules: [{level: None, x: 1}]}  # c\n"
    "--- {apiVersion: audit.k8s.io/v1, kind: Policy, rules: [{level: None, y: 1}]}",
    "scalar roots": "--- hello\n---\n" + POLICY + "--- |\n  block\n\n\n---\n" + POLICY + "--- 'two\n  lines'\n---\n" + POLICY,
    "empty documents": "---\n---\n" + POLICY + "---\n---\n---\n" + POLICY,
    "anchors": "--- &a\n" + POLICY + "--- &b\napiVersion: audit.k8s.io/v1\nkind: Policy\nrules: &r [{level: None, z: 1}]\nextra: *r\n",
    "wide characters": "# é😀\n" + POLICY + "---\n# ünï 😀😀\n" + POLICY.replace("bogus", "bögus"),
    "syntax error after": POLICY + "---\n" + POLICY + "---\n[unclosed\n",
    "top-level fields": "apiVersion: audit.k8s.io/v1\nkind: Policy\nbogus: 1\nrules: []\nbogus: 2\n---\napiVersion: audit.k8s.io/v1\n"
    "kind: Policy\n'<<': {a: 1}\n---\nbase: &b {apiVersion: audit.k8s.io/v1, kind: Policy, rules: [], x: 1}\n<<: *b\n---\n- a\n- b\n",
}


@pytest.fixture
def nodes_never_kept(monkeypatch):
    monkeypatch.setattr(source, "KEEP_NODES_UP_TO", 0)


def placed(name: str, text: str, keep_nodes: bool) -> list[tuple]:
    loaded = source.load_bytes(name, text.encode("utf-8"), keep_nodes=keep_nodes)
    return [(d.line, d.column, d.rule, d.path_text, d.document) for d in check_source(loaded, ValidateOptions()).diagnostics]


@pytest.mark.parametrize("case", MULTI_DOCUMENT, ids=[str(c.relative_to(FIXTURES)) for c in MULTI_DOCUMENT])
def test_multi_document_fixtures_without_their_nodes(case, nodes_never_kept) -> None:
    assert render(case) == expected_lines(case.with_suffix(".expected"))


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_spans_through_separators_and_line_breaks(name: str, nodes_never_kept) -> None:
    assert placed("t.yaml", TEXTS[name], keep_nodes=False) == placed("t.yaml", TEXTS[name], keep_nodes=True)


def test_json_with_tabs(nodes_never_kept) -> None:
    text = '{\n\t"apiVersion": "audit.k8s.io/v1",\n\t"kind": "Policy",\n\t"rules": [{"level": "None", "q": 1}]\n}\n'
    assert placed("t.json", text, keep_nodes=False) == [(4, 30, "unknown-field", "rules[0].q", 1)]


def test_a_span_that_composes_differently_is_not_trusted(nodes_never_kept, monkeypatch) -> None:
    # Every span made to start at the top of the file: the second composition finds the wrong
    # document there and composes the file up to the right one instead.
    monkeypatch.setattr(source, "span_start", lambda text, end: (0, 0))
    text = TEXTS["end markers and comments"]
    assert placed("t.yaml", text, keep_nodes=False) == [
        (line, 23, "unknown-field", "rules[0].bogus", d) for d, line in ((1, 3), (2, 8), (3, 15))
    ]


def test_a_file_over_the_limit_places_its_findings(tmp_path) -> None:
    fine = POLICY.replace(", bogus: 1", "")
    count = source.KEEP_NODES_UP_TO // len(fine) + 1
    path = tmp_path / "policies.yaml"
    path.write_text("---\n".join([fine] * count + [POLICY, fine]), encoding="utf-8")
    assert path.stat().st_size > source.KEEP_NODES_UP_TO
    loaded = source.load_bytes(str(path), path.read_bytes(), keep_nodes=False)
    assert {d.root for d in loaded.documents} == {None}
    found = [(d.line, d.column, d.rule, d.document) for d in check_file(str(path), ValidateOptions()).diagnostics]
    assert found == [(4 * count + 3, 23, "unknown-field", count + 1)]


def test_suppressions_on_the_keys_that_hold_a_finding(nodes_never_kept) -> None:
    # A suppression on a key above the reported value, top-level or nested, in the second
    # document: found from the span and from the document composed again, as with nodes.
    text = (
        POLICY
        + "---\n"
        + "apiVersion: audit.k8s.io/v1\nkind: Policy\n"
        + "omitStages:  # svcconf: ignore[invalid-value]\n"
        + "  - Bogus\n"
        + "rules:  # svcconf: ignore[unknown-field]\n"
        + "  - level: None\n    bogus: 1\n"
    )
    kept = placed("t.yaml", text, keep_nodes=True)
    assert kept == [(3, 23, "unknown-field", "rules[0].bogus", 1)]
    assert placed("t.yaml", text, keep_nodes=False) == kept
