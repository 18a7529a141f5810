"""Editor schemas: the bundled JSON Schemas rewritten to stand alone in yaml-language-server and other JSON Schema tools.

Each kind becomes one draft-07 file: yaml-language-server (behind the YAML support of VS Code,
Neovim and others) validates draft-07 fully and 2020-12 only in part, and the bundled schemas use
nothing draft-07 lacks. A file's apiVersion and kind are constants in the chosen domain and
spelling, so it matches only its own documents. `index.json` maps apiVersion and kind to the
file; `all.json` holds every kind and picks one by apiVersion and kind (`if`/`then`), so one
association covers a whole repository and documents of other kinds pass untouched.

svcconf's own annotations are dropped: a field newer than the target release is removed (or
forbidden where its object allows other fields), an upstream error wording becomes the editor's
error message, and a removed or deprecated apiVersion carries a deprecation message.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NamedTuple

from ..model import at_least
from .catalog import Release, aliases, format_release, lifecycle, load_schema, schema_index
from .naming import KEEP_KUBE_WORD, UPSTREAM_DOMAIN, Naming

DRAFT_07 = "http://json-schema.org/draft-07/schema#"
INDEX = "index.json"
COMBINED = "all.json"
# Keywords whose value is a schema, a list of schemas, or a map of names to schemas (draft-07 and
# 2020-12 alike); every other keyword's value is data and is copied as it is.
_SCHEMA_VALUED = frozenset({"items", "additionalProperties", "additionalItems", "not", "if", "then", "else", "contains", "propertyNames"})
_SCHEMA_LISTS = frozenset({"allOf", "anyOf", "oneOf"})
_SCHEMA_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions"})


class EditorSchema(NamedTuple):
    """One exported kind: its apiVersion and kind as written in files, where it goes, and the schema."""

    api_version: str
    kind: str
    file: str  # '/'-separated, relative to the export folder
    schema: dict


def editor_schemas(domain: str = UPSTREAM_DOMAIN, spelling: str = "kube", target: Release | None = None) -> list[EditorSchema]:
    """Every kind svcconf has a schema for (and every other name it answers to) that the target release serves."""
    table = lifecycle()
    target = target or table.newest
    naming = Naming(domain)
    names = [(gvk, gvk) for gvk in schema_index()] + list(aliases().items())
    exported = []
    for (group, version, kind), canonical in sorted(names):
        row = table.row(*canonical)
        if row is not None and row.introduced and target < row.introduced:
            continue  # svcconf reports such a document as unavailable and does not look inside
        word = "kube" if kind in KEEP_KUBE_WORD else spelling
        spelled_group = naming.spell_group(group, word) if group else ""
        api_version = f"{spelled_group}/{version}" if spelled_group else version
        spelled_kind = naming.spell_kind(kind, word)
        schema = _standalone(load_schema(*canonical), api_version, spelled_kind, target, _deprecation(row, target))
        exported.append(EditorSchema(api_version, spelled_kind, f"{spelled_group or 'core'}/{version}/{spelled_kind}.json", schema))
    return exported


def _deprecation(row, target: Release) -> str | None:
    if row is None:
        return None
    instead = f"; migrate to {row.replacement} (svcconf migrate)" if row.replacement else ""
    if row.removed and target >= row.removed:
        return f"no longer served since {format_release(row.removed)}{instead}"
    if row.deprecated and target >= row.deprecated:
        return f"deprecated since {format_release(row.deprecated)}{instead}"
    return None


def _standalone(source: dict, api_version: str, kind: str, target: Release, deprecation: str | None) -> dict:
    """One bundled schema as a draft-07 document of its own, matching only documents of its apiVersion and kind."""
    body = _convert(source, lambda ref: ref.replace("#/$defs/", "#/definitions/", 1), target)
    body.pop("$schema", None)
    body.pop("title", None)
    properties = body.setdefault("properties", {})
    properties["apiVersion"] = {**properties.get("apiVersion", {}), "const": api_version}
    if deprecation:
        properties["apiVersion"]["deprecationMessage"] = f"{api_version} {kind} is {deprecation}"
    properties["kind"] = {**properties.get("kind", {}), "const": kind}
    required = ["apiVersion", "kind"]
    body["required"] = required + [name for name in body.get("required", []) if name not in required]
    if "$defs" in body:
        body["definitions"] = body.pop("$defs")
    return {"$schema": DRAFT_07, "title": f"{api_version} {kind}", **body}


def _convert(node: Any, rename: Callable[[str], str], target: Release | None = None) -> Any:
    """A copy of a schema node without svcconf's annotations, its $refs renamed, fields newer than `target` gone."""
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "x-svcconf-detail":  # the server's wording for a value the pattern or enum refuses
            out["patternErrorMessage" if "pattern" in node else "errorMessage"] = value
        elif key.startswith("x-svcconf-"):
            continue
        elif key == "$ref":
            out[key] = rename(value)
        elif key == "properties":
            closed = node.get("additionalProperties") is False
            out[key] = {}
            for name, sub in value.items():
                if target is not None and _newer(sub, target):
                    if not closed:  # an open object would take the field as any other: forbid it by name
                        out[key][name] = False
                else:
                    out[key][name] = _convert(sub, rename, target)
        elif key in _SCHEMA_MAPS:
            out[key] = {name: _convert(sub, rename, target) for name, sub in value.items()}
        elif key in _SCHEMA_LISTS:
            out[key] = [_convert(sub, rename, target) for sub in value]
        elif key in _SCHEMA_VALUED:
            out[key] = _convert(value, rename, target)
        else:
            out[key] = value
    return out


def _newer(schema: Any, target: Release) -> bool:
    since = schema.get("x-svcconf-since") if isinstance(schema, dict) else None
    if not since:
        return False
    major, minor = since.split(".")
    return not at_least(target, int(major), int(minor))


def combined(schemas: list[EditorSchema]) -> dict:
    """One schema for every kind: each document is checked against the schema its apiVersion and kind name."""
    definitions: dict[str, Any] = {}
    dispatch = []
    for entry in schemas:
        key = f"{entry.api_version}/{entry.kind}".replace("/", ".")
        body = {name: value for name, value in entry.schema.items() if name not in ("$schema", "definitions")}

        def rename(ref: str, key: str = key) -> str:
            return f"#/definitions/{key}" if ref == "#" else ref.replace("#/definitions/", f"#/definitions/{key}.", 1)

        definitions[key] = _convert(body, rename)
        for name, sub in entry.schema.get("definitions", {}).items():
            definitions[f"{key}.{name}"] = _convert(sub, rename)
        match = {"apiVersion": {"const": entry.api_version}, "kind": {"const": entry.kind}}
        dispatch.append({"if": _document_of(match), "then": {"$ref": f"#/definitions/{key}"}})
    # A List's items are documents in their own right.
    dispatch.append({"if": _document_of({"kind": {"const": "List"}}), "then": {"properties": {"items": {"items": {"$ref": "#"}}}}})
    return {
        "$schema": DRAFT_07,
        "title": "svcconf: every configuration kind",
        "description": "Checks each document against the schema of its apiVersion and kind; documents of other kinds pass.",
        "properties": {
            "apiVersion": {"examples": sorted({entry.api_version for entry in schemas})},
            "kind": {"examples": sorted({entry.kind for entry in schemas})},
        },
        "allOf": dispatch,
        "definitions": definitions,
    }


def _document_of(match: dict) -> dict:
    """A condition that holds for an object whose fields named in `match` are present and match (never for a list or scalar)."""
    return {"type": "object", "properties": match, "required": list(match)}


def index(schemas: list[EditorSchema], domain: str, spelling: str, target: Release) -> dict:
    """The mapping file: apiVersion -> kind -> schema file, and the settings the schemas were made for."""
    kinds: dict[str, dict[str, str]] = {}
    for entry in schemas:
        kinds.setdefault(entry.api_version, {})[entry.kind] = entry.file
    return {"apiDomain": domain, "naming": spelling, "targetVersion": format_release(target), "combined": COMBINED, "kinds": kinds}


def exported_files(domain: str = UPSTREAM_DOMAIN, spelling: str = "kube", target: Release | None = None) -> dict[str, bytes]:
    """Every editor schema, index.json and all.json: their paths ('/'-separated, relative to the export folder) and bytes."""
    target = target or lifecycle().newest
    schemas = editor_schemas(domain, spelling, target)
    files = {entry.file: entry.schema for entry in schemas}
    files[INDEX] = index(schemas, domain, spelling, target)
    files[COMBINED] = combined(schemas)
    return {relative: (json.dumps(content, indent=2, ensure_ascii=False) + "\n").encode("utf-8") for relative, content in files.items()}
