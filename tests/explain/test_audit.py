"""`svcconf explain audit`: the level and stages a request gets, with the audit policy checker's known answers.

The known answers are those of kubernetes `staging/src/k8s.io/apiserver/pkg/audit/policy/checker_test.go`
(rules, requests and expected level and omitted stages), run through the command.
"""

from __future__ import annotations

import json

import pytest

from tests.explain_helpers import explainer

# The upstream test's rules, as policy YAML (one list item each).
RULES = {
    "default": "{level: Metadata}",
    "create": "{level: Request, verbs: [create]}",
    "tims": '{level: Metadata, users: ["tim@k8s.io"]}',
    "humans": "{level: Metadata, userGroups: [humans]}",
    "serviceAccounts": '{level: Request, userGroups: ["system:serviceaccounts"]}',
    "getPods": '{level: RequestResponse, verbs: [get], resources: [{group: "", resources: [pods]}]}',
    "getPodLogs": '{level: Request, verbs: [get], resources: [{group: "", resources: [pods/log]}]}',
    "getPodWildcardMatching": '{level: Request, verbs: [get], resources: [{group: "", resources: ["*"]}]}',
    "getPodResourceWildcardMatching": '{level: Request, verbs: [get], resources: [{group: "", resources: ["*/log"]}]}',
    "getPodSubResourceWildcardMatching": '{level: Request, verbs: [get], resources: [{group: "", resources: ["pods/*"]}]}',
    "getClusterRoles": '{level: RequestResponse, verbs: [get], resources: [{group: rbac.authorization.k8s.io, resources: [clusterroles]}], namespaces: [""]}',
    "getGroupWildCardMatchingWithSubresourceWildcardMatching": '{level: RequestResponse, verbs: [update], resources: [{group: "*", resources: ["*/status"]}]}',
    "getLogs": '{level: RequestResponse, verbs: [get], nonResourceURLs: ["/logs*"]}',
    "getMetrics": "{level: Request, verbs: [get], nonResourceURLs: [/metrics]}",
    "clusterRoleEdit": "{level: Request, resources: [{group: rbac.authorization.k8s.io, resources: [clusterroles], resourceNames: [edit]}]}",
    "omit RequestReceived": "{level: Request, omitStages: [RequestReceived]}",
    "only audit panic": "{level: Request, omitStages: [RequestReceived, ResponseStarted, ResponseComplete]}",
}

TIM = ("--user", "tim@k8s.io", "--group", "humans", "--group", "developers")
REQUESTS = {
    "namespaced": (*TIM, "--verb", "get", "-n", "default", "--resource", "pods", "--name", "busybox"),
    "cluster": (*TIM, "--verb", "get", "--resource", "clusterroles.rbac.authorization.k8s.io", "--name", "edit"),
    "nonResource": (*TIM, "--verb", "get", "--path", "/logs/kubelet.log"),
    "subresource": (*TIM, "--verb", "get", "-n", "default", "--resource", "pods/log", "--name", "busybox"),
    "Unauthorized": ("--verb", "get", "-n", "default", "--resource", "pods", "--name", "busybox"),
    "ClusterRoleUpdate": (*TIM, "--verb", "update", "--resource", "clusterroles.rbac.authorization.k8s.io/status", "--name", "somerole"),
}

# testAuditLevel: (request, expected level, rules in order).
LEVEL_CASES = [
    ("namespaced", "Metadata", ["default"]),
    ("namespaced", "None", ["create"]),
    ("namespaced", "Metadata", ["tims"]),
    ("namespaced", "Metadata", ["humans"]),
    ("namespaced", "None", ["serviceAccounts"]),
    ("namespaced", "RequestResponse", ["getPods"]),
    ("namespaced", "None", ["getClusterRoles"]),
    ("namespaced", "None", ["getLogs"]),
    ("namespaced", "None", ["getMetrics"]),
    ("namespaced", "Metadata", ["getMetrics", "serviceAccounts", "default"]),
    ("namespaced", "RequestResponse", ["getMetrics", "getPods", "default"]),
    ("namespaced", "RequestResponse", ["getPodLogs", "getPods"]),
    ("cluster", "Metadata", ["default"]),
    ("cluster", "None", ["create"]),
    ("cluster", "Metadata", ["tims"]),
    ("cluster", "Metadata", ["humans"]),
    ("cluster", "None", ["serviceAccounts"]),
    ("cluster", "None", ["getPods"]),
    ("cluster", "RequestResponse", ["getClusterRoles"]),
    ("cluster", "Request", ["clusterRoleEdit", "getClusterRoles"]),
    ("cluster", "None", ["getLogs"]),
    ("cluster", "None", ["getMetrics"]),
    ("cluster", "Metadata", ["getMetrics", "serviceAccounts", "default"]),
    ("cluster", "RequestResponse", ["getMetrics", "getClusterRoles", "default"]),
    ("cluster", "None", ["getPodLogs", "getPods"]),
    ("nonResource", "Metadata", ["default"]),
    ("nonResource", "None", ["create"]),
    ("nonResource", "Metadata", ["tims"]),
    ("nonResource", "Metadata", ["humans"]),
    ("nonResource", "None", ["serviceAccounts"]),
    ("nonResource", "None", ["getPods"]),
    ("nonResource", "None", ["getClusterRoles"]),
    ("nonResource", "RequestResponse", ["getLogs"]),
    ("nonResource", "None", ["getMetrics"]),
    ("nonResource", "Metadata", ["getMetrics", "serviceAccounts", "default"]),
    ("nonResource", "RequestResponse", ["getLogs", "getClusterRoles", "default"]),
    ("nonResource", "None", ["getPodLogs", "getPods"]),
    ("subresource", "Request", ["getPodLogs", "getPods"]),
    ("subresource", "Request", ["getPodWildcardMatching"]),
    ("subresource", "Request", ["getPodResourceWildcardMatching"]),
    ("subresource", "Request", ["getPodSubResourceWildcardMatching"]),
    ("Unauthorized", "None", ["tims"]),
    ("Unauthorized", "Metadata", ["tims", "default"]),
    ("Unauthorized", "None", ["humans"]),
    ("Unauthorized", "Metadata", ["humans", "default"]),
    ("ClusterRoleUpdate", "RequestResponse", ["getGroupWildCardMatchingWithSubresourceWildcardMatching"]),
]
POLICY_STAGES = ["RequestReceived", "ResponseStarted"]  # TestCheckerPolicyOmitStages
STAGES = ("RequestReceived", "ResponseStarted", "ResponseComplete", "Panic")


def policy_yaml(rule_names: list[str], omit: list[str] | None = None) -> str:
    lines = ["apiVersion: audit.k8s.io/v1", "kind: Policy"]
    if omit:
        lines.append(f"omitStages: [{', '.join(omit)}]")
    lines.append("rules:")
    lines += [f"  - {RULES[name]}" for name in rule_names]
    return "\n".join(lines) + "\n"


@pytest.fixture
def explain(tmp_path):
    return explainer(tmp_path, "audit", "policy.yaml")


def _level_and_omitted(result) -> tuple[str, set]:
    assert result.code == 0, result.err
    data = result.json()
    return data["level"], set(data["omitStages"])


@pytest.mark.parametrize("omit", [None, POLICY_STAGES], ids=["TestChecker", "TestCheckerPolicyOmitStages"])
@pytest.mark.parametrize(("request_name", "level", "rules"), LEVEL_CASES)
def test_checker_levels(explain, omit, request_name: str, level: str, rules: list[str]) -> None:
    result = explain(policy_yaml(rules, omit), *REQUESTS[request_name], "-f", "json")
    assert _level_and_omitted(result) == (level, set(omit or ()))


@pytest.mark.parametrize(
    ("request_name", "omit", "rules", "level", "omitted"),
    [
        # TestChecker: omitStages per rule.
        ("namespaced", None, ["omit RequestReceived", "getPods", "default"], "Request", {"RequestReceived"}),
        (
            "namespaced",
            None,
            ["only audit panic", "getPods", "default"],
            "Request",
            {"RequestReceived", "ResponseStarted", "ResponseComplete"},
        ),
        ("cluster", None, ["omit RequestReceived", "getPods", "default"], "Request", {"RequestReceived"}),
        (
            "cluster",
            None,
            ["only audit panic", "getPods", "default"],
            "Request",
            {"RequestReceived", "ResponseStarted", "ResponseComplete"},
        ),
        ("nonResource", None, ["omit RequestReceived", "getPods", "default"], "Request", {"RequestReceived"}),
        (
            "nonResource",
            None,
            ["only audit panic", "getPods", "default"],
            "Request",
            {"RequestReceived", "ResponseStarted", "ResponseComplete"},
        ),
        # TestCheckerPolicyOmitStages: the policy's omitStages united with the rule's.
        ("namespaced", POLICY_STAGES, ["omit RequestReceived", "getPods", "default"], "Request", {"RequestReceived", "ResponseStarted"}),
        (
            "namespaced",
            POLICY_STAGES,
            ["only audit panic", "getPods", "default"],
            "Request",
            {"RequestReceived", "ResponseStarted", "ResponseComplete"},
        ),
        ("cluster", POLICY_STAGES, ["omit RequestReceived", "getPods", "default"], "Request", {"RequestReceived", "ResponseStarted"}),
        ("nonResource", POLICY_STAGES, ["default", "omit RequestReceived", "getPods"], "Metadata", {"RequestReceived", "ResponseStarted"}),
        (
            "nonResource",
            POLICY_STAGES,
            ["only audit panic", "getPods", "default"],
            "Request",
            {"RequestReceived", "ResponseStarted", "ResponseComplete"},
        ),
    ],
)
def test_omit_stages_merge(explain, request_name, omit, rules, level, omitted) -> None:
    result = explain(policy_yaml(rules, omit), *REQUESTS[request_name], "-f", "json")
    assert _level_and_omitted(result) == (level, omitted)
    # these requests are plain gets, not long-running: WithAudit sends them no ResponseStarted event
    assert result.json()["stages"] == [s for s in STAGES if s not in omitted and s != "ResponseStarted"]


@pytest.mark.parametrize(
    ("args", "long_running"),
    [
        (("--verb", "get", "--resource", "pods", "-n", "default", "--name", "web"), False),
        (("--verb", "list", "--resource", "pods", "-n", "default"), False),
        (("--verb", "get", "--resource", "pods/status", "-n", "default", "--name", "web"), False),
        (("--verb", "get", "--path", "/healthz"), False),
        (("--verb", "watch", "--resource", "pods", "-n", "default"), True),
        (("--verb", "create", "--resource", "pods/exec", "-n", "default", "--name", "web"), True),
        (("--verb", "get", "--resource", "pods/log", "-n", "default", "--name", "web"), True),
        (("--verb", "create", "--resource", "pods/portforward", "-n", "default", "--name", "web"), True),
        (("--verb", "get", "--resource", "services/proxy", "-n", "default", "--name", "web"), True),
        (("--verb", "get", "--path", "/debug/pprof/profile"), True),
    ],
)
def test_response_started_only_for_long_running_requests(explain, args, long_running: bool) -> None:
    """WithAudit (endpoints/filters/audit.go) sends ResponseStarted only through longRunningSink, set when
    kube-apiserver's LongRunningFunc, BasicLongRunningRequestCheck(watch, proxy; attach, exec, proxy, log,
    portforward) with /debug/pprof/, says so (pkg/controlplane/apiserver/config.go)."""
    policy = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n"
    data = explain(policy, "--user", "jane", *args, "-f", "json").json()
    assert data["longRunning"] is long_running
    assert data["stages"] == [s for s in STAGES if long_running or s != "ResponseStarted"]
    text = explain(policy, "--user", "jane", *args).out
    assert ("no ResponseStarted event: the server sends it only for long-running requests" in text) is not long_running


@pytest.mark.parametrize(
    ("policy_default", "rule_value", "omitted"),
    [(False, None, False), (True, None, True), (True, False, False), (False, True, True)],
)
def test_omit_managed_fields_rule_overrides_policy(explain, policy_default, rule_value, omitted) -> None:
    """TestOmitManagedFields: a rule's omitManagedFields overrides the policy's."""
    rule = "{level: RequestResponse, verbs: [get]" + ("" if rule_value is None else f", omitManagedFields: {str(rule_value).lower()}") + "}"
    policy = f"apiVersion: audit.k8s.io/v1\nkind: Policy\nomitManagedFields: {str(policy_default).lower()}\nrules:\n  - {rule}\n"
    result = explain(policy, "--verb", "get", "--path", "/")
    assert result.code == 0
    assert ("managed fields: omitted from the recorded bodies\n" in result.out) == omitted
    assert explain(policy, "--verb", "get", "--path", "/", "-f", "json").json()["omitManagedFields"] == omitted


POLICY = """\
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: None
    users: ["system:kube-proxy"]
    verbs: ["watch"]
  - level: Metadata
    resources:
      - group: ""
        resources: ["secrets"]
        resourceNames: ["token"]
  - level: Request
    verbs: ["get"]
    resources:
      - group: ""
        resources: ["pods/log"]
    omitStages: [ResponseStarted]
  - level: None
    nonResourceURLs: ["/healthz*"]
"""


def test_text_names_the_rule_its_line_and_why_earlier_rules_miss(explain) -> None:
    result = explain(POLICY, "--user", "jane", "--group", "dev", "--verb", "get", "--resource", "pods/log", "-n", "default")
    assert result.code == 0
    path = result.out.split("rule: rules[2] (", 1)[1].split(":", 1)[0]
    assert result.out == (
        "request: get pods/log in namespace default as jane (groups: dev)\n"
        f"rule: rules[2] ({path}:13)\n"
        "level: Request\n"
        "stages: ResponseComplete, Panic\n"
        "omitted stages: RequestReceived, ResponseStarted\n"
        "earlier rules:\n"
        f'  rules[0] ({path}:5): users: "jane" is not listed\n'
        f'  rules[1] ({path}:8): resources: "pods/log" is not listed for the core group ("")\n'
    )


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (("--user", "jane", "--verb", "get", "--resource", "secrets", "--name", "other"), 'resources: "other" is not in resourceNames'),
        (
            ("--user", "jane", "--verb", "list", "--resource", "secrets"),
            "resources: the rule lists resourceNames and the request names no object",
        ),
        (("--user", "jane", "--verb", "get", "--resource", "deployments.apps"), 'resources: no entry for group "apps"'),
        (
            ("--user", "jane", "--verb", "get", "--path", "/version"),
            "resources: the rule is for resource requests; this is a non-resource request",
        ),
    ],
)
def test_reasons_for_resource_rules(explain, args, reason: str) -> None:
    data = explain(POLICY, *args, "-f", "json").json()
    assert data["unmatched"][1]["reason"] == reason


def test_no_matching_rule_records_nothing(explain) -> None:
    data = explain(POLICY, "--user", "jane", "--verb", "get", "--path", "/version", "-f", "json").json()
    assert (data["rule"], data["line"], data["level"], data["stages"]) == (None, None, "None", [])
    assert data["unmatched"][3]["reason"] == 'nonResourceURLs: "/version" matches none of them'


def test_a_prefix_url_matches_and_level_none_has_no_stages(explain) -> None:
    data = explain(POLICY, "--verb", "get", "--path", "/healthz/ready", "-f", "json").json()
    assert (data["rule"], data["level"], data["stages"]) == (3, "None", [])
    assert data["unmatched"][0]["reason"] == "users: the request has no user"


def test_expectation_on_flags_sets_the_exit_code(explain) -> None:
    args = ("--user", "jane", "--verb", "get", "--resource", "pods/log", "-n", "default")
    assert explain(POLICY, *args, "--expect", "Request").code == 0
    failed = explain(POLICY, *args, "--expect", "Metadata")
    assert failed.code == 1
    assert failed.out.endswith("expect: Metadata: FAILED (got Request)\n")


REQUESTS_FILE = """\
- {user: jane, groups: [dev], verb: get, resource: pods/log, namespace: default, expect: Request}
- {user: "system:kube-proxy", verb: watch, resource: endpoints, expect: None}
- {user: jane, verb: update, resource: secrets, namespace: kube-system, name: token, expect: Request}
- {verb: get, path: /version}
"""


def test_requests_file_gives_a_table_and_exit_1_on_a_failed_expectation(explain, tmp_path) -> None:
    requests = tmp_path / "requests.yaml"
    requests.write_text(REQUESTS_FILE, encoding="utf-8")
    result = explain(POLICY, "--requests", str(requests))
    assert result.code == 1
    rows = result.out.splitlines()
    assert rows[0].split() == ["LINE", "REQUEST", "RULE", "LEVEL", "EXPECT", "RESULT"]
    assert rows[1].split()[0] == "1" and rows[1].split()[-4:] == ["rules[2]", "Request", "Request", "ok"]
    assert rows[3].split()[0] == "3" and rows[3].split()[-4:] == ["rules[1]", "Metadata", "Request", "FAIL"]
    assert rows[4].split()[-4:] == ["-", "None", "-", "-"]
    assert rows[-1] == "4 requests, 1 of 3 expectations failed"
    data = explain(POLICY, "--requests", str(requests), "-f", "json").json()
    assert data["failed"] == 1
    assert [(r["rule"], r["level"], r.get("ok")) for r in data["results"]] == [
        (2, "Request", True),
        (0, "None", True),
        (1, "Metadata", False),
        (None, "None", None),
    ]


def test_requests_file_with_every_expectation_met_exits_0(explain, tmp_path) -> None:
    requests = tmp_path / "requests.json"
    requests.write_text(json.dumps([{"verb": "get", "path": "/healthz", "expect": "None"}]), encoding="utf-8")
    result = explain(POLICY, "--requests", str(requests))
    assert (result.code, result.out.splitlines()[-1]) == (0, "1 request, every expectation met")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("- {user: jane, verbb: get}\n", "requests.yaml:1:16: requests[0].verbb: unknown field"),
        (
            "- {verb: get, resource: pods, expect: metadata}\n",
            'requests.yaml:1:39: requests[0].expect: "metadata" is not one of None, Metadata',
        ),
        ("- {verb: get}\n", "requests.yaml:1:3: requests[0].resource or path: required"),
        ("- {verb: get, path: healthz}\n", 'requests.yaml:1:21: requests[0].path: "healthz" must start with /'),
        ("- {verb: get, path: /x, groups: dev}\n", "requests.yaml:1:33: requests[0].groups: must be a list of strings"),
        ("verb: get\n", "expected one YAML or JSON list of requests"),
        ("- [\n", "requests.yaml:2:1:"),
    ],
)
def test_bad_requests_file_exits_2_with_a_position(explain, tmp_path, content: str, message: str) -> None:
    requests = tmp_path / "requests.yaml"
    requests.write_text(content, encoding="utf-8")
    result = explain(POLICY, "--requests", str(requests))
    assert (result.code, result.out) == (2, "")
    assert message in result.err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--verb", "get"), "--resource or --path: required"),
        (("--resource", "pods"), "--verb: required"),
        (("--verb", "get", "--resource", "pods", "--path", "/x"), "--path: a non-resource request has no resource"),
        (("--verb", "get", "--resource", "pods/"), '--resource: "pods/" is not RESOURCE[.GROUP][/SUBRESOURCE]'),
        (("--verb", "get", "--path", "/x", "--expect", "metadata"), '--expect: "metadata" is not one of'),
        (("--verb", "get", "--path", "/x", "--extra", "novalue"), '--extra: "novalue" is not KEY=VALUE'),
        (("--requests", "r.yaml", "--user", "x"), "--requests cannot be combined with --user"),
    ],
)
def test_bad_request_flags_exit_2(explain, args, message: str) -> None:
    result = explain(POLICY, *args)
    assert (result.code, result.out) == (2, "")
    assert message in result.err


def test_a_policy_the_server_refuses_is_not_explained(explain) -> None:
    bad = POLICY.replace("level: Metadata", "level: metadata")
    result = explain(bad, "--verb", "get", "--path", "/")
    assert (result.code, result.out) == (2, "")
    first = result.err.splitlines()[0]
    assert first.endswith(
        'error [invalid-value] rules[1].level: Unsupported value: "metadata": supported values: "None", "Metadata", "Request", "RequestResponse"'
    )
    assert ":8:12: " in first
    assert "the server would refuse the file for" in result.err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("apiVersion: v1\nkind: ConfigMap\n", "holds no audit Policy"),
        ("apiVersion: abac.authorization.kubernetes.io/v1beta1\nkind: Policy\nspec: {}\n", "holds no audit Policy"),
    ],
)
def test_a_file_without_a_policy_exits_2(explain, content: str, message: str) -> None:
    result = explain(content, "--verb", "get", "--path", "/")
    assert result.code == 2 and message in result.err


def test_control_characters_in_a_request_are_escaped(explain) -> None:
    result = explain(POLICY, "--user", "jane\x1b[31m", "--verb", "get", "--path", "/x")
    assert result.code == 0
    assert "\x1b" not in result.out
    assert 'as "jane\\x1b[31m"' in result.out
