"""AuthorizationConfiguration rules: the authorizer chain, webhook settings and match conditions, as the API server checks them.

Upstream reports webhook errors without `.webhook` in the path (`authorizers[0].timeout`); svcconf
keeps the real path (`authorizers[0].webhook.timeout`) so that positions point at the field.
"""

from __future__ import annotations

import os
import posixpath
import stat
from collections.abc import Iterator

from svcconf.go.durations import SECOND, format_duration, parse_duration
from svcconf.go.names import dns1123_subdomain
from svcconf.known.apiserver import KNOWN_TYPES
from svcconf.model import Finding, Path, Severity

from .. import Context, advice, duplicate, invalid, items, mapping, not_supported, required, rule, text
from .claim_rules import check_cel

REPEATABLE = ("Webhook",)
MAX_MATCH_CONDITIONS = 64


@rule("AuthorizationConfiguration")
def check_authorizers(doc: dict, ctx: Context) -> Iterator[Finding]:
    if not ctx.at_least(1, 29):
        return  # the kind does not exist yet: the lifecycle check says so
    authorizers = doc.get("authorizers")
    if not authorizers:
        if authorizers is None or authorizers == []:
            yield required(("authorizers",), "at least one authorization mode must be defined")
        return
    types: set[str] = set()
    names: set[str] = set()
    for i, authorizer in items(authorizers):
        yield from _check_authorizer(("authorizers", i), mapping(authorizer), types, names, ctx)
    yield from _advice(authorizers)


def _check_authorizer(path: Path, authorizer: dict, types: set[str], names: set[str], ctx: Context) -> Iterator[Finding]:
    kind = text(authorizer.get("type"))
    if not kind:
        yield required(path + ("type",))
        return
    if kind not in KNOWN_TYPES:
        yield not_supported(path + ("type",), kind, KNOWN_TYPES)
        return
    if kind in types and kind not in REPEATABLE:
        yield duplicate(path + ("type",), kind, "duplicate-authorizer-type")
        return
    types.add(kind)
    name = text(authorizer.get("name"))
    if not name:
        yield required(path + ("name",))
    elif name in names:
        yield duplicate(path + ("name",), name, "duplicate-authorizer-name")
    else:
        problems = dns1123_subdomain(name)
        if problems:
            yield invalid(path + ("name",), name, "authorizer name is invalid: " + ", ".join(problems), "invalid-authorizer-name")
        elif kind != "Webhook" and name != kind.lower():
            # kube-apiserver's own check, reported without a field prefix upstream.
            yield Finding(
                "invalid-authorizer-name", path + ("name",), f"expected name {kind.lower()} for authorizer {kind} instead of {name}"
            )
    if name:
        names.add(name)
    webhook = authorizer.get("webhook")
    if kind == "Webhook":
        if webhook is None:
            yield required(path + ("webhook",), "required when type=Webhook", "webhook-required")
        else:
            yield from _check_webhook(path + ("webhook",), mapping(webhook), ctx)
    elif webhook is not None:
        yield invalid(path + ("webhook",), "non-null", "may only be specified when type=Webhook", "webhook-not-allowed")


def _check_webhook(path: Path, webhook: dict, ctx: Context) -> Iterator[Finding]:
    yield from _check_timeout(path + ("timeout",), webhook.get("timeout"))
    for field in ("authorizedTTL", "unauthorizedTTL"):
        seconds = _seconds(webhook.get(field))
        if seconds is not None and seconds < 0:
            yield invalid(path + (field,), format_duration(parse_duration(webhook.get(field))), "must be > 0s", "invalid-webhook-ttl")
    version = text(webhook.get("subjectAccessReviewVersion"))
    if not version:
        yield required(path + ("subjectAccessReviewVersion",))
    elif version not in ("v1", "v1beta1"):
        yield not_supported(path + ("subjectAccessReviewVersion",), version, ("v1", "v1beta1"))
    conditions = webhook.get("matchConditions")
    mc_version = text(webhook.get("matchConditionSubjectAccessReviewVersion"))
    if not mc_version and isinstance(conditions, list) and conditions:
        yield required(path + ("matchConditionSubjectAccessReviewVersion",), "required if match conditions are specified")
    elif mc_version and mc_version != "v1":
        yield not_supported(path + ("matchConditionSubjectAccessReviewVersion",), mc_version, ("v1",))
    policy = text(webhook.get("failurePolicy"))
    if not policy:
        yield required(path + ("failurePolicy",))
    elif policy not in ("NoOpinion", "Deny"):
        yield not_supported(path + ("failurePolicy",), policy, ("NoOpinion", "Deny"))
    yield from _check_connection(path + ("connectionInfo",), mapping(webhook.get("connectionInfo")), ctx)
    yield from _webhook_advice(path, webhook)
    yield from _check_match_conditions(path + ("matchConditions",), conditions, ctx)


def _webhook_advice(path: Path, webhook: dict) -> Iterator[Finding]:
    for cache, ttl in (("cacheAuthorizedRequests", "authorizedTTL"), ("cacheUnauthorizedRequests", "unauthorizedTTL")):
        if webhook.get(cache) is False and ttl in webhook:
            yield advice("ttl-without-cache", path + (ttl,), f"{ttl} is ignored: {cache} is false, so responses are not cached")
    if webhook.get("subjectAccessReviewVersion") == "v1beta1":
        yield advice(
            "legacy-subject-access-review-version",
            path + ("subjectAccessReviewVersion",),
            "SubjectAccessReview v1beta1 is the legacy wire version; v1 is served since 1.6 (webhooks read spec.groups, not spec.group)",
            Severity.INFO,
        )


def _seconds(value) -> float | None:
    nanos = parse_duration(value)
    return None if nanos is None else nanos / SECOND


def _check_timeout(path: Path, value) -> Iterator[Finding]:
    seconds = _seconds(value)
    if value is None or seconds == 0:
        yield required(path)
    elif seconds is not None and (seconds < 0 or seconds > 30):
        yield invalid(path, format_duration(parse_duration(value)), "must be > 0s and <= 30s", "invalid-webhook-timeout")


def _check_connection(path: Path, info: dict, ctx: Context) -> Iterator[Finding]:
    kind = text(info.get("type"))
    config_file = info.get("kubeConfigFile")
    if not kind:
        yield required(path + ("type",))
    elif kind == "InClusterConfig":
        if config_file is not None:
            yield invalid(
                path + ("kubeConfigFile",), config_file, "can only be set when type=KubeConfigFile", "kubeconfig-file-not-allowed"
            )
        else:
            yield Finding(
                "in-cluster-config-in-apiserver",
                path + ("type",),
                'Unsupported value: "InClusterConfig": kube-apiserver cannot reach a webhook with in-cluster config; use KubeConfigFile',
            )
    elif kind == "KubeConfigFile":
        if not config_file:
            yield required(path + ("kubeConfigFile",))
        elif isinstance(config_file, str) and not posixpath.isabs(config_file):
            yield invalid(path + ("kubeConfigFile",), config_file, "must be an absolute path", "kubeconfig-path-not-absolute")
        elif isinstance(config_file, str) and ctx.fs_checks:
            yield from _check_file(path + ("kubeConfigFile",), config_file)
    else:
        # The server prints its internal struct (Go field names) as the value.
        value = {"Type": kind, "KubeConfigFile": config_file if isinstance(config_file, str) else None}
        yield not_supported(path + ("type",), value, ("InClusterConfig", "KubeConfigFile"))


def _check_file(path: Path, config_file: str) -> Iterator[Finding]:
    """The server stats the file at start-up; checked with --fs-checks, on the node."""
    try:
        mode = os.stat(config_file).st_mode
    except OSError as err:
        yield invalid(
            path,
            config_file,
            f"error loading file: stat {config_file}: {(err.strerror or str(err)).lower()}",
            "authorizer-kubeconfig-missing",
            Severity.WARNING,
        )
        return
    if not stat.S_ISREG(mode):
        yield invalid(path, config_file, "must be a regular file", "authorizer-kubeconfig-missing", Severity.WARNING)


def _check_match_conditions(path: Path, conditions, ctx: Context) -> Iterator[Finding]:
    if not isinstance(conditions, list):
        return
    if len(conditions) > MAX_MATCH_CONDITIONS:
        message = f"Too many: {len(conditions)}: must have at most {MAX_MATCH_CONDITIONS} items"
        yield Finding("too-many-match-conditions", path, message, subject=len(conditions))
        return
    seen: set[str] = set()
    for k, condition in items(conditions):
        expression = mapping(condition).get("expression")
        where = path + (k, "expression")
        if not isinstance(expression, str) or not expression.strip():
            if expression is None or isinstance(expression, str):
                yield required(where)
            continue
        if expression in seen:
            yield duplicate(where, expression, "duplicate-expression")
            continue
        seen.add(expression)
        yield from check_cel(where, expression, "request", ctx, want_bool="must evaluate to bool but got {type}")


def _advice(authorizers: list) -> Iterator[Finding]:
    chain = [(i, mapping(a)) for i, a in items(authorizers)]
    for position, (i, authorizer) in enumerate(chain):
        kind = authorizer.get("type")
        # AlwaysDeny is not here: it answers NoOpinion, so the authorizers after it still decide.
        if kind == "AlwaysAllow" and position + 1 < len(chain):
            later = chain[position + 1][0]
            yield advice(
                "unreachable-authorizer",
                ("authorizers", later, "type"),
                "authorizers after AlwaysAllow are never consulted: AlwaysAllow allows every request",
            )
    if len(chain) == 1:
        i, only = chain[0]
        webhook = mapping(only.get("webhook"))
        if only.get("type") == "Webhook" and webhook.get("failurePolicy") == "Deny":
            yield advice(
                "deny-on-only-authorizer",
                ("authorizers", i, "webhook", "failurePolicy"),
                "failurePolicy Deny on the only authorizer: when the webhook is unreachable every request "
                "(except system:masters) is denied; add RBAC/Node authorizers or use NoOpinion",
                Severity.WARNING,
            )
