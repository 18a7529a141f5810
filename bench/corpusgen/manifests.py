"""Ordinary manifests svcconf skips: Deployments, ConfigMaps (some holding an audit policy as text), Services, ..."""

from __future__ import annotations

import random

from .audit import NAMESPACES, READ_VERBS, audit_policy
from .writer import Literal, Quoted, Style, write_document

# --------------------------------------------------------------------------- other manifests


def _labels(app: str) -> dict:
    return {"app.kubernetes.io/name": app, "app.kubernetes.io/part-of": "platform"}


APPS = ("api-gateway", "billing", "checkout", "search", "ingest", "audit-forwarder", "kms-plugin", "web", "worker", "cache")


def other_manifest(rng: random.Random, index: int) -> dict:
    app = rng.choice(APPS)
    ns = rng.choice(NAMESPACES)
    kind = rng.choice(("Deployment", "Deployment", "ConfigMap", "ConfigMap", "Service", "ServiceAccount", "ClusterRole", "Namespace"))
    meta = {"name": f"{app}-{index}", "namespace": ns, "labels": _labels(app)}
    if kind == "Deployment":
        container = {
            "name": app,
            "image": f"registry.example.com/{app}:1.{rng.randint(0, 30)}.{rng.randint(0, 9)}",
            "args": [f"--log-level={rng.choice(('info', 'debug'))}", f"--port={rng.choice((8080, 8443, 9090))}"],
            "ports": [{"name": "http", "containerPort": 8080, "protocol": "TCP"}],
            "resources": {
                "requests": {"cpu": Quoted(f"{rng.choice((50, 100, 250))}m"), "memory": f"{rng.choice((64, 128, 256))}Mi"},
                "limits": {"memory": f"{rng.choice((256, 512))}Mi"},
            },
            "readinessProbe": {"httpGet": {"path": "/readyz", "port": 8080}, "periodSeconds": 10},
            "securityContext": {"allowPrivilegeEscalation": False, "readOnlyRootFilesystem": True, "runAsNonRoot": True},
        }
        if rng.random() < 0.5:
            container["volumeMounts"] = [{"name": "config", "mountPath": "/etc/app", "readOnly": True}]
        spec = {
            "replicas": rng.choice((1, 2, 3)),
            "selector": {"matchLabels": {"app.kubernetes.io/name": app}},
            "template": {"metadata": {"labels": _labels(app)}, "spec": {"serviceAccountName": app, "containers": [container]}},
        }
        if "volumeMounts" in container:
            spec["template"]["spec"]["volumes"] = [{"name": "config", "configMap": {"name": f"{app}-config"}}]
        return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta, "spec": spec}
    if kind == "ConfigMap":
        if rng.random() < 0.4:
            # The audit policy shipped inside a ConfigMap: a string to svcconf, not a Policy.
            policy = write_document(audit_policy(rng, index), Style(rng))
            data = {"audit-policy.yaml": Literal(policy)}
        else:
            data = {
                "LOG_LEVEL": rng.choice(("info", "warn")),
                "FEATURE_FLAGS": Quoted("a,b,c"),
                "config.yaml": Literal(f"server:\n  port: 8080\n  timeout: 30s\nupstreams:\n  - http://{app}.{ns}.svc:8080\n"),
            }
        return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta, "data": data}
    if kind == "Service":
        return {
            "apiVersion": "v1",
            "kind": "Service",
            "metadata": meta,
            "spec": {"selector": {"app.kubernetes.io/name": app}, "ports": [{"name": "http", "port": 80, "targetPort": 8080}]},
        }
    if kind == "ServiceAccount":
        return {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": meta}
    if kind == "ClusterRole":
        return {
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "ClusterRole",
            "metadata": {"name": f"{app}-reader"},
            "rules": [
                {"apiGroups": [""], "resources": ["pods", "services"], "verbs": list(READ_VERBS)},
                {"apiGroups": ["apps"], "resources": ["deployments"], "verbs": list(READ_VERBS)},
            ],
        }
    return {
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {"name": f"{ns}-{index}", "labels": {"pod-security.kubernetes.io/enforce": "restricted"}},
    }
