"""CEL compile and type-check for expressions in API server configs, in the server's environment by release.

The checker is cel-expr-python (the CEL C++ runtime): it parses optional field selection and the
strings extension, and type-checks against declared variables. What it lacks of the Kubernetes
environment (URL, regex, lists, sets, quantity, IP/CIDR, format and semver libraries) is declared
in `runtime` from a table; the declarations only type-check, they are never evaluated by the validator.
Issues are rendered the way cel-go's `Issues.String()` prints them, which upstream messages embed.
The binding loads only when a document holds CEL (~15 ms with the environments). Where it is not
installed (it has no wheel for musl libc), every expression is left unchecked and said to be.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import NamedTuple

from ..model import at_least
from .tokens import tokens

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

UNKNOWN = "unknown"  # result type when the checker could not tell (see _NOT_DECLARABLE)
_UNDECLARED = re.compile(r"undeclared reference to '([^']+)' \(in container '([^']*)'\)")
_ISSUE = re.compile(r"^ERROR: <input>:(\d+):(\d+): (.*)$", re.ASCII)


class Result(NamedTuple):
    """Outcome of compiling one expression: an error text (cel-go wording) or the result type."""

    error: str | None
    type_name: str  # cel-go spelling: bool, string, dyn, list(string), map(string, dyn)
    unchecked: str | None = None  # why the expression was not compiled at all (type_name is then UNKNOWN)


@cache
def missing_runtime() -> str | None:
    """Why expressions cannot be compiled on this machine; None when the CEL runtime loads."""
    try:
        from . import runtime  # noqa: F401
    except ImportError as err:
        if isinstance(err, ModuleNotFoundError) and (err.name or "").startswith("cel_expr_python"):
            return "cel-expr-python is not installed (no wheel for this platform)"
        return f"cel-expr-python cannot be loaded ({err})"
    return None


@lru_cache(maxsize=4096)
def compile_expression(expression: str, variable: str, target: tuple = (1, 36)) -> Result:
    """Compile and type-check `expression` with `variable` declared, as the server of `target` would."""
    missing = missing_runtime()
    if missing:
        return Result(None, UNKNOWN, missing)
    from .runtime import environment, release_bucket

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
    from .runtime import WORDING, environment

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
    if at_least(bucket, 1, 32):
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


def fields_read(expression: str, variable: str) -> frozenset[str] | None:
    """The fields of `variable` an expression reads (`v.f`, `v.?f`, `v["f"]`, `v[?"f"]`); None when it may read any.

    Any other use of the variable (passed whole, indexed by a computed key, iterated, a macro
    variable of the same name) may reach every field.
    """
    from .literals import string_value

    toks = tokens(expression)
    found = set()
    for i, (kind, text, _offset) in enumerate(toks):
        if kind != "ident" or text != variable or (i and toks[i - 1][1] in (".", ".?")):
            continue
        after = [token[1] for token in toks[i + 1 : i + 5]]
        if after[:1] in (["."], [".?"]) and len(toks) > i + 2 and toks[i + 2][0] == "ident" and after[2:3] != ["("]:
            found.add(toks[i + 2][1])
            continue
        subscript = 1 if after[1:2] == ["?"] else 0
        key = toks[i + 2 + subscript] if len(toks) > i + 2 + subscript else None
        value = string_value(key[1]) if key is not None and key[0] == "string" else None
        if after[:1] == ["["] and value is not None and after[2 + subscript : 3 + subscript] == ["]"]:
            found.add(value)
            continue
        return None
    return frozenset(found)


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
