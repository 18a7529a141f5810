"""AuthenticationConfiguration rules: JWT issuers, audiences, anonymous, as the API server checks them; claims in claim_rules.py.

Messages follow the target release (wording changed in 1.34; 1.29 allowed one authenticator).
CEL is compiled through svcconf.cel, imported only when an expression is present.
"""

from __future__ import annotations

from collections.abc import Iterator

from svcconf.go.memo import remembered
from svcconf.go.net import parse_ip
from svcconf.go.pem import blocks as pem_blocks
from svcconf.go.url import split_url
from svcconf.model import Finding, Path, Severity, render_path

from .. import Context, advice, duplicate, forbidden, invalid, items, mapping, required, rule, text
from .claim_rules import check_claim_rules, check_email, check_mappings, check_user_rules, email_by_index_advice, old_wording, too_many

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
        yield from check_claim_rules(base + ("claimValidationRules",), jwt.get("claimValidationRules"), ctx)
        yield from check_mappings(base + ("claimMappings",), mapping(jwt.get("claimMappings")), ctx)
        yield from check_email(base, jwt, ctx)
        yield from email_by_index_advice(base, jwt)
        yield from check_user_rules(base + ("userValidationRules",), jwt.get("userValidationRules"), ctx)
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
