"""What the schemas say about a field: the subschemas at a path, its description, type, default, values and the release it came in."""

from __future__ import annotations

from typing import Any, NamedTuple

from ..known import catalog
from ..known.naming import Naming

MAX_BRANCHES = 64  # subschemas followed at one path: oneOf/anyOf/allOf nest only a few deep in the bundled schemas


class Kind(NamedTuple):
    """A document's kind as svcconf files it, with its schema (None: svcconf has none)."""

    group: str
    version: str
    kind: str
    schema: dict | None


def kind_of(api_version: Any, kind: Any, domain: str) -> Kind | None:
    if not isinstance(api_version, str) or not isinstance(kind, str):
        return None
    naming = Naming(domain)
    gv = naming.api_version(api_version)
    if gv is None:
        return None
    group, version, name = catalog.canonical(gv.group, gv.version, naming.kind(kind))
    return Kind(group, version, name, catalog.load_schema(group, version, name))


def _resolved(root: dict, node: Any, seen: int = 0) -> list[dict]:
    """A subschema with its $ref followed and its allOf/anyOf/oneOf branches spread out."""
    if not isinstance(node, dict) or seen > MAX_BRANCHES:
        return []
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        target = (root.get("$defs") or {}).get(ref.rsplit("/", 1)[-1])
        return [node, *_resolved(root, target, seen + 1)]
    out = [node]
    for keyword in ("allOf", "anyOf", "oneOf"):
        for branch in node.get(keyword) or ():
            out.extend(_resolved(root, branch, seen + 1))
    return out[:MAX_BRANCHES]


def at(schema: dict, path: tuple) -> list[dict]:
    """Every subschema that may describe the value at `path` (empty: the schema does not know it)."""
    nodes = _resolved(schema, schema)
    for segment in path:
        following: list[dict] = []
        for node in nodes:
            if isinstance(segment, int):
                following.extend(_resolved(schema, node.get("items")))
                continue
            properties = node.get("properties") or {}
            if segment in properties:
                following.extend(_resolved(schema, properties[segment]))
            elif isinstance(node.get("additionalProperties"), dict):
                following.extend(_resolved(schema, node["additionalProperties"]))
        nodes = following[:MAX_BRANCHES]
    return nodes


def first(nodes: list[dict], keyword: str) -> Any:
    return next((node[keyword] for node in nodes if keyword in node), None)


def type_text(nodes: list[dict]) -> str | None:
    types = []
    for node in nodes:
        value = node.get("type")
        for name in value if isinstance(value, list) else [value] if value else []:
            if name not in types:
                types.append(name)
    return " or ".join(types) or None


def properties(nodes: list[dict]) -> dict[str, list[dict]]:
    """Field name -> the subschemas that describe it, for an object at these subschemas (in schema order)."""
    out: dict[str, list[dict]] = {}
    for node in nodes:
        for name, sub in (node.get("properties") or {}).items():
            if sub is not False:
                out.setdefault(name, []).append(sub)
    return out


def values(nodes: list[dict]) -> list:
    """The values an enumeration or constant allows, and true/false for a boolean."""
    found: list = []
    for node in nodes:
        for value in [*(node.get("enum") or ()), *([node["const"]] if "const" in node else [])]:
            if value not in found:
                found.append(value)
    if not found and type_text(nodes) == "boolean":
        found = [True, False]
    return found


def since(nodes: list[dict]) -> tuple | None:
    text = first(nodes, "x-svcconf-since")
    return catalog.parse_release(text) if isinstance(text, str) else None


def served(kind: Kind) -> str:
    """The releases that serve a kind's apiVersion, as the lifecycle table says."""
    row = catalog.lifecycle().row(kind.group, kind.version, kind.kind)
    if row is None:
        return f"{kind.group}/{kind.version}".lstrip("/") + f" {kind.kind}"
    start = f"from {catalog.format_release(row.introduced)}" if row.introduced else "from before the releases svcconf knows"
    end = f", removed in {catalog.format_release(row.removed)}" if row.removed else ""
    return f"{row.group}/{row.version}".lstrip("/") + f" {row.kind}: served {start}{end}"
