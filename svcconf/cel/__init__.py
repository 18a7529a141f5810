"""CEL compile and type-check for expressions in API server configs, in the server's environment by release.

The checker is cel-expr-python (the CEL C++ runtime): it parses optional field selection and the
strings extension, and type-checks against declared variables. What it lacks of the Kubernetes
environment (URL, regex, lists, sets, quantity, IP/CIDR, format and semver libraries) is declared
here from a table; the declarations only type-check, they are never evaluated by the validator.
Issues are rendered the way cel-go's `Issues.String()` prints them, which upstream messages embed.
Import this module only when a document holds CEL: the binding and the environments cost ~15 ms.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import NamedTuple

from cel_expr_python import cel
from cel_expr_python.ext import ext_optional, ext_strings

from .tokens import tokens

T = cel.Type
STRING, BOOL, INT, DOUBLE, DYN = T.STRING, T.BOOL, T.INT, T.DOUBLE, T.DYN
LIST_DYN = T("list<dyn>")
LIST_STRING = T("list<string>")
URL, IP, CIDR = T("kubernetes.URL"), T("net.IP"), T("net.CIDR")
QUANTITY, SEMVER, FORMAT = T("kubernetes.Quantity"), T("kubernetes.Semver"), T("kubernetes.NamedFormat")

# (release, name, receiver or None, parameters, result): the Kubernetes CEL libraries
# (pkg/cel/library) as declared in the StoredExpressions environment of each release.
# Type parameters are declared as dyn: lenient, never a false error.
_LIBRARY = [
    # URLs, regex and lists v0 are in every release that reads these kinds.
    ((1, 0), "url", None, [STRING], URL),
    ((1, 0), "isURL", None, [STRING], BOOL),
    *[((1, 0), m, URL, [], STRING) for m in ("getScheme", "getHost", "getHostname", "getPort", "getEscapedPath")],
    ((1, 0), "getQuery", URL, [], T("map<string,list<string>>")),
    ((1, 0), "find", STRING, [STRING], STRING),
    ((1, 0), "findAll", STRING, [STRING], LIST_STRING),
    ((1, 0), "findAll", STRING, [STRING, INT], LIST_STRING),
    ((1, 0), "isSorted", LIST_DYN, [], BOOL),
    *[((1, 0), m, LIST_DYN, [], DYN) for m in ("sum", "min", "max")],
    # Quantity (1.28).
    ((1, 28), "quantity", None, [STRING], QUANTITY),
    ((1, 28), "isQuantity", None, [STRING], BOOL),
    *[((1, 28), m, QUANTITY, [], BOOL) for m in ("isInteger",)],
    ((1, 28), "asInteger", QUANTITY, [], INT),
    ((1, 28), "asApproximateFloat", QUANTITY, [], DOUBLE),
    ((1, 28), "sign", QUANTITY, [], INT),
    *[((1, 28), m, QUANTITY, [p], QUANTITY) for m in ("add", "sub") for p in (QUANTITY, INT)],
    *[((1, 28), m, QUANTITY, [QUANTITY], BOOL) for m in ("isGreaterThan", "isLessThan")],
    ((1, 28), "compareTo", QUANTITY, [QUANTITY], INT),
    # IP and CIDR (1.30).
    ((1, 30), "ip", None, [STRING], IP),
    ((1, 30), "isIP", None, [STRING], BOOL),
    ((1, 30), "ip.isCanonical", None, [STRING], BOOL),
    ((1, 30), "family", IP, [], INT),
    *[((1, 30), m, IP, [], BOOL) for m in ("isUnspecified", "isLoopback", "isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast")],
    ((1, 30), "cidr", None, [STRING], CIDR),
    ((1, 30), "isCIDR", None, [STRING], BOOL),
    ((1, 30), "containsIP", CIDR, [STRING], BOOL),
    ((1, 30), "containsIP", CIDR, [IP], BOOL),
    ((1, 30), "containsCIDR", CIDR, [STRING], BOOL),
    ((1, 30), "containsCIDR", CIDR, [CIDR], BOOL),
    ((1, 30), "ip", CIDR, [], IP),
    ((1, 30), "masked", CIDR, [], CIDR),
    ((1, 30), "prefixLength", CIDR, [], INT),
    # Format (1.31).
    ((1, 31), "format.named", None, [STRING], DYN),  # optional(format): the binding cannot name optional types
    *[
        ((1, 31), f"format.{name}", None, [], FORMAT)
        for name in (
            "dns1123Label",
            "dns1123Subdomain",
            "dns1035Label",
            "qualifiedName",
            "dns1123LabelPrefix",
            "dns1123SubdomainPrefix",
            "dns1035LabelPrefix",
            "labelValue",
            "uri",
            "uuid",
            "byte",
            "date",
            "datetime",
        )
    ],
    ((1, 31), "validate", FORMAT, [STRING], DYN),  # optional(list(string))
    # Semver (1.33).
    ((1, 33), "semver", None, [STRING], SEMVER),
    ((1, 33), "semver", None, [STRING, BOOL], SEMVER),
    ((1, 33), "isSemver", None, [STRING], BOOL),
    ((1, 33), "isSemver", None, [STRING, BOOL], BOOL),
    *[((1, 33), m, SEMVER, [], INT) for m in ("major", "minor", "patch")],
    *[((1, 33), m, SEMVER, [SEMVER], BOOL) for m in ("isGreaterThan", "isLessThan")],
    ((1, 33), "compareTo", SEMVER, [SEMVER], INT),
]

# Overloads the binding cannot add to a function it already declares (it refuses a second
# declaration): list indexOf/lastIndexOf, string(ip), string(cidr), and cel-go's
# CrossTypeNumericComparisons (1.28). An issue about one of them is dropped, and the result type
# of that expression stays unknown (never a false error).
_NUMBER = r"(?:int|uint|double|dyn)"
_NOT_DECLARABLE = re.compile(
    r"found no matching overload for '(?:"
    r"(?:indexOf|lastIndexOf)' applied to '\(list\(.*"
    r"|string' applied to '\((?:net\.IP|net\.CIDR)\)'"
    rf"|_(?:<|<=|>|>=)_' applied to '\({_NUMBER}, {_NUMBER}\)'"
    r")$"
)

# Extensions the C++ runtime ships, by the release that enabled them in the Kubernetes environment.
_EXTENSIONS = [((1, 29), "sets", 0), ((1, 32), "cel.lib.ext.comprev2", 0), ((1, 34), "lists", 2)]

# The variables of each kind of expression (rules-apiserver 3.1). Objects are declared as
# map(string, dyn) (the binding needs protobuf descriptors for struct types); their fields are
# checked by the token scan below, and the leaves' types refine the result type of a plain field selection.
VARIABLES = {"claims": T.Map(STRING, DYN), "user": T.Map(STRING, DYN), "request": T.Map(STRING, DYN)}
# The types the server declares (pkg/authentication/cel/compile.go, pkg/authorization/cel/compile.go):
# claims is map(string, any), user and request are object types. The checker cannot check fields of
# those object types and treats `any` more strictly than cel-go in places (a comprehension over it),
# so expressions are checked as above and a failure is worded again with these types, as cel-go prints it.
WORDING = {
    "claims": T("map<string,google.protobuf.Any>"),
    "user": T("kubernetes.UserInfo"),
    "request": T("kubernetes.SubjectAccessReviewSpec"),
}

UNKNOWN = "unknown"  # result type when the checker could not tell (see _NOT_DECLARABLE)
_UNDECLARED = re.compile(r"undeclared reference to '([^']+)' \(in container '([^']*)'\)")
_ISSUE = re.compile(r"^ERROR: <input>:(\d+):(\d+): (.*)$", re.ASCII)


class Result(NamedTuple):
    """Outcome of compiling one expression: an error text (cel-go wording) or the result type."""

    error: str | None
    type_name: str  # cel-go spelling: bool, string, dyn, list(string), map(string, dyn)


def release_bucket(target: tuple) -> tuple:
    """The environment changes only at these releases; share one environment between the others."""
    points = sorted({r for r, *_ in _LIBRARY} | {r for r, *_ in _EXTENSIONS} | {(1, 28), (1, 29)})
    bucket = (1, 0)
    for point in points:
        if tuple(target) >= point:
            bucket = point
    return bucket


def _function_decls(bucket: tuple) -> list:
    overloads: dict[str, list] = {}
    for release, name, receiver, params, result in _LIBRARY:
        if release > bucket:
            continue
        types = ([receiver] if receiver is not None else []) + list(params)
        ident = f"k8s_{name}_{'_'.join(t.name() for t in types) or 'none'}".replace(".", "_")
        overloads.setdefault(name, []).append(cel.Overload(ident, result, types, is_member=receiver is not None))
    return [cel.FunctionDecl(name, items) for name, items in overloads.items()]


@cache
def environment(variable: str, bucket: tuple, wording: bool = False):
    """The CEL environment of one variable (claims, user or request) in one release bucket.

    With `wording`, the variable has the type the server declares, for the text of issues only.
    """
    lines = ["extensions:"]
    lines += [f'  - name: "{name}"\n    version: {version}' for release, name, version in _EXTENSIONS if release <= bucket]
    config = cel.NewEnvConfigFromYaml("\n".join(lines) + "\n") if len(lines) > 1 else None
    strings = ext_strings.ExtStrings(2 if bucket >= (1, 29) else 0)
    extensions = [strings, ext_optional.ExtOptional()] if bucket >= (1, 28) else [strings]
    return cel.NewEnv(
        config=config,
        variables={variable: WORDING[variable] if wording else VARIABLES[variable]},
        extensions=extensions,
        functions=_function_decls(bucket),
    )


@lru_cache(maxsize=4096)
def compile_expression(expression: str, variable: str, target: tuple = (1, 36)) -> Result:
    """Compile and type-check `expression` with `variable` declared, as the server of `target` would."""
    bucket = release_bucket(target)
    env = environment(variable, bucket)
    extra = undefined_fields(expression, variable, bucket)
    try:
        type_name = type_text(env.compile(expression).return_type())
    except RuntimeError as error:
        return _failure(_server_wording(str(error), expression, variable, bucket), expression, extra, target)
    if extra:
        return Result(_render(extra, expression), "")
    if literals := _literal_issues(expression, target):
        return Result(_render(literals, expression), "")
    if type_name == "dyn":
        type_name = leaf_type(expression, variable, bucket) or type_name
    return Result(None, type_name)


def _server_wording(text: str, expression: str, variable: str, bucket: tuple) -> str:
    """The checker's issues worded with the variable's declared type, where that finds the same issues."""
    if variable not in WORDING:
        return text
    try:
        environment(variable, bucket, wording=True).compile(expression)
    except RuntimeError as error:
        worded = str(error)
        same = _positions(worded) == _positions(text)
        return worded if same else text
    return text


def _positions(text: str) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in map(_ISSUE.match, text.split("\n")) if m]


def _literal_issues(expression: str, target: tuple) -> list[tuple[int, int, str]]:
    """What the server's literal validators refuse in an expression that type-checked (cel_literals)."""
    from .literals import literal_issues

    return literal_issues(expression, tuple(target))


def _failure(text: str, expression: str, extra: list, target: tuple) -> Result:
    text = text.removeprefix("INVALID_ARGUMENT: ").removesuffix(" [INVALID_ARGUMENT]")
    if text.startswith("Unsupported map key type: optional_type"):
        # cel-go accepts an optional value as a map key ({claims.?email: "x"}); the result is a map.
        return Result(_render(extra, expression) if extra else None, "map(optional_type(dyn), dyn)")
    issues = _parse_issues(text)
    if issues is None:
        return Result("compilation failed: " + text, "")
    issues = [issue for issue in issues if not _NOT_DECLARABLE.match(issue[2])]
    if not issues and not extra:
        literals = _literal_issues(expression, target)
        return Result(_render(literals, expression), "") if literals else Result(None, UNKNOWN)
    return Result(_render(issues + extra, expression), "")


def _parse_issues(text: str) -> list[tuple[int, int, str]] | None:
    """(line, column, message) of each `ERROR: <input>:L:C: msg` issue; None for another shape."""
    issues = []
    for line in text.split("\n"):
        match = _ISSUE.match(line)
        if match:
            issues.append((int(match.group(1)), int(match.group(2)), match.group(3)))
        elif not line.startswith(" | "):
            return None
    return issues or None


def _render(issues: list[tuple[int, int, str]], expression: str) -> str:
    """cel-go's Issues.String(): issues by position, each with its source line and a caret."""
    source_lines = expression.split("\n")
    fixed = sorted({_cel_go_position(issue, source_lines) for issue in issues})
    parts = []
    for line, column, message in fixed:
        source = source_lines[line - 1] if 0 < line <= len(source_lines) else ""
        parts.append(f"ERROR: <input>:{line}:{column}: {message}\n | {source}\n | {'.' * (column - 1)}^")
    return "compilation failed: " + "\n".join(parts)


def _cel_go_position(issue: tuple[int, int, str], source_lines: list[str]) -> tuple[int, int, str]:
    """cel-go names the first unresolved identifier of `a.b.c` at its start; the C++ checker names the whole chain at the last dot."""
    line, column, message = issue
    match = _UNDECLARED.fullmatch(message)
    if not match or "." not in match.group(1):
        return issue
    qualified, container = match.groups()
    head, _, _last = qualified.rpartition(".")
    start = column - len(head)
    source = source_lines[line - 1] if 0 < line <= len(source_lines) else ""
    if start < 1 or source[start - 1 : column - 1] != head:
        return issue
    first = qualified.split(".", 1)[0]
    return (line, start, f"undeclared reference to '{first}' (in container '{container}')")


_CASE_RUNS = re.compile(r"[A-Z_]+|[a-z_]+")


def type_text(cel_type) -> str:
    """cel-go's spelling of a type name: list(string), map(string, dyn), optional_type(dyn)."""
    name = cel_type.name()
    out = _CASE_RUNS.sub(lambda m: m.group(0).lower() if m.group(0).isupper() else m.group(0), name)
    return out.replace("<", "(").replace(">", ")")


# --------------------------------------------------------------------------- object variables
# Field shapes of `user` (kubernetes.UserInfo) and `request` (kubernetes.SubjectAccessReviewSpec):
# a dict is an object type (unknown fields are errors), a string the cel-go type of a leaf.
_EXTRA = "map(string, list(string))"
_SELECTOR = {"rawSelector": "string", "requirements": "list(kubernetes.SelectorRequirement)"}
_USER = {"username": "string", "uid": "string", "groups": "list(string)", "extra": _EXTRA}
_RESOURCE = {f: "string" for f in ("namespace", "verb", "group", "version", "resource", "subresource", "name")}
_SHAPE_NAMES = {"resourceAttributes": "kubernetes.ResourceAttributes", "nonResourceAttributes": "kubernetes.NonResourceAttributes"}


def shape(variable: str, bucket: tuple) -> dict | None:
    """The declared fields of an object variable; fieldSelector and labelSelector from 1.32 (AuthorizeWithSelectors beta)."""
    if variable == "user":
        return _USER
    if variable != "request":
        return None
    resource = dict(_RESOURCE)
    if bucket >= (1, 32):
        resource.update(fieldSelector=_SELECTOR, labelSelector=_SELECTOR)
    request = {"user": "string", "groups": "list(string)", "uid": "string", "extra": _EXTRA}
    request.update(resourceAttributes=resource, nonResourceAttributes={"path": "string", "verb": "string"})
    return request


def selections(expression: str, variable: str) -> list[list[tuple[str, int, bool]]]:
    """Field chains selected from `variable`: each a list of (field, offset of its dot, optional)."""
    toks = tokens(expression)
    chains = []
    for i, (kind, text, _offset) in enumerate(toks):
        if kind != "ident" or text != variable:
            continue
        if i and toks[i - 1][1] in (".", ".?"):
            continue
        chain, j = [], i + 1
        while j + 1 < len(toks) and toks[j][1] in (".", ".?") and toks[j + 1][0] == "ident":
            if j + 2 < len(toks) and toks[j + 2][1] == "(":
                break  # a method call, not a field
            chain.append((toks[j + 1][1], toks[j][2], toks[j][1] == ".?"))
            j += 2
        chains.append(chain)
    return chains


def _line_column(expression: str, offset: int) -> tuple[int, int]:
    line = expression.count("\n", 0, offset) + 1
    return line, offset - (expression.rfind("\n", 0, offset) + 1) + 1


def undefined_fields(expression: str, variable: str, bucket: tuple) -> list[tuple[int, int, str]]:
    """cel-go's `undefined field` issues for fields the object variable does not declare."""
    fields = shape(variable, bucket)
    if fields is None:
        return []
    issues = []
    for chain in selections(expression, variable):
        node = fields
        for field, offset, _optional in chain:
            if not isinstance(node, dict):
                break
            if field not in node:
                issues.append((*_line_column(expression, offset), f"undefined field '{field}'"))
                break
            node = node[field]
    return issues


def leaf_type(expression: str, variable: str, bucket: tuple) -> str | None:
    """The declared type of an expression that is only a field selection (`request.user`)."""
    fields = shape(variable, bucket)
    toks = tokens(expression)
    chains = selections(expression, variable)
    if fields is None or len(chains) != 1 or len(toks) != 1 + 2 * len(chains[0]) or not chains[0]:
        return None
    node, name = fields, None
    for field, _offset, optional in chains[0]:
        if optional or not isinstance(node, dict) or field not in node:
            return None
        node, name = node[field], field
    return node if isinstance(node, str) else _SHAPE_NAMES.get(name, "dyn")
