"""svcconf diagnostics as LSP diagnostics: ranges in the client's units, severities, rule codes linked to their docs.

svcconf counts lines as libyaml does and columns in characters (1-based); LSP counts from 0, and
columns in UTF-16 code units unless the client chose another encoding.
"""

from __future__ import annotations

import functools

from lsprotocol import types as lsp

from ..load.positions import LINE_BREAK
from ..model import Diagnostic, Severity

SOURCE = "svcconf"
SEVERITIES = {Severity.ERROR: lsp.DiagnosticSeverity.Error, Severity.WARNING: lsp.DiagnosticSeverity.Warning}


_OTHER_BREAKS = ("\r", "\x85", "\u2028", "\u2029")


def lines_of(text: str) -> list[str]:
    """The text's lines as libyaml and the protocol count them (contents only)."""
    if any(mark in text for mark in _OTHER_BREAKS):
        return LINE_BREAK.split(text)
    return text.split("\n")  # the common case, without a regular expression's cost


def units(line: str, characters: int, encoding: str) -> int:
    """How many code units of `encoding` the first `characters` characters of `line` take."""
    head = line[:characters]
    if encoding == lsp.PositionEncodingKind.Utf32 or head.isascii():
        return len(head)
    if encoding == lsp.PositionEncodingKind.Utf8:
        return len(head.encode("utf-8", "surrogatepass"))
    return len(head.encode("utf-16-le", "surrogatepass")) // 2


def characters(line: str, code_units: int, encoding: str) -> int:
    """The character index in `line` at `code_units` units of `encoding` (the inverse of `units`)."""
    if encoding == lsp.PositionEncodingKind.Utf32 or line.isascii():
        return min(code_units, len(line))
    counted = 0
    for index, char in enumerate(line):
        if counted >= code_units:
            return index
        counted += units(char, 1, encoding)
    return len(line)


def span(lines: list[str], line: int, column: int) -> tuple[int, int, int]:
    """(0-based line, first and end character) of a 1-based svcconf position: to the end of the line, before a comment."""
    row = min(max(line - 1, 0), max(len(lines) - 1, 0))
    text = lines[row] if lines else ""
    start = min(max(column - 1, 0), len(text))
    comment = text.find(" #", start)
    end = len((text[:comment] if comment >= 0 else text).rstrip())
    return row, start, min(max(end, start + 1), len(text))


def to_range(lines: list[str], line: int, column: int, encoding: str) -> lsp.Range:
    row, start, end = span(lines, line, column)
    text = lines[row] if lines else ""
    return lsp.Range(lsp.Position(row, units(text, start, encoding)), lsp.Position(row, units(text, end, encoding)))


@functools.cache
def link(rule: str) -> lsp.CodeDescription | None:
    """Where a rule's behaviour is documented upstream, as SARIF's helpUri gives it."""
    from ..known.docs import rule_doc

    doc = rule_doc(rule)
    return lsp.CodeDescription(href=doc.help_uri) if doc is not None and doc.help_uri else None


def to_lsp(diagnostic: Diagnostic, lines: list[str], encoding: str, related: list | None = None) -> lsp.Diagnostic:
    """One diagnostic for the client; `data` keeps what code actions need (validate's JSON fields)."""
    message = diagnostic.message + (f" (fix: {diagnostic.fix})" if diagnostic.fix else "")
    return lsp.Diagnostic(
        range=to_range(lines, diagnostic.line, diagnostic.column, encoding),
        message=f"{diagnostic.path_text}: {message}" if diagnostic.path_text else message,
        severity=SEVERITIES.get(diagnostic.severity, lsp.DiagnosticSeverity.Information),
        code=diagnostic.rule,
        code_description=link(diagnostic.rule),
        source=SOURCE,
        related_information=related or None,
        data={
            "line": diagnostic.line,
            "column": diagnostic.column,
            "document": diagnostic.document,
            "path": diagnostic.path_text,
            "apiVersion": diagnostic.api_version,
            "kind": diagnostic.kind,
            "message": diagnostic.message,
            "fix": diagnostic.fix,
        },
    )
