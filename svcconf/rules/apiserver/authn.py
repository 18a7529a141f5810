"""AuthenticationConfiguration rules: JWT issuers, audiences, claim rules and mappings, CEL, anonymous, as the API server checks them.

Messages follow the target release (wording changed in 1.34; 1.29 allowed one authenticator).
CEL is compiled through svcconf.cel, imported only when an expression is present.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from svcconf.go.memo import remembered
from svcconf.go.names import dns1123_subdomain
from svcconf.go.net import parse_ip
from svcconf.go.pem import blocks as pem_blocks
from svcconf.go.url import split_url
from svcconf.model import Finding, Path, Severity, render_path

from .. import Context, advice, duplicate, forbidden, invalid, items, mapping, required, rule, text

_EXTRA_PATH = re.compile(r"^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+\Z")
_EMAIL_MESSAGE = (
    "claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression "
    "or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression"
)
# Host suffixes of issuers that only serve inside a cluster or a private network.
_PRIVATE_SUFFIXES = (".svc", ".local", ".internal", ".localhost", ".cluster.local", ".lan", ".corp", ".home.arpa")
# Issuers shared by everyone with an account at the provider (sources in authn.toml), and who that is.
SHARED_ISSUERS = {
    "accounts.google.com": "every Google account",
    "token.actions.githubusercontent.com": "every GitHub Actions workflow",
    "gitlab.com": "every GitLab.com account and CI job",
    "app.terraform.io": "every HCP Terraform workspace",
    "agent.buildkite.com": "every Buildkite pipeline",
    "appleid.apple.com": "every Apple Account",
}


def old_wording(ctx: Context) -> bool:
    """Releases before 1.34 give details on Required errors and say `can't be set`."""
    return not ctx.at_least(1, 34)


def too_many(path: Path, count: int, limit: int, ctx: Context, rule_id: str) -> Finding:
    noun = "item" if limit == 1 and ctx.at_least(1, 34) else "items"
    return Finding(rule_id, path, f"Too many: {count}: must have at most {limit} {noun}", subject=count)


def not_with(path: Path, value, field: str, other: str, ctx: Context) -> Finding:
    detail = f"{field} can't be set when {other} is set" if old_wording(ctx) else f"may not be specified when {other} is set"
    return invalid(path, value, detail, "claim-expression-field-conflict")


@rule("AuthenticationConfiguration")
def check_authenticators(doc: dict, ctx: Context) -> Iterator[Finding]:
    if not ctx.at_least(1, 29):
        return  # the kind does not exist yet: the lifecycle check says so
    jwts = doc.get("jwt")
    count = len(jwts) if isinstance(jwts, list) else 0
    if not ctx.at_least(1, 30):
        if count == 0:
            yield required(("jwt",), "at least one jwt is required")
        elif count > 1:
            yield too_many(("jwt",), count, 1, ctx, "too-many-authenticators")
    elif count > 64:
        yield too_many(("jwt",), count, 64, ctx, "too-many-authenticators")
        return
    urls: set[str] = set()
    discovery: set[str] = set()
    for i, jwt in items(jwts):
        base: Path = ("jwt", i)
        jwt = mapping(jwt)
        issuer = mapping(jwt.get("issuer"))
        yield from _check_issuer(base + ("issuer",), issuer, ctx)
        yield from _check_claim_rules(base + ("claimValidationRules",), jwt.get("claimValidationRules"), ctx)
        yield from _check_mappings(base + ("claimMappings",), mapping(jwt.get("claimMappings")), ctx)
        yield from _check_email(base, jwt, ctx)
        yield from _email_by_index_advice(base, jwt)
        yield from _check_user_rules(base + ("userValidationRules",), jwt.get("userValidationRules"), ctx)
        if ctx.at_least(1, 30):
            url = issuer.get("url", "")
            if isinstance(url, str):
                if url in urls:
                    yield duplicate(base + ("issuer", "url"), url, "duplicate-issuer-url")
                urls.add(url)
            found = issuer.get("discoveryURL")
            if isinstance(found, str) and found:
                if found in discovery:
                    yield duplicate(base + ("issuer", "discoveryURL"), found, "duplicate-issuer-url")
                discovery.add(found)
        yield from _public_issuer_advice(base, issuer, jwt)


def _check_issuer(path: Path, issuer: dict, ctx: Context) -> Iterator[Finding]:
    url = issuer.get("url")
    if not url:
        yield required(path + ("url",), "URL is required" if old_wording(ctx) else "")
    elif isinstance(url, str):
        yield from _check_url(path + ("url",), url)
        disallowed = sorted(set(ctx.service_account_issuers))
        if url in disallowed:
            # Known only when the API server's --service-account-issuer values are given.
            yield invalid(
                path + ("url",),
                url,
                f"URL must not overlap with disallowed issuers: [{' '.join(disallowed)}]",
                "issuer-is-service-account-issuer",
            )
    found = issuer.get("discoveryURL")
    if isinstance(found, str) and found and ctx.at_least(1, 30):
        if isinstance(url, str) and url.rstrip("/") == found.rstrip("/"):
            yield invalid(path + ("discoveryURL",), found, "discoveryURL must be different from URL", "discovery-url-same-as-issuer")
        else:
            yield from _check_url(path + ("discoveryURL",), found)
    yield from _check_audiences(path, issuer, ctx)
    yield from _check_ca(path + ("certificateAuthority",), issuer.get("certificateAuthority"))
    egress = issuer.get("egressSelectorType")
    if isinstance(egress, str) and egress and ctx.at_least(1, 34) and egress not in ("controlplane", "cluster"):
        yield invalid(
            path + ("egressSelectorType",), egress, "egress selector must be either controlplane or cluster", "invalid-egress-selector-type"
        )


@remembered(256)
def url_problem(url: str) -> str | None:
    """The first problem the server finds with an issuer or discovery URL (Go url.Parse, then the https rules)."""
    parts = split_url(url)
    if parts.error:
        return parts.error
    if parts.scheme != "https":
        return "URL scheme must be https"
    if parts.userinfo:
        return "URL must not contain a username or password"
    if parts.query:
        return "URL must not contain a query"
    if parts.fragment:
        return "URL must not contain a fragment"
    return None


def _check_url(path: Path, url: str) -> Iterator[Finding]:
    problem = url_problem(url)
    if problem:
        yield invalid(path, url, problem, "invalid-issuer-url")


def _check_audiences(path: Path, issuer: dict, ctx: Context) -> Iterator[Finding]:
    audiences = issuer.get("audiences")
    if not audiences:
        if audiences is None or audiences == []:
            yield required(path + ("audiences",), f"at least one {render_path(path + ('audiences',))} is required")
        return
    if not isinstance(audiences, list):
        return
    if not ctx.at_least(1, 30) and len(audiences) > 1:
        yield too_many(path + ("audiences",), len(audiences), 1, ctx, "too-many-audiences")
    seen: set[str] = set()
    for j, audience in items(audiences):
        if audience == "" or audience is None:
            yield required(path + ("audiences", j), "audience can't be empty" if old_wording(ctx) else "")
        elif isinstance(audience, str):
            if audience in seen:
                yield duplicate(path + ("audiences", j), audience, "duplicate-audience")
            seen.add(audience)
    if not ctx.at_least(1, 30):
        return
    policy = text(issuer.get("audienceMatchPolicy"))
    where = path + ("audienceMatchPolicy",)
    if len(audiences) > 1 and policy != "MatchAny":
        yield invalid(where, policy, "audienceMatchPolicy must be MatchAny for multiple audiences", "invalid-audience-match-policy")
    elif len(audiences) == 1 and policy not in ("", "MatchAny"):
        yield invalid(where, policy, "audienceMatchPolicy must be empty or MatchAny for single audience", "invalid-audience-match-policy")


def _check_ca(path: Path, data) -> Iterator[Finding]:
    """At least one PEM CERTIFICATE block that parses, as client-go's ParseCertsPEM reads the bundle."""
    if not isinstance(data, str) or not data:
        return
    found = False
    for block in pem_blocks(data):
        if block.type != "CERTIFICATE" or block.headers:
            continue  # other block types and blocks with headers are skipped
        if not _looks_like_certificate(block.data):
            yield Finding("invalid-certificate-authority", path, 'Invalid value: "<omitted>": x509: malformed certificate')
            return
        found = True
    if found:
        return
    yield Finding(
        "invalid-certificate-authority",
        path,
        'Invalid value: "<omitted>": data does not contain any valid RSA or ECDSA certificates',
    )


def _der_length(der: bytes, at: int) -> tuple[int, int] | None:
    """(length, offset of the content) of the DER element whose length byte is at `at`."""
    if at >= len(der):
        return None
    first = der[at]
    if first < 0x80:
        return first, at + 1
    count = first & 0x7F
    if count == 0 or count > 4 or at + 1 + count > len(der):
        return None
    return int.from_bytes(der[at + 1 : at + 1 + count], "big"), at + 1 + count


def _looks_like_certificate(der: bytes) -> bool:
    """A DER SEQUENCE spanning the whole block whose first element is a SEQUENCE (tbsCertificate)."""
    if len(der) < 4 or der[0] != 0x30:
        return False
    outer = _der_length(der, 1)
    if outer is None or outer[1] + outer[0] != len(der):
        return False
    return der[outer[1]] == 0x30 and _der_length(der, outer[1] + 1) is not None


def _check_claim_rules(path: Path, rules, ctx: Context) -> Iterator[Finding]:
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


def _check_mappings(path: Path, mappings: dict, ctx: Context) -> Iterator[Finding]:
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


def _check_email(base: Path, jwt: dict, ctx: Context) -> Iterator[Finding]:
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


def _email_by_index_advice(base: Path, jwt: dict) -> Iterator[Finding]:
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


def _check_user_rules(path: Path, rules, ctx: Context) -> Iterator[Finding]:
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


@rule("AuthenticationConfiguration")
def check_anonymous(doc: dict, ctx: Context) -> Iterator[Finding]:
    if "anonymous" not in doc or not ctx.at_least(1, 29):
        return
    if not ctx.at_least(1, 31):
        return  # unknown before 1.31: the schema check reports it
    anonymous = mapping(doc.get("anonymous"))
    if not ctx.at_least(1, 32):  # 1.31 (earlier releases returned above)
        yield forbidden(
            ("anonymous",),
            "anonymous is not supported when AnonymousAuthConfigurableEnpoints feature gate is disabled",
            "anonymous-not-supported",
        )
    conditions = anonymous.get("conditions")
    enabled = anonymous.get("enabled") is True
    if isinstance(conditions, list) and conditions and not enabled:
        value = [{"Path": text(mapping(c).get("path"))} for c in conditions]
        yield invalid(
            ("anonymous", "conditions"),
            value,
            "enabled should be set to true when conditions are defined",
            "anonymous-conditions-when-disabled",
        )
    if enabled and not conditions:
        yield advice(
            "anonymous-every-path",
            ("anonymous", "enabled"),
            "anonymous requests are authenticated on every path; list the paths they may reach in conditions (e.g. /livez, /readyz, /healthz)",
        )


def _public_issuer_advice(base: Path, issuer: dict, jwt: dict) -> Iterator[Finding]:
    url = issuer.get("url")
    if not isinstance(url, str) or jwt.get("claimValidationRules") or url_problem(url):
        return
    host = split_url(url).hostname.lower().rstrip(".")
    who = SHARED_ISSUERS.get(host)
    if who:
        yield advice(
            "public-issuer-without-claim-rules",
            base + ("issuer", "url"),
            f"{host} signs tokens for {who}; without claimValidationRules any of them whose token carries "
            "one of the audiences is a user of this cluster: add claimValidationRules (e.g. on hd, repository or sub)",
        )
    elif is_public_host(host):
        yield advice(
            "public-issuer-without-claim-rules",
            base + ("issuer", "url"),
            "the issuer is on a public host, so it can sign tokens beyond this cluster; if it serves more than "
            "your users (a shared or SaaS identity provider), add claimValidationRules that accept only them",
            Severity.INFO,
        )


def is_public_host(host: str) -> bool:
    """A host reachable on the public internet: a dotted DNS name outside private suffixes, or a public IP."""
    host = host.lower().rstrip(".")
    ip = parse_ip(host)
    if ip is not None:
        return ip.is_global
    return "." in host and not host.endswith(_PRIVATE_SUFFIXES)
