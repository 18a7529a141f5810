"""Which audit policy rule takes a request, and the level, stages and managed-field setting it records: the API server's policy checker, with reasons.

Semantics of kubernetes `staging/src/k8s.io/apiserver/pkg/audit/policy/checker.go`: the first
matching rule wins (no match: level None); users, userGroups and verbs must each list the request's
value when given; `namespaces` or `resources` make the rule match resource requests only,
`nonResourceURLs` non-resource requests only (`*`, exact, or a prefix ending in `*`); a rule's
omitStages is united with the policy's.

Which stages produce an event follows `WithAudit` (`pkg/endpoints/filters/audit.go`): RequestReceived
and ResponseComplete for every audited request, Panic when the handler panics, and ResponseStarted
only when the request is long-running (`longRunningSink`), which kube-apiserver decides with
`BasicLongRunningRequestCheck` (`pkg/server/filters/longrunning.go`) over the verbs and subresources
`pkg/controlplane/apiserver/config.go` (`BuildGenericConfig`) names.
"""

from __future__ import annotations

from typing import NamedTuple

from ..known.apiserver import STAGES
from ..load.source import position
from ..model import items, mapping, render_value, text
from .request import Request

NO_MATCH_LEVEL = "None"  # DefaultAuditLevel
RESPONSE_STARTED = "ResponseStarted"
# kube-apiserver's LongRunningFunc: BasicLongRunningRequestCheck(verbs watch and proxy; subresources
# attach, exec, proxy, log and portforward of resource requests; non-resource paths under /debug/pprof/).
LONG_RUNNING_VERBS = frozenset({"watch", "proxy"})
LONG_RUNNING_SUBRESOURCES = frozenset({"attach", "exec", "proxy", "log", "portforward"})
PPROF_PREFIX = "/debug/pprof/"


class GroupResources(NamedTuple):
    group: str
    resources: tuple  # "pods", "pods/log", "*", "*/scale", "pods/*"
    names: frozenset | None  # resourceNames; None: any name


class Rule(NamedTuple):
    index: int
    line: int
    level: str
    users: frozenset | None  # None: the rule does not narrow by it
    groups: frozenset | None
    verbs: frozenset | None
    namespaces: frozenset | None
    resources: tuple  # of GroupResources
    urls: tuple
    omit_stages: frozenset  # the rule's own united with the policy's
    omit_managed_fields: bool | None


class Policy(NamedTuple):
    rules: tuple
    omit_stages: frozenset
    omit_managed_fields: bool


class Miss(NamedTuple):
    rule: int
    line: int
    reason: str


class Outcome(NamedTuple):
    request: Request
    rule: int | None  # index of the matching rule
    line: int | None
    level: str
    stages: tuple  # stages that produce an event (none at level None)
    long_running: bool  # whether the server sends a ResponseStarted event for it
    omit_stages: tuple
    omit_managed_fields: bool
    misses: tuple  # why each earlier rule did not match


def _strings(value) -> list[str]:
    return [v for _i, v in items(value) if isinstance(v, str)]


def _set(value) -> frozenset | None:
    found = _strings(value)
    return frozenset(found) if found else None


def policy(data: dict, root) -> Policy:
    """The policy as the checker holds it after loading (omitStages already united)."""
    policy_omit = frozenset(_strings(data.get("omitStages")))
    rules = []
    for index, body in items(data.get("rules")):
        body = mapping(body)
        resources = []
        for _k, entry in items(body.get("resources")):
            entry = mapping(entry)
            resources.append(
                GroupResources(text(entry.get("group")), tuple(_strings(entry.get("resources"))), _set(entry.get("resourceNames")))
            )
        managed = body.get("omitManagedFields")
        rules.append(
            Rule(
                index=index,
                line=position(root, ("rules", index))[0],
                level=text(body.get("level")),
                users=_set(body.get("users")),
                groups=_set(body.get("userGroups")),
                verbs=_set(body.get("verbs")),
                namespaces=frozenset(_strings(body.get("namespaces"))) or None,
                resources=tuple(resources),
                urls=tuple(_strings(body.get("nonResourceURLs"))),
                omit_stages=policy_omit | frozenset(_strings(body.get("omitStages"))),
                omit_managed_fields=managed if isinstance(managed, bool) else None,
            )
        )
    return Policy(tuple(rules), policy_omit, data.get("omitManagedFields") is True)


def explain(policy: Policy, request: Request) -> Outcome:
    misses = []
    for rule in policy.rules:
        reason = why_not(rule, request)
        if reason is None:
            managed = policy.omit_managed_fields if rule.omit_managed_fields is None else rule.omit_managed_fields
            return _outcome(request, rule.index, rule.line, rule.level, rule.omit_stages, managed, misses)
        misses.append(Miss(rule.index, rule.line, reason))
    return _outcome(request, None, None, NO_MATCH_LEVEL, policy.omit_stages, policy.omit_managed_fields, misses)


def long_running(request: Request) -> bool:
    """BasicLongRunningRequestCheck with kube-apiserver's verbs and subresources."""
    if request.verb in LONG_RUNNING_VERBS:
        return True
    if request.is_resource:
        return request.subresource in LONG_RUNNING_SUBRESOURCES
    return (request.path or "").startswith(PPROF_PREFIX)


def _outcome(request, index, line, level, omit, managed, misses) -> Outcome:
    streams = long_running(request)
    sent = (s for s in STAGES if s not in omit and (streams or s != RESPONSE_STARTED))
    stages = () if level == NO_MATCH_LEVEL else tuple(sent)
    omitted = tuple(s for s in STAGES if s in omit) + tuple(sorted(s for s in omit if s not in STAGES))
    return Outcome(request, index, line, level, stages, streams, omitted, managed, tuple(misses))


def why_not(rule: Rule, request: Request) -> str | None:
    """None when the rule matches the request, else the first reason it does not (in the checker's order)."""
    if rule.users is not None:
        if request.user is None:
            return "users: the request has no user"
        if request.user not in rule.users:
            return f"users: {render_value(request.user)} is not listed"
    if rule.groups is not None:
        if request.user is None:
            return "userGroups: the request has no user"
        if not any(group in rule.groups for group in request.groups):
            return "userGroups: none of the request's groups is listed" if request.groups else "userGroups: the request has no groups"
    if rule.verbs is not None and request.verb not in rule.verbs:
        return f"verbs: {render_value(request.verb)} is not listed"
    if rule.namespaces is not None or rule.resources:
        return _why_not_resource(rule, request)
    if rule.urls:
        if request.is_resource:
            return "nonResourceURLs: the rule is for non-resource URLs; this is a resource request"
        if not any(path_matches(request.path or "", spec) for spec in rule.urls):
            return f"nonResourceURLs: {render_value(request.path)} matches none of them"
    return None


def path_matches(path: str, spec: str) -> bool:
    return spec == "*" or spec == path or (spec.endswith("*") and path.startswith(spec.rstrip("*")))


def resource_matches(pattern: str, request: Request) -> bool:
    """`*`, the exact `resource[/subresource]`, `*/subresource`, or `resource/*` (the resource and all its subresources)."""
    if pattern == "*" or pattern == request.combined_resource:
        return True
    if request.subresource and pattern.startswith("*/") and pattern[2:] == request.subresource:
        return True
    return pattern.endswith("/*") and pattern[:-2] == request.resource


def _why_not_resource(rule: Rule, request: Request) -> str | None:
    if not request.is_resource:
        field = "resources" if rule.resources else "namespaces"
        return f"{field}: the rule is for resource requests; this is a non-resource request"
    if rule.namespaces is not None and request.namespace not in rule.namespaces:
        scope = " (cluster scope)" if not request.namespace else ""
        return f"namespaces: {render_value(request.namespace)}{scope} is not listed"
    if not rule.resources:
        return None
    group_listed = name_refused = False
    for entry in rule.resources:
        if entry.group not in (request.group, "*"):
            continue
        group_listed = True
        if not entry.resources:
            return None
        if any(resource_matches(pattern, request) for pattern in entry.resources):
            if entry.names is None or request.name in entry.names:
                return None
            name_refused = True
    if not group_listed:
        return f"resources: no entry for {_group_text(request.group)}"
    if name_refused:
        if not request.name:
            return "resources: the rule lists resourceNames and the request names no object"
        return f"resources: {render_value(request.name)} is not in resourceNames"
    return f"resources: {render_value(request.combined_resource)} is not listed for {_group_text(request.group)}"


def _group_text(group: str) -> str:
    return f"group {render_value(group)}" if group else 'the core group ("")'
