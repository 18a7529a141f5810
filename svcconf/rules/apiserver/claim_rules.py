"""AuthenticationConfiguration claims: validation rules, claim mappings, user rules and their CEL, as the API server checks them.

Part of the authn rules (`authn.py` registers them); the wording helpers here follow the target
release, as the server's messages changed in 1.34.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from svcconf.go.names import dns1123_subdomain
from svcconf.model import Finding, Path, Severity

from .. import Context, advice, duplicate, invalid, items, mapping, required, text

_EXTRA_PATH = re.compile(r"^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+\Z")
_EMAIL_MESSAGE = (
    "claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression "
    "or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression"
)


def old_wording(ctx: Context) -> bool:
    """Releases before 1.34 give details on Required errors and say `can't be set`."""
    return not ctx.at_least(1, 34)


def too_many(path: Path, count: int, limit: int, ctx: Context, rule_id: str) -> Finding:
    noun = "item" if limit == 1 and ctx.at_least(1, 34) else "items"
    return Finding(rule_id, path, f"Too many: {count}: must have at most {limit} {noun}", subject=count)


def not_with(path: Path, value, field: str, other: str, ctx: Context) -> Finding:
    detail = f"{field} can't be set when {other} is set" if old_wording(ctx) else f"may not be specified when {other} is set"
    return invalid(path, value, detail, "claim-expression-field-conflict")


def check_claim_rules(path: Path, rules, ctx: Context) -> Iterator[Finding]:
    claims: set[str] = set()
    expressions: set[str] = set()
    for k, item in items(rules):
        item = mapping(item)
        here = path + (k,)
        claim, expression = text(item.get("claim")), text(item.get("expression"))
        if claim and expression:
            yield invalid(here, claim, "claim and expression can't both be set", "claim-and-expression-both-set")
        elif not claim and not expression:
            yield required(here, "claim or expression is required", "claim-or-expression-required")
        elif claim:
            message = text(item.get("message"))
            if message:
                yield not_with(here + ("message",), message, "message", "claim", ctx)
            if claim in claims:
                yield duplicate(here + ("claim",), claim, "duplicate-claim-rule")
            claims.add(claim)
        else:
            value = text(item.get("requiredValue"))
            if value:
                yield not_with(here + ("requiredValue",), value, "requiredValue", "expression", ctx)
            if expression in expressions:
                yield duplicate(here + ("expression",), expression, "duplicate-expression")
            else:
                expressions.add(expression)
                yield from check_cel(here + ("expression",), expression, "claims", ctx, want_bool="must evaluate to bool")


def check_cel(path: Path, expression: str, variable: str, ctx: Context, want_bool: str | None = None) -> Iterator[Finding]:
    """Compile one expression; with `want_bool`, a non-bool result is reported with that detail (`{type}` filled in)."""
    from svcconf import cel  # the CEL runtime loads only when a document holds an expression

    result = cel.compile_expression(expression, variable, ctx.target)
    if result.unchecked:
        # At the document root: the document's expressions share one diagnostic.
        yield advice("cel-not-checked", (), f"CEL expressions were not compiled: {result.unchecked}", Severity.INFO)
    elif result.error:
        yield invalid(path, expression, result.error, "cel-compile-error")
    elif want_bool and result.type_name not in ("bool", cel.UNKNOWN):
        yield invalid(path, expression, want_bool.format(type=result.type_name), "cel-result-not-bool")


def check_mappings(path: Path, mappings: dict, ctx: Context) -> Iterator[Finding]:
    username = mapping(mappings.get("username"))
    yield from _check_prefixed(path + ("username",), username, ctx, needed=True)
    groups = mappings.get("groups")
    if isinstance(groups, dict):
        yield from _check_prefixed(path + ("groups",), groups, ctx, needed=False)
    uid = mapping(mappings.get("uid"))
    if text(uid.get("claim")) and text(uid.get("expression")):
        yield invalid(path + ("uid",), "", "claim and expression can't both be set", "claim-and-expression-both-set")
    elif text(uid.get("expression")):
        yield from check_cel(path + ("uid", "expression"), uid["expression"], "claims", ctx)
    yield from _check_extra(path + ("extra",), mappings.get("extra"), ctx)


def _check_prefixed(path: Path, value: dict, ctx: Context, needed: bool) -> Iterator[Finding]:
    claim, expression = text(value.get("claim")), text(value.get("expression"))
    if claim and expression:
        yield invalid(path, "", "claim and expression can't both be set", "claim-and-expression-both-set")
    elif not claim and not expression:
        if needed:
            yield required(path, "claim or expression is required", "claim-or-expression-required")
    elif expression:
        if value.get("prefix") is not None:
            yield not_with(path + ("prefix",), value["prefix"], "prefix", "expression", ctx)
        yield from check_cel(path + ("expression",), expression, "claims", ctx)
    elif value.get("prefix") is None:
        yield required(
            path + ("prefix",),
            "prefix is required when claim is set. It can be set to an empty string to disable prefixing",
            "prefix-required-with-claim",
        )


def extra_key_problems(key: str, ctx: Context) -> list[tuple[str, str]]:
    """(value, detail) of each problem of an extra mapping key, in the server's order."""
    prefix, slash, rest = key.partition("/")
    if not slash or not prefix or not rest:
        return [(key, 'must be a domain-prefixed path (such as "acme.io/foo")')]
    out = []
    out.extend((prefix, problem) for problem in dns1123_subdomain(prefix))
    if not _EXTRA_PATH.match(rest):
        out.append((rest, "Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')"))
    if key != key.lower():
        out.append((key, "key must be lowercase" if old_wording(ctx) else "must be lowercase"))
    reserved = prefix in ("k8s.io", "kubernetes.io") or prefix.endswith((".k8s.io", ".kubernetes.io"))
    if reserved and ctx.at_least(1, 32):
        out.append((key, "k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use"))
    return out


def _check_extra(path: Path, extra, ctx: Context) -> Iterator[Finding]:
    keys: set[str] = set()
    for k, item in items(extra):
        item = mapping(item)
        key = text(item.get("key"))
        if not key:
            yield required(path + (k, "key"))
        else:
            for value, detail in extra_key_problems(key, ctx):
                yield invalid(path + (k, "key"), value, detail, "invalid-extra-key")
            if key in keys:
                yield duplicate(path + (k, "key"), key, "duplicate-extra-key")
                continue
            keys.add(key)
        expression = text(item.get("valueExpression"))
        if not expression:
            yield required(path + (k, "valueExpression"), "valueExpression is required" if old_wording(ctx) else "")
        else:
            yield from check_cel(path + (k, "valueExpression"), expression, "claims", ctx)


def check_email(base: Path, jwt: dict, ctx: Context) -> Iterator[Finding]:
    """The username expression may read claims.email only if some expression reads claims.email_verified (1.30+).

    Only expressions the server accepted count: a claim rule that fails to compile or is not bool does not.
    """
    mappings = mapping(jwt.get("claimMappings"))
    username = text(mapping(mappings.get("username")).get("expression"))
    if not username or not ctx.at_least(1, 30) or "email" not in username:
        return
    if not _accepted(username, False, ctx) or "email" not in _claims_read(username):
        return
    candidates = [(username, False)]
    candidates += [(text(mapping(e).get("valueExpression")), False) for _k, e in items(mappings.get("extra"))]
    candidates += [(text(mapping(r).get("expression")), True) for _k, r in items(jwt.get("claimValidationRules"))]
    for expression, want_bool in candidates:
        if "email_verified" in _claims_read(expression) and _accepted(expression, want_bool, ctx):
            return
    yield invalid(base + ("claimMappings", "username", "expression"), username, _EMAIL_MESSAGE, "email-verified-not-checked")


def _accepted(expression: str, want_bool: bool, ctx: Context) -> bool:
    from svcconf import cel

    result = cel.compile_expression(expression, "claims", ctx.target)
    return not result.error and (not want_bool or result.type_name in ("bool", cel.UNKNOWN))


_EMAIL_INDEX = re.compile(r"""\bclaims\s*\[\s*(['"])email\1\s*\]""", re.ASCII)


def email_by_index_advice(base: Path, jwt: dict) -> Iterator[Finding]:
    """`claims["email"]` escapes the server's syntactic email_verified check (rules-apiserver 1.7)."""
    mappings = mapping(jwt.get("claimMappings"))
    username = text(mapping(mappings.get("username")).get("expression"))
    if not _EMAIL_INDEX.search(username):
        return
    everything = [username] + [text(mapping(e).get("valueExpression")) for _k, e in items(mappings.get("extra"))]
    everything += [text(mapping(r).get("expression")) for _k, r in items(jwt.get("claimValidationRules"))]
    if any("email_verified" in e for e in everything):
        return
    yield advice(
        "email-claim-by-index",
        base + ("claimMappings", "username", "expression"),
        'the username reads claims["email"] and nothing checks claims.email_verified: an unverified email can become a username',
    )


def _claims_read(expression: str) -> set[str]:
    """Claims selected directly on `claims` (claims.x or claims.?x), as the server's syntactic check sees them."""
    if "claims" not in expression:
        return set()
    from svcconf import cel

    return {chain[0][0] for chain in cel.selections(expression, "claims") if chain}


def check_user_rules(path: Path, rules, ctx: Context) -> Iterator[Finding]:
    seen: set[str] = set()
    for k, item in items(rules):
        expression = text(mapping(item).get("expression"))
        where = path + (k, "expression")
        if not expression:
            yield required(where, "expression is required" if old_wording(ctx) else "")
        elif expression in seen:
            yield duplicate(where, expression, "duplicate-expression")
        else:
            seen.add(expression)
            yield from check_cel(where, expression, "user", ctx, want_bool="must evaluate to bool")
