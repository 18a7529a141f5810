"""Without the CEL runtime (cel-expr-python has no wheel for musl libc), svcconf runs and says what it did not check."""

from __future__ import annotations

import sys

import pytest

from svcconf import cel
from tests.helpers import run

AUTHN = """\
apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: https://sso.example.corp
    audiences: [kubernetes]
  claimValidationRules:
  - expression: "claim.hd == 'example.com'"
  - expression: "claims.email_verified == true"
  claimMappings:
    username: {claim: sub}
"""
# The same settings, without an expression.
AUTHN_WITHOUT_CEL = AUTHN.replace(
    """  claimValidationRules:
  - expression: "claim.hd == 'example.com'"
  - expression: "claims.email_verified == true"
""",
    "",
)


@pytest.fixture
def no_cel_runtime(monkeypatch):
    """Imports of cel_expr_python fail as they do where it is not installed; svcconf's caches start empty."""
    monkeypatch.setitem(sys.modules, "cel_expr_python", None)  # `import cel_expr_python` raises ModuleNotFoundError
    monkeypatch.delitem(sys.modules, "svcconf.cel.runtime", raising=False)
    monkeypatch.delattr(cel, "runtime", raising=False)
    cel.missing_runtime.cache_clear()
    cel.compile_expression.cache_clear()
    yield
    cel.missing_runtime.cache_clear()
    cel.compile_expression.cache_clear()


def validate(tmp_path, text: str, *args: str):
    path = tmp_path / "authn.yaml"
    path.write_text(text, encoding="utf-8")
    return run("validate", "--no-config", "-f", "json", *args, str(path))


def test_expressions_are_reported_as_not_checked_once_per_document(tmp_path, no_cel_runtime) -> None:
    result = validate(tmp_path, AUTHN + "---\n" + AUTHN)
    diagnostics = result.json()["diagnostics"]
    not_checked = [d for d in diagnostics if d["rule"] == "cel-not-checked"]
    assert [(d["document"], d["line"], d["severity"]) for d in not_checked] == [(1, 1, "info"), (2, 13, "info")]
    assert not_checked[0]["message"] == "CEL expressions were not compiled: cel-expr-python is not installed (no wheel for this platform)"
    # Everything else is still checked, and nothing failed.
    rules = {d["rule"] for d in diagnostics}
    assert "prefix-required-with-claim" in rules
    assert not rules & {"internal-error", "cel-compile-error"}
    assert result.code == 1  # the missing prefix, an error


def test_a_run_with_only_unchecked_expressions_passes_and_says_so(tmp_path, no_cel_runtime) -> None:
    clean = AUTHN.replace("claim.hd", "claims.hd").replace("{claim: sub}", '{claim: sub, prefix: "oidc:"}')
    result = run("validate", "--no-config", str(_write(tmp_path, clean)))
    assert result.code == 0, result.out
    assert "info [cel-not-checked]" in result.out and "cel-expr-python is not installed" in result.out


def test_documents_without_expressions_say_nothing_about_cel(tmp_path, no_cel_runtime) -> None:
    assert "cel-not-checked" not in {d["rule"] for d in validate(tmp_path, AUTHN_WITHOUT_CEL).json()["diagnostics"]}


def test_with_the_runtime_the_same_file_is_compiled(tmp_path) -> None:
    rules = [d["rule"] for d in validate(tmp_path, AUTHN).json()["diagnostics"]]
    assert "cel-compile-error" in rules and "cel-not-checked" not in rules


def test_explaining_an_expression_without_the_runtime_is_a_usage_error(tmp_path, no_cel_runtime) -> None:
    config = _write(tmp_path, AUTHN.replace("claim.hd", "claims.hd").replace("{claim: sub}", '{claim: sub, prefix: "oidc:"}'))
    claims = tmp_path / "claims.json"
    claims.write_text('{"iss": "https://sso.example.corp", "aud": "kubernetes", "exp": 4102444800, "sub": "jane"}', encoding="utf-8")
    result = run("explain", "claims", str(config), "--claims", str(claims))
    assert result.code == 2
    assert "needs cel-expr-python" in result.err and "Traceback" not in result.err and "internal error" not in result.err


def _write(tmp_path, text: str):
    path = tmp_path / "authn.yaml"
    path.write_text(text, encoding="utf-8")
    return path
