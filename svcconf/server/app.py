"""The language server over stdio: open files checked as they change, diagnostics pushed or pulled, hover, completion, fixes.

Each file is checked as `svcconf validate --stdin-filename PATH` checks the buffer: its
configuration file found from its folder (and re-read when one changes), excluded files left
alone. A client that pulls diagnostics (`textDocument/diagnostic`) gets them on request; any other
is sent them after each change. Nothing a handler fails on reaches the client but the name of the
exception: messages could quote a document, and a document may hold a secret.
"""

from __future__ import annotations

import argparse
import copy
import functools
import os
import threading
from typing import NamedTuple

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from .. import __version__
from ..load.discovery import CONFIG_NAMES
from ..model import Diagnostic, Severity
from ..settings.options import ValidateOptions
from .convert import SOURCE, characters, lines_of, to_lsp
from .incremental import OpenFile

WATCHED_CONFIGS = (*CONFIG_NAMES, "pyproject.toml")
PARENT_POLL_SECONDS = 2.0


class Place(NamedTuple):
    """Where a request points: the open file, its text and lines, the 0-based line and character, its settings."""

    state: FileState
    text: str
    lines: list[str]
    row: int
    column: int  # in characters, whatever the client's position encoding
    options: ValidateOptions


class FileState:
    """An open file: its settings and its last diagnostics."""

    __slots__ = ("diagnostics", "file", "path", "problems", "skipped")

    def __init__(self, path: str) -> None:
        self.path = path
        self.file: OpenFile | None = None  # None until settings are read, or while they cannot be used
        self.problems: list[Diagnostic] = []  # the configuration file's, when it cannot be used
        self.skipped: str | None = None  # why the file is not checked (exclude): it gets no diagnostics
        self.diagnostics: list[Diagnostic] = []


class SvcconfServer(LanguageServer):
    def __init__(self, args: argparse.Namespace) -> None:
        super().__init__("svcconf", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.args = args
        self.files: dict[str, FileState] = {}

    def report_server_error(self, error: Exception, source) -> None:
        # pygls would show the error's text, which may quote a message from the client: its type says enough.
        self.window_log_message(lsp.LogMessageParams(lsp.MessageType.Error, f"svcconf: cannot handle a message ({type(error).__name__})"))

    # ------------------------------------------------------------------ settings

    def _settings(self, state: FileState) -> None:
        """Read the settings that apply to a file, as validate reads them for --stdin-filename PATH."""
        from ..load.discovery import Selection
        from ..settings.config import ConfigError, read_config
        from ..settings.options import OptionsError, validate_options

        args = copy.copy(self.args)
        args.stdin_filename = state.path
        state.file, state.problems, state.skipped = None, [], None
        try:
            config = read_config(args)
            options = validate_options(args, config)._replace(jobs=1)
        except ConfigError as err:
            state.problems = err.diagnostics
            return
        except OptionsError as err:
            state.problems = [Diagnostic(args.config or "", 1, 1, "invalid-config", Severity.ERROR, str(err))]
            return
        state.skipped = Selection.of(options).excluded(state.path)
        state.file = OpenFile(state.path, options)

    def state(self, uri: str) -> FileState:
        state = self.files.get(uri)
        if state is None:
            state = self.files[uri] = FileState(_path_of(uri))
            self._settings(state)
        return state

    def reload_settings(self) -> None:
        """A configuration file changed: every open file's settings are read again and the file checked again."""
        for uri, state in self.files.items():
            self._settings(state)
            self.check(uri)
        if self.pulls:
            if _supports(self.client_capabilities, "workspace.diagnostics.refresh_support"):
                self.workspace_diagnostic_refresh(None)
        else:
            for uri in self.files:
                self.publish(uri)

    def text(self, uri: str) -> str | None:
        """An open document's text (None for a URI the client did not open: nothing is read from disk)."""
        document = self.workspace.text_documents.get(uri)
        return document.source if document is not None else None

    def place(self, uri: str, position: lsp.Position) -> Place | None:
        """The place a request names, in an open file (None: not open, or past its end)."""
        text = self.text(uri)
        if text is None:
            return None
        lines = lines_of(text)
        if position.line >= len(lines):
            return None
        state = self.state(uri)
        column = characters(lines[position.line], position.character, self.encoding)
        options = state.file.options if state.file is not None else ValidateOptions()
        return Place(state, text, lines, position.line, column, options)

    @property
    def encoding(self) -> str:
        return self.workspace.position_encoding or lsp.PositionEncodingKind.Utf16

    # ------------------------------------------------------------------ diagnostics

    @property
    def pulls(self) -> bool:
        """Whether the client asks for diagnostics itself (then none are pushed)."""
        return _supports(self.client_capabilities, "text_document.diagnostic")

    def check(self, uri: str) -> None:
        state = self.state(uri)
        text = self.text(uri)
        if state.file is None or state.skipped or text is None:
            state.diagnostics = []
            return
        state.diagnostics = sorted(state.file.check(text), key=Diagnostic.sort_key)

    def lsp_diagnostics(self, uri: str) -> list[lsp.Diagnostic]:
        state = self.state(uri)
        if state.problems:
            return [self._config_problem(state)]
        lines = lines_of(self.text(uri) or "")
        related = self._related(uri, state)
        return [to_lsp(d, lines, self.encoding, related.get(i)) for i, d in enumerate(state.diagnostics)]

    def _config_problem(self, state: FileState) -> lsp.Diagnostic:
        """One diagnostic saying the file is not checked, related to each problem of the configuration file."""
        first = state.problems[0]
        related = [
            lsp.DiagnosticRelatedInformation(
                lsp.Location(_uri_of(p.file), lsp.Range(lsp.Position(max(p.line - 1, 0), 0), lsp.Position(max(p.line - 1, 0), 0))),
                p.message,
            )
            for p in state.problems
            if p.file
        ]
        message = f"not checked: the configuration file {first.file} cannot be used: {first.message}"
        return lsp.Diagnostic(
            lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)),
            message,
            severity=lsp.DiagnosticSeverity.Error,
            code="invalid-config",
            source=SOURCE,
            related_information=related or None,
        )

    def _related(self, uri: str, state: FileState) -> dict[int, list]:
        from .related import related_information

        return related_information(uri, state.file, state.diagnostics) if state.file is not None else {}

    def publish(self, uri: str, version: int | None = None) -> None:
        if self.pulls:
            return
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, self.lsp_diagnostics(uri), version))

    def changed(self, uri: str, version: int | None = None) -> None:
        self.check(uri)
        self.publish(uri, version)


def _supports(capabilities, dotted: str) -> bool:
    """Whether a client capability (a dotted path of attributes) is present and not false."""
    value = capabilities
    for name in dotted.split("."):
        value = getattr(value, name, None)
        if value is None or value is False:
            return False
    return True


def _path_of(uri: str) -> str:
    """The file a URI names; an unsaved buffer (`untitled:...`) is named after its URI's last part, in the working directory."""
    path = to_fs_path(uri) if uri.startswith("file:") else None
    return path or os.path.abspath(uri.rsplit("/", 1)[-1].rsplit(":", 1)[-1] or "untitled.yaml")


def _uri_of(path: str) -> str:
    from pygls.uris import from_fs_path

    return from_fs_path(os.path.abspath(path)) or path


def guarded(method: str, empty=None):
    """A handler whose failure is logged by exception type alone and answered with `empty`."""

    def wrap(handler):
        @functools.wraps(handler)
        def run(server: SvcconfServer, params):
            try:
                return handler(server, params)
            except Exception as err:  # noqa: BLE001 - one request must not end the session
                server.window_log_message(lsp.LogMessageParams(lsp.MessageType.Error, f"svcconf: {method} failed ({type(err).__name__})"))
                return empty

        return run

    return wrap


def watch_parent(pid: int | None) -> None:
    """Exit when the editor that started the server is gone, even if it left stdin open (LSP initialize's processId)."""
    if not pid or pid == os.getpid():
        return

    def poll() -> None:
        event = threading.Event()
        while not event.wait(PARENT_POLL_SECONDS):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                os._exit(0)
            except PermissionError:
                pass  # alive, under another user

    threading.Thread(target=poll, name="svcconf-parent", daemon=True).start()
