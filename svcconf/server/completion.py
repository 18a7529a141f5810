"""Completion: field names the schema allows at the cursor and the mapping lacks, values, apiVersion/kind pairs, gates, plugins, authorizers.

Only what the target release serves is offered: apiVersion/kind pairs it serves, fields it reads
(`x-svcconf-since`), feature gates it has.
"""

from __future__ import annotations

import json

from lsprotocol import types as lsp

from ..known import catalog
from ..known.naming import Naming
from ..settings.options import ValidateOptions
from . import fields
from .cursor import document_lines, entry, header, parents, present_keys

# Lists of names the schemas leave open, by (kind, path of the value with list items as 0).
NAMED_VALUES = {
    ("AdmissionConfiguration", ("plugins", 0, "name")): "admission-plugins",
    ("AuthorizationConfiguration", ("authorizers", 0, "type")): "authorizer-types",
}


def complete_at(ls, uri: str, position: lsp.Position) -> lsp.CompletionList | None:
    place = ls.place(uri, position)
    if place is None:
        return None
    items = completions(place.lines, place.row, place.column, place.options)
    return lsp.CompletionList(is_incomplete=False, items=items) if items else None


def completions(lines: list[str], row: int, column: int, options: ValidateOptions) -> list[lsp.CompletionItem]:
    """What may be written at a 0-based position of the file's lines."""
    prefix = lines[row][:column]
    first, last = document_lines(lines, row)
    api_version, kind_name = header(lines, first, last)
    target = options.resolved_target()
    at = entry(prefix + "x")  # what the line is, once the word being typed has a character
    if at is None:
        return []
    key, colon, _typed = (prefix[at.column :]).partition(":")
    if colon:  # after `key:`: a value
        path = (*parents(lines, first, row, at.indent, at.item), key.strip().strip("'\""))
        return _values(path, api_version, kind_name, options, target)
    path = parents(lines, first, row, at.indent, at.item)
    if not path and at.column == 0 and api_version is None and kind_name is None:
        return _kind_pairs(options, target)
    present = present_keys(lines, first, last, row, at.column)
    if path and path[-1] == "featureGates":
        return [_item(name, lsp.CompletionItemKind.Property, "feature gate", f"{name}: ") for name in _gates(target) if name not in present]
    kind = fields.kind_of(api_version, kind_name, options.api_domain)
    if kind is None or kind.schema is None:
        return []
    out = []
    for name, nodes in fields.properties(fields.at(kind.schema, path)).items():
        since = fields.since(nodes)
        if name in present or (since and target < since):
            continue
        out.append(
            _item(name, lsp.CompletionItemKind.Property, fields.type_text(nodes) or "", f"{name}: ", fields.first(nodes, "description"))
        )
    return out


def _item(label: str, kind: lsp.CompletionItemKind, detail: str, insert: str, documentation: str | None = None) -> lsp.CompletionItem:
    return lsp.CompletionItem(label=label, kind=kind, detail=detail or None, insert_text=insert, documentation=documentation)


def _values(path: tuple, api_version, kind_name, options: ValidateOptions, target: tuple) -> list[lsp.CompletionItem]:
    value = lsp.CompletionItemKind.Value
    if path == ("apiVersion",):
        versions = sorted({api for api, _kind in served_pairs(options, target)})
        return [_item(api, value, "apiVersion", api) for api in versions]
    if path == ("kind",):
        pairs = served_pairs(options, target)
        kinds = sorted({kind for api, kind in pairs if api_version in (None, api)})
        return [_item(kind, value, "kind", kind) for kind in kinds]
    kind = fields.kind_of(api_version, kind_name, options.api_domain)
    if kind is None or kind.schema is None:
        return []
    named = NAMED_VALUES.get((kind.kind, path))
    if named is not None:
        return [_item(name, value, named.replace("-", " ")[:-1], name) for name in _named(named)]
    if len(path) >= 2 and path[-2] == "featureGates":
        return [_item(text, value, "boolean", text) for text in ("true", "false")]
    out = []
    for allowed in fields.values(fields.at(kind.schema, path)):
        text = json.dumps(allowed) if not isinstance(allowed, str) else allowed
        out.append(_item(text, value, "", text))
    return out


def served_pairs(options: ValidateOptions, target: tuple) -> list[tuple[str, str]]:
    """(apiVersion, kind) of every kind svcconf has a schema for that the target release serves, in the configured domain."""
    table = catalog.lifecycle()
    naming = Naming(options.api_domain)
    pairs = []
    for group, version, kind in sorted(catalog.schema_index()):
        row = table.row(group, version, kind)
        if row is not None and not row.served_in(target):
            continue
        spelled = naming.spell_group(group, "kube") if group else ""
        pairs.append((f"{spelled}/{version}" if spelled else version, kind))
    return pairs


def _kind_pairs(options: ValidateOptions, target: tuple) -> list[lsp.CompletionItem]:
    return [
        _item(f"{kind} ({api})", lsp.CompletionItemKind.Module, api, f"apiVersion: {api}\nkind: {kind}\n")
        for api, kind in served_pairs(options, target)
    ]


def _gates(target: tuple) -> list[str]:
    from ..known.feature_gates import SPECIAL, gate_table, spec_at

    return sorted(SPECIAL) + sorted(name for name in gate_table().gates if spec_at(name, target) is not None)


def _named(which: str) -> list[str]:
    from ..known.apiserver import KNOWN_PLUGINS, KNOWN_TYPES

    return sorted(KNOWN_PLUGINS) if which == "admission-plugins" else list(KNOWN_TYPES)
