"""What the server answers: the document lifecycle, diagnostics, configuration changes, hover, completion and code actions."""

from __future__ import annotations

import os

from lsprotocol import types as lsp

from .app import WATCHED_CONFIGS, SvcconfServer, guarded, watch_parent

COMPLETION_TRIGGERS = [":", " ", "-"]


def register(server: SvcconfServer) -> None:
    _lifecycle(server)
    _diagnostics(server)
    _help(server)


def _lifecycle(server: SvcconfServer) -> None:
    @server.feature(lsp.INITIALIZE)
    def initialize(ls: SvcconfServer, params: lsp.InitializeParams) -> None:
        watch_parent(params.process_id)

    @server.feature(lsp.INITIALIZED)
    @guarded("initialized")
    def initialized(ls: SvcconfServer, params) -> None:
        if _dynamic(ls.client_capabilities, "workspace", "did_change_watched_files"):
            watchers = [lsp.FileSystemWatcher(glob_pattern=f"**/{name}") for name in WATCHED_CONFIGS]
            options = lsp.DidChangeWatchedFilesRegistrationOptions(watchers=watchers)
            ls.client_register_capability(
                lsp.RegistrationParams([lsp.Registration("svcconf-configs", lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES, options)])
            )

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    @guarded("didOpen")
    def did_open(ls: SvcconfServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.changed(params.text_document.uri, params.text_document.version)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    @guarded("didChange")
    def did_change(ls: SvcconfServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.changed(params.text_document.uri, params.text_document.version)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    @guarded("didSave")
    def did_save(ls: SvcconfServer, params: lsp.DidSaveTextDocumentParams) -> None:
        if os.path.basename(ls.state(params.text_document.uri).path) in WATCHED_CONFIGS:
            ls.reload_settings()
        else:
            ls.changed(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    @guarded("didClose")
    def did_close(ls: SvcconfServer, params: lsp.DidCloseTextDocumentParams) -> None:
        ls.files.pop(params.text_document.uri, None)
        if not ls.pulls:  # a closed file keeps no findings in the editor's list
            ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(params.text_document.uri, []))

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @guarded("didChangeWatchedFiles")
    def watched(ls: SvcconfServer, params: lsp.DidChangeWatchedFilesParams) -> None:
        if any(change.uri.rsplit("/", 1)[-1] in WATCHED_CONFIGS for change in params.changes):
            ls.reload_settings()


def _dynamic(capabilities, *names: str) -> bool:
    value = capabilities
    for name in names:
        value = getattr(value, name, None)
    return bool(getattr(value, "dynamic_registration", False))


def _diagnostics(server: SvcconfServer) -> None:
    @server.feature(
        lsp.TEXT_DOCUMENT_DIAGNOSTIC, lsp.DiagnosticOptions(identifier="svcconf", inter_file_dependencies=True, workspace_diagnostics=False)
    )
    @guarded("diagnostic", lsp.RelatedFullDocumentDiagnosticReport(items=[]))
    def diagnostic(ls: SvcconfServer, params: lsp.DocumentDiagnosticParams) -> lsp.RelatedFullDocumentDiagnosticReport:
        uri = params.text_document.uri
        if uri not in ls.files:
            ls.check(uri)
        return lsp.RelatedFullDocumentDiagnosticReport(items=ls.lsp_diagnostics(uri))


def _help(server: SvcconfServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    @guarded("hover")
    def hover(ls: SvcconfServer, params: lsp.HoverParams) -> lsp.Hover | None:
        from .hover import hover_at

        return hover_at(ls, params.text_document.uri, params.position)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=COMPLETION_TRIGGERS))
    @guarded("completion")
    def completion(ls: SvcconfServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
        from .completion import complete_at

        return complete_at(ls, params.text_document.uri, params.position)

    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix, lsp.CodeActionKind.Source]),
    )
    @guarded("codeAction", [])
    def code_action(ls: SvcconfServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        from .actions import actions_for

        return actions_for(ls, params.text_document.uri, params.range)
