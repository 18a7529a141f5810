"""Messages in upstream's words, for rules whose wording the catalogues record and no other test asserts.

Each row: the catalogue id (../shared/reference/rules-apiserver.md or rules-components.md), a file,
the field path of the error and the upstream message (or the part of it after the value, where the
value is a placeholder in the catalogue). The message must appear in svcconf's error at that path.
"""

from __future__ import annotations

import pytest

from tests.helpers import run

AUTHN = """\
apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt:
- issuer: {url: "https://issuer.example.com", audiences: [a]}
  claimMappings:
    username: {claim: sub, prefix: ""}
"""
AUTHZ = "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\n"
ENCRYPTION = "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\n"
EGRESS = "apiVersion: apiserver.k8s.io/v1beta1\nkind: EgressSelectorConfiguration\negressSelections:\n- name: cluster\n"
PSA = "apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\n"
SCHEDULER = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
WEBHOOK = "{type: Webhook, name: w, webhook: {timeout: 3s, subjectAccessReviewVersion: v1, matchConditionSubjectAccessReviewVersion: v1, failurePolicy: Deny, connectionInfo: {type: InClusterConfig}%s}}"

ADMISSION_REVIEW = "apiVersion: admission.k8s.io/v1\nkind: AdmissionReview\nresponse:\n  uid: '123'\n  allowed: true\n"
PATCH = "  patch: W3sib3AiOiJhZGQiLCJwYXRoIjoiL3NwZWMvcmVwbGljYXMiLCJ2YWx1ZSI6M31d\n"
KMS_V2 = "  providers: [{kms: {apiVersion: v2, name: vault, endpoint: 'unix:///tmp/kms.sock'}}]\n"

# (catalogue id, target release or None for the newest, file, path, upstream message)
CASES = [
    # ------------------------------------------------------------------ rules-apiserver.md
    (
        "AUTHN-012",
        "1.33",
        AUTHN.replace("config.k8s.io/v1\n", "config.k8s.io/v1beta1\n").replace(
            "audiences: [a]", "audiences: [a, ''], audienceMatchPolicy: MatchAny"
        ),
        "jwt[0].issuer.audiences[1]",
        "Required value: audience can't be empty",
    ),
    (
        "AUTHN-023",
        None,
        AUTHN + "  claimValidationRules: [{claim: hd, requiredValue: a}, {claim: hd, requiredValue: b}]\n",
        "jwt[0].claimValidationRules[1].claim",
        'Duplicate value: "hd"',
    ),
    (
        "AUTHN-042",
        None,
        AUTHN
        + "  claimMappings:\n    username: {claim: sub, prefix: ''}\n    extra: [{key: Example.com/tenant, valueExpression: claims.t}]\n",
        "jwt[0].claimMappings.extra[0].key",
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
    ),
    (
        "AUTHN-063",
        "1.31",
        AUTHN.replace("apiserver.config.k8s.io/v1\n", "apiserver.config.k8s.io/v1beta1\n") + "anonymous: {enabled: true}\n",
        "anonymous",
        "Forbidden: anonymous is not supported when AnonymousAuthConfigurableEnpoints feature gate is disabled",
    ),
    (
        "AUTHZ-006",
        None,
        AUTHZ + "authorizers:\n- " + WEBHOOK % "" + "\n- " + WEBHOOK % "" + "\n",
        "authorizers[1].name",
        'Duplicate value: "w"',
    ),
    (
        "ENC-042",
        "1.25",
        ENCRYPTION + "resources:\n- resources: [secrets]\n" + KMS_V2,
        "resources[0].providers[0].kms.apiVersion",
        'could not configure KMSv2-Plugin\'s probe "vault", KMSv2 feature is not enabled',
    ),
    (
        "EGR-008",
        None,
        EGRESS + "  connection: {proxyProtocol: GRPC, transport: {uds: {}}}\n",
        "egressSelections[0].connection.transport.uds.udsName",
        'Invalid value: "nil": must be present for UDS connections',
    ),
    (
        "PSA-004",
        None,
        PSA + "exemptions: {namespaces: [kube-system, kube-system]}\n",
        "exemptions.namespaces[1]",
        'Duplicate value: "kube-system"',
    ),
    (
        "PSA-006",
        None,
        PSA + "exemptions: {runtimeClasses: [gvisor, gvisor]}\n",
        "exemptions.runtimeClasses[1]",
        'Duplicate value: "gvisor"',
    ),
    ("PSA-008", None, PSA + "exemptions: {usernames: [alice, alice]}\n", "exemptions.usernames[1]", 'Duplicate value: "alice"'),
    ("WIRE-004", None, ADMISSION_REVIEW + PATCH, "response.patch", "webhook returned response.patch but not response.patchType"),
    (
        "WIRE-005",
        None,
        ADMISSION_REVIEW + "  patchType: JSONPatch\n",
        "response.patchType",
        "webhook returned response.patchType but not response.patch",
    ),
    (
        "WIRE-006",
        None,
        ADMISSION_REVIEW + "  patchType: ''\n" + PATCH,
        "response.patchType",
        'webhook returned invalid response.patchType of ""',
    ),
    (
        "WIRE-029",
        None,
        (
            "apiVersion: client.authentication.k8s.io/v1beta1\nkind: ExecCredential\nstatus:\n  clientCertificateData: |\n"
            "    -----BEGIN CERTIFICATE-----\n    MIIBszCCAVmgAwIBAgIUZmFrZQ==\n    -----END CERTIFICATE-----\n"
        ),
        "status",
        "exec plugin returned only certificate or key, not both",
    ),
    # ------------------------------------------------------------------ rules-components.md
    (
        "KS-12",
        None,
        SCHEDULER
        + "profiles:\n- schedulerName: default-scheduler\n  plugins: {queueSort: {enabled: [{name: PrioritySort}, {name: Other}]}}\n",
        "profiles[0].plugins.queueSort.enabled",
        "Invalid value: 2: only one queue sort plugin can be enabled",
    ),
    (
        "KSF-2",
        None,
        SCHEDULER + "profiles:\n- schedulerName: default-scheduler\n  plugins: {filter: {enabled: [{name: PrioritySort}]}}\n",
        "profiles[0].plugins.filter.enabled[0]",
        'plugin "PrioritySort" does not extend FilterPlugin plugin',
    ),
    (
        "KSF-3",
        None,
        SCHEDULER + "profiles:\n- schedulerName: default-scheduler\n  plugins: {filter: {enabled: [{name: NodeName}, {name: NodeName}]}}\n",
        "profiles[0].plugins.filter.enabled[1]",
        'plugin "NodeName" already registered as "FilterPlugin"',
    ),
    (
        "KSF-6",
        None,
        SCHEDULER + "profiles:\n- schedulerName: default-scheduler\n  plugins: {multiPoint: {disabled: [{name: '*'}]}}\n",
        "profiles[0].plugins.bind",
        'at least one bind plugin is needed for profile with scheduler name "default-scheduler"',
    ),
]


@pytest.mark.parametrize(("catalogue", "target", "text", "path", "message"), CASES, ids=[c[0] for c in CASES])
def test_message_in_upstream_words(catalogue: str, target: str | None, text: str, path: str, message: str) -> None:
    flags = ["--target-version", target] if target else []
    result = run("validate", "--format", "json", *flags, "-", stdin=text.encode())
    at_path = [d["message"] for d in result.json()["diagnostics"] if d["severity"] == "error" and d["path"] == path]
    assert any(message in found for found in at_path), (catalogue, at_path)
