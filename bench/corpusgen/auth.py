"""Generators of AuthenticationConfiguration (JWT issuers with CEL rules) and AuthorizationConfiguration (webhooks with CEL match conditions)."""

from __future__ import annotations

import random

from .writer import Comment, header, pick, rename

AUTH_VERSIONS = ("apiserver.config.k8s.io/v1", "apiserver.config.k8s.io/v1", "apiserver.config.k8s.io/v1beta1")
ISSUERS = (
    "https://dex.example.com",
    "https://login.example.com/realms/platform",
    "https://keycloak.example.org/realms/k8s",
    "https://token.actions.githubusercontent.com",
    "https://accounts.google.com",
    "https://sso.example.net/oauth2/default",
    "https://oidc.eks.eu-west-1.amazonaws.com/id/EXAMPLE",
)
# CEL over the JWT claims, as upstream's documentation writes them; each compiles to bool.
CLAIM_RULES = (
    "claims.?email_verified.orValue(false) == true",
    "claims.exp - claims.nbf <= 86400",
    "has(claims.sub) && claims.sub != ''",
    "claims.?tenant.orValue('') in ['platform', 'payments', 'search']",
    "sets.contains(['admins', 'developers', 'viewers'], [claims.?team.orValue('viewers')])",
    "claims.iss.startsWith('https://')",
)
USERNAME_EXPRESSIONS = (
    "'oidc:' + claims.sub",
    "claims.?email_verified.orValue(false) ? 'oidc:' + claims.email : 'oidc:' + claims.sub",
    "claims.preferred_username.lowerAscii()",
)
USER_RULES = (
    ("!user.username.startsWith('system:')", "username cannot use the reserved system: prefix"),
    ("user.groups.all(g, !g.startsWith('system:'))", "groups cannot use the reserved system: prefix"),
)
MATCH_CONDITIONS = (
    "has(request.resourceAttributes)",
    "!('system:masters' in request.groups)",
    "request.resourceAttributes.?namespace.orValue('') != 'kube-system'",
    "request.groups.exists(g, g.startsWith('tenant:'))",
    "'system:serviceaccounts' in request.groups || request.user.startsWith('oidc:')",
    "request.resourceAttributes.?labelSelector.rawSelector.orValue('') != ''",
)


def _jwt(rng: random.Random, url: str, index: int) -> dict:
    audiences = pick(rng, ("kubernetes", f"cluster-{index}", "kubectl"), 1, 2)
    issuer: dict = {"url": url, "audiences": audiences}
    if len(audiences) > 1:
        issuer["audienceMatchPolicy"] = "MatchAny"
    authenticator: dict = {"issuer": issuer}
    rules: list = [{"claim": "hd", "requiredValue": "example.com"}] if rng.random() < 0.3 else []
    rules += [{"expression": e, "message": "claim check failed"} for e in pick(rng, CLAIM_RULES, 1, 3)]
    authenticator["claimValidationRules"] = rules
    if rng.random() < 0.5:
        mappings: dict = {"username": {"claim": "sub", "prefix": "oidc:"}, "groups": {"claim": "groups", "prefix": "oidc:"}}
    else:
        mappings = {
            "username": {"expression": rng.choice(USERNAME_EXPRESSIONS)},
            "groups": {"expression": "claims.?groups.orValue([]).map(g, 'oidc:' + g)"},
        }
    if rng.random() < 0.5:
        mappings["uid"] = {"claim": "sub"}
    if rng.random() < 0.4:
        mappings["extra"] = [{"key": "example.com/tenant", "valueExpression": "claims.?tenant.orValue('')"}]
    authenticator["claimMappings"] = mappings
    if rng.random() < 0.5:
        authenticator["userValidationRules"] = [{"expression": e, "message": m} for e, m in pick(rng, USER_RULES, 1, 2)]
    return authenticator


def authentication_configuration(rng: random.Random, index: int) -> dict:
    doc = header(
        rng,
        ("Structured authentication (--authentication-config)",),
        rng.choice(AUTH_VERSIONS),
        "AuthenticationConfiguration",
        kind_first=0.2,
    )
    doc["jwt"] = [_jwt(rng, url, index) for url in pick(rng, ISSUERS, 1, 3)]
    if rng.random() < 0.4:
        doc[Comment("Anonymous requests only for the health endpoints.", blank=True)] = None
        doc["anonymous"] = {"enabled": True, "conditions": [{"path": p} for p in pick(rng, ("/livez", "/readyz", "/healthz"), 1, 3)]}
    return doc


def break_authentication(rng: random.Random, doc: dict) -> tuple[str, list[str]] | None:
    authenticator = rng.choice(doc["jwt"])
    choice = rng.random()
    if choice < 0.4:
        authenticator["issuer"]["url"] = authenticator["issuer"]["url"].replace("https://", "http://")
        return "issuer URL over http", ["invalid-issuer-url"]
    if choice < 0.7:
        rule = next((r for r in authenticator["claimValidationRules"] if "expression" in r), None)
        rule["expression"] = rule["expression"].replace("claims.", "claim.", 1)
        return "claim validation rule refers to claim (not claims)", ["cel-compile-error"]
    rename(authenticator, "claimMappings", "claimMapping")
    # claimMappings.username is required: its absence is reported as well.
    return "unknown field claimMapping (for claimMappings)", ["unknown-field", "claim-or-expression-required"]


# --------------------------------------------------------------------------- authorization


def _webhook(rng: random.Random, name: str) -> dict:
    webhook: dict = {
        "timeout": rng.choice(("3s", "5s", "10s")),
        "subjectAccessReviewVersion": "v1",
        "matchConditionSubjectAccessReviewVersion": "v1",
        "failurePolicy": rng.choice(("NoOpinion", "NoOpinion", "Deny")),
        "connectionInfo": {"type": "KubeConfigFile", "kubeConfigFile": f"/etc/kubernetes/authz/{name}.kubeconfig"},
    }
    if rng.random() < 0.5:
        webhook["authorizedTTL"] = rng.choice(("30s", "5m"))
        webhook["unauthorizedTTL"] = rng.choice(("10s", "30s"))
    if rng.random() < 0.8:
        webhook["matchConditions"] = [{"expression": e} for e in pick(rng, MATCH_CONDITIONS, 1, 4)]
    return webhook


def authorization_configuration(rng: random.Random, index: int) -> dict:
    doc = header(
        rng, ("Structured authorization (--authorization-config)",), rng.choice(AUTH_VERSIONS), "AuthorizationConfiguration", kind_first=0.2
    )
    authorizers: list = [{"type": "Node", "name": "node"}]
    names = pick(rng, ("policy-engine", "tenant-guard", "opa.example.com", "cedar"), 1, 3)
    webhooks = [{"type": "Webhook", "name": name, "webhook": _webhook(rng, name)} for name in names]
    if rng.random() < 0.5:
        authorizers += webhooks + [{"type": "RBAC", "name": "rbac"}]
    else:
        authorizers += [{"type": "RBAC", "name": "rbac"}] + webhooks
    doc["authorizers"] = authorizers
    return doc


def break_authorization(rng: random.Random, doc: dict) -> tuple[str, list[str]] | None:
    webhooks = [a["webhook"] for a in doc["authorizers"] if a["type"] == "Webhook"]
    webhook = rng.choice(webhooks)
    choice = rng.random()
    if choice < 0.4 and webhook.get("matchConditions"):
        webhook["matchConditions"][0]["expression"] = "request.user"
        return "match condition of type string", ["cel-result-not-bool"]
    if choice < 0.7:
        webhook["failurePolicy"] = rng.choice(("Allow", "Fail", "noOpinion"))
        return f"failurePolicy {webhook['failurePolicy']}", ["invalid-value"]
    doc["authorizers"].append({"type": "RBAC", "name": "rbac-again"})
    return "RBAC authorizer twice", ["duplicate-authorizer-type"]
