"""Generator of audit.k8s.io/v1 Policy documents (modelled on shared/corpus/audit) and their deliberate mistakes."""

from __future__ import annotations

import random

from .writer import Comment, Inline, header, pick, rename

# --------------------------------------------------------------------------- vocabulary

NAMESPACES = (
    "kube-system",
    "kube-public",
    "default",
    "monitoring",
    "ingress-nginx",
    "cert-manager",
    "istio-system",
    "argocd",
    "logging",
    "payments",
    "checkout",
    "platform",
    "team-a",
    "team-b",
    "flux-system",
    "gatekeeper-system",
)
SYSTEM_USERS = (
    "system:kube-proxy",
    "system:kube-scheduler",
    "system:kube-controller-manager",
    "system:apiserver",
    "system:serviceaccount:kube-system:endpoint-controller",
    "system:serviceaccount:kube-system:namespace-controller",
    "system:serviceaccount:kube-system:generic-garbage-collector",
    "system:serviceaccount:kube-system:cluster-autoscaler",
    "system:serviceaccount:kube-system:persistent-volume-binder",
    "system:serviceaccount:monitoring:prometheus",
    "system:serviceaccount:kube-system:node-problem-detector",
    "system:serviceaccount:argocd:argocd-application-controller",
    "cluster-autoscaler",
    "kubelet",
    "system:volume-scheduler",
    "system:serviceaccount:flux-system:kustomize-controller",
)
USER_GROUPS = (
    "system:nodes",
    "system:serviceaccounts",
    "system:authenticated",
    "system:masters",
    "system:serviceaccounts:kube-system",
    "oidc:platform-admins",
    "oidc:developers",
)
READ_VERBS = ("get", "list", "watch")
WRITE_VERBS = ("create", "update", "patch", "delete", "deletecollection")
CORE_RESOURCES = (
    "pods",
    "pods/log",
    "pods/status",
    "pods/exec",
    "pods/portforward",
    "services",
    "services/status",
    "endpoints",
    "nodes",
    "nodes/status",
    "namespaces",
    "namespaces/status",
    "namespaces/finalize",
    "persistentvolumes",
    "persistentvolumeclaims",
    "serviceaccounts",
    "serviceaccounts/token",
    "events",
    "replicationcontrollers",
    "limitranges",
    "resourcequotas",
)
GROUP_RESOURCES = {
    "apps": ("deployments", "deployments/scale", "statefulsets", "daemonsets", "replicasets", "controllerrevisions"),
    "batch": ("jobs", "cronjobs"),
    "policy": ("poddisruptionbudgets",),
    "rbac.authorization.k8s.io": ("roles", "rolebindings", "clusterroles", "clusterrolebindings"),
    "networking.k8s.io": ("ingresses", "networkpolicies", "ingressclasses"),
    "storage.k8s.io": ("storageclasses", "volumeattachments", "csinodes", "csidrivers"),
    "coordination.k8s.io": ("leases",),
    "autoscaling": ("horizontalpodautoscalers",),
    "admissionregistration.k8s.io": ("mutatingwebhookconfigurations", "validatingwebhookconfigurations", "validatingadmissionpolicies"),
    "apiextensions.k8s.io": ("customresourcedefinitions",),
    "apiregistration.k8s.io": ("apiservices",),
    "certificates.k8s.io": ("certificatesigningrequests",),
    "discovery.k8s.io": ("endpointslices",),
    "scheduling.k8s.io": ("priorityclasses",),
    "node.k8s.io": ("runtimeclasses",),
    "flowcontrol.apiserver.k8s.io": ("flowschemas", "prioritylevelconfigurations"),
    "metrics.k8s.io": ("pods", "nodes"),
    "cert-manager.io": ("certificates", "issuers", "clusterissuers"),
    "argoproj.io": ("applications", "appprojects"),
    "monitoring.coreos.com": ("prometheuses", "servicemonitors", "prometheusrules"),
}
NON_RESOURCE_URLS = (
    "/healthz*",
    "/livez*",
    "/readyz*",
    "/version",
    "/metrics",
    "/swagger*",
    "/openapi/v2",
    "/openapi/v3*",
    "/api*",
    "/apis*",
    "/logs*",
)
STAGES = ("RequestReceived", "ResponseStarted", "ResponseComplete", "Panic")
LEVELS = ("None", "Metadata", "Request", "RequestResponse")
BAD_LEVELS = ("Metdata", "RequestResponce", "metadata", "Requests", "Full", "NONE", "Verbose", "RequestBody")


def _sensitive_rule(rng: random.Random) -> dict:
    """Metadata for every secret and token review: what keeps credentials out of audit logs."""
    rule = {
        "level": "Metadata",
        "resources": [
            {
                "group": Inline("", "core API group") if rng.random() < 0.3 else "",
                "resources": ["secrets", "configmaps"] if rng.random() < 0.6 else ["secrets"],
            },
            {"group": "authentication.k8s.io", "resources": ["tokenreviews"]},
        ],
    }
    if rng.random() < 0.5:
        rule["omitStages"] = ["RequestReceived"]
    return {
        Comment("Secrets, ConfigMaps and TokenReviews can hold credentials: log metadata only.", blank=rng.random() < 0.3): None,
        **rule,
    }


def _rule(rng: random.Random) -> tuple[dict, str | None]:
    """One audit rule and a comment for it; every rule narrows by something (no accidental catch-all)."""
    shape = rng.randrange(12)
    if shape == 0:
        return {
            "level": "None",
            "users": ["system:kube-proxy"],
            "verbs": ["watch"],
            "resources": [{"group": "", "resources": pick(rng, ("endpoints", "services", "services/status"), 1, 3)}],
        }, "Don't log watch requests by kube-proxy on endpoints or services"
    if shape == 1:
        return {
            "level": "None",
            "userGroups": ["system:nodes"],
            "verbs": ["get"],
            "resources": [{"group": "", "resources": pick(rng, ("nodes", "nodes/status"), 1, 2)}],
        }, "Node heartbeats are frequent and uninteresting"
    if shape == 2:
        return {
            "level": "None",
            "users": pick(rng, SYSTEM_USERS, 1, 3),
            "verbs": ["get", "update"],
            "namespaces": ["kube-system"],
            "resources": [{"group": "", "resources": ["endpoints"]}],
        }, "Leader election traffic of the control plane"
    if shape == 3:
        rule = {"level": "None", "nonResourceURLs": pick(rng, NON_RESOURCE_URLS, 1, 4)}
        if rng.random() < 0.5:
            rule = {"level": "None", "userGroups": ["system:authenticated"], **{k: v for k, v in rule.items() if k != "level"}}
        return rule, "Don't log requests to health and discovery endpoints"
    if shape == 4:
        return {"level": "None", "resources": [{"group": "", "resources": ["events"]}]}, "Events are audited elsewhere"
    if shape == 5:
        return {
            "level": "None",
            "users": pick(rng, SYSTEM_USERS, 1, 2),
            "verbs": ["get", "update"],
            "resources": [{"group": "coordination.k8s.io", "resources": ["leases"]}],
        }, "Lease renewals"
    if shape == 6:
        return {
            "level": "RequestResponse",
            "resources": [{"group": "", "resources": pick(rng, ("pods", "services", "persistentvolumeclaims", "serviceaccounts"), 1, 2)}],
        }, "Log changes to workloads with request and response bodies"
    if shape == 7:
        return {
            "level": "Metadata",
            "resources": [{"group": "", "resources": pick(rng, ("pods/log", "pods/status", "pods/exec", "pods/portforward"), 1, 3)}],
        }, "Subresources at Metadata level"
    if shape == 8:
        rule = {
            "level": "None",
            "resources": [
                {
                    "group": "",
                    "resources": ["configmaps"],
                    "resourceNames": pick(
                        rng, ("controller-leader", "cluster-autoscaler-status", "ingress-controller-leader", "kube-root-ca.crt"), 1, 2
                    ),
                }
            ],
        }
        if rng.random() < 0.5:
            rule["namespaces"] = pick(rng, NAMESPACES, 1, 2)
        return rule, "Noisy ConfigMaps updated by controllers"
    if shape == 9:
        groups = pick(rng, sorted(GROUP_RESOURCES), 2, 7)
        resources = []
        for group in groups:
            entry = {"group": group}
            if rng.random() < 0.5:
                entry["resources"] = pick(rng, GROUP_RESOURCES[group], 1, 3)
            resources.append(entry)
        rule = {"level": rng.choice(("Request", "RequestResponse")), "verbs": pick(rng, WRITE_VERBS, 1, 4), "resources": resources}
        if rng.random() < 0.4:
            rule["omitStages"] = ["RequestReceived"]
        return rule, "Known APIs: log request bodies of writes"
    if shape == 10:
        rule = {
            "level": rng.choice(("Request", "Metadata")),
            "verbs": list(READ_VERBS),
            "resources": [{"group": g} for g in pick(rng, sorted(GROUP_RESOURCES), 1, 5)],
        }
        if rng.random() < 0.5:
            rule["namespaces"] = pick(rng, NAMESPACES, 1, 4)
        return rule, "Reads of other API groups"
    rule = {"level": rng.choice(("Metadata", "Request")), "userGroups": pick(rng, USER_GROUPS, 1, 2)}
    if rng.random() < 0.6:
        rule["verbs"] = pick(rng, READ_VERBS + WRITE_VERBS, 1, 4)
    if rng.random() < 0.6:
        group = rng.choice(sorted(GROUP_RESOURCES))
        rule["resources"] = [{"group": group, "resources": pick(rng, GROUP_RESOURCES[group], 1, 3)}]
    else:
        rule["namespaces"] = pick(rng, NAMESPACES, 1, 3)
    if rng.random() < 0.2:
        rule["omitManagedFields"] = True
    return rule, "Requests by group members"


def _can_log_secrets(rule: dict) -> bool:
    """Could this Request/RequestResponse rule record bodies of secrets or token reviews?"""
    if rule.get("level") not in ("Request", "RequestResponse") or rule.get("nonResourceURLs"):
        return False
    entries = rule.get("resources")
    if not entries:
        return True
    for entry in entries:
        group = entry.get("group")
        group = group.value if isinstance(group, Inline) else group
        if group in ("", "authentication.k8s.io", "*"):
            names = entry.get("resources") or []
            if not names or any(n in ("*", "secrets", "tokenreviews") for n in names):
                return True
    return False


def audit_policy(rng: random.Random, index: int) -> dict:
    rules: list = []
    count = rng.randint(5, 40)
    catch_all_last = rng.random() < 0.75
    for _ in range(count - 1 if catch_all_last else count):
        rule, comment = _rule(rng)
        if rng.random() < 0.35:
            rules.append(Comment(comment, blank=rng.random() < 0.4))
        rules.append(rule)
    # As real policies do: secrets at Metadata before any rule that could log their bodies.
    risky = [i for i, r in enumerate(rules) if isinstance(r, dict) and _can_log_secrets(r)]
    if risky or rng.random() < 0.5:
        at = rng.randint(0, risky[0]) if risky else rng.randint(0, len(rules))
        while at > 0 and isinstance(rules[at - 1], Comment):
            at -= 1
        rules.insert(at, _sensitive_rule(rng))
    if catch_all_last:
        catch_all = {"level": rng.choice(("Metadata", "Metadata", "Request", "None"))}
        # The catch-all also covers secrets: make sure an earlier rule has taken them.
        if catch_all["level"] == "Request" and not any(
            isinstance(r, dict) and "authentication.k8s.io" in str(r.get("resources")) and r.get("level") == "Metadata" for r in rules
        ):
            rules.insert(0, _sensitive_rule(rng))
        if rng.random() < 0.7:
            catch_all["omitStages"] = ["RequestReceived"]
        rules.append(Comment("A catch-all rule to log all other requests.", blank=rng.random() < 0.5))
        rules.append(catch_all)
    doc = header(
        rng,
        ("Audit policy for the API server (--audit-policy-file).", "Managed by the platform team; do not edit by hand.", f"policy {index}"),
        "audit.k8s.io/v1",
        "Policy",
        kind_first=0.15,
    )
    if rng.random() < 0.1:
        doc["apiVersion"] = Inline("audit.k8s.io/v1", "This is required.")
    if rng.random() < 0.15:
        doc["metadata"] = {"name": rng.choice(("default", "audit-policy", "cluster-audit", f"policy-{index}"))}
    if rng.random() < 0.5:
        if rng.random() < 0.5:
            doc[Comment("Don't generate audit events for all requests in RequestReceived stage.")] = None
        doc["omitStages"] = ["RequestReceived"]
    if rng.random() < 0.1:
        doc["omitManagedFields"] = True
    doc["rules"] = rules
    return doc


def _policy_rules(doc: dict) -> list[dict]:
    return [r for r in doc["rules"] if isinstance(r, dict)]


def _selectors(rule: dict) -> list[str]:
    return [k for k in ("users", "userGroups", "verbs", "resources", "namespaces", "nonResourceURLs") if k in rule]


def break_policy(rng: random.Random, doc: dict) -> tuple[str, list[str]]:
    """Put one mistake in a Policy; return what it is and the error rules svcconf should report."""
    rules = _policy_rules(doc)
    choice = rng.choice(("typo", "typo", "level", "url"))
    if choice == "typo":
        candidates = []
        for rule in rules:
            for key, typo in (
                ("omitStages", "omitStage"),
                ("userGroups", "usergroups"),
                ("users", "user"),
                ("verbs", "verb"),
                ("namespaces", "namespace"),
                ("nonResourceURLs", "nonResourceURL"),
            ):
                # Only when the rule still narrows by something else: the typo must not turn it into a catch-all.
                if key in rule and (key == "omitStages" or len(_selectors(rule)) > 1):
                    candidates.append((rule, key, typo))
            for entry in rule.get("resources") or []:
                if "resourceNames" in entry:
                    candidates.append((entry, "resourceNames", "resourceName"))
        if "omitStages" in doc:
            candidates.append((doc, "omitStages", "omitStage"))
        if candidates:
            mapping, key, typo = rng.choice(candidates)
            rename(mapping, key, typo)
            return f"unknown field {typo} (for {key})", ["unknown-field"]
        choice = "level"
    if choice == "url":
        with_urls = [r for r in rules if r.get("nonResourceURLs")]
        if with_urls:
            rule = rng.choice(with_urls)
            urls = rule["nonResourceURLs"]
            j = rng.randrange(len(urls))
            urls[j] = urls[j].lstrip("/")
            return f"nonResourceURL {urls[j]} without leading slash", ["invalid-non-resource-url"]
        choice = "level"
    rule = rng.choice(rules)
    bad = rng.choice(BAD_LEVELS)
    rule["level"] = bad
    return f"bad level {bad}", ["invalid-value"]


def audit_file(rng: random.Random, index: int) -> list[dict]:
    """A Policy; one in 16 is two Policies in a PolicyList."""
    if index % 16 == 5:
        return [{"apiVersion": "audit.k8s.io/v1", "kind": "PolicyList", "items": [audit_policy(rng, index), audit_policy(rng, index + 1)]}]
    return [audit_policy(rng, index)]


def break_audit(rng: random.Random, doc: dict) -> tuple[str, list[str]] | None:
    return break_policy(rng, doc) if doc["kind"] == "Policy" else None
