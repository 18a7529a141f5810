"""CustomResourceDefinition apiextensions.k8s.io/v1beta1 -> v1 (staging/src/k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1 and v1)."""

from __future__ import annotations

from typing import Any

from ..ops import Context, Review, bare_copy, get, insert, insert_after, move, new_map, new_seq, pop, quoted, rename, walk
from ..steps import Custom, step

HOISTED = (
    ("validation", "schema"),
    ("subresources", "subresources"),
    ("additionalPrinterColumns", "additionalPrinterColumns"),
    ("selectableFields", "selectableFields"),
)
FORBIDDEN = ("$ref", "id", "additionalItems", "patternProperties", "definitions", "dependencies")
NOT_IN_JUNCTORS = ("type", "additionalProperties", "default", "nullable", "items")
PRESERVE = "x-kubernetes-preserve-unknown-fields"


def _schemas(doc: dict) -> list[tuple[tuple, dict]]:
    found = [(("spec", "validation", "openAPIV3Schema"), get(doc, "spec", "validation", "openAPIV3Schema"))]
    found += [((*path, "openAPIV3Schema"), get(v, "openAPIV3Schema")) for path, v in walk(doc, ("spec", "versions", "*", "schema"))]
    return [(path, schema) for path, schema in found if isinstance(schema, dict)]


def _structural(node, path: tuple, root: bool, out: list[Review]) -> None:
    """Report what makes a schema non-structural (v1 refuses it); see apiextensions validation."""
    if not isinstance(node, dict):
        return
    for key in FORBIDDEN:
        if key in node:
            out.append(Review((*path, key), f"{key} is not allowed in a v1 structural schema", "remove it and spell the schema out"))
    if node.get("uniqueItems") is True:
        out.append(Review((*path, "uniqueItems"), "uniqueItems true is refused by v1", "remove it (use x-kubernetes-list-type: set)"))
    if node.get(PRESERVE) is False:
        out.append(Review((*path, PRESERVE), f"{PRESERVE} must be true or absent", "remove it"))
    if isinstance(node.get("items"), list):
        out.append(Review((*path, "items"), "items must be a single schema, not a list", "use one schema for every item"))
    if "properties" in node and "additionalProperties" in node:
        out.append(Review((*path, "additionalProperties"), "properties and additionalProperties are mutually exclusive in v1", "keep one"))
    if "type" not in node and not node.get("x-kubernetes-int-or-string") and not node.get(PRESERVE):
        where = "at the root" if root else "for specified object fields/array items"
        out.append(Review((*path, "type"), f"type must not be empty {where} (v1 requires a structural schema)", "add the type"))
    if root and node.get("type", "object") != "object":
        out.append(Review((*path, "type"), "the root type must be object", "write type: object at the root"))
    for junctor in ("allOf", "anyOf", "oneOf", "not"):
        branches = node.get(junctor)
        for index, branch in enumerate(branches if isinstance(branches, list) else [branches] if isinstance(branches, dict) else []):
            for key in NOT_IN_JUNCTORS:
                if isinstance(branch, dict) and key in branch:
                    out.append(
                        Review(
                            (*path, junctor, index, key),
                            f"{key} inside {junctor} must be undefined to be structural",
                            f"move {key} out of {junctor}",
                        )
                    )
    for key, child in (node.get("properties") or {}).items() if isinstance(node.get("properties"), dict) else ():
        _structural(child, (*path, "properties", key), False, out)
    if isinstance(node.get("items"), dict):
        _structural(node["items"], (*path, "items"), False, out)
    if isinstance(node.get("additionalProperties"), dict):
        _structural(node["additionalProperties"], (*path, "additionalProperties"), False, out)


def _review(doc: dict, ctx: Context) -> list[Review]:
    out: list[Review] = []
    for path, schema in _schemas(doc):
        _structural(schema, path, True, out)
    if get(doc, "spec", "preserveUnknownFields") is True:
        out.append(
            Review(
                ("spec", "preserveUnknownFields"),
                "preserveUnknownFields true cannot be set in v1; without it unknown fields are pruned",
                f"decide between pruning and {PRESERVE}: true in the schema (--unsafe writes {PRESERVE} on every object level)",
                True,
            )
        )
    return out


def _preserve_unknown(node, ctx: Context) -> None:
    """Keep v1beta1's no-pruning meaning: x-kubernetes-preserve-unknown-fields on every object level."""
    if not isinstance(node, dict):
        return
    if node.get("type") == "object" and PRESERVE not in node and ("properties" in node or "type" in node):
        insert_after(node, "type", PRESERVE, True)
    for child in (node.get("properties") or {}).values() if isinstance(node.get("properties"), dict) else ():
        _preserve_unknown(child, ctx)
    if isinstance(node.get("items"), dict):
        _preserve_unknown(node["items"], ctx)


def _convert(doc: dict, ctx: Context) -> None:
    spec = doc.get("spec")
    if not isinstance(spec, dict):
        return
    preserve = spec.get("preserveUnknownFields", True) is True
    if "preserveUnknownFields" in spec:
        pop(spec, "preserveUnknownFields")
    if "scope" not in spec:
        insert(spec, len(spec), "scope", "Namespaced")
        ctx.note(("spec", "scope"), "scope Namespaced written: the v1beta1 default (v1 requires it)")
    if "versions" not in spec and "version" in spec:
        item = new_map(spec)
        move(spec, "version", item, "name", ctx)
        item["served"] = True
        item["storage"] = True
        insert(spec, len(spec), "versions", new_seq(spec, [item]))
    elif "version" in spec:
        value, _comment = pop(spec, "version")
        ctx.note(("spec", "version"), f"spec.version {value} dropped: spec.versions lists it")
    versions = [v for v in _list(spec.get("versions")) if isinstance(v, dict)]
    for old, new in HOISTED:
        if old in spec and versions:
            for extra in versions[1:]:
                extra[new] = bare_copy(spec[old])
            move(spec, old, versions[0], new, ctx)
    for version in versions:
        for column in _list(version.get("additionalPrinterColumns")):
            if isinstance(column, dict):
                rename(column, "JSONPath", "jsonPath", ctx)
        schema = get(version, "schema", "openAPIV3Schema")
        if schema is None:
            version["schema"] = new_map(spec, [("openAPIV3Schema", new_map(spec, [("type", "object"), (PRESERVE, True)]))])
            ctx.note(("spec", "versions"), "a schema that accepts anything was written: v1 requires one; write the real schema", warn=True)
        elif preserve:
            _preserve_unknown(schema, ctx)
    if preserve and versions:
        ctx.note(
            ("spec",),
            f"preserveUnknownFields was true (the v1beta1 default): {PRESERVE} written on every object level so nothing is pruned",
            warn=True,
        )
    conversion = spec.get("conversion")
    if isinstance(conversion, dict) and ("webhookClientConfig" in conversion or "conversionReviewVersions" in conversion):
        webhook = new_map(spec)
        insert_after(conversion, "strategy", "webhook", webhook)
        if "webhookClientConfig" in conversion:
            move(conversion, "webhookClientConfig", webhook, "clientConfig", ctx)
        if "conversionReviewVersions" in conversion:
            move(conversion, "conversionReviewVersions", webhook, "conversionReviewVersions", ctx)
    if isinstance(conversion, dict) and conversion.get("strategy") == "Webhook":
        webhook = conversion.get("webhook")
        if isinstance(webhook, dict) and "conversionReviewVersions" not in webhook:
            webhook["conversionReviewVersions"] = new_seq(spec, [quoted(spec, "v1beta1")], flow=True)
            ctx.note(("spec", "conversion"), "conversionReviewVersions [v1beta1] written: the v1beta1 default (v1 requires it)")


step("apiextensions.k8s.io/v1beta1", "CustomResourceDefinition", "apiextensions.k8s.io/v1", Custom(_convert, _review))


def _list(value: Any) -> list:
    """A list as written, or none for a value of another type (validate reports it)."""
    return value if isinstance(value, list) else []
