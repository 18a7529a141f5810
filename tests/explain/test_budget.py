"""CEL evaluation in `explain` stops within a budget, as the API server's stops at its cost limit.

Upstream: every authentication and authorization expression is evaluated with a runtime cost
limit of 1,000,000 (PerCallLimit, k8s.io/apiserver/pkg/apis/cel/config.go; set by
pkg/cel/environment/base.go), which fails the evaluation with "operation cancelled: actual cost
limit exceeded"; no cost is estimated when these expressions are compiled
(authentication/cel/compile.go, authorization/cel/compile.go). The cases run in a child process
with a memory cap, so a regression fails the test instead of exhausting the machine.
"""

from __future__ import annotations

import json
import sys

import pytest

from tests.helpers import run_contained

pytest.importorskip("cel_expr_python")

# Each `a` a thousand of them: a user name of four becomes 4 KB, 4 MB, then 4 GB (one without an `a` stays as it is).
INSERT = "a" * 1000
GROWING = "request.user" + f".replace('a', '{INSERT}')" * 3 + ".size() > 0"
# Where the system enforces a limit on a process's memory (Linux), that budget is met first.
MEMORY = "svcconf stopped the evaluation after 256 MiB of memory" if sys.platform == "linux" else "svcconf stopped the evaluation after"
# 10 MB built once, then copied ten times: little memory, many seconds.
SLOW = "['aaaaaaaaaa'" + ".replace('a', 'aaaaaaaaaa')" * 6 + "].all(s, lists.range(10).all(i, s.replace('a', 'b').size() > 0))"
SERVER_ERROR = "the API server stops an evaluation past its cost limit (1,000,000) with: operation cancelled: actual cost limit exceeded"


def authz(condition: str, policy: str = "Deny") -> str:
    return f"""apiVersion: apiserver.config.k8s.io/v1
kind: AuthorizationConfiguration
authorizers:
  - type: Webhook
    name: tenants
    webhook:
      timeout: 3s
      subjectAccessReviewVersion: v1
      matchConditionSubjectAccessReviewVersion: v1
      failurePolicy: {policy}
      connectionInfo: {{type: KubeConfigFile, kubeConfigFile: /etc/kubernetes/tenants.kubeconfig}}
      matchConditions:
        - expression: {json.dumps(condition)}
"""


AUTHN = """apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt:
  - issuer:
      url: https://issuer.example.com
      audiences: [kubernetes]
    claimMappings:
      username:
        expression: {expression}
"""
CLAIMS = {"iss": "https://issuer.example.com", "aud": "kubernetes", "exp": 4102444800, "sub": "aaaa"}


@pytest.fixture
def explain(tmp_path):
    def explain(topic: str, config: str, *args: str):
        (tmp_path / "config.yaml").write_text(config)
        return run_contained("explain", topic, "config.yaml", *args, cwd=tmp_path)

    return explain


def test_a_growing_match_condition_fails_like_the_servers_and_its_failure_policy_applies(explain) -> None:
    result = explain("authz", authz(GROWING), "--user", "aaaa", "--verb", "get", "--resource", "pods", "-f", "json")
    assert result.code == 0, result.err
    [_masters, webhook] = result.json()["authorizers"]
    [condition] = webhook["matchConditions"]
    assert condition["result"] == "error"
    assert MEMORY in condition["message"]
    assert SERVER_ERROR in condition["message"]
    assert (webhook["outcome"], webhook["called"], result.json()["decision"]) == ("Deny", False, "Deny")


def test_a_slow_match_condition_stops_after_the_time_budget(explain) -> None:
    result = explain("authz", authz(SLOW), "--user", "jane", "--verb", "get", "--resource", "pods", "-f", "json")
    assert result.code == 0, result.err
    [condition] = result.json()["authorizers"][1]["matchConditions"]
    assert condition["result"] == "error" and "svcconf stopped the evaluation after 2 seconds" in condition["message"]


def test_evaluation_goes_on_after_a_budget_is_exceeded(explain, tmp_path) -> None:
    # Only the first request's user grows: the second is evaluated by a fresh worker.
    requests = [
        {"user": "aaaa", "verb": "get", "resource": "pods", "expect": "Deny"},
        {"user": "bbbb", "verb": "get", "resource": "pods", "expect": "Unknown"},
    ]
    (tmp_path / "requests.json").write_text(json.dumps(requests))
    result = explain("authz", authz(GROWING), "--requests", "requests.json", "-f", "json")
    assert result.code == 0, result.err
    assert [r["decision"] for r in result.json()["results"]] == ["Deny", "Unknown"]


def test_a_growing_claim_mapping_rejects_the_token(explain, tmp_path) -> None:
    (tmp_path / "claims.json").write_text(json.dumps(CLAIMS))
    expression = json.dumps("claims.sub" + f".replace('a', '{INSERT}')" * 3)
    result = explain("claims", AUTHN.format(expression=expression), "--claims", "claims.json", "-f", "json")
    assert result.code == 1, result.err
    assert MEMORY in result.json()["rejected"]
    assert SERVER_ERROR in result.json()["rejected"]


def test_validate_estimates_no_cost_as_the_server_estimates_none_for_these_expressions(tmp_path) -> None:
    (tmp_path / "authz.yaml").write_text(authz(GROWING))
    result = run_contained("validate", "--no-config", "authz.yaml", cwd=tmp_path)
    assert result.code == 0, result.out
