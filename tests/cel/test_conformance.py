"""CEL conformance: real expressions from the catalogue and upstream docs compile clean or fail for the right reason."""

from __future__ import annotations

import pytest

from svcconf import cel

HEAD = (1, 36)

# (variable, expression, release, expected result type) for expressions the server accepts.
VALID = [
    # rules-apiserver 15.1 and the structured authentication docs.
    ("claims", 'claims.?email.orValue("")', HEAD, "dyn"),
    ("claims", 'claims.email.split("@")[0].lowerAscii()', HEAD, "string"),
    ("claims", "['yay', string(claims.email), 'panda'].join(' ')", HEAD, "string"),
    ("claims", "claims.?email_verified.orValue(true) == true", HEAD, "bool"),
    ("claims", "has(claims.email) ? claims.email : claims.sub", HEAD, "dyn"),
    ("claims", 'string(claims.email_verified) == "panda"', HEAD, "bool"),
    ("claims", "claims.email_verified.upperAscii()", HEAD, "string"),
    ("claims", "claims.?email_verified.orValue(true) ? claims.email : claims.sub", HEAD, "dyn"),
    ("claims", '{claims.?email: "panda"}', HEAD, "map(optional_type(dyn), dyn)"),
    ("claims", '{"fancy": claims.?email}', HEAD, "map(string, optional_type(dyn))"),
    ("claims", "claims.other.claims.email", HEAD, "dyn"),
    ("claims", "claims.hd == 'example.com'", HEAD, "bool"),
    ("claims", "claims.exp - claims.nbf <= 86400", HEAD, "bool"),
    ("claims", "claims.username + ':external-user'", HEAD, "string"),
    ("claims", 'claims.roles.split(",")', HEAD, "list(string)"),
    ("claims", "claims.email.endsWith('@example.com')", HEAD, "bool"),
    ("claims", "claims.sub.matches('^[a-z]+$')", HEAD, "bool"),
    ("claims", "claims.email.trim()", HEAD, "string"),
    # Libraries of the Kubernetes environment (rules-apiserver 3.2).
    ("claims", "sets.contains(['admins', 'dev'], [claims.team])", HEAD, "bool"),
    ("claims", "url('https://' + claims.hd).getHost() == 'example.com'", HEAD, "bool"),
    ("claims", "'abc'.find('[a-z]+') == 'abc'", HEAD, "bool"),
    ("claims", "[1, 2, 3].isSorted()", HEAD, "bool"),
    ("claims", "quantity('1Gi').isGreaterThan(quantity('1Mi'))", HEAD, "bool"),
    ("claims", "cidr('10.0.0.0/8').containsIP(ip('10.1.2.3'))", HEAD, "bool"),
    ("claims", "isIP(claims.ip) && ip(claims.ip).family() == 4", HEAD, "bool"),
    ("claims", "!format.dns1123Label().validate(claims.sub).hasValue()", HEAD, "bool"),
    ("claims", "semver('1.2.3').isLessThan(semver('1.10.0'))", HEAD, "bool"),
    ("claims", "claims.groups.all(i, g, g != 'root')", HEAD, "bool"),
    ("claims", "[3, 1, 2].sort() == [1, 2, 3]", HEAD, "bool"),
    ("claims", "1 < 1.5", HEAD, cel.UNKNOWN),
    ("claims", "[1, 2].indexOf(2) == 1", HEAD, cel.UNKNOWN),
    # userValidationRules (docs).
    ("user", "!user.username.startsWith('system:')", HEAD, "bool"),
    ("user", "user.groups.all(group, !group.startsWith('system:'))", HEAD, "bool"),
    ("user", "'example.com/team' in user.extra", HEAD, "bool"),
    # matchConditions (rules-apiserver 15.2 and the structured authorization docs).
    ("request", "has(request.resourceAttributes) && request.resourceAttributes.namespace == 'kube-system'", HEAD, "bool"),
    ("request", "!('system:serviceaccounts:kube-system' in request.groups)", HEAD, "bool"),
    ("request", "has(request.resourceAttributes)", HEAD, "bool"),
    ("request", "request.resourceAttributes.namespace == 'kube-system'", HEAD, "bool"),
    ("request", "request.resourceAttributes.?labelSelector.rawSelector.orValue('') != ''", HEAD, "bool"),
    ("request", "has(request.nonResourceAttributes) && request.nonResourceAttributes.path.startsWith('/metrics')", HEAD, "bool"),
    ("request", "request.user", HEAD, "string"),
    ("request", "request.groups", HEAD, "list(string)"),
]

UNDECLARED_TEST = "compilation failed: ERROR: <input>:1:1: undeclared reference to 'test' (in container '')\n | test\n | ^"
SYNTAX = (
    "compilation failed: ERROR: <input>:1:14: Syntax error: token recognition error at: '= '\n"
    " | request.user = 'test'\n | .............^\n"
    "ERROR: <input>:1:16: Syntax error: extraneous input ''test'' expecting <EOF>\n"
    " | request.user = 'test'\n | ...............^"
)

# (variable, expression, release, exact error text or the text it must contain).
INVALID = [
    (
        "claims",
        "foo.bar",
        HEAD,
        "compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo.bar\n | ^",
    ),
    ("request", "test", HEAD, UNDECLARED_TEST),
    ("request", "request.user = 'test'", HEAD, SYNTAX),
    (
        "request",
        "request.verb == 'get'",
        HEAD,
        "compilation failed: ERROR: <input>:1:8: undefined field 'verb'\n | request.verb == 'get'\n | .......^",
    ),
    ("user", "user.nickname == 'x'", HEAD, "undefined field 'nickname'"),
    ("claims", "user.username == 'x'", HEAD, "undeclared reference to 'user'"),
    ("request", "claims.sub == 'x'", HEAD, "undeclared reference to 'claims'"),
    ("claims", "claims.h +", HEAD, "Syntax error: mismatched input '<EOF>'"),
    ("claims", "1 + 'a'", HEAD, "found no matching overload for '_+_' applied to '(int, string)'"),
    ("claims", "url(1)", HEAD, "found no matching overload for 'url' applied to '(int)'"),
    # Types named as the server declares them (authentication and authorization cel/compile.go).
    ("claims", "claims + 1", HEAD, "found no matching overload for '_+_' applied to '(map(string, any), int)'"),
    ("claims", "claims.foo + claims", HEAD, "found no matching overload for '_+_' applied to '(any, map(string, any))'"),
    ("user", "user + 1", HEAD, "found no matching overload for '_+_' applied to '(kubernetes.UserInfo, int)'"),
    ("request", "request + 1", HEAD, "applied to '(kubernetes.SubjectAccessReviewSpec, int)'"),
    # Release-dependent libraries and fields (rules-apiserver 3.2, 2.3).
    ("claims", "ip('1.2.3.4').family() == 4", (1, 29), "undeclared reference to 'ip'"),
    ("claims", "format.dns1123Label().validate('a').hasValue()", (1, 30), "undeclared reference to 'format'"),
    ("claims", "[1].all(i, v, v > 0)", (1, 31), "undeclared reference to 'all'"),
    ("claims", "semver('1.0.0').major() == 1", (1, 32), "undeclared reference to 'semver'"),
    ("claims", "[2, 1].sort() == [1, 2]", (1, 33), "undeclared reference to 'sort'"),
    ("request", "has(request.resourceAttributes.fieldSelector)", (1, 31), "undefined field 'fieldSelector'"),
]

# (variable, expression, result type that a rule refuses): compiles, but the type is wrong where bool is required.
NOT_BOOL = [
    ("claims", "claims.foo", "dyn"),
    ("claims", "claims.?email_verified.orValue(true)", "dyn"),
    ("user", "user.username", "string"),
    ("request", "request.user", "string"),
    ("request", "request.resourceAttributes", "kubernetes.ResourceAttributes"),
]

# The literal validators of the server's base environment (pkg/cel/environment/base.go, 1.29):
# the cases of cel-go's cel/validator_test.go, with `x` and `name` written as claims fields.
LITERALS = [
    ("duration('1')", "1:10: invalid duration argument\n | duration('1')\n | .........^"),
    ("duration('1d')", "1:10: invalid duration argument\n | duration('1d')\n | .........^"),
    ("duration('1us')\n < duration('1nns')", "2:13: invalid duration argument\n |  < duration('1nns')\n | ............^"),
    ("timestamp('1000-00-00T00:00:00Z')", "1:11: invalid timestamp argument\n | timestamp('1000-00-00T00:00:00Z')\n | ..........^"),
    ("timestamp('1000-01-01T00:00:00ZZ')", "1:11: invalid timestamp argument\n | timestamp('1000-01-01T00:00:00ZZ')\n | ..........^"),
    ("timestamp(-62135596801)", "1:11: invalid timestamp argument\n | timestamp(-62135596801)\n | ..........^"),
    ("'hello'.matches('x++')", "1:17: invalid matches argument\n | 'hello'.matches('x++')\n | ................^"),
    ("'hello'.matches('(?<name%>el*)')", "1:17: invalid matches argument\n | 'hello'.matches('(?<name%>el*)')\n | ................^"),
    ("'hello'.matches('??el*')", "1:17: invalid matches argument\n | 'hello'.matches('??el*')\n | ................^"),
    (
        "claims.name in ['hello', 0]",
        "1:26: expected type 'string' but found 'int'\n | claims.name in ['hello', 0]\n | .........................^",
    ),
    ("{'hello':'world', 1:'!'}", "1:19: expected type 'string' but found 'int'\n | {'hello':'world', 1:'!'}\n | ..................^"),
    (
        "claims.name in {'hello':'world', 'goodbye':true}",
        (
            "1:44: expected type 'string' but found 'bool'\n | claims.name in {'hello':'world', 'goodbye':true}\n"
            " | ...........................................^"
        ),
    ),
    (
        "[1, 'a'] == [1, 'a'] && duration(claims.x) < duration('1d')",
        (
            "1:5: expected type 'int' but found 'string'\n | [1, 'a'] == [1, 'a'] && duration(claims.x) < duration('1d')\n | ....^\n"
            "ERROR: <input>:1:17: expected type 'int' but found 'string'\n | [1, 'a'] == [1, 'a'] && duration(claims.x) < duration('1d')\n"
            " | ................^\n"
            "ERROR: <input>:1:55: invalid duration argument\n | [1, 'a'] == [1, 'a'] && duration(claims.x) < duration('1d')\n"
            " | ......................................................^"
        ),
    ),
]
LITERALS_ACCEPTED = [
    "duration('2h3m4s5us')",
    "duration(claims.x) > duration('1s')",
    "timestamp('1000-01-01T00:00:00Z')",
    "timestamp(-6213559680)",
    "timestamp(claims.x)",
    "'hello'.matches('el*')",
    "'hello'.matches(claims.x)",
    "claims.name in ['hello', 'world']",
    "claims.name in ['hello', ?optional.ofNonZeroValue('')]",
    "claims.name in [?optional.ofNonZeroValue(''), 'hello', ?optional.of('')]",
    "claims.name in {'hello': false, 'world': true}",
    "{'hello': false, ?'world': optional.ofNonZeroValue(true)}",
    "{?'hello': optional.ofNonZeroValue(false), 'world': true}",
    # RE2 syntax Python's re does not know: never refused.
    "claims.sub.matches('^\\\\pL+$')",
    "claims.sub.matches('[[:alpha:]]+\\\\z')",
    "claims.sub.matches('(?<name>a)(?U)b*')",
    # An element whose type only the checker knows: left alone.
    "[1, claims.x, 'a'].size() > 0",
    "'%s is %d'.format(['a', 1]) == 'a is 1'",
]


@pytest.mark.parametrize(("variable", "expression", "release", "type_name"), VALID, ids=[v[1] for v in VALID])
def test_valid_expression_compiles(variable: str, expression: str, release: tuple, type_name: str) -> None:
    result = cel.compile_expression(expression, variable, release)
    assert result.error is None
    assert result.type_name == type_name


@pytest.mark.parametrize(("variable", "expression", "release", "message"), INVALID, ids=[v[1] for v in INVALID])
def test_invalid_expression_fails_for_the_right_reason(variable: str, expression: str, release: tuple, message: str) -> None:
    result = cel.compile_expression(expression, variable, release)
    assert result.error is not None
    assert result.error.startswith("compilation failed: ")
    if message.startswith("compilation failed: "):
        assert result.error == message
    else:
        assert message in result.error


@pytest.mark.parametrize(("variable", "expression", "type_name"), NOT_BOOL, ids=[v[1] for v in NOT_BOOL])
def test_non_bool_result_type(variable: str, expression: str, type_name: str) -> None:
    assert cel.compile_expression(expression, variable, HEAD) == cel.Result(None, type_name)


@pytest.mark.parametrize(("expression", "issues"), LITERALS, ids=[v[0] for v in LITERALS])
def test_literals_the_server_refuses(expression: str, issues: str) -> None:
    assert cel.compile_expression(expression, "claims", HEAD).error == "compilation failed: ERROR: <input>:" + issues


@pytest.mark.parametrize("expression", LITERALS_ACCEPTED)
def test_literals_the_server_accepts(expression: str) -> None:
    assert cel.compile_expression(expression, "claims", HEAD).error is None


def test_literal_arguments_are_checked_from_1_29() -> None:
    # base.go adds the duration, timestamp and regex validators in 1.29; mixed aggregates are refused since 1.0.
    assert cel.compile_expression("duration('1x') > duration('1s')", "claims", (1, 28)).error is None
    assert "expected type 'int' but found 'string'" in cel.compile_expression("[1, 'a'].size() > 0", "claims", (1, 28)).error


def test_multi_line_expression_positions() -> None:
    result = cel.compile_expression("claims.a == 'x' &&\n  nope", "claims", HEAD)
    assert result.error == "compilation failed: ERROR: <input>:2:3: undeclared reference to 'nope' (in container '')\n |   nope\n | ..^"


def test_strings_and_comments_are_not_fields() -> None:
    assert cel.compile_expression("request.user == 'request.verb' // request.foo", "request", HEAD).error is None
