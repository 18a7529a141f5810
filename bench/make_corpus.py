#!/usr/bin/env python3
"""Generate the benchmark corpus: audit Policies, EncryptionConfigurations and ordinary manifests.

    python bench/make_corpus.py OUTDIR [--documents N] [--seed S] [--check]

The corpus is deterministic for a given (documents, seed): the same bytes every time, on every
machine. It is shaped like the configuration folders of real repositories (see
shared/corpus/audit and shared/corpus/encryption): multi-document files with comments, block
sequences both indented and not, flow sequences, quoted and plain scalars, spread over a few
sub-folders, and about one document in ten of a kind svcconf skips (Deployments, ConfigMaps, ...).

About 5% of the documents carry one deliberate mistake (a misspelt field, a bad audit level, a
key of the wrong length, a non-resource URL without its leading slash). OUTDIR/MISTAKES.tsv lists
them with the error rules svcconf should report for each; it is not a YAML file, so svcconf does
not read it.

Standard library only (PyYAML for --check, which reads every file back and compares it with the
data it was written from).
"""

from __future__ import annotations

import argparse
import base64
import functools
import os
import random
import re
import sys
from pathlib import Path

DEFAULT_DOCUMENTS = 3000
DEFAULT_SEED = 1
MISTAKE_SHARE = 0.05
OTHER_SHARE = 0.10
POLICY_SHARE = 0.50  # of all documents; EncryptionConfigurations take the rest
MISTAKES_FILE = "MISTAKES.tsv"

# --------------------------------------------------------------------------- a small YAML writer
# Written by hand rather than with yaml.dump so that the output has what real files have and a
# dumper does not: comments, both sequence indentations, flow sequences, mixed quoting.


class Comment:
    """A comment line before the next entry of a mapping or item of a sequence (a key or an item of its own)."""

    __slots__ = ("blank", "text")

    def __init__(self, text: str, blank: bool = False) -> None:
        self.text = text
        self.blank = blank  # an empty line before the comment


class Flow(list):
    """A sequence written in flow style: [a, b]."""


class Inline:
    """A scalar followed by a comment on the same line."""

    __slots__ = ("comment", "value")

    def __init__(self, value, comment: str) -> None:
        self.value = value
        self.comment = comment


class Literal(str):
    """A string written as a literal block scalar (|)."""


class Quoted(str):
    """A string always written in quotes."""


_RESERVED = frozenset(
    [
        "y",
        "Y",
        "yes",
        "Yes",
        "YES",
        "n",
        "N",
        "no",
        "No",
        "NO",
        "true",
        "True",
        "TRUE",
        "false",
        "False",
        "FALSE",
        "on",
        "On",
        "ON",
        "off",
        "Off",
        "OFF",
        "null",
        "Null",
        "NULL",
        "~",
        "=",
        "<<",
    ]
)
# PyYAML's own implicit resolvers by first character (YAML 1.1: ints, floats, base 60, timestamps,
# ...), a superset of what the API server's reader treats as non-strings.
_IMPLICIT: dict[str, list] = {}
try:  # pragma: no cover - PyYAML is installed wherever svcconf is
    import yaml.resolver as _resolver

    for _first, _entries in _resolver.Resolver.yaml_implicit_resolvers.items():
        _IMPLICIT[_first] = [regexp for tag, regexp in _entries if not tag.endswith((":str", ":merge", ":value"))]
except ImportError:  # pragma: no cover
    _IMPLICIT = {c: [re.compile(r"^[-+.0-9]")] for c in "-+.0123456789"}


@functools.cache
def _header(rng: random.Random, comments: tuple[str, ...], api_version: str, kind: str, *, kind_first: float) -> dict:
    """A document's opening: sometimes a comment, apiVersion and kind in either order."""
    doc: dict = {}
    if rng.random() < 0.3:
        doc[Comment(rng.choice(comments))] = None
    if rng.random() < kind_first:
        doc["kind"] = kind
    doc["apiVersion"] = api_version
    doc["kind"] = kind
    return doc


def _plain_ok(text: str, flow: bool) -> bool:
    if not text or text in _RESERVED:
        return False
    if text[0] in "-?:,[]{}#&*!|>'\"%@` " or text[-1] in " :":
        return False
    if ": " in text or " #" in text or "\t" in text or "\n" in text:
        return False
    if flow and any(c in text for c in ",[]{}:"):
        return False
    return not any(regexp.match(text) for regexp in _IMPLICIT.get(text[0], ()))


class Style:
    """How one document is written; drawn once per document."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.top_indent = rng.random() < 0.45  # top-level sequences: "key:\n  - a" rather than "key:\n- a"
        self.nested_indent = rng.random() < (0.7 if self.top_indent else 0.4)
        self.flow = rng.choice((0.0, 0.5, 0.5, 0.85))  # share of short string lists written [a, b]
        self.quote = rng.choice((0.0, 0.0, 0.3, 0.9))  # share of plain-safe strings quoted anyway
        self.single = rng.random() < 0.2  # single rather than double quotes


def _scalar(value, style: Style, flow: bool = False) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    forced = isinstance(value, Quoted)
    if not forced and _plain_ok(text, flow):
        # Flow lists are mostly written with quotes in real files: ["get", "list"].
        share = 0.85 if flow and style.quote else style.quote
        if style.rng.random() >= share:
            return text
    if style.single and "'" not in text:
        return f"'{text}'"
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _short_list(value) -> bool:
    return bool(value) and len(value) <= 6 and all(isinstance(v, str) for v in value)


def _value_lines(key: str, value, indent: int, depth: int, style: Style) -> list[str]:
    pad = " " * indent
    comment = ""
    if isinstance(value, Inline):
        comment = f" # {value.comment}"
        value = value.value
    if isinstance(value, Literal):
        body = [pad + "  " + line if line else "" for line in value.rstrip("\n").split("\n")]
        return [f"{pad}{key}: |{comment}", *body]
    if isinstance(value, dict):
        if not value:
            return [f"{pad}{key}: {{}}{comment}"]
        return [f"{pad}{key}:{comment}", *_map_lines(value, indent + 2, depth + 1, style)]
    if isinstance(value, list):
        if not value:
            return [f"{pad}{key}: []{comment}"]
        if isinstance(value, Flow) or (_short_list(value) and style.rng.random() < style.flow):
            return [f"{pad}{key}: [{', '.join(_scalar(v, style, flow=True) for v in value)}]{comment}"]
        step = 2 if (style.top_indent if depth == 0 else style.nested_indent) else 0
        return [f"{pad}{key}:{comment}", *_seq_lines(value, indent + step, depth + 1, style)]
    return [f"{pad}{key}: {_scalar(value, style)}{comment}"]


def _map_lines(mapping: dict, indent: int, depth: int, style: Style) -> list[str]:
    out: list[str] = []
    for key, value in mapping.items():
        if isinstance(key, Comment):
            if key.blank:
                out.append("")
            out.append(" " * indent + "# " + key.text)
            continue
        out.extend(_value_lines(key, value, indent, depth, style))
    return out


def _seq_lines(items: list, indent: int, depth: int, style: Style) -> list[str]:
    pad = " " * indent
    out: list[str] = []
    for item in items:
        if isinstance(item, Comment):
            if item.blank:
                out.append("")
            out.append(pad + "# " + item.text)
            continue
        comment = ""
        if isinstance(item, Inline):
            comment = f" # {item.comment}"
            item = item.value
        if isinstance(item, dict) and item:
            while item and isinstance(next(iter(item)), Comment):
                # A comment heading an item goes above its "- " line.
                first = next(iter(item))
                if first.blank:
                    out.append("")
                out.append(pad + "# " + first.text)
                item = {k: v for k, v in item.items() if k is not first}
            lines = _map_lines(item, indent + 2, depth, style)
            out.append(pad + "- " + lines[0][indent + 2 :] + comment)
            out.extend(lines[1:])
        elif isinstance(item, dict):
            out.append(f"{pad}- {{}}{comment}")
        else:
            out.append(f"{pad}- {_scalar(item, style)}{comment}")
    return out


def write_document(data: dict, style: Style) -> str:
    return "\n".join(_map_lines(data, 0, 0, style)) + "\n"


def plain_data(value):
    """The data a YAML reader gets back from a written value (for --check)."""
    if isinstance(value, Inline):
        return plain_data(value.value)
    if isinstance(value, dict):
        return {k: plain_data(v) for k, v in value.items() if not isinstance(k, Comment)}
    if isinstance(value, list):
        return [plain_data(v) for v in value if not isinstance(v, Comment)]
    if isinstance(value, str):
        return str(value)
    return value


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


def _pick(rng: random.Random, pool, low: int, high: int) -> list:
    return rng.sample(list(pool), min(len(pool), rng.randint(low, high)))


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
            "resources": [{"group": "", "resources": _pick(rng, ("endpoints", "services", "services/status"), 1, 3)}],
        }, "Don't log watch requests by kube-proxy on endpoints or services"
    if shape == 1:
        return {
            "level": "None",
            "userGroups": ["system:nodes"],
            "verbs": ["get"],
            "resources": [{"group": "", "resources": _pick(rng, ("nodes", "nodes/status"), 1, 2)}],
        }, "Node heartbeats are frequent and uninteresting"
    if shape == 2:
        return {
            "level": "None",
            "users": _pick(rng, SYSTEM_USERS, 1, 3),
            "verbs": ["get", "update"],
            "namespaces": ["kube-system"],
            "resources": [{"group": "", "resources": ["endpoints"]}],
        }, "Leader election traffic of the control plane"
    if shape == 3:
        rule = {"level": "None", "nonResourceURLs": _pick(rng, NON_RESOURCE_URLS, 1, 4)}
        if rng.random() < 0.5:
            rule = {"level": "None", "userGroups": ["system:authenticated"], **{k: v for k, v in rule.items() if k != "level"}}
        return rule, "Don't log requests to health and discovery endpoints"
    if shape == 4:
        return {"level": "None", "resources": [{"group": "", "resources": ["events"]}]}, "Events are audited elsewhere"
    if shape == 5:
        return {
            "level": "None",
            "users": _pick(rng, SYSTEM_USERS, 1, 2),
            "verbs": ["get", "update"],
            "resources": [{"group": "coordination.k8s.io", "resources": ["leases"]}],
        }, "Lease renewals"
    if shape == 6:
        return {
            "level": "RequestResponse",
            "resources": [{"group": "", "resources": _pick(rng, ("pods", "services", "persistentvolumeclaims", "serviceaccounts"), 1, 2)}],
        }, "Log changes to workloads with request and response bodies"
    if shape == 7:
        return {
            "level": "Metadata",
            "resources": [{"group": "", "resources": _pick(rng, ("pods/log", "pods/status", "pods/exec", "pods/portforward"), 1, 3)}],
        }, "Subresources at Metadata level"
    if shape == 8:
        rule = {
            "level": "None",
            "resources": [
                {
                    "group": "",
                    "resources": ["configmaps"],
                    "resourceNames": _pick(
                        rng, ("controller-leader", "cluster-autoscaler-status", "ingress-controller-leader", "kube-root-ca.crt"), 1, 2
                    ),
                }
            ],
        }
        if rng.random() < 0.5:
            rule["namespaces"] = _pick(rng, NAMESPACES, 1, 2)
        return rule, "Noisy ConfigMaps updated by controllers"
    if shape == 9:
        groups = _pick(rng, sorted(GROUP_RESOURCES), 2, 7)
        resources = []
        for group in groups:
            entry = {"group": group}
            if rng.random() < 0.5:
                entry["resources"] = _pick(rng, GROUP_RESOURCES[group], 1, 3)
            resources.append(entry)
        rule = {"level": rng.choice(("Request", "RequestResponse")), "verbs": _pick(rng, WRITE_VERBS, 1, 4), "resources": resources}
        if rng.random() < 0.4:
            rule["omitStages"] = ["RequestReceived"]
        return rule, "Known APIs: log request bodies of writes"
    if shape == 10:
        rule = {
            "level": rng.choice(("Request", "Metadata")),
            "verbs": list(READ_VERBS),
            "resources": [{"group": g} for g in _pick(rng, sorted(GROUP_RESOURCES), 1, 5)],
        }
        if rng.random() < 0.5:
            rule["namespaces"] = _pick(rng, NAMESPACES, 1, 4)
        return rule, "Reads of other API groups"
    rule = {"level": rng.choice(("Metadata", "Request")), "userGroups": _pick(rng, USER_GROUPS, 1, 2)}
    if rng.random() < 0.6:
        rule["verbs"] = _pick(rng, READ_VERBS + WRITE_VERBS, 1, 4)
    if rng.random() < 0.6:
        group = rng.choice(sorted(GROUP_RESOURCES))
        rule["resources"] = [{"group": group, "resources": _pick(rng, GROUP_RESOURCES[group], 1, 3)}]
    else:
        rule["namespaces"] = _pick(rng, NAMESPACES, 1, 3)
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
    doc = _header(
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


def _rename(mapping: dict, old: str, new: str) -> None:
    """Rename a key in place, keeping the order of keys."""
    items = [(new if k == old else k, v) for k, v in mapping.items()]
    mapping.clear()
    mapping.update(items)


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
            _rename(mapping, key, typo)
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


# --------------------------------------------------------------------------- EncryptionConfiguration

# Resource lists in the order a correct configuration needs them: specific resources before the
# wildcards of their group, '*.*' last (an earlier wildcard would mask later entries).
SPECIFIC_RESOURCES = (
    ("secrets",),
    ("secrets", "configmaps"),
    ("configmaps",),
    ("events",),
    ("customresourcedefinitions.apiextensions.k8s.io",),
    ("leases.coordination.k8s.io",),
    ("deployments.apps", "statefulsets.apps"),
    ("pandas.awesome.bears.example",),
    ("certificates.cert-manager.io", "issuers.cert-manager.io"),
    ("applications.argoproj.io",),
)
WILDCARD_RESOURCES = (("*.apps",), ("*.batch",), ("*.networking.k8s.io",), ("*.",))


def _key(rng: random.Random, name: str, size: int = 32) -> dict:
    return {"name": name, "secret": base64.b64encode(rng.randbytes(size)).decode("ascii")}


def _keys(rng: random.Random) -> list[dict]:
    count = rng.choice((1, 1, 1, 2, 2, 3))
    first = rng.randint(1, 9)
    names = rng.choice(("key{}", "key{}", "k{}", "rotation-{}"))
    return [_key(rng, names.format(first + i)) for i in range(count)][:: -1 if rng.random() < 0.3 else 1]


def _provider(rng: random.Random, kind: str, kms_counter: list[int]) -> dict:
    if kind == "kms":
        kms_counter[0] += 1
        n = kms_counter[0]
        body = {
            "apiVersion": "v2",
            "name": f"{rng.choice(('kms', 'vault', 'cloudkms', 'azurekms'))}-{n}",
            "endpoint": f"unix:///var/run/kms-{n}.sock",
            "timeout": "3s",
        }
        return {"kms": body}
    return {kind: {"keys": _keys(rng)}}


def encryption_configuration(rng: random.Random, index: int) -> dict:
    entries = []
    count = rng.choice((1, 1, 1, 2, 2, 3, 4))
    specific = rng.sample(SPECIFIC_RESOURCES, max(1, count - rng.randint(0, 2)))
    names: list[tuple[str, ...]] = []
    seen: set[str] = set()
    for group in specific:
        group = tuple(n for n in group if n not in seen)
        if group:
            names.append(group)
            seen.update(group)
    wildcards = rng.sample(WILDCARD_RESOURCES, max(0, min(count - len(names), len(WILDCARD_RESOURCES))))
    names += wildcards
    if len(names) < count:
        names.append(("*.*",))
    kms_counter = [0]
    for resource_names in names[:count]:
        first = rng.choice(("aesgcm", "aesgcm", "aesgcm", "secretbox", "secretbox", "kms", "kms", "kms", "aescbc"))
        providers = [_provider(rng, first, kms_counter)]
        if rng.random() < 0.3:
            # Key rotation: the older provider stays to read what it wrote.
            providers.append(_provider(rng, rng.choice(("aescbc", "aesgcm", "secretbox", "kms")), kms_counter))
        if resource_names == ("events",) and rng.random() < 0.5:
            providers = []  # events are often left unencrypted
        if not providers or rng.random() < 0.8:
            # identity last: it reads what was stored before encryption was turned on.
            fallback = Inline({}, "read data written before encryption") if rng.random() < 0.1 else {}
            providers.append({"identity": fallback})
        entry = {"resources": list(resource_names), "providers": providers}
        entries.append(entry)
    doc = _header(
        rng,
        (
            "Encryption at rest for the API server (--encryption-provider-config).",
            "Rotate keys with the runbook in docs/rotate-keys.md.",
            f"encryption config {index}",
        ),
        "apiserver.config.k8s.io/v1",
        "EncryptionConfiguration",
        kind_first=0.3,
    )
    doc["resources"] = entries
    return doc


def break_encryption(rng: random.Random, doc: dict) -> tuple[str, list[str]]:
    kms = [p["kms"] for e in doc["resources"] for p in e["providers"] if "kms" in p]
    keyed = [
        (kind, k)
        for e in doc["resources"]
        for p in e["providers"]
        for kind in ("aesgcm", "aescbc", "secretbox")
        if kind in p
        for k in p[kind]["keys"]
    ]
    choice = rng.choice(("typo", "keylen"))
    if choice == "keylen" and keyed:
        kind, key = rng.choice(keyed)
        size = rng.choice((16, 24, 31) if kind == "secretbox" else (12, 20, 31, 64))
        key["secret"] = base64.b64encode(rng.randbytes(size)).decode("ascii")
        return f"{kind} key of {size} bytes", ["invalid-key-length"]
    if kms and rng.random() < 0.6:
        body = rng.choice(kms)
        typo = rng.choice(("timout", "timeOut"))
        _rename(body, "timeout", typo)
        return f"unknown field {typo} (for timeout)", ["unknown-field"]
    entry = rng.choice(doc["resources"])
    _rename(entry, "providers", "provider")
    # Without providers the entry is also incomplete: the server says both.
    return "unknown field provider (for providers)", ["unknown-field", "missing-field"]


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


# --------------------------------------------------------------------------- files

THEMES = {
    # theme: (weights of policy, encryption, other; folders; file name stem)
    "audit": ((0.88, 0.0, 0.12), ("audit", "clusters/prod/audit", "clusters/staging/audit"), "audit-policy"),
    "encryption": ((0.0, 0.9, 0.10), ("encryption", "clusters/prod/encryption", "clusters/staging/encryption"), "encryption-config"),
    "mixed": ((0.45, 0.35, 0.20), ("manifests", "deploy/base", "hack/testdata"), "control-plane"),
}
FILE_HEADERS = (
    "Copyright The Platform Authors.\n# SPDX-License-Identifier: Apache-2.0",
    "Generated by kustomize; edit the base, not this file.",
    "Control-plane configuration, applied by the bootstrap job.",
)
# Documents per file (1-12), weighted so a file holds ~7.5 on average.
DOCS_PER_FILE = tuple(range(1, 13))
DOCS_WEIGHTS = (4, 4, 5, 6, 7, 8, 9, 9, 10, 10, 10, 9)


def generate(outdir: str | os.PathLike, documents: int = DEFAULT_DOCUMENTS, seed: int = DEFAULT_SEED, check: bool = False) -> dict:
    """Write the corpus into outdir (which must be empty or absent); return its figures."""
    out = Path(outdir)
    if out.exists() and any(out.iterdir()):
        raise SystemExit(f"make_corpus: {out} is not empty; give a new or empty folder")
    rng = random.Random(seed)
    other = round(documents * OTHER_SHARE)
    policies = round(documents * POLICY_SHARE)
    remaining = {"policy": policies, "encryption": documents - other - policies, "other": other}
    # Which documents carry a mistake: a fixed share of all documents, all of kinds svcconf knows.
    known = remaining["policy"] + remaining["encryption"]
    mistake_slots = set(rng.sample(range(known), min(known, round(documents * MISTAKE_SHARE))))
    known_seen = 0
    files: list[tuple[str, list[str], list]] = []
    mistakes: list[tuple[str, int, str, str, str]] = []
    counters: dict[str, int] = {}
    total_docs = 0
    while total_docs < documents:
        theme = rng.choices(("audit", "encryption", "mixed"), (0.45, 0.3, 0.25))[0]
        weights, folders, stem = THEMES[theme]
        count = min(rng.choices(DOCS_PER_FILE, DOCS_WEIGHTS)[0], documents - total_docs)
        folder = rng.choice(folders)
        counters[folder] = counters.get(folder, 0) + 1
        suffix = ".yml" if rng.random() < 0.15 else ".yaml"
        relpath = f"{folder}/{stem}-{counters[folder]:03d}{suffix}"
        texts, datas = [], []
        for position in range(count):
            kinds = [k for k, w in zip(("policy", "encryption", "other"), weights) if remaining[k] > 0 and w > 0]
            if not kinds:
                kinds = [k for k in remaining if remaining[k] > 0]
            kind = rng.choices(kinds, [dict(zip(("policy", "encryption", "other"), weights))[k] or 0.01 for k in kinds])[0]
            remaining[kind] -= 1
            index = total_docs + position
            if kind == "policy":
                doc = audit_policy(rng, index)
            elif kind == "encryption":
                doc = encryption_configuration(rng, index)
            else:
                doc = other_manifest(rng, index)
            if kind != "other":
                if known_seen in mistake_slots:
                    what, rules = (break_policy if kind == "policy" else break_encryption)(rng, doc)
                    mistakes.append((relpath, position + 1, doc_kind(doc), what, ",".join(rules)))
                known_seen += 1
            texts.append(write_document(doc, Style(rng)))
            datas.append(plain_data(doc))
        total_docs += count
        files.append((relpath, texts, datas))

    total_bytes = 0
    for relpath, texts, _datas in files:
        parts = []
        if rng.random() < 0.25:
            parts.append("# " + rng.choice(FILE_HEADERS) + "\n")
        for number, text in enumerate(texts):
            if number or rng.random() < 0.3:
                parts.append("---\n" if rng.random() < 0.85 else f"--- # document {number + 1}\n")
            parts.append(text)
        content = "".join(parts).encode("utf-8")
        target = out / relpath
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
        total_bytes += len(content)
    with open(out / MISTAKES_FILE, "w", encoding="utf-8") as handle:
        handle.write("# file\tdocument\tkind\tmistake\texpected error rules\n")
        handle.writelines("\t".join(str(c) for c in row) + "\n" for row in mistakes)
    if check:
        _check(out, files)
    return {"files": len(files), "documents": total_docs, "bytes": total_bytes, "mistakes": len(mistakes), "seed": seed}


def doc_kind(doc: dict) -> str:
    return doc.get("kind", "?")


def _check(out: Path, files) -> None:
    """Read every file back with PyYAML and compare with the data it was written from."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    for relpath, _texts, datas in files:
        with open(out / relpath, encoding="utf-8") as handle:
            read = [d for d in yaml.load_all(handle, Loader=loader)]
        if read != datas:
            for number, (got, want) in enumerate(zip(read, datas)):
                if got != want:
                    raise SystemExit(f"make_corpus: {relpath} document {number + 1} reads back differently:\n got  {got!r}\n want {want!r}")
            raise SystemExit(f"make_corpus: {relpath} holds {len(read)} documents, expected {len(datas)}")


def load_mistakes(corpus: str | os.PathLike) -> list[tuple[str, int, str, str, list[str]]] | None:
    """The mistakes listed in a generated corpus, or None when the folder has no list."""
    path = Path(corpus) / MISTAKES_FILE
    if not path.is_file():
        return None
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        relpath, document, kind, what, rules = line.split("\t")
        rows.append((relpath, int(document), kind, what, rules.split(",")))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Generate the svcconf benchmark corpus.")
    parser.add_argument("outdir", metavar="OUTDIR", help="folder to create (must be new or empty)")
    parser.add_argument(
        "--documents", type=int, default=DEFAULT_DOCUMENTS, metavar="N", help=f"number of YAML documents (default {DEFAULT_DOCUMENTS})"
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, metavar="S", help=f"random seed (default {DEFAULT_SEED})")
    parser.add_argument("--check", action="store_true", help="read every file back with PyYAML and compare (slower)")
    args = parser.parse_args(argv)
    if args.documents < 1:
        parser.error("--documents must be at least 1")
    stats = generate(args.outdir, args.documents, args.seed, args.check)
    print(
        f"{args.outdir}: {stats['files']} files, {stats['documents']} documents, {stats['bytes']:,} bytes "
        f"({stats['mistakes']} documents with a deliberate mistake, listed in {MISTAKES_FILE}; seed {stats['seed']})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
