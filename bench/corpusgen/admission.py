"""Generator of admission configurations: AdmissionConfiguration with embedded plugin configurations, and the plugins' own files."""

from __future__ import annotations

import random

from .writer import header, pick, rename

PSA_LEVELS = ("privileged", "baseline", "restricted")
PSA_VERSIONS = ("latest", "latest", "v1.30", "v1.33", "v1.35")
EXEMPT_NAMESPACES = ("kube-system", "monitoring", "istio-system", "cert-manager", "gatekeeper-system", "logging")
EXEMPT_USERS = ("system:serviceaccount:kube-system:replicaset-controller", "admin@example.com")
LIMIT_TYPES = ("Server", "Namespace", "User", "SourceAndObject")
# Plugins that refuse to start without a configuration.
NEEDS_CONFIG = ("EventRateLimit", "ImagePolicyWebhook")


def pod_security(rng: random.Random, api_version: str = "pod-security.admission.config.k8s.io/v1") -> dict:
    doc = {"apiVersion": api_version, "kind": "PodSecurityConfiguration"}
    defaults = {}
    for mode in ("enforce", "audit", "warn"):
        if mode == "enforce" or rng.random() < 0.8:
            defaults[mode] = rng.choice(PSA_LEVELS[1:] if mode == "enforce" else PSA_LEVELS)
            defaults[f"{mode}-version"] = rng.choice(PSA_VERSIONS)
    doc["defaults"] = defaults
    exemptions: dict = {"namespaces": pick(rng, EXEMPT_NAMESPACES, 1, 4)}
    if rng.random() < 0.3:
        exemptions["usernames"] = pick(rng, EXEMPT_USERS, 1, 2)
    if rng.random() < 0.2:
        exemptions["runtimeClasses"] = ["kata"]
    doc["exemptions"] = exemptions
    return doc


def event_rate_limit(rng: random.Random) -> dict:
    limits = []
    # A Server limit first, as the plugin's docs advise: it caps the total.
    for limit_type in ["Server"] + pick(rng, LIMIT_TYPES[1:], 0, 3):
        qps = rng.choice((5, 10, 50, 100))
        limit = {"type": limit_type, "qps": qps, "burst": qps * rng.choice((2, 5, 10))}
        if limit_type != "Server":
            limit["cacheSize"] = rng.choice((1000, 4096))
        limits.append(limit)
    return {"apiVersion": "eventratelimit.admission.k8s.io/v1alpha1", "kind": "Configuration", "limits": limits}


def image_policy(rng: random.Random) -> dict:
    return {
        "imagePolicy": {
            "kubeConfigFile": "/etc/kubernetes/admission/imagepolicy.kubeconfig",
            "allowTTL": rng.choice((50, 300, 900)),
            "denyTTL": rng.choice((50, 300, 900)),
            "retryBackoff": rng.choice((500, 5000)),
            "defaultAllow": rng.random() < 0.3,
        }
    }


def webhook_admission(rng: random.Random, plugin: str) -> dict:
    return {
        "apiVersion": "apiserver.config.k8s.io/v1",
        "kind": "WebhookAdmissionConfiguration",
        "kubeConfigFile": f"/etc/kubernetes/admission/{plugin.lower()}.kubeconfig",
    }


EMBEDDED = {
    "PodSecurity": pod_security,
    "EventRateLimit": event_rate_limit,
    "ImagePolicyWebhook": image_policy,
    "ValidatingAdmissionWebhook": lambda rng: webhook_admission(rng, "ValidatingAdmissionWebhook"),
    "MutatingAdmissionWebhook": lambda rng: webhook_admission(rng, "MutatingAdmissionWebhook"),
}


def admission_configuration(rng: random.Random, index: int) -> dict:
    doc = header(
        rng,
        ("Admission plugin configuration (--admission-control-config-file)",),
        "apiserver.config.k8s.io/v1",
        "AdmissionConfiguration",
        kind_first=0.2,
    )
    doc["plugins"] = [{"name": name, "configuration": EMBEDDED[name](rng)} for name in pick(rng, sorted(EMBEDDED), 1, 4)]
    return doc


def admission_file(rng: random.Random, index: int) -> list[dict]:
    """An AdmissionConfiguration, or one of the plugins' configurations in a file of its own."""
    shape = rng.choices(("admission", "pod-security", "event-rate-limit"), (0.75, 0.15, 0.1))[0]
    if shape == "admission":
        return [admission_configuration(rng, index)]
    if shape == "pod-security":
        body = pod_security(rng, rng.choice(("pod-security.admission.config.k8s.io/v1", "pod-security.admission.config.k8s.io/v1beta1")))
    else:
        body = event_rate_limit(rng)
    doc = header(rng, ("Admission plugin configuration",), body.pop("apiVersion"), body.pop("kind"), kind_first=0.1)
    doc.update(body)
    return [doc]


def _pod_security_documents(doc: dict) -> list[dict]:
    if doc["kind"] == "PodSecurityConfiguration":
        return [doc]
    return [p["configuration"] for p in doc.get("plugins", ()) if p["name"] == "PodSecurity" and "configuration" in p]


def break_admission(rng: random.Random, doc: dict) -> tuple[str, list[str]] | None:
    psa = _pod_security_documents(doc)
    if psa and rng.random() < 0.6:
        defaults = rng.choice(psa)["defaults"]
        defaults["enforce"] = rng.choice(("strict", "Restricted", "base"))
        return f"PodSecurity level {defaults['enforce']}", ["invalid-pod-security-level"]
    if doc["kind"] == "Configuration":
        limit = rng.choice(doc["limits"])
        limit["qps"] = 0
        return "event rate limit qps 0", ["limit-not-positive"]
    if doc["kind"] != "AdmissionConfiguration":
        rename(doc, "exemptions", "exemption")
        return "unknown field exemption (for exemptions)", ["unknown-field"]
    plugin = rng.choice(doc["plugins"])
    rename(plugin, "configuration", "config")
    # Without its configuration a plugin that cannot run on defaults is reported too.
    return "unknown field config (for configuration)", ["unknown-field"] + (
        ["plugin-config-required"] if plugin["name"] in NEEDS_CONFIG else []
    )
