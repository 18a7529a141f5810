"""JSON Schema check of one document, with findings in Kubernetes paths and upstream wording.

Schemas are compiled once per process with jsonschema-rs (Rust), which reports every error with
its instance path at ~85x the speed of the pure-Python validator; the first check of a kind pays
for compilation. A subschema may carry `x-svcconf-detail` to give an enum or pattern failure the
server's own wording.

Unknown fields are reported here and nowhere else: a field the schema does not list, and a
field listed with `x-svcconf-since` (the release it first appeared in) when the target release
is older, both as `unknown-field` at the level `--field-validation` gives them. An object marked
`x-svcconf-lenient` is decoded leniently by its component (unknown fields are dropped, not
refused): its unknown fields are `lenient-unknown-field`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from ..model import Anchor, Finding, Path, Severity, Subject, go_quote, render_value
from .secrets import holds_secret, is_secret, render_at

_JSON_TYPES = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object"}


def json_type(value: Any) -> str:
    return _JSON_TYPES.get(type(value), "null" if value is None else type(value).__name__)


class SchemaChecker:
    """A compiled schema and the translation of its errors."""

    def __init__(self, schema: dict) -> None:
        import jsonschema_rs

        self.schema = schema
        self.validator = jsonschema_rs.validator_for(schema)
        self._branches: dict[tuple, Any] = {}
        self._since = _since_fields(schema)

    def check(
        self, data: Any, field_validation: str = "Strict", ambiguous: dict | None = None, target: tuple | None = None
    ) -> Iterator[Finding]:
        """Findings for `data`; with a `target` release, fields newer than it are unknown too."""
        for error in self.validator.iter_errors(data):
            yield from self._translate(error, self.schema, (), field_validation, ambiguous or {}, data)
        if target is not None and field_validation != "Ignore":
            for pattern, since in self._since:
                if target < since:
                    for path in _present(data, pattern):
                        yield _unknown(
                            path, field_validation, "unknown-field", f"read from {_release(since)} on (target {_release(target)})"
                        )

    # ------------------------------------------------------------------ translation

    @staticmethod
    def _subschema(root: dict, schema_path: list) -> dict:
        node: Any = root
        for segment in schema_path[:-1]:
            try:
                node = node[segment]
            except (KeyError, IndexError, TypeError):
                return {}
        return node if isinstance(node, dict) else {}

    def _translate(self, error, root: dict, prefix: Path, field_validation: str, ambiguous: dict, data: Any) -> Iterator[Finding]:
        kind = error.kind
        name = type(kind).__name__
        path: Path = prefix + tuple(error.instance_path)
        instance = error.instance
        if name in ("AdditionalProperties", "UnevaluatedProperties"):
            if field_validation == "Ignore":
                return
            lenient = self._subschema(root, error.schema_path).get("x-svcconf-lenient")
            for key in getattr(kind, "unexpected", None) or []:
                yield _unknown(path + (key,), field_validation, "lenient-unknown-field" if lenient else "unknown-field")
        elif name == "Required":
            yield Finding(
                "missing-field", path + (kind.property,), "Required value", Severity.ERROR, Anchor.PARENT, subject=Subject.PATH_ONLY
            )
        elif name == "Type":
            yield self._wrong_type(path, _value_at(data, path, instance), self._subschema(root, error.schema_path), ambiguous)
        elif name in ("OneOfNotValid", "AnyOf"):
            yield from self._best_branch(error, root, path, field_validation, ambiguous, data)
        else:
            yield self._invalid(name, kind, path, instance, error, self._subschema(root, error.schema_path))

    def _wrong_type(self, path: Path, instance: Any, subschema: dict, ambiguous: dict) -> Finding:
        expected = subschema.get("type", "?")
        if isinstance(expected, list):
            expected = " or ".join(expected)
        message = f"cannot unmarshal {json_type(instance)} into a field of type {expected}"
        written = ambiguous.get(path)
        if written is not None and expected == "string" and not is_secret(path):
            message += f' (the server reads unquoted {written} as {render_value(instance)}; quote it: "{written}")'
        # A mapping or list of the wrong type is about its type, not its members.
        return Finding("wrong-type", path, message, subject=json_type(instance) if isinstance(instance, (dict, list)) else instance)

    def _invalid(self, name: str, kind, path: Path, instance: Any, error, subschema: dict) -> Finding:
        shown = render_at(path, instance)
        detail = subschema.get("x-svcconf-detail")
        if name == "Enum" and instance == "":
            # The empty string is Go's zero value: the server says the field is required.
            return Finding("missing-field", path, "Required value", Severity.ERROR, Anchor.PARENT, subject=Subject.PATH_ONLY)
        if detail:
            return Finding("invalid-value", path, f"Invalid value: {shown}: {detail}")
        if name == "Enum":
            options = ", ".join(render_value(v) for v in subschema.get("enum", []))
            return Finding("invalid-value", path, f"Unsupported value: {shown}: supported values: {options}")
        if name == "Constant":
            return Finding("invalid-value", path, f"Unsupported value: {shown}: supported values: {render_value(subschema.get('const'))}")
        limit = getattr(kind, "limit", None)
        wording = {
            "Minimum": f"must be greater than or equal to {limit}",
            "Maximum": f"must be less than or equal to {limit}",
            "ExclusiveMinimum": f"must be greater than {limit}",
            "ExclusiveMaximum": f"must be less than {limit}",
            "MinLength": f"must be at least {limit} characters",
            "MaxLength": f"must be no more than {limit} characters",
            "Pattern": f"must match the regular expression '{getattr(kind, 'pattern', subschema.get('pattern', ''))}'",
            "Format": f"must be a valid {getattr(kind, 'format', subschema.get('format', ''))}",
            "UniqueItems": "must not contain duplicate items",
        }.get(name)
        if name == "MaxItems":
            noun = "item" if limit == 1 else "items"
            return Finding("invalid-value", path, f"Too many: {len(instance)}: must have at most {limit} {noun}", subject=len(instance))
        if name == "MinItems":
            message = f"Required value: must have at least {limit} item{'s' if limit != 1 else ''}"
            return Finding("missing-field", path, message, subject=len(instance))
        if wording is None:
            # The validator's own message quotes the instance.
            return Finding("invalid-value", path, "Invalid value" if holds_secret(path, instance) else error.message)
        return Finding("invalid-value", path, f"Invalid value: {shown}: {wording}")

    def _best_branch(self, error, root: dict, path: Path, field_validation: str, ambiguous: dict, data: Any) -> Iterator[Finding]:
        """For oneOf/anyOf, report the errors of the branch the value came closest to."""
        import jsonschema_rs

        keyword = error.schema_path[-1]
        parent = self._subschema(root, error.schema_path)
        branches = parent.get(keyword) or []
        best: list | None = None
        for index, branch in enumerate(branches):
            key = (tuple(error.schema_path), index)
            validator = self._branches.get(key)
            if validator is None:
                standalone = dict(branch)
                if "$defs" in self.schema:
                    standalone["$defs"] = self.schema["$defs"]
                validator = (jsonschema_rs.validator_for(standalone), standalone)
                self._branches[key] = validator
            errors = list(validator[0].iter_errors(error.instance))
            if best is None or len(errors) < len(best[1]):
                best = (validator[1], errors)
        if not best or not best[1]:
            yield Finding("invalid-value", path, "Invalid value: matches more than one allowed form")
            return
        for sub in best[1]:
            yield from self._translate(sub, best[0], path, field_validation, ambiguous, data)


def _value_at(data: Any, path: Path, reported: Any) -> Any:
    """The value at `path` as the document holds it: the validator reports an infinite number (a huge one) as null."""
    if reported is not None:
        return reported
    for segment in path:
        try:
            data = data[segment]
        except (KeyError, IndexError, TypeError):
            return reported
    return data


def _unknown(path: Path, field_validation: str, rule: str, why: str = "") -> Finding:
    severity = Severity.ERROR if field_validation == "Strict" else Severity.WARNING
    message = f"unknown field {go_quote(strict_field_path(path))}" + (f": {why}" if why else "")
    return Finding(rule, path, message, severity, Anchor.KEY, subject=Subject.PATH_ONLY)  # the key names it, whatever it holds


def strict_field_path(path: Path) -> str:
    """The field as sigs.k8s.io/json's strict decoder names it (kubernetes_patch.go, newFieldError and
    appendStrictFieldStackKey/Index): keys as written joined by ".", list indices as [i]; no brackets
    around odd keys, which are field.Path notation."""
    out: list[str] = []
    for segment in path:
        out.append(f"[{segment}]" if isinstance(segment, int) else f".{segment}" if out else str(segment))
    return "".join(out)


def _release(release: tuple) -> str:
    return f"{release[0]}.{release[1]}"


ANY = None  # a pattern segment matching every item of a list or every value of a map


def _since_fields(schema: dict) -> list[tuple[tuple, tuple]]:
    """(path pattern, release) of every property marked `x-svcconf-since`, following $refs once per path."""
    found: list[tuple[tuple, tuple]] = []
    defs = schema.get("$defs") or {}

    def walk(node: Any, pattern: tuple, refs: frozenset) -> None:
        if not isinstance(node, dict):
            return
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            name = ref.rsplit("/", 1)[-1]
            if name not in refs:
                walk(defs.get(name), pattern, refs | {name})
        for key, sub in (node.get("properties") or {}).items():
            if isinstance(sub, dict) and "x-svcconf-since" in sub:
                major, minor = sub["x-svcconf-since"].split(".")
                found.append(((*pattern, key), (int(major), int(minor))))
            walk(sub, (*pattern, key), refs)
        for keyword in ("items", "additionalProperties"):
            walk(node.get(keyword), (*pattern, ANY), refs)
        for keyword in ("allOf", "anyOf", "oneOf"):
            for branch in node.get(keyword) or ():
                walk(branch, pattern, refs)

    walk(schema, (), frozenset())
    return found


def _present(data: Any, pattern: tuple, path: Path = ()) -> Iterator[Path]:
    """The paths in `data` that match `pattern` and hold a field."""
    if not pattern:
        yield path
        return
    head, rest = pattern[0], pattern[1:]
    if head is ANY:
        pairs = enumerate(data) if isinstance(data, list) else data.items() if isinstance(data, dict) else ()
        for key, value in pairs:
            yield from _present(value, rest, (*path, key))
    elif isinstance(data, dict) and head in data:
        yield from _present(data[head], rest, (*path, head))


@functools.cache
def checker_for(group: str, version: str, kind: str) -> SchemaChecker | None:
    from .catalog import load_schema

    schema = load_schema(group, version, kind)
    return SchemaChecker(schema) if schema is not None else None
