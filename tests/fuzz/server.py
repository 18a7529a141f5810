"""A case sent through `svcconf server` over stdio: no crash, no hang, no planted secret in anything it says, still answering.

One server process per worker serves every case (as an editor keeps one open); a server that died
or stopped answering is a failure of the case that did it, and is started again for the next.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time

from ..jsonrpc import frame, read_frames
from .checks import TIME_LIMIT, Failure
from .generate import Case

WALL = 4 * TIME_LIMIT  # seconds for the server to answer about one case, however busy the machine
_SERVER: list = []  # the worker's server, started on first use


class Server:
    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "svcconf", "server", "--no-config"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.messages: queue.Queue = queue.Queue()
        self.said: list[str] = []  # every message body, for the secret check
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        self.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        self.notify("initialized", {})

    def _read(self) -> None:
        def received(body: bytes | None) -> None:
            if body is not None:
                self.said.append(body.decode("utf-8", "replace"))
            self.messages.put(json.loads(body) if body is not None else None)

        read_frames(self.process.stdout, received)

    def _send(self, message: dict) -> None:
        self.process.stdin.write(frame(message))
        self.process.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self._send({"method": method, "params": params})

    def _until(self, wanted) -> dict:
        deadline = time.monotonic() + WALL
        while True:
            message = self.messages.get(timeout=max(deadline - time.monotonic(), 0.01))
            if message is None:
                raise EOFError("the server closed its output")
            if wanted(message):
                return message

    def request(self, method: str, params: dict) -> dict:
        self.next_id += 1
        number = self.next_id
        self._send({"id": number, "method": method, "params": params})
        return self._until(lambda m: m.get("id") == number and "method" not in m)

    def diagnostics(self, uri: str) -> dict:
        return self._until(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


def _server() -> Server:
    if not _SERVER or _SERVER[0].process.poll() is not None:
        _SERVER[:] = [Server()]
    return _SERVER[0]


def _exchange(server: Server, case: Case) -> None:
    """Open the case's text, ask about a few places in it, change a line, close it; each answer awaited."""
    uri = f"file:///fuzz/case-{case.index}.{'json' if case.name.endswith(b'.json') else 'yaml'}"
    text = case.data.decode("utf-8", "replace")
    document = {"uri": uri, "languageId": "yaml", "version": 1, "text": text}
    server.notify("textDocument/didOpen", {"textDocument": document})
    server.diagnostics(uri)
    rows = max(text.count("\n"), 1)
    for row in sorted({0, 2, rows // 2, rows - 1}):
        where = {"textDocument": {"uri": uri}, "position": {"line": row, "character": 4}}
        server.request("textDocument/hover", where)
        server.request("textDocument/completion", where)
        span = {"start": {"line": row, "character": 0}, "end": {"line": row, "character": 0}}
        server.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": span, "context": {"diagnostics": []}})
    change = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "# edited\n"}
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [change]})
    server.diagnostics(uri)
    server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


def check_server(case: Case) -> list[Failure]:
    server = _server()
    server.said.clear()
    failures: list[Failure] = []
    try:
        _exchange(server, case)
        # still answering after the case
        server.request("textDocument/hover", {"textDocument": {"uri": "file:///fuzz/alive.yaml"}, "position": {"line": 0, "character": 0}})
    except queue.Empty:
        failures.append(Failure("hang", "hang: server", f"no answer within {WALL:g} s"))
        server.stop()
    except (EOFError, BrokenPipeError, OSError) as err:
        failures.append(Failure("traceback", "traceback: server died", f"{type(err).__name__}: {err}"[:200]))
        server.stop()
    shown = [body for body in server.said if any(marker in body for marker in case.markers)]
    if shown:
        failures.append(Failure("secret", "secret: shown by the server", shown[0][:200]))
    failed = [body for body in server.said if "svcconf: " in body and " failed (" in body]
    if failed:
        failures.append(Failure("internal-error", "internal-error: a server handler failed", failed[0][:200]))
    return failures
