"""A rule can check an object embedded in its document as a document of its own kind."""

from __future__ import annotations

from svcconf import rules
from svcconf.lint.check import check_text

OUTER = """apiVersion: audit.k8s.io/v1
kind: Policy
rules:
  - level: Metadata
"""


def test_embedded_object_is_checked_with_its_own_schema_and_rules(monkeypatch) -> None:
    original = rules.rules_for
    inner = {"rules": [{"level": "Bogus"}], "omitManagedFields": "yes"}

    def with_embedding(module, kind):
        functions = list(original(module, kind))
        if kind == "Policy" and module == "apiserver.audit":

            def embed(doc, ctx):
                if doc is not inner:
                    # The embedded object names no apiVersion or kind: the defaults apply.
                    return ctx.embedded(("rules", 0), inner, "audit.k8s.io/v1", "Policy")
                return []

            functions.append(embed)
        return functions

    monkeypatch.setattr(rules, "rules_for", with_embedding)
    result = check_text(OUTER)
    found = sorted((d.rule, d.path_text) for d in result.diagnostics)
    assert found == [
        ("invalid-value", "rules[0].rules[0].level"),
        ("wrong-type", "rules[0].omitManagedFields"),
    ]
    # Positions point into the embedding file (here: the nearest written node, rules[0]).
    assert {(d.line, d.column) for d in result.diagnostics} == {(4, 5)}


def test_a_failing_rule_is_a_diagnostic_not_a_traceback(monkeypatch) -> None:
    original = rules.rules_for

    def broken(module, kind):
        def explode(doc, ctx):
            yield from ()
            raise ZeroDivisionError

        return [*original(module, kind), explode]

    monkeypatch.setattr(rules, "rules_for", broken)
    result = check_text(OUTER.replace("Metadata", "Bogus"))
    assert sorted((d.rule, d.path_text) for d in result.diagnostics) == [("internal-error", ""), ("invalid-value", "rules[0].level")]
    [internal] = [d for d in result.diagnostics if d.rule == "internal-error"]
    assert "explode" in internal.message and "ZeroDivisionError" in internal.message
