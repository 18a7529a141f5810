"""Hover: a field's description, type, default and releases; an apiVersion's lifecycle at the target release; a finding's rule and fix.

Nothing here quotes a value from the document but its apiVersion and kind: a secret field's
default is not shown either.
"""

from __future__ import annotations

import json

from lsprotocol import types as lsp

from ..known import catalog
from ..known.secrets import is_secret
from ..load.source import parse
from ..settings.options import ValidateOptions
from . import fields
from .convert import span

MAX_HOVER_PARSE = 1 << 20  # characters of a file checked whole that hover composes again


def hover_at(ls, uri: str, position: lsp.Position) -> lsp.Hover | None:
    place = ls.place(uri, position)
    if place is None:
        return None
    parts = [_rule(d) for d in place.state.diagnostics if _covers(place.lines, d, place.row, place.column)]
    parts += _field_help(place.state, place.text, place.row, place.column, place.options)
    parts = [part for part in parts if part]
    if not parts:
        return None
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, "\n\n---\n\n".join(dict.fromkeys(parts))))


def _covers(lines: list[str], diagnostic, row: int, column: int) -> bool:
    line, start, end = span(lines, diagnostic.line, diagnostic.column)
    return line == row and start <= column <= end


def _rule(diagnostic) -> str:
    """A finding's rule: what it checks and what to write instead (its docs), and the conversion that fixes it."""
    from ..known.docs import rule_doc

    doc = rule_doc(diagnostic.rule)
    if doc is None:
        return f"**{diagnostic.rule}**"
    parts = [f"**{doc.id}** ({doc.severity}): {doc.summary}"]
    if doc.fix:
        parts += ["Write instead:", "```yaml", doc.document(doc.fix).rstrip(), "```"]
    if diagnostic.fix:
        parts.append(f"Fix: {diagnostic.fix} (`svcconf migrate`, or the code action)")
    parts.append(f"`svcconf rules {doc.id}` says more.")
    return "\n\n".join(parts)


def _parsed(state, text: str):
    """The composed documents of the text and the line each starts on (those of the last check, when it kept them)."""
    file = state.file
    if file is not None and file.source is not None and file.source.text == text:
        return file.source, file.source.offsets
    if len(text) > MAX_HOVER_PARSE:
        return None, []
    return parse(state.path, text, json_like=state.path.endswith(".json")), []


def _field_help(state, text: str, row: int, column: int, options: ValidateOptions) -> list[str]:
    from .cursor import node_at

    source, offsets = _parsed(state, text)
    found = node_at(source, offsets, row, column) if source is not None else None
    if found is None:
        return []
    position, path, on_key = found
    data = source.documents[position].data
    if not isinstance(data, dict):
        return []
    kind = fields.kind_of(data.get("apiVersion"), data.get("kind"), options.api_domain)
    if kind is None:
        return []
    if path == ("apiVersion",):
        return [api_version_help(kind, options.resolved_target())]
    if on_key and kind.schema is not None:
        return [field_help(kind, path)]
    return []


def api_version_help(kind: fields.Kind, target: tuple) -> str:
    """Whether the target release serves, deprecates or removed a kind's apiVersion, and what to migrate to."""
    fmt = catalog.format_release
    name = f"{kind.group}/{kind.version}".lstrip("/") + f" {kind.kind}"
    row = catalog.lifecycle().row(kind.group, kind.version, kind.kind)
    if row is None:
        return f"**{name}**: " + ("svcconf checks it; it knows no release that removed it" if kind.schema else "svcconf does not check it")
    instead = f"; migrate to {row.replacement} (`svcconf migrate`)" if row.replacement else ""
    if row.introduced and target < row.introduced:
        state = f"not served by {fmt(target)}: first served in {fmt(row.introduced)}"
    elif row.removed and target >= row.removed:
        state = f"removed in {fmt(row.removed)}: {fmt(target)} does not serve it{instead}"
    elif row.deprecated and target >= row.deprecated:
        until = f", removed in {fmt(row.removed)}" if row.removed else ""
        state = f"served by {fmt(target)}, deprecated since {fmt(row.deprecated)}{until}{instead}"
    else:
        state = f"served by {fmt(target)}" + (f" (removed in {fmt(row.removed)}{instead})" if row.removed else "")
    return f"**{name}**: {state} (target release {fmt(target)})"


def field_help(kind: fields.Kind, path: tuple) -> str:
    """A field's description, type, default, allowed values and the releases that read it."""
    nodes = fields.at(kind.schema or {}, path)
    lines = [f"**{path[-1]}**" + (f": {fields.type_text(nodes)}" if fields.type_text(nodes) else "")]
    description = fields.first(nodes, "description")
    if description:
        lines.append(description)
    default = fields.first(nodes, "default")
    if default is not None and not is_secret(path):
        lines.append(f"Default: `{json.dumps(default, ensure_ascii=False)}`")
    allowed = fields.values(nodes)
    if allowed and fields.type_text(nodes) != "boolean":
        lines.append("Values: " + ", ".join(f"`{json.dumps(v, ensure_ascii=False)}`" for v in allowed))
    since = fields.since(nodes)
    release = f"Read from {catalog.format_release(since)} on; " if since else ""
    lines.append(f"{release}{fields.served(kind)}")
    if not nodes:
        lines.append("The schema of this kind does not know this field.")
    return "\n\n".join(lines)
