"""`svcconf explain authz`: the authorizer chain, webhook matchConditions and offline RBAC, with upstream's known answers.

Webhook cases come from kubernetes `plugin/pkg/authorizer/webhook/webhook_v1_test.go`
(TestV1WebhookMatchConditions), RBAC cases from `plugin/pkg/auth/authorizer/rbac/rbac_test.go`
(TestAuthorizer, TestRuleMatches).
"""

from __future__ import annotations

import json

import pytest

from tests.explain_helpers import explainer

pytest.importorskip("cel_expr_python")

HEADER = "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n"


def webhook(conditions: list[str], policy: str = "NoOpinion", name: str = "webhook") -> str:
    lines = [
        "  - type: Webhook",
        f"    name: {name}",
        "    webhook:",
        "      timeout: 3s",
        "      subjectAccessReviewVersion: v1",
        f"      failurePolicy: {policy}",
        "      connectionInfo: {type: KubeConfigFile, kubeConfigFile: /etc/kubernetes/webhook.kubeconfig}",
    ]
    if conditions:
        lines.append("      matchConditionSubjectAccessReviewVersion: v1")
        lines.append("      matchConditions:")
        lines += [f"        - expression: {json.dumps(c)}" for c in conditions]
    return "\n".join(lines) + "\n"


@pytest.fixture
def explain(tmp_path):
    return explainer(tmp_path, "authz", "authz.yaml")


ALICE = ("--user", "alice", "--uid", "1", "--group", "group1", "--group", "group2")
ALICE += ("--extra", "key1=a", "--extra", "key1=b", "--extra", "key1=c", "--verb", "get", "--resource", "pods", "-n", "kittensandponies")
BOB = ("--user", "bob", "--verb", "get", "--path", "/api")
ALICE2 = ("--user", "alice2", "--verb", "get", "--path", "/api")
NS = "has(request.resourceAttributes) && request.resourceAttributes.namespace == 'kittensandponies'"

# (name, request, expressions, called): the mock webhook allows, so upstream's Allow is "called".
MATCH_CASES = [
    ("match all with no expressions", ALICE, [], True),
    (
        "match all against all expressions",
        ALICE,
        [
            "request.user == 'alice'",
            "request.uid == '1'",
            "('group1' in request.groups)",
            "('key1' in request.extra)",
            "!('key2' in request.extra)",
            "('a' in request.extra['key1'])",
            "!('z' in request.extra['key1'])",
            NS,
        ],
        True,
    ),
    (
        "match all except group, eval to one successful false, no error",
        ALICE,
        ["request.user == 'alice'", "request.uid == '1'", "('group3' in request.groups)", NS],
        False,
    ),
    ("match all except uid", ALICE, ["request.user == 'alice'", "request.uid == '2'", "('group1' in request.groups)", NS], False),
    (
        "match on user name but not namespace",
        ALICE,
        ["request.user == 'alice'", "has(request.resourceAttributes) && request.resourceAttributes.namespace == 'kube-system'"],
        False,
    ),
    ("mismatch on user name", BOB, ["request.user == 'alice'"], False),
    ("match on user name but not resourceAttributes", BOB, ["request.user == 'bob'", NS], False),
    (
        "at least one matchCondition successfully evaluates to FALSE, error ignored",
        ALICE2,
        ["request.user != 'alice2'", "request.resourceAttributes.namespace == 'kittensandponies'"],
        False,
    ),
    (
        "match on user name and nonresourceAttributes",
        BOB,
        ["request.user == 'bob'", "has(request.nonResourceAttributes) && request.nonResourceAttributes.verb == 'get'"],
        True,
    ),
]


@pytest.mark.parametrize(("name", "request_args", "expressions", "called"), MATCH_CASES, ids=[c[0] for c in MATCH_CASES])
def test_webhook_match_conditions(explain, name, request_args, expressions, called: bool) -> None:
    result = explain(HEADER + webhook(expressions), *request_args, "-f", "json")
    assert result.code == 0, result.err
    data = result.json()
    step = data["authorizers"][1]
    assert step["called"] is called
    # A called webhook's answer is not known offline; a skipped one has no opinion.
    assert (step["outcome"], data["decision"], data["allowed"]) == (
        ("Unknown", "Unknown", None) if called else ("NoOpinion", "NoOpinion", False)
    )


EVAL_ERROR = [
    "request.user == 'alice2'",
    "request.resourceAttributes.namespace == 'kittensandponies'",
]


@pytest.mark.parametrize(("policy", "outcome"), [("NoOpinion", "NoOpinion"), ("Deny", "Deny")])
def test_an_evaluation_error_applies_failure_policy(explain, policy: str, outcome: str) -> None:
    """'eval failed due to errors, no successful fail': the error decides through failurePolicy."""
    data = explain(HEADER + webhook(EVAL_ERROR, policy), *ALICE2, "-f", "json").json()
    step = data["authorizers"][1]
    assert (step["outcome"], step["called"], data["decision"]) == (outcome, False, outcome)
    assert [c["result"] for c in step["matchConditions"]] == ["true", "error"]
    assert step["matchConditions"][1]["message"] == (
        "cel evaluation error: expression 'request.resourceAttributes.namespace == 'kittensandponies'' "
        "resulted in error: no such key: resourceAttributes"
    )


def test_a_false_condition_stops_evaluation(explain) -> None:
    config = HEADER + webhook(["request.user != 'alice2'", "request.resourceAttributes.namespace == 'x'"], "Deny")
    step = explain(config, *ALICE2, "-f", "json").json()["authorizers"][1]
    assert [c["result"] for c in step["matchConditions"]] == ["false", "not evaluated"]
    assert step["outcome"] == "NoOpinion"


def test_a_condition_that_does_not_compile_is_refused_like_the_server_does(explain) -> None:
    config = HEADER + webhook(["request.user == 'alice'", "('group3' in request.group)"])
    result = explain(config, *ALICE)
    assert (result.code, result.out) == (2, "")
    assert (
        "matchConditions[1].expression: Invalid value: \"('group3' in request.group)\": compilation failed: ERROR: <input>:1:21: undefined field 'group'"
        in result.err
    )


NESTED = "[1,2,3,4,5,6,7,8,9,10].all(a, " * 4 + "true" + ")" * 4


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("isURL('https://' + request.user)", "the function isURL is not available offline"),
        ("request.groups.indexOf('a') == -1", "the function indexOf is not available offline"),
        (
            "request.groups.size() < 2.5",
            "the runtime here cannot compile it: found no matching overload for '_<_' applied to '(int, double)'",
        ),
        (NESTED, "the evaluation exceeds the offline iteration budget"),
    ],
)
def test_what_the_server_evaluates_but_svcconf_cannot_is_unknown(explain, expression: str, message: str) -> None:
    """Kubernetes CEL libraries and cel-go options the C++ runtime lacks: never a guessed true, false or error."""
    data = explain(HEADER + webhook([expression], "Deny"), *BOB, "-f", "json").json()
    step = data["authorizers"][1]
    assert (step["matchConditions"][0]["result"], step["matchConditions"][0]["message"]) == ("cannot evaluate", message)
    assert (step["outcome"], step["called"], data["decision"]) == ("Unknown", None, "Unknown")


def test_text_lists_the_chain_and_the_decision(explain) -> None:
    config = (
        HEADER
        + "  - {type: Node, name: node}\n"
        + webhook(["request.user == 'alice'"], "Deny", "policy")
        + "  - {type: RBAC, name: rbac}\n"
    )
    result = explain(config, *ALICE)
    assert result.code == 0
    path = result.out.split("(Node, ", 1)[1].split(":", 1)[0]
    assert result.out == (
        "request: get pods in namespace kittensandponies as alice (groups: group1, group2)\n"
        "authorizers:\n"
        "  system:masters (Superuser): NoOpinion: the user is not in group system:masters\n"
        f"  authorizers[0] node (Node, {path}:4): NoOpinion: not a node identity (user system:node:NAME in group system:nodes)\n"
        f"  authorizers[1] policy (Webhook, {path}:5): Unknown: every matchCondition is true: "
        "the webhook is called and its answer decides (failurePolicy Deny if it fails or times out)\n"
        "    matchConditions[0] request.user == 'alice': true\n"
        f"  authorizers[2] rbac (RBAC, {path}:15): Unknown: depends on cluster state: the Roles and bindings of the cluster "
        "(--rbac evaluates files)\n"
        "decision: Unknown: depends on policy\n"
    )


@pytest.mark.parametrize(
    ("chain", "args", "decision", "by"),
    [
        ("  - {type: AlwaysDeny, name: alwaysdeny}\n", ("--user", "x", "--group", "system:masters"), "Allow", "system:masters"),
        # authorizerfactory/builtin.go: alwaysDenyAuthorizer.Authorize returns DecisionNoOpinion, "Everything is forbidden."
        ("  - {type: AlwaysDeny, name: alwaysdeny}\n", ("--user", "x"), "NoOpinion", None),
        ("  - {type: AlwaysDeny, name: alwaysdeny}\n  - {type: AlwaysAllow, name: alwaysallow}\n", ("--user", "x"), "Allow", "alwaysallow"),
        ("  - {type: Node, name: node}\n  - {type: AlwaysAllow, name: alwaysallow}\n", ("--user", "x"), "Allow", "alwaysallow"),
        ("  - {type: Node, name: node}\n", ("--user", "system:node:n1", "--group", "system:nodes"), "Unknown", "node"),
        ("  - {type: Node, name: node}\n", ("--user", "system:node:n1"), "NoOpinion", None),
        ("  - {type: Node, name: node}\n", ("--user", "system:node:", "--group", "system:nodes"), "NoOpinion", None),
    ],
)
def test_chain_decisions(explain, chain: str, args, decision: str, by) -> None:
    data = explain(HEADER + chain, *args, "--verb", "get", "--resource", "secrets", "-n", "default", "-f", "json").json()
    assert (data["decision"], data["decidedBy"]) == (decision, by)


def test_authorizers_after_a_decision_are_not_consulted(explain) -> None:
    config = HEADER + "  - {type: RBAC, name: rbac}\n  - {type: AlwaysAllow, name: alwaysallow}\n  - {type: Node, name: node}\n"
    data = explain(config, "--user", "x", "--verb", "get", "--path", "/", "-f", "json").json()
    # RBAC depends on the cluster; if it has no opinion AlwaysAllow decides; Node is never reached.
    assert [s["outcome"] for s in data["authorizers"]] == ["NoOpinion", "Unknown", "Allow", None]
    assert (data["decision"], data["decidedBy"]) == ("Unknown", "rbac")


def test_a_subject_access_review_needs_a_user_or_group(explain) -> None:
    result = explain(HEADER + "  - {type: RBAC, name: rbac}\n", "--verb", "get", "--path", "/")
    assert result.code == 2 and "--user or --group: required" in result.err


# --------------------------------------------------------------------------- RBAC from files

RBAC_ONLY = HEADER + "  - {type: RBAC, name: rbac}\n"


def cluster_role(name: str, verbs, groups, resources, urls, labels: dict | None = None) -> dict:
    rule = {"verbs": verbs, "apiGroups": groups, "resources": resources, "nonResourceURLs": urls}
    meta = {"name": name, **({"labels": labels} if labels else {})}
    return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": meta, "rules": [rule]}


def subjects(*items: str) -> list[dict]:
    out = []
    for item in items:
        kind, name = item.split(":", 1)
        out.append({"kind": kind, "name": name, **({"apiGroup": "rbac.authorization.k8s.io"} if kind != "ServiceAccount" else {})})
    return out


def binding(role: str, *who: str, namespace: str | None = None, role_kind: str = "ClusterRole") -> dict:
    kind = "RoleBinding" if namespace else "ClusterRoleBinding"
    meta = {"name": f"{role}-binding", **({"namespace": namespace} if namespace else {})}
    ref = {"apiGroup": "rbac.authorization.k8s.io", "kind": role_kind, "name": role}
    return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": kind, "metadata": meta, "roleRef": ref, "subjects": subjects(*who)}


@pytest.fixture
def rbac_file(tmp_path):
    def write(*objects: dict) -> str:
        path = tmp_path / "rbac.json"
        path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": list(objects)}), encoding="utf-8")
        return str(path)

    return write


def _decisions(explain, tmp_path, rbac: str, requests: list[dict]) -> list[str]:
    path = tmp_path / "requests.json"
    path.write_text(json.dumps(requests), encoding="utf-8")
    result = explain(RBAC_ONLY, "--rbac", rbac, "--requests", str(path), "-f", "json")
    assert result.code in (0, 1), result.err
    return [r["decision"] for r in result.json()["results"]]


def _resource(user, groups, verb, resource, subresource, namespace, group=""):
    full = resource + (f".{group}" if group else "") + (f"/{subresource}" if subresource else "")
    request = {"verb": verb, "resource": full, **({"namespace": namespace} if namespace else {})}
    return {**request, "user": user, "groups": [g for g in groups.split(",")]}


AUTHORIZER_CASES = [
    (
        [cluster_role("admin", ["*"], ["*"], ["*"], ["*"]), binding("admin", "User:admin", "Group:admins", namespace="ns1")],
        [
            ("admin", "", "get", "Pods", "", "ns1"),
            ("admin", "", "watch", "Pods", "", "ns1"),
            ("admin", "group1", "watch", "Foobar", "", "ns1"),
            ("joe", "admins", "watch", "Foobar", "", "ns1"),
            ("joe", "group1,admins", "watch", "Foobar", "", "ns1"),
        ],
        [
            ("admin", "", "GET", "Pods", "", "ns2"),
            ("admin", "", "GET", "Nodes", "", ""),
            ("admin", "admins", "GET", "Pods", "", "ns2"),
            ("admin", "admins", "GET", "Nodes", "", ""),
        ],
    ),
    (
        [cluster_role("admin", ["*"], ["*"], ["pods"], ["*"]), binding("admin", "User:admin", "Group:admins", namespace="ns1")],
        [("admin", "", "get", "pods", "", "ns1")],
        [("admin", "", "get", "pods", "status", "ns1")],
    ),
    (
        [cluster_role("admin", ["*"], ["*"], ["pods/status"], ["*"]), binding("admin", "User:admin", "Group:admins", namespace="ns1")],
        [("admin", "", "get", "pods", "status", "ns1")],
        [("admin", "", "get", "pods", "", "ns1")],
    ),
]


@pytest.mark.parametrize(("objects", "allowed", "refused"), AUTHORIZER_CASES)
def test_rbac_authorizer_known_answers(explain, rbac_file, tmp_path, objects, allowed, refused) -> None:
    requests = [_resource(*case) for case in allowed + refused]
    decisions = _decisions(explain, tmp_path, rbac_file(*objects), requests)
    assert decisions == ["Allow"] * len(allowed) + ["NoOpinion"] * len(refused)


def test_rbac_non_resource_urls(explain, rbac_file, tmp_path) -> None:
    objects = [
        cluster_role("non-resource-url-getter", ["get"], [""], [""], ["/apis"]),
        cluster_role("non-resource-url", ["*"], [""], [""], ["/apis"]),
        cluster_role("non-resource-url-prefix", ["get"], [""], [""], ["/apis/*"]),
        binding("non-resource-url-getter", "User:foo", "Group:bar"),
        binding("non-resource-url", "User:admin", "Group:admin"),
        binding("non-resource-url-prefix", "User:prefixed", "Group:prefixed"),
    ]

    def url(who: str, verb: str, path: str) -> dict:
        kind, name = who.split(":")
        return {"verb": verb, "path": path, **({"user": name} if kind == "User" else {"groups": [name]})}

    allowed = [
        url("User:foo", "get", "/apis"),
        url("Group:bar", "get", "/apis"),
        url("User:admin", "get", "/apis"),
        url("Group:admin", "get", "/apis"),
        url("User:admin", "watch", "/apis"),
        url("Group:admin", "watch", "/apis"),
        url("User:prefixed", "get", "/apis/v1"),
        url("Group:prefixed", "get", "/apis/v1"),
        url("User:prefixed", "get", "/apis/v1/foobar"),
        url("Group:prefixed", "get", "/apis/v1/foorbar"),
    ]
    refused = [
        url("User:foo", "watch", "/apis"),
        url("Group:bar", "watch", "/apis"),
        url("User:foo", "get", "/api/v1"),
        url("Group:bar", "get", "/api/v1"),
        url("User:admin", "get", "/api/v1"),
        url("Group:admin", "get", "/api/v1"),
        url("User:prefixed", "get", "/api/v1"),
        url("Group:prefixed", "get", "/api/v1"),
    ]
    decisions = _decisions(explain, tmp_path, rbac_file(*objects), allowed + refused)
    assert decisions == ["Allow"] * len(allowed) + ["NoOpinion"] * len(refused)


RULE_MATCH_CASES = [
    # (name, verbs, groups, resources, urls, {(verb, group, resource, subresource or url): allowed})
    (
        "star verb, exact match other",
        ["*"],
        ["group1"],
        ["resource1"],
        [],
        {("verb1", "group1", "resource1"): True, ("verb1", "group2", "resource1"): False, ("verb1", "group1", "resource2"): False}
        | {("verb2", "group1", "resource1"): True, ("verb2", "group2", "resource2"): False},
    ),
    (
        "star group, exact match other",
        ["verb1"],
        ["*"],
        ["resource1"],
        [],
        {("verb1", "group1", "resource1"): True, ("verb1", "group2", "resource1"): True, ("verb1", "group1", "resource2"): False}
        | {("verb2", "group1", "resource1"): False},
    ),
    (
        "star resource, exact match other",
        ["verb1"],
        ["group1"],
        ["*"],
        [],
        {("verb1", "group1", "resource1"): True, ("verb1", "group2", "resource1"): False, ("verb1", "group1", "resource2"): True}
        | {("verb2", "group1", "resource1"): False},
    ),
    (
        "tuple expansion",
        ["verb1", "verb2"],
        ["group1", "group2"],
        ["resource1", "resource2"],
        [],
        {(v, g, r): True for v in ("verb1", "verb2") for g in ("group1", "group2") for r in ("resource1", "resource2")},
    ),
    (
        "subresource expansion",
        ["*"],
        ["*"],
        ["resource1/subresource1"],
        [],
        {("verb1", "group1", "resource1/subresource1"): True, ("verb1", "group2", "resource1/subresource2"): False}
        | {("verb1", "group1", "resource2/subresource1"): False, ("verb2", "group1", "resource1/subresource1"): True},
    ),
    (
        "star nonresource, exact match other",
        ["verb1"],
        [],
        [],
        ["*"],
        {("verb1", "/foo"): True, ("verb1", "/foo/bar/one"): True, ("verb2", "/foo"): False, ("verb2", "/foo/baz/one"): False},
    ),
    (
        "star nonresource subpath",
        ["verb1"],
        [],
        [],
        ["/foo/*"],
        {("verb1", "/foo"): False, ("verb1", "/foo/bar"): True, ("verb1", "/foo/baz/one"): True, ("verb1", "/notfoo"): False}
        | {("verb1", "/notfoo/bar/one"): False},
    ),
    (
        "star verb, exact nonresource",
        ["*"],
        [],
        [],
        ["/foo", "/foo/bar/one"],
        {("verb1", "/foo"): True, ("verb1", "/foo/bar"): False, ("verb1", "/foo/bar/one"): True, ("verb2", "/foo"): True}
        | {("verb2", "/foo/baz/one"): False},
    ),
]


@pytest.mark.parametrize(
    ("name", "verbs", "groups", "resources", "urls", "expected"), RULE_MATCH_CASES, ids=[c[0] for c in RULE_MATCH_CASES]
)
def test_rbac_rule_matches(explain, rbac_file, tmp_path, name, verbs, groups, resources, urls, expected: dict) -> None:
    objects = [cluster_role("r", verbs, groups, resources, urls), binding("r", "User:u")]
    requests = []
    for key in expected:
        if len(key) == 2:
            requests.append({"user": "u", "verb": key[0], "path": key[1]})
        else:
            verb, group, resource = key
            head, _, sub = resource.partition("/")
            requests.append({"user": "u", "verb": verb, "resource": f"{head}.{group}" + (f"/{sub}" if sub else "")})
    decisions = _decisions(explain, tmp_path, rbac_file(*objects), requests)
    assert decisions == ["Allow" if allowed else "NoOpinion" for allowed in expected.values()]


def test_rbac_reason_names_the_binding_as_upstream_does(explain, rbac_file) -> None:
    objects = [cluster_role("reader", ["get"], [""], ["pods"], []), binding("reader", "ServiceAccount:builder", namespace="ci")]
    args = ("--user", "system:serviceaccount:ci:builder", "--verb", "get", "--resource", "pods", "-n", "ci", "-f", "json")
    step = explain(RBAC_ONLY, "--rbac", rbac_file(*objects), *args).json()["authorizers"][1]
    assert (step["outcome"], step["reason"]) == (
        "Allow",
        'allowed by RoleBinding "reader-binding/ci" of ClusterRole "reader" to ServiceAccount "builder/ci"',
    )
    # The same account in another namespace's binding scope is not bound.
    other = explain(RBAC_ONLY, "--rbac", rbac_file(*objects), *args[:-4], "-n", "prod", "-f", "json").json()
    assert other["decision"] == "NoOpinion"


def test_rbac_aggregated_cluster_role_holds_the_labelled_roles_rules(explain, rbac_file) -> None:
    aggregate = cluster_role("monitoring", [], [], [], [])
    aggregate["rules"] = []
    aggregate["aggregationRule"] = {"clusterRoleSelectors": [{"matchLabels": {"example.com/aggregate-to-monitoring": "true"}}]}
    endpoints = cluster_role("endpoints-reader", ["get"], [""], ["endpoints"], [], {"example.com/aggregate-to-monitoring": "true"})
    other = cluster_role("secrets-reader", ["get"], [""], ["secrets"], [])
    rbac = rbac_file(aggregate, endpoints, other, binding("monitoring", "User:prom"))
    decision = {
        resource: explain(RBAC_ONLY, "--rbac", rbac, "--user", "prom", "--verb", "get", "--resource", resource, "-f", "json").json()[
            "decision"
        ]
        for resource in ("endpoints", "secrets")
    }
    assert decision == {"endpoints": "Allow", "secrets": "NoOpinion"}


def test_rbac_aggregation_follows_a_chain_of_1500_aggregating_roles(explain, rbac_file) -> None:
    # role-i aggregates role-(i+1): the controller gives role-0 every rule down the chain, however long.
    roles = []
    for i in range(1500):
        role = cluster_role(f"role-{i}", ["get"], [""], [f"things{i}"], [], {"example.com/level": str(i)})
        role["aggregationRule"] = {"clusterRoleSelectors": [{"matchLabels": {"example.com/level": str(i + 1)}}]}
        roles.append(role)
    rbac = rbac_file(*roles, binding("role-0", "User:jane"))
    decisions = [
        explain(RBAC_ONLY, "--rbac", rbac, "--user", "jane", "--verb", "get", "--resource", resource, "-f", "json").json()["decision"]
        for resource in ("things1499", "things1500")
    ]
    assert decisions == ["Allow", "NoOpinion"]


def test_rbac_aggregation_cycles_end(explain, rbac_file) -> None:
    first = cluster_role("first", ["get"], [""], ["pods"], [], {"example.com/ring": "first"})
    second = cluster_role("second", ["get"], [""], ["secrets"], [], {"example.com/ring": "second"})
    first["aggregationRule"] = {"clusterRoleSelectors": [{"matchLabels": {"example.com/ring": "second"}}]}
    second["aggregationRule"] = {"clusterRoleSelectors": [{"matchLabels": {"example.com/ring": "first"}}]}
    rbac = rbac_file(first, second, binding("first", "User:jane"))
    for resource in ("pods", "secrets"):
        result = explain(RBAC_ONLY, "--rbac", rbac, "--user", "jane", "--verb", "get", "--resource", resource, "-f", "json")
        assert result.json()["decision"] == "Allow"


def test_rbac_missing_role_is_reported(explain, rbac_file) -> None:
    rbac = rbac_file(binding("cluster-admin", "Group:ops"))
    step = explain(RBAC_ONLY, "--rbac", rbac, "--user", "x", "--group", "ops", "--verb", "get", "--path", "/", "-f", "json").json()[
        "authorizers"
    ][1]
    assert step["outcome"] == "NoOpinion"
    assert 'clusterrole.rbac.authorization.k8s.io "cluster-admin" not found' in step["reason"]


def test_rbac_files_with_errors_are_refused(explain, tmp_path) -> None:
    path = tmp_path / "old.yaml"
    path.write_text("apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: ClusterRole\nmetadata: {name: x}\nrules: []\n", encoding="utf-8")
    result = explain(RBAC_ONLY, "--rbac", str(path), "--user", "x", "--verb", "get", "--path", "/")
    assert (result.code, result.out) == (2, "")
    assert "removed-api-version" in result.err


def test_expectations_in_a_requests_file(explain, rbac_file, tmp_path) -> None:
    objects = [cluster_role("reader", ["get"], [""], ["pods"], []), binding("reader", "User:jane")]
    requests = tmp_path / "requests.yaml"
    requests.write_text(
        "- {user: jane, verb: get, resource: pods, expect: Allow}\n- {user: jane, verb: delete, resource: pods, expect: Allow}\n",
        encoding="utf-8",
    )
    result = explain(RBAC_ONLY, "--rbac", rbac_file(*objects), "--requests", str(requests))
    assert result.code == 1
    rows = [line.split() for line in result.out.splitlines()]
    assert rows[1][-4:] == ["Allow", "rbac", "Allow", "ok"]
    assert rows[2][-4:] == ["NoOpinion", "-", "Allow", "FAIL"]
    assert result.out.splitlines()[-1] == "2 requests, 1 of 2 expectations failed"


def test_errors_do_not_stop_evaluation_and_all_are_named(explain) -> None:
    """CELMatcher.Eval (apiserver/pkg/authorization/cel/matcher.go): an error appends to evalErrors and the
    loop goes on; with no false the aggregate of every error applies failurePolicy."""
    failing = ["request.resourceAttributes.namespace == 'x'", "request.resourceAttributes.name == 'y'"]
    config = HEADER + webhook(["request.user == 'alice2'", *failing], "Deny")
    step = explain(config, *ALICE2, "-f", "json").json()["authorizers"][1]
    assert [c["result"] for c in step["matchConditions"]] == ["true", "error", "error"]
    assert (step["outcome"], step["called"]) == ("Deny", False)
    assert step["reason"] == "matchConditions[1], matchConditions[2] fail to evaluate: failurePolicy Deny applies"


def test_an_error_before_a_false_is_evaluated_and_the_false_decides(explain) -> None:
    """CELMatcher.Eval: an error is kept, but a later false returns (false, nil): no failurePolicy."""
    config = HEADER + webhook(["request.resourceAttributes.namespace == 'x'", "request.user != 'alice2'", "request.user == 'z'"], "Deny")
    step = explain(config, *ALICE2, "-f", "json").json()["authorizers"][1]
    assert [c["result"] for c in step["matchConditions"]] == ["error", "false", "not evaluated"]
    assert (step["outcome"], step["called"]) == ("NoOpinion", False)


def test_conditions_after_one_that_cannot_be_told_here_say_they_may_not_run(explain) -> None:
    config = HEADER + webhook(["isURL('https://' + request.user)", "request.user == 'bob'"], "Deny")
    step = explain(config, *BOB, "-f", "json").json()["authorizers"][1]
    assert [c["result"] for c in step["matchConditions"]] == ["cannot evaluate", "true"]
    assert step["matchConditions"][1]["message"] == "runs only if matchConditions[0] is not false"
