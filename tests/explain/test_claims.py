"""`svcconf explain-claims`: the authenticator, rule results and user the server would make of a JWT payload."""

from __future__ import annotations

import base64
import json

import pytest

from tests.helpers import run

CONFIG = """\
apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt:
  - issuer:
      url: https://other.example.com
      audiences: [other]
    claimMappings:
      username: {claim: sub, prefix: "other:"}
  - issuer:
      url: https://issuer.example.com
      audiences: [kubernetes, dashboard]
      audienceMatchPolicy: MatchAny
    claimValidationRules:
      - claim: hd
        requiredValue: example.com
      - expression: "claims.?email_verified.orValue(true) == true"
        message: email not verified
    claimMappings:
      username:
        expression: 'claims.email.split("@")[0].lowerAscii()'
      groups:
        claim: groups
        prefix: "oidc:"
      uid:
        claim: sub
      extra:
        - key: example.com/tenant
          valueExpression: "claims.?tenant.orValue('')"
        - key: example.com/teams
          valueExpression: "claims.teams"
    userValidationRules:
      - expression: "!user.username.startsWith('system:')"
        message: username cannot use reserved system prefix
"""

CLAIMS = {
    "iss": "https://issuer.example.com",
    "aud": ["dashboard"],
    "exp": 4102444800,
    "sub": "user-1234",
    "hd": "example.com",
    "email": "Jane.Doe@example.com",
    "email_verified": True,
    "groups": ["dev", "ops"],
    "teams": ["a", "", "b"],
    "tenant": "",
}

AUTHENTICATED = """\
authenticator: jwt[1] (issuer https://issuer.example.com)
audience: "dashboard"
claim validation rules:
  [0] claim hd == "example.com": pass
  [1] claims.?email_verified.orValue(true) == true: pass
user:
  username: "jane.doe"
  uid: "user-1234"
  groups: "oidc:dev", "oidc:ops"
  extra example.com/teams: "a", "b"
user validation rules:
  [0] !user.username.startsWith('system:'): pass
result: authenticated
"""


@pytest.fixture
def files(tmp_path):
    config = tmp_path / "auth.yaml"
    config.write_text(CONFIG, encoding="utf-8")

    def write(claims: dict | str, config_text: str | None = None) -> tuple[str, str]:
        if config_text is not None:
            config.write_text(config_text, encoding="utf-8")
        path = tmp_path / "claims.json"
        path.write_text(claims if isinstance(claims, str) else json.dumps(claims), encoding="utf-8")
        return str(config), str(path)

    return write


def explain(files, claims, *extra: str, config_text: str | None = None):
    config, path = files(claims, config_text)
    return run("explain-claims", config, "--claims", path, "--now", "1800000000", *extra)


def test_mapped_user_is_printed_exactly(files) -> None:
    result = explain(files, CLAIMS)
    assert (result.code, result.out, result.err) == (0, AUTHENTICATED, "")


def test_claim_prefix_and_absent_groups(files) -> None:
    claims = {"iss": "https://other.example.com", "aud": "other", "exp": 4102444800, "sub": "abc"}
    result = explain(files, claims)
    assert result.code == 0
    assert (
        result.out
        == 'authenticator: jwt[0] (issuer https://other.example.com)\naudience: "other"\nuser:\n  username: "other:abc"\nresult: authenticated\n'
    )


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"iss": "https://unknown.example.com"}, 'no authenticator has issuer url "https://unknown.example.com" (the iss claim)'),
        ({"aud": "somebody-else"}, 'oidc: expected audience in ["kubernetes","dashboard"], got none of them in the aud claim'),
        ({"exp": 1700000000}, "oidc: token is expired (exp is in the past)"),
        ({"hd": "evil.example"}, 'claim validation rule failed: claim hd == "example.com"'),
        ({"email_verified": False}, "claim validation rule failed: claims.?email_verified.orValue(true) == true"),
        ({"email": "system:admin@example.com"}, "user validation rule failed: !user.username.startsWith('system:')"),
        ({"sub": 42}, 'oidc: parse uid claim "sub": claim is not a string'),
    ],
)
def test_rejections(files, change: dict, reason: str) -> None:
    result = explain(files, {**CLAIMS, **change})
    assert result.code == 1
    assert result.out.splitlines()[-1] == f"result: rejected: {reason}"


def test_failed_rule_is_listed_with_its_message(files) -> None:
    result = explain(files, {**CLAIMS, "email_verified": False})
    assert "  [1] claims.?email_verified.orValue(true) == true: fail (email not verified)\n" in result.out
    assert "user:" not in result.out


def test_unverified_email_claim_is_rejected(files) -> None:
    config = CONFIG.replace("""        expression: 'claims.email.split("@")[0].lowerAscii()'""", '        claim: email\n        prefix: ""')
    result = explain(
        files,
        {**CLAIMS, "email_verified": False},
        config_text=config.replace('      - expression: "claims.?email_verified', '      - expression: "true || claims.?email_verified'),
    )
    assert result.code == 1
    assert result.out.splitlines()[-1] == "result: rejected: oidc: email not verified"


def test_secret_claims_are_never_printed(files) -> None:
    result = explain(files, CLAIMS, "--secret", "sub", "--secret", "groups")
    assert result.code == 0
    assert "user-1234" not in result.out and "oidc:dev" not in result.out
    assert "  uid: REDACTED\n" in result.out
    assert "  groups: REDACTED, REDACTED\n" in result.out


DERIVED = """\
apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt:
  - issuer:
      url: https://issuer.example.com
      audiences: [kubernetes]
    claimValidationRules:
      - claim: hd
        requiredValue: corp.internal
    claimMappings:
      username:
        expression: "claims.tok.inner"
      uid:
        expression: "claims.sub.upperAscii()"
      groups:
        expression: "[claims.sub.substring(0, 3), 'plain']"
      extra:
        - key: example.com/whole
          valueExpression: "[claims].map(c, c.team)"
        - key: example.com/shown
          valueExpression: "claims.team"
"""
DERIVED_CLAIMS = {
    "iss": "https://issuer.example.com",
    "aud": "kubernetes",
    "exp": 4102444800,
    "hd": "corp.internal",
    "sub": "s3cretvalue",
    "tok": {"inner": "n3stedsecret"},
    "team": "blue",
}


@pytest.mark.parametrize("form", ["text", "json"])
def test_values_derived_from_a_secret_claim_are_secret_too(files, form: str) -> None:
    # A mapping that reads a secret claim, through a nested field or any function, gives a secret value.
    config, path = files(DERIVED_CLAIMS, DERIVED)
    secret = ("--secret", "sub", "--secret", "tok", "--secret", "hd")
    result = run("explain", "claims", config, "--claims", path, "--now", "1800000000", "-f", form, *secret)
    assert result.code == 0, result.err
    for value in ("n3stedsecret", "S3CRETVALUE", "s3c", "corp.internal", "s3cretvalue"):
        assert value not in result.out
    if form == "json":
        user = result.json()["user"]
        assert user == {
            "username": "REDACTED",
            "uid": "REDACTED",
            "groups": ["REDACTED", "REDACTED"],
            "extra": {"example.com/whole": ["REDACTED"], "example.com/shown": ["blue"]},
        }
        assert result.json()["claimValidationRules"][0]["rule"] == "claim hd == REDACTED"
    else:
        assert "  username: REDACTED\n  uid: REDACTED\n  groups: REDACTED, REDACTED\n" in result.out
        assert '  extra example.com/shown: "blue"\n' in result.out


def test_the_error_of_an_expression_reading_a_secret_claim_is_not_detailed(files) -> None:
    config = DERIVED.replace('"claims.tok.inner"', "\"claims.sub.upperAscii().matches(claims.sub.upperAscii()) ? 'a' : 'b'\"")
    result = explain(files, {**DERIVED_CLAIMS, "sub": "(s3cret"}, "--secret", "sub", config_text=config)
    assert result.code == 1
    assert "(S3CRET" not in result.out and "resulted in error: REDACTED (the expression reads a secret claim)" in result.out


@pytest.mark.parametrize(
    ("field", "expression", "message"),
    [
        ("username", "claims.?sub", "oidc: error evaluating username claim expression: username claim expression must return a string"),
        ("groups", "[claims.?sub]", "oidc: groups claim expression must return a string or a list of strings"),
    ],
)
def test_a_mapping_to_an_optional_is_refused_as_a_value_of_the_wrong_type(files, field: str, expression: str, message: str) -> None:
    # The server maps what the expression returns; an optional is neither a string nor a list of them.
    mappings = {"username": "claims.sub", field: expression}
    config = DERIVED.split("    claimMappings:")[0] + "    claimMappings:\n"
    config += "".join(f"      {name}:\n        expression: {json.dumps(text)}\n" for name, text in mappings.items())
    result = explain(files, DERIVED_CLAIMS, config_text=config)
    assert result.code == 1, result.err
    assert result.out.splitlines()[-1] == f"result: rejected: {message}"


def test_a_compact_jwt_is_read_and_never_printed(files) -> None:
    def part(data: dict) -> str:
        return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")

    token = f"{part({'alg': 'RS256'})}.{part(CLAIMS)}.c2lnbmF0dXJl"
    result = explain(files, token + "\n")
    assert (result.code, result.out) == (0, AUTHENTICATED)
    assert token not in result.out + result.err and "c2lnbmF0dXJl" not in result.out + result.err


@pytest.mark.parametrize(
    ("claims", "config_text", "message"),
    [
        ("[1, 2]", None, "the payload must be a JSON object"),
        ("not json", None, "not a JSON payload or a JWT"),
        (CLAIMS, "apiVersion: v1\nkind: ConfigMap\n", "holds no AuthenticationConfiguration"),
        # The errors themselves are shown, as validate shows them.
        (CLAIMS, CONFIG.replace("https://issuer.example.com", "http://issuer.example.com"), "error [invalid-issuer-url]"),
    ],
)
def test_usage_errors_exit_2(files, claims, config_text, message: str) -> None:
    result = explain(files, claims, config_text=config_text)
    assert result.code == 2
    assert result.out == ""
    assert message in result.err


def test_missing_claims_option_is_a_usage_error(files) -> None:
    config, _ = files(CLAIMS)
    assert run("explain-claims", config).code == 2


def test_a_utf16_config_reads_as_validate_reads_it(files) -> None:
    config, claims = files(CLAIMS)
    with open(config, "wb") as handle:
        handle.write(b"\xff\xfe" + CONFIG.encode("utf-16-le"))
    result = run("explain-claims", config, "--claims", claims, "--now", "1800000000")
    assert (result.code, result.out) == (0, AUTHENTICATED)
