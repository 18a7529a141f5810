"""Evaluate an AuthenticationConfiguration against a JWT payload the way the API server's JWT authenticator maps it.

Steps, as upstream runs them: pick the authenticator whose issuer URL equals `iss`, check the
audience and expiry, run the claim validation rules, map username, groups, uid and extra, then run
the user validation rules. The token's signature is not checked (the payload is given by the user).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, NamedTuple

from .known.secrets import REDACTION as REDACTED


class Rejected(Exception):
    """The server would reject the token; the message says why."""


class RuleOutcome(NamedTuple):
    label: str  # what the rule checks, from the config (never a claim value)
    passed: bool
    note: str = ""


class Explanation(NamedTuple):
    index: int | None = None  # jwt[index] that handles the token
    issuer: str = ""
    audience: str = ""
    claim_rules: tuple = ()
    user: dict | None = None
    user_rules: tuple = ()
    rejected: str | None = None


def go_json(value: Any) -> Any:
    """JSON numbers become float64 in Go's map[string]interface{}: CEL sees doubles."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return float(value)
    if isinstance(value, list):
        return [go_json(v) for v in value]
    if isinstance(value, dict):
        return {k: go_json(v) for k, v in value.items()}
    return value


def explain(config: dict, claims: dict, now: float, secret: Collection[str] = ()) -> Explanation:
    """Walk the authenticators for this payload; the Explanation says how far it got.

    Values derived from a `secret` claim (a mapping that reads it, through any function) are
    REDACTED in the user, and so are the details of errors of expressions that read one.
    """
    iss = claims.get("iss")
    jwts = [j if isinstance(j, dict) else {} for j in config.get("jwt") or []]
    for index, jwt in enumerate(jwts):
        issuer = jwt.get("issuer") or {}
        if issuer.get("url") == iss:
            return _explain_one(index, jwt, claims, now, frozenset(secret))
    return Explanation(rejected=f"no authenticator has issuer url {_quote(iss)} (the iss claim)")


def _explain_one(index: int, jwt: dict, claims: dict, now: float, secret: frozenset) -> Explanation:
    issuer = jwt.get("issuer") or {}
    state: dict[str, Any] = {"index": index, "issuer": issuer.get("url", "")}
    mappings = jwt.get("claimMappings") or {}
    tainted = _tainted_user_fields(mappings if isinstance(mappings, dict) else {}, secret)
    try:
        state["audience"] = _match_audience(issuer, claims.get("aud"))
        _check_expiry(claims, now)
        state["claim_rules"] = tuple(_claim_rules(jwt.get("claimValidationRules") or [], claims, secret))
        failed = [r for r in state["claim_rules"] if not r.passed]
        if failed:
            raise Rejected(f"claim validation rule failed: {failed[0].label}")
        user = _map_user(mappings, claims, secret)
        state["user"] = _redacted(user, tainted)
        state["user_rules"] = tuple(_user_rules(jwt.get("userValidationRules") or [], user, frozenset(f for f, _k in tainted)))
        failed = [r for r in state["user_rules"] if not r.passed]
        if failed:
            raise Rejected(f"user validation rule failed: {failed[0].label}")
    except Rejected as why:
        state["rejected"] = str(why)
    return Explanation(**state)


def reads_secret(expression: str, variable: str, secret: frozenset) -> bool:
    """Whether an expression may read a secret field of its variable (any, when it uses the variable other than by field)."""
    from .cel import fields_read

    if not secret:
        return False
    read = fields_read(expression, variable)
    return read is None or bool(read & secret)


def _tainted_user_fields(mappings: dict, secret: frozenset) -> set[tuple[str, str | None]]:
    """(field, extra key or None) of each user field a mapping fills from a secret claim."""
    tainted = set()
    for field in ("username", "uid", "groups"):
        mapping = mappings.get(field) if isinstance(mappings.get(field), dict) else {}
        expression = mapping.get("expression")
        if mapping.get("claim") in secret or (isinstance(expression, str) and reads_secret(expression, "claims", secret)):
            tainted.add((field, None))
    for item in mappings.get("extra") or []:
        item = item if isinstance(item, dict) else {}
        expression = item.get("valueExpression")
        if isinstance(expression, str) and reads_secret(expression, "claims", secret):
            tainted.add(("extra", item.get("key", "")))
    return tainted


def _redacted(user: dict, tainted: set[tuple[str, str | None]]) -> dict:
    """The user with every value derived from a secret claim REDACTED."""
    shown = dict(user, extra=dict(user["extra"]))
    for field, key in tainted:
        if field == "extra":
            if key in shown["extra"]:
                shown["extra"][key] = [REDACTED for _value in shown["extra"][key]]
        elif field == "groups":
            shown["groups"] = [REDACTED for _group in shown["groups"]]
        elif shown[field]:
            shown[field] = REDACTED
    return shown


def _quote(value: Any) -> str:
    from .model import render_value

    return render_value(value)


def _match_audience(issuer: dict, aud: Any) -> str:
    wanted = [a for a in issuer.get("audiences") or [] if isinstance(a, str)]
    given = [aud] if isinstance(aud, str) else [a for a in aud or [] if isinstance(a, str)] if isinstance(aud, list) else []
    for audience in wanted:
        if audience in given:
            return audience
    raise Rejected(f"oidc: expected audience in {_quote(wanted)}, got none of them in the aud claim")


def _check_expiry(claims: dict, now: float) -> None:
    exp = claims.get("exp")
    if not isinstance(exp, (int, float)) or isinstance(exp, bool):
        raise Rejected("oidc: token has no exp claim (a token without expiry is treated as expired)")
    if exp < now:
        raise Rejected("oidc: token is expired (exp is in the past)")


def evaluate(expression: str, variable: str, value: Any, secret: frozenset = frozenset()) -> Any:
    """Run one expression within the evaluation budget; a CEL error or a budget exceeded becomes a rejection, as at the server.

    An error of an expression that reads a `secret` field of its variable is not detailed: CEL
    errors quote the values they met.
    """
    from .cel.bounded import BudgetExceeded, Program
    from .cel.runtime import release_bucket

    try:
        result = Program(expression, variable, release_bucket((1, 36))).eval(value)
    except BudgetExceeded as over:
        raise Rejected(f"expression '{expression}' resulted in error: {over}") from None
    except RuntimeError as error:
        raise Rejected(f"expression '{expression}' resulted in error: {_detail(error, expression, variable, secret)}") from None
    if result.type_name == "ERROR":
        raise Rejected(f"expression '{expression}' resulted in error: {_detail(result.value, expression, variable, secret)}")
    return _plain(result.value)


def _detail(error: Any, expression: str, variable: str, secret: frozenset) -> str:
    if reads_secret(expression, variable, secret):
        return f"{REDACTED} (the expression reads a secret claim)"
    return _short(error)


def _short(error: Any) -> str:
    return str(error).removeprefix("INVALID_ARGUMENT: ").split(" [", 1)[0]


def _plain(value: Any) -> Any:
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _claim_rules(rules: list, claims: dict, secret: frozenset) -> list[RuleOutcome]:
    out = []
    for rule in rules:
        rule = rule if isinstance(rule, dict) else {}
        if rule.get("claim"):
            claim, wanted = rule["claim"], rule.get("requiredValue", "")
            value = claims.get(claim)
            label = f"claim {claim} == {REDACTED if claim in secret else _quote(wanted)}"
            if claim not in claims:
                out.append(RuleOutcome(label, False, f"claim {claim} not present"))
            else:
                out.append(RuleOutcome(label, value == wanted, "" if value == wanted else "value does not match"))
        elif rule.get("expression"):
            result = evaluate(rule["expression"], "claims", go_json(claims), secret)
            if not isinstance(result, bool):
                raise Rejected(f"validation expression '{rule['expression']}' must return a boolean")
            out.append(RuleOutcome(rule["expression"], result, "" if result else rule.get("message", "")))
    return out


def _map_user(mappings: dict, claims: dict, secret: frozenset) -> dict:
    username = _username(mappings.get("username") or {}, claims, secret)
    groups = _groups(mappings.get("groups") or {}, claims, secret)
    uid = _uid(mappings.get("uid") or {}, claims, secret)
    extra = {}
    for item in mappings.get("extra") or []:
        item = item if isinstance(item, dict) else {}
        values = _strings(evaluate(item.get("valueExpression", ""), "claims", go_json(claims), secret), "extra mapping expression")
        if values:
            extra[item.get("key", "")] = values
    return {"username": username, "uid": uid, "groups": groups, "extra": extra}


def _username(mapping: dict, claims: dict, secret: frozenset) -> str:
    if mapping.get("expression"):
        value = evaluate(mapping["expression"], "claims", go_json(claims), secret)
        if not isinstance(value, str):
            raise Rejected("oidc: error evaluating username claim expression: username claim expression must return a string")
        if not value:
            raise Rejected("oidc: empty username via CEL expression is not allowed")
        return value
    claim = mapping.get("claim", "")
    if claim not in claims:
        raise Rejected(f'oidc: parse username claims "{claim}": claim not present')
    value = claims[claim]
    if not isinstance(value, str):
        raise Rejected(f'oidc: parse username claims "{claim}": claim is not a string')
    if claim == "email" and "email_verified" in claims:
        verified = claims["email_verified"]
        if not isinstance(verified, bool):
            raise Rejected("oidc: parse 'email_verified' claim: not a boolean")
        if not verified:
            raise Rejected("oidc: email not verified")
    return (mapping.get("prefix") or "") + value


def _groups(mapping: dict, claims: dict, secret: frozenset) -> list[str]:
    if mapping.get("expression"):
        return _strings(evaluate(mapping["expression"], "claims", go_json(claims), secret), "groups claim expression")
    claim = mapping.get("claim")
    if not claim or claim not in claims:
        return []
    value = claims[claim]
    values = [value] if isinstance(value, str) else value if isinstance(value, list) else None
    if values is None or not all(isinstance(v, str) for v in values):
        raise Rejected(f'oidc: parse groups claim "{claim}": not a string or a list of strings')
    prefix = mapping.get("prefix") or ""
    return [prefix + v for v in values]


def _uid(mapping: dict, claims: dict, secret: frozenset) -> str:
    if mapping.get("expression"):
        value = evaluate(mapping["expression"], "claims", go_json(claims), secret)
        if not isinstance(value, str):
            raise Rejected("oidc: error evaluating uid claim expression: uid claim expression must return a string")
        return value
    claim = mapping.get("claim")
    if not claim:
        return ""
    if claim not in claims:
        raise Rejected(f'oidc: parse uid claim "{claim}": claim not present')
    if not isinstance(claims[claim], str):
        raise Rejected(f'oidc: parse uid claim "{claim}": claim is not a string')
    return claims[claim]


def _strings(value: Any, what: str) -> list[str]:
    """A string or list of strings; empty strings are dropped and null means absent."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [v for v in value if v]
    raise Rejected(f"oidc: {what} must return a string or a list of strings")


def _user_rules(rules: list, user: dict, secret_fields: frozenset) -> list[RuleOutcome]:
    out = []
    for rule in rules:
        rule = rule if isinstance(rule, dict) else {}
        expression = rule.get("expression", "")
        result = evaluate(expression, "user", user, secret_fields)
        if not isinstance(result, bool):
            raise Rejected(f"validation expression '{expression}' must return a boolean")
        out.append(RuleOutcome(expression, result, "" if result else rule.get("message", "")))
    return out
