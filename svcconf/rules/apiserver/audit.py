"""Audit Policy rules: the API server's policy validation and loader checks, and rules that can never match."""

from __future__ import annotations

from collections.abc import Iterator

from svcconf.go.names import dns1123_subdomain
from svcconf.known.apiserver import STAGES
from svcconf.model import Finding, Severity

from .. import Context, advice, invalid, items, mapping, required, rule, text

LEVELS = ("None", "Metadata", "Request", "RequestResponse")
# Resources whose bodies hold credentials, and by level the verbs whose recorded bodies hold them: at
# Request the request body only (a secret's create, update or patch; a token review's create), at
# RequestResponse the response too (every secret verb answers with the secret, delete and
# deletecollection with what they deleted). DeleteOptions and empty bodies hold no credential.
SENSITIVE = {
    ("", "secrets"): {
        "Request": frozenset({"create", "update", "patch"}),
        "RequestResponse": frozenset({"create", "update", "patch", "get", "list", "watch", "delete", "deletecollection"}),
    },
    ("authentication.k8s.io", "tokenreviews"): {"Request": frozenset({"create"}), "RequestResponse": frozenset({"create"})},
}
# What a rule may narrow by; a rule without any of them matches every request.
SELECTORS = ("users", "userGroups", "verbs", "resources", "namespaces", "nonResourceURLs")
NARROWING = ("users", "userGroups", "verbs", "namespaces")


@rule("Policy")
def check_policy(doc: dict, ctx: Context) -> Iterator[Finding]:
    for index, rule_body in items(doc.get("rules")):
        yield from _check_rule(("rules", index), mapping(rule_body), ctx)
    if not doc.get("rules"):
        yield Finding(
            "empty-audit-policy",
            ("rules",),
            "loaded illegal policy with 0 rules: the API server refuses a policy without rules",
            Severity.ERROR,
        )
    yield from _unreachable(doc)
    yield from _secrets_logged(doc)


def _check_rule(path: tuple, body: dict, ctx: Context) -> Iterator[Finding]:
    if not body.get("level"):
        yield required(path + ("level",))
    urls = body.get("nonResourceURLs")
    for j, url in items(urls):
        if not isinstance(url, str) or url == "*":
            continue
        if not url.startswith("/"):
            yield invalid(
                path + ("nonResourceURLs", j), url, "non-resource URL rules must begin with a '/' character", "invalid-non-resource-url"
            )
        if "*" in url[:-1]:
            yield invalid(
                path + ("nonResourceURLs", j),
                url,
                "non-resource URL wildcards '*' must be the final character of the rule",
                "invalid-non-resource-url",
            )
    for k, group_resources in items(body.get("resources")):
        gr = mapping(group_resources)
        group = gr.get("group")
        if isinstance(group, str) and group and not (group == "*" and ctx.at_least(1, 36)):
            problems = dns1123_subdomain(group)
            if problems:
                yield invalid(path + ("resources", k, "group"), group, ",".join(problems), "invalid-api-group")
        names = gr.get("resourceNames")
        if names and not gr.get("resources"):
            yield invalid(
                path + ("resources", k, "resourceNames"),
                names,
                "using resourceNames requires at least one resource",
                "resource-names-without-resources",
            )
    if urls and (body.get("resources") or body.get("namespaces")):
        yield invalid(
            path + ("nonResourceURLs",),
            urls,
            "rules cannot apply to both regular resources and non-resource URLs",
            "mixed-resource-and-non-resource-rule",
        )
    yield from _rule_advice(path, body)


def _rule_advice(path: tuple, body: dict) -> Iterator[Finding]:
    level = body.get("level")
    if level in ("Request", "RequestResponse") and body.get("nonResourceURLs") and not (body.get("resources") or body.get("namespaces")):
        yield advice(
            "level-has-no-effect",
            path + ("level",),
            f"non-resource requests have no bodies: level {level} records the same as Metadata",
            Severity.INFO,
        )
    stages = {s for _j, s in items(body.get("omitStages")) if isinstance(s, str)}
    if set(STAGES) <= stages:
        yield advice("all-stages-omitted", path + ("omitStages",), "every stage is omitted, so this rule records nothing; use level: None")


def _resource_entries(body: dict, group: str, resource: str) -> tuple[bool, bool]:
    """Whether a rule can match requests for a resource, and whether it matches all of them (verbs aside)."""
    if body.get("nonResourceURLs"):
        return False, False
    narrowed = any(body.get(key) for key in NARROWING if key != "verbs")
    resources = body.get("resources")
    if not resources:
        return True, not narrowed
    can, every = False, False
    for _k, entry in items(resources):
        entry = mapping(entry)
        entry_group = entry.get("group", "")
        if entry_group not in (group, "*"):
            continue
        names = [n for _j, n in items(entry.get("resources")) if isinstance(n, str)]
        hit = not names or any(n in ("*", resource, f"{resource}/*") or n.split("/", 1)[0] == resource for n in names)
        if hit:
            can = True
            # These resources have no subresources, so naming the resource covers its requests.
            whole = not names or any(n in ("*", resource, f"{resource}/*") for n in names)
            every = every or (whole and not entry.get("resourceNames") and not narrowed)
    return can, every


def _secrets_logged(doc: dict) -> Iterator[Finding]:
    """Bodies of secrets and token reviews hold credentials; say where the policy records them.

    The first matching rule wins (policy/checker.go), so a verb of a resource stops being at risk
    once an earlier rule catches every request with that verb; a rule at Request or RequestResponse
    exposes the resource only through the verbs whose recorded bodies hold credentials.
    """
    exposed: dict[int, list[str]] = {}
    rules = [(index, body) for index, body in items(doc.get("rules")) if isinstance(body, dict)]
    for (group, resource), risky in SENSITIVE.items():
        pending = risky["RequestResponse"]  # verbs whose requests no earlier rule has caught entirely
        for index, body in rules:
            can, every = _resource_entries(body, group, resource)
            if not can:
                continue
            verbs = frozenset(v for _j, v in items(body.get("verbs")) if isinstance(v, str)) or pending
            if pending & verbs & risky.get(text(body.get("level")), frozenset()):  # a level of the wrong type records nothing
                exposed.setdefault(index, []).append(resource)
                break
            if every:
                pending -= verbs
                if not pending:
                    break
    for index, resources in sorted(exposed.items()):
        level = mapping(doc["rules"][index]).get("level")
        names = " and ".join(resources)
        bodies = "request bodies" if level == "Request" else "request and response bodies"
        yield advice(
            "audit-logs-secrets",
            ("rules", index, "level"),
            f"level {level} records {bodies} of {names}, which hold credentials, in the audit log; "
            f"log {names} at Metadata in an earlier rule",
        )


def _unreachable(doc: dict) -> Iterator[Finding]:
    """Rules after a catch-all rule never match: the first matching rule wins."""
    catch_all = None
    for index, rule_body in items(doc.get("rules")):
        body = mapping(rule_body)
        if catch_all is not None:
            yield advice(
                "unreachable-audit-rule",
                ("rules", index),
                f"rules[{catch_all}] matches every request, so this rule is never used; move it before rules[{catch_all}]",
            )
            break
        if not any(body.get(key) for key in SELECTORS):
            catch_all = index
