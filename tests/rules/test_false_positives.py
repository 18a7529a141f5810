"""Findings that real repositories showed to be wrong, each checked against the upstream code it follows."""

from __future__ import annotations

import pytest

from tests.helpers import run


def findings(text: str, *args: str) -> list[tuple[str, str, str]]:
    result = run("validate", "-f", "json", *args, "-", stdin=text.encode())
    return [(d["rule"], d["severity"], d["path"]) for d in result.json()["diagnostics"]]


def rules_of(text: str, *args: str) -> list[str]:
    return [rule for rule, _severity, _path in findings(text, *args)]


# ---------------------------------------------------------------- audit-logs-secrets and verbs

AUDIT = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n"


@pytest.mark.parametrize(
    ("rule", "logged"),
    [
        # Request records the request body only: these requests send no secret.
        ("{level: Request, verbs: [deletecollection]}", False),
        ("{level: Request, verbs: [get, list, watch, delete], resources: [{group: '', resources: [secrets]}]}", False),
        # ... these do.
        ("{level: Request, verbs: [create, update], resources: [{group: '', resources: [secrets]}]}", True),
        ("{level: Request, verbs: [create], resources: [{group: authentication.k8s.io, resources: [tokenreviews]}]}", True),
        # RequestResponse records the answer too: a get answers with the secret, a delete with what it deleted.
        ("{level: RequestResponse, verbs: [get], resources: [{group: '', resources: [secrets]}]}", True),
        ("{level: RequestResponse, verbs: [delete]}", True),
        # A token review is only ever created.
        ("{level: RequestResponse, verbs: [get, list], resources: [{group: authentication.k8s.io, resources: [tokenreviews]}]}", False),
    ],
)
def test_audit_logs_secrets_considers_verbs(rule: str, logged: bool) -> None:
    assert ("audit-logs-secrets" in rules_of(AUDIT + f"  - {rule}\n  - {{level: Metadata}}\n")) is logged


def test_a_metadata_rule_for_the_writing_verbs_protects_a_later_request_rule() -> None:
    # policy/checker.go: the first matching rule wins; create/update/patch of secrets stop at rules[0].
    policy = AUDIT + (
        "  - {level: Metadata, verbs: [create, update, patch], resources: [{group: '', resources: [secrets]}]}\n"
        "  - {level: Metadata, resources: [{group: authentication.k8s.io, resources: [tokenreviews]}]}\n"
        "  - {level: Request}\n"
    )
    assert "audit-logs-secrets" not in rules_of(policy)
    assert ("audit-logs-secrets", "warning", "rules[2].level") in findings(policy.replace("{level: Request}", "{level: RequestResponse}"))


# The rules of the GCE reference policy (cluster/gce/gci/configure-helper.sh, create-master-audit-policy;
# it was audit.k8s.io/v1beta1 until the v1 migration) that reach secrets, in its order.
GCE_POLICY = """apiVersion: audit.k8s.io/v1
kind: Policy
rules:
  - level: None
    users: ["system:kube-proxy"]
    verbs: ["watch"]
    resources:
      - group: ""
        resources: ["endpoints", "services", "services/status"]
  - level: None
    nonResourceURLs: [/healthz*, /version, /swagger*]
  - level: None
    resources:
      - group: ""
        resources: ["events"]
  - level: Request
    userGroups: ["system:nodes"]
    verbs: ["update", "patch"]
    resources:
      - group: ""
        resources: ["nodes/status", "pods/status"]
    omitStages: [RequestReceived]
  - level: Request
    users: ["system:serviceaccount:kube-system:namespace-controller"]
    verbs: ["deletecollection"]
    omitStages: [RequestReceived]
  - level: Metadata
    resources:
      - group: ""
        resources: ["secrets", "configmaps", "serviceaccounts/token"]
      - group: authentication.k8s.io
        resources: ["tokenreviews"]
    omitStages: [RequestReceived]
  - level: Request
    verbs: ["get", "list", "watch"]
    resources: [{group: ""}, {group: apps}, {group: authentication.k8s.io}]
    omitStages: [RequestReceived]
  - level: RequestResponse
    resources: [{group: ""}, {group: apps}, {group: authentication.k8s.io}]
    omitStages: [RequestReceived]
  - level: Metadata
    omitStages: [RequestReceived]
"""


def test_the_gce_reference_policy_logs_no_secret() -> None:
    assert findings(GCE_POLICY) == []


# ---------------------------------------------------------------- public issuers

AUTHN = "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\njwt:\n"


@pytest.mark.parametrize(
    ("url", "severity"),
    [
        ("https://accounts.google.com", "warning"),  # every Google account can get a token
        ("https://token.actions.githubusercontent.com", "warning"),  # every GitHub Actions workflow
        ("https://gitlab.com", "warning"),
        ("https://keycloak.example.com/realms/corp", "info"),  # a company's own IdP: only what is known
        ("https://dex.example.com", "info"),
        ("https://dex.auth.svc", None),  # in-cluster: not reachable beyond the cluster
    ],
)
def test_public_issuer_severity_says_what_is_known(url: str, severity: str | None) -> None:
    config = (
        AUTHN + f'  - issuer: {{url: "{url}", audiences: [my-cluster]}}\n    claimMappings: {{username: {{claim: sub, prefix: "x:"}}}}\n'
    )
    found = [s for rule, s, _p in findings(config) if rule == "public-issuer-without-claim-rules"]
    assert found == ([severity] if severity else [])


# ---------------------------------------------------------------- advice, not misbehaviour

ADMISSION = """apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
  - name: EventRateLimit
    path: /etc/kubernetes/admission/eventconfig.yaml
"""


def test_an_absolute_plugin_path_is_info_at_most(tmp_path) -> None:
    # admission/config.go ReadAdmissionConfiguration accepts any absolute path (kubespray and deckhouse use them).
    config = tmp_path / "admission.yaml"
    config.write_text(ADMISSION, encoding="utf-8")
    result = run("validate", "-f", "json", str(config))
    severities = {d["severity"] for d in result.json()["diagnostics"] if d["rule"] == "plugin-path-outside-config-dir"}
    assert severities == {"info"}


def test_no_server_event_limit_is_advice() -> None:
    config = (
        "apiVersion: eventratelimit.admission.k8s.io/v1alpha1\nkind: Configuration\nlimits:\n  - {type: Namespace, qps: 50, burst: 100}\n"
    )
    assert findings(config) == [("no-server-event-limit", "info", "limits")]


# ---------------------------------------------------------------- decode errors stop the rules there

EMAIL = """apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt:
  - issuer: {url: "https://dex.auth.svc", audiences: [c]}
    claimValidationRules: {expression: "claims.email_verified == true"}
    claimMappings: {username: {expression: "claims.email"}}
  - issuer: {url: "https://other.auth.svc", audiences: [c]}
    claimMappings: {username: {expression: "claims.email"}}
"""


def test_a_decode_error_stops_rule_findings_for_that_entry() -> None:
    # Upstream decodes the file (json: cannot unmarshal object into ... of type []ClaimValidationRule) before any
    # validation: jwt[0] never reaches validateClaimMappings. jwt[1] still gets the rule's finding.
    assert findings(EMAIL) == [
        ("wrong-type", "error", "jwt[0].claimValidationRules"),
        ("email-verified-not-checked", "error", "jwt[1].claimMappings.username.expression"),
    ]


# ---------------------------------------------------------------- unknown fields as the strict decoder names them


def test_unknown_field_names_the_key_as_the_strict_decoder_does() -> None:
    # sigs.k8s.io/json kubernetes_patch.go: newFieldError joins the field stack (keys with ".", indices as
    # "[i]") and strictError.Error quotes it: `unknown field "nodefs.available"`; brackets belong to paths only.
    config = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodefs.available: 10%\nauthentication:\n  webhook:\n    bad.key: 1\n"
    result = run("validate", "-f", "json", "-", stdin=config.encode())
    unknown = [(d["path"], d["message"]) for d in result.json()["diagnostics"] if d["rule"] == "unknown-field"]
    assert unknown == [
        ("[nodefs.available]", 'unknown field "nodefs.available"'),
        ("authentication.webhook[bad.key]", 'unknown field "authentication.webhook.bad.key"'),
    ]


def test_an_unknown_leader_migration_component_is_a_warning() -> None:
    # controller-manager leadermigration/migrator.go NewLeaderMigrator: an entry whose component is neither the
    # manager's nor "*" makes the controller ControllerUnowned in every manager, so none runs it.
    config = (
        "apiVersion: controllermanager.config.k8s.io/v1\nkind: LeaderMigrationConfiguration\n"
        "leaderName: cloud-provider-extraction-migration\n"
        "controllerLeaders:\n  - {name: route-controller, component: kcm}\n"
    )
    assert findings(config) == [("unknown-leader-migration-component", "warning", "controllerLeaders[0].component")]
