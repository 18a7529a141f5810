"""The API server's CEL environments by release, built with cel-expr-python (the CEL C++ runtime).

Importing this module imports the binding (~15 ms with the environments), and fails where the
binding is not installed (it has no wheel for musl libc): `svcconf.cel` imports it only when a
document holds an expression, and says so when it cannot.
"""

from __future__ import annotations

from functools import cache

from cel_expr_python import cel
from cel_expr_python.ext import ext_optional, ext_strings

from ..model import at_least

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
    strings = ext_strings.ExtStrings(2 if at_least(bucket, 1, 29) else 0)
    extensions = [strings, ext_optional.ExtOptional()] if at_least(bucket, 1, 28) else [strings]
    return cel.NewEnv(
        config=config,
        variables={variable: WORDING[variable] if wording else VARIABLES[variable]},
        extensions=extensions,
        functions=_function_decls(bucket),
    )
