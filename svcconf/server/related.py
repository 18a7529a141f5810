"""Related information for cross-document findings: the other documents of the file that a finding names by kind.

A bootstrap file's checks read every document (a kind given twice, a pod subnet that must agree
with kube-proxy's clusterCIDR); the finding sits on one document and its message names the kind of
the others. Only findings of documents whose rules looked at their siblings are related.
"""

from __future__ import annotations

from lsprotocol import types as lsp

from ..model import Anchor, Diagnostic
from .incremental import OpenFile


def _kinds(file: OpenFile) -> list[tuple[int, str]]:
    """(position, kind as written) of each document of the last check that names one."""
    out = []
    for position, document in enumerate(file.source.documents if file.source else ()):
        data = document.data
        if isinstance(data, dict) and isinstance(data.get("kind"), str):
            out.append((position, data["kind"]))
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
        words = {word.strip("\"'.,:;()[]") for word in diagnostic.message.split()}
        related = []
        for position, kind in kinds:
            if position + 1 == diagnostic.document or kind not in words:
                continue
            line, column = file.source.locator(position).position(("kind",), Anchor.VALUE)
            where = lsp.Range(lsp.Position(line - 1, column - 1), lsp.Position(line - 1, column - 1 + len(kind)))
            related.append(lsp.DiagnosticRelatedInformation(lsp.Location(uri, where), f"document {position + 1}: {kind}"))
        if related:
            out[index] = related
    return out
