"""Helpers for driving `svcconf server` over stdio with pytest-lsp, and for comparing what it says with `svcconf validate -f json`."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

from lsprotocol import types as lsp

SERVER = [sys.executable, "-m", "svcconf", "server"]
SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning, "info": lsp.DiagnosticSeverity.Information}


def environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("SVCCONF_")}


def validate_json(paths: list, cwd) -> dict[str, list[tuple]]:
    """`svcconf validate -f json` on files: per file, (0-based line, 0-based column, rule, severity, path, message) of each finding."""
    ran = subprocess.run(
        [sys.executable, "-m", "svcconf", "validate", "-f", "json", "--jobs", "1", *map(str, paths)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environment(),
        check=False,
        timeout=120,
    )
    report = json.loads(ran.stdout)
    found: dict[str, list[tuple]] = {os.path.abspath(os.path.join(cwd, str(p))): [] for p in paths}
    for d in report["diagnostics"]:
        entry = (d["line"] - 1, d["column"] - 1, d["rule"], SEVERITY[d["severity"]], d["path"], d["message"])
        found[os.path.abspath(os.path.join(cwd, d["file"]))].append(entry)
    return found


def as_found(diagnostics) -> list[tuple]:
    """The server's diagnostics in the shape of validate_json's (ASCII text: columns are characters)."""
    return [
        (d.range.start.line, d.range.start.character, d.code, d.severity, d.data["path"], d.data["message"])
        for d in sorted(diagnostics, key=lambda d: (d.range.start.line, d.range.start.character, d.code, d.data["path"], d.data["message"]))
    ]


def sorted_found(found: list[tuple]) -> list[tuple]:
    return sorted(found, key=lambda f: (f[0], f[1], f[2], f[4], f[5]))


WAIT = 30


QUEUES: dict[int, dict[str, asyncio.Queue]] = {}  # id(client) -> uri -> what was published for it, in order


def make_client():
    """pytest-lsp's test client, keeping every publishDiagnostics in order (awaiting the next notification would miss those of a burst)."""
    from pygls.protocol import default_converter
    from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, LanguageClient, register_lsp_features

    client = LanguageClient(converter_factory=default_converter)
    register_lsp_features(client, {k: v for k, v in DEFAULT_CLIENT_FEATURES.items() if k != lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS})
    queues = QUEUES.setdefault(id(client), {})

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(params: lsp.PublishDiagnosticsParams) -> None:
        client.diagnostics[params.uri] = params.diagnostics
        queues.setdefault(params.uri, asyncio.Queue()).put_nowait(list(params.diagnostics))

    return client


def config(*flags: str):
    from pytest_lsp import ClientServerConfig

    return ClientServerConfig(server_command=[*SERVER, *flags], server_env=environment(), client_factory=make_client)


async def pushed(client, uri: str) -> list:
    """The next diagnostics the server publishes for `uri`."""
    queue = QUEUES[id(client)].setdefault(uri, asyncio.Queue())
    try:
        return await asyncio.wait_for(queue.get(), WAIT)
    except TimeoutError:
        raise AssertionError(f"no diagnostics for {uri}; the server logged: {[m.message for m in client.log_messages]}") from None


async def open_file(client, path, text: str, language: str = "yaml") -> list:
    uri = path.as_uri()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, language, 1, text)))
    return await pushed(client, uri)


def apply(text: str, edits: list[lsp.TextEdit]) -> str:
    """A text with LSP edits applied (ASCII text: characters are code units)."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def offset(position: lsp.Position) -> int:
        return min(offsets[position.line] + position.character, len(text)) if position.line < len(offsets) else len(text)

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text
