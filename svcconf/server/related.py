"""Related information for cross-document findings: the other documents of the file that a finding names by kind.

A bootstrap file's checks read every document (a kind given twice, a pod subnet that must agree
with kube-proxy's clusterCIDR); the finding sits on one document and its message names the kind of
the others. Only findings of documents whose rules looked at their siblings are related.
"""

from __future__ import annotations

from lsprotocol import types as lsp

from ..model import Anchor, Diagnostic
from .incremental import OpenFile

MAX_RELATED = 10  # documents named by one finding: a file may hold thousands of one kind


def _kinds(file: OpenFile) -> dict[str, list[int]]:
    """Kind as written -> the positions of the documents of the last check that name it."""
    out: dict[str, list[int]] = {}
    for position, document in enumerate(file.source.documents if file.source else ()):
        data = document.data
        if isinstance(data, dict) and isinstance(data.get("kind"), str):
            out.setdefault(data["kind"], []).append(position)
    return out


def related_information(uri: str, file: OpenFile, diagnostics: list[Diagnostic]) -> dict[int, list[lsp.DiagnosticRelatedInformation]]:
    """For each diagnostic (by its index) that concerns other documents, where they are."""
    if not file.cross or file.source is None:
        return {}
    kinds = _kinds(file)
    out: dict[int, list[lsp.DiagnosticRelatedInformation]] = {}
    for index, diagnostic in enumerate(diagnostics):
        if diagnostic.document not in file.cross:
            continue
        words = dict.fromkeys(word.strip("\"'.,:;()[]") for word in diagnostic.message.split())
        others = [(p, kind) for kind in words for p in kinds.get(kind, ()) if p + 1 != diagnostic.document][:MAX_RELATED]
        related = []
        for position, kind in sorted(others):
            line, column = file.source.locator(position).position(("kind",), Anchor.VALUE)
            where = lsp.Range(lsp.Position(line - 1, column - 1), lsp.Position(line - 1, column - 1 + len(kind)))
            related.append(lsp.DiagnosticRelatedInformation(lsp.Location(uri, where), f"document {position + 1}: {kind}"))
        if related:
            out[index] = related
    return out
