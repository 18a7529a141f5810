"""Schema errors become Kubernetes-style findings: paths, rule ids and the server's wording."""

from __future__ import annotations

from svcconf.known.schema import SchemaChecker
from svcconf.model import Anchor, Severity

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "level": {"type": "string", "enum": ["None", "Metadata"]},
        "stage": {"type": "string", "enum": ["A", "B"], "x-svcconf-detail": "allowed stages are A,B"},
        "port": {"type": "integer", "minimum": 1, "maximum": 65535},
        "name": {"type": "string", "pattern": "^[a-z]+$"},
        "items": {"type": "array", "maxItems": 2, "items": {"$ref": "#/$defs/Item"}},
        "secret": {"type": "string", "pattern": "^[A-Z]+$"},
        "transport": {"oneOf": [{"$ref": "#/$defs/Tcp"}, {"$ref": "#/$defs/Uds"}]},
    },
    "$defs": {
        "Item": {"type": "object", "required": ["id"], "additionalProperties": False, "properties": {"id": {"type": "integer"}}},
        "Tcp": {"type": "object", "required": ["url"], "additionalProperties": False, "properties": {"url": {"type": "string"}}},
        "Uds": {"type": "object", "required": ["udsName"], "additionalProperties": False, "properties": {"udsName": {"type": "string"}}},
    },
}


def findings(data, field_validation="Strict", ambiguous=None):
    return sorted((f.rule, f.path, f.message, f.severity, f.anchor) for f in SchemaChecker(SCHEMA).check(data, field_validation, ambiguous))


def test_enum_uses_the_unsupported_value_wording() -> None:
    assert findings({"level": "Everything"}) == [
        ("invalid-value", ("level",), 'Unsupported value: "Everything": supported values: "None", "Metadata"', Severity.ERROR, Anchor.VALUE)
    ]


def test_detail_annotation_gives_the_servers_words() -> None:
    assert findings({"stage": "C"})[0][2] == 'Invalid value: "C": allowed stages are A,B'


def test_empty_enum_value_is_a_missing_field() -> None:
    assert findings({"level": ""}) == [("missing-field", ("level",), "Required value", Severity.ERROR, Anchor.PARENT)]


def test_ranges_patterns_and_sizes() -> None:
    assert findings({"port": 0})[0][2] == "Invalid value: 0: must be greater than or equal to 1"
    assert findings({"port": 70000})[0][2] == "Invalid value: 70000: must be less than or equal to 65535"
    assert findings({"name": "Bad"})[0][2] == "Invalid value: \"Bad\": must match the regular expression '^[a-z]+$'"
    assert findings({"items": [{"id": 1}, {"id": 2}, {"id": 3}]})[0][:3] == (
        "invalid-value",
        ("items",),
        "Too many: 3: must have at most 2 items",
    )


def test_secret_values_are_redacted() -> None:
    [(rule, _path, message, _s, _a)] = findings({"secret": "hunter2"})
    assert rule == "invalid-value" and "hunter2" not in message and "REDACTED" in message


def test_unknown_fields_follow_the_field_validation_level() -> None:
    strict = findings({"levle": "None"})
    assert strict == [("unknown-field", ("levle",), 'unknown field "levle"', Severity.ERROR, Anchor.KEY)]
    assert findings({"levle": "None"}, "Warn")[0][3] == Severity.WARNING
    assert findings({"levle": "None"}, "Ignore") == []


def test_nested_required_and_type_errors() -> None:
    assert findings({"items": [{}, {"id": "x"}]}) == [
        ("missing-field", ("items", 0, "id"), "Required value", Severity.ERROR, Anchor.PARENT),
        ("wrong-type", ("items", 1, "id"), "cannot unmarshal string into a field of type integer", Severity.ERROR, Anchor.VALUE),
    ]


def test_unquoted_scalar_hint_on_a_string_field() -> None:
    [(rule, _p, message, _s, _a)] = findings({"name": False}, ambiguous={("name",): "no"})
    assert rule == "wrong-type"
    assert message == 'cannot unmarshal boolean into a field of type string (the server reads unquoted no as false; quote it: "no")'


def test_one_of_reports_the_closest_branch_only() -> None:
    # Closest to the uds form: only its own problem is reported, not a dump of both branches.
    assert findings({"transport": {"udsName": 5}}) == [
        ("wrong-type", ("transport", "udsName"), "cannot unmarshal integer into a field of type string", Severity.ERROR, Anchor.VALUE)
    ]
    assert findings({"transport": {"url": "x"}}) == []
