"""`svcconf server` as a process: started as README's editor snippets start it, facing malformed messages and
clients that vanish, and never loaded by the other commands."""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import threading

import pytest

from tests.conftest import FIXTURES, ROOT
from tests.jsonrpc import frame, read_frames
from tests.server_client import environment

WAIT = 30  # seconds for an answer or an exit, however busy the machine


class Raw:
    """A language server process spoken to in raw JSON-RPC frames."""

    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=environment(), cwd=ROOT
        )
        self.messages: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        read_frames(self.process.stdout, lambda body: body is not None and self.messages.put(json.loads(body)))

    def send_bytes(self, data: bytes) -> None:
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message: dict) -> None:
        self.send_bytes(frame(message))

    def answer(self, request_id) -> dict:
        while True:
            message = self.messages.get(timeout=WAIT)
            if message.get("id") == request_id and "method" not in message:
                return message

    def notification(self, method: str) -> dict:
        while True:
            message = self.messages.get(timeout=WAIT)
            if message.get("method") == method:
                return message

    def initialize(self, process_id=None) -> dict:
        self.send({"id": 1, "method": "initialize", "params": {"processId": process_id, "rootUri": None, "capabilities": {}}})
        answer = self.answer(1)
        self.send({"method": "initialized", "params": {}})
        return answer

    def stop(self) -> int:
        self.send({"id": 99, "method": "shutdown"})
        self.answer(99)
        self.send({"method": "exit"})
        return self.process.wait(timeout=WAIT)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


@pytest.fixture
def raw():
    started: list[Raw] = []

    def start(command: list[str] | None = None) -> Raw:
        started.append(Raw(command or [sys.executable, "-m", "svcconf", "server"]))
        return started[-1]

    yield start
    for server in started:
        server.kill()


# --------------------------------------------------------------------------- README's editor snippets


def _editor_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split("## In your editor", 1)[1].split("\n## ", 1)[0]


def _snippets() -> dict[str, list[str]]:
    """The command each editor snippet starts, read as that editor reads its configuration."""
    import tomllib

    blocks = dict(re.findall(r"```(lua|json|toml|elisp)\n(.*?)```", _editor_section(), re.DOTALL))
    lua = re.search(r"cmd = \{(.*?)\}", blocks["lua"]).group(1)
    vscode = json.loads(blocks["json"])
    helix = tomllib.loads(blocks["toml"])["language-server"]["svcconf"]
    eglot = re.search(r"\. \((.*?)\)\)\)", blocks["elisp"]).group(1)
    return {
        "neovim": re.findall(r'"([^"]*)"', lua),
        "vscode": [vscode["glspc.server.command"], *vscode["glspc.server.commandArguments"]],
        "helix": [helix["command"], *helix["args"]],
        "emacs": re.findall(r'"([^"]*)"', eglot),
    }


SNIPPETS = _snippets()


@pytest.mark.parametrize("editor", sorted(SNIPPETS))
def test_each_editor_snippet_starts_a_server_that_checks_a_file(raw, editor: str) -> None:
    program, *args = SNIPPETS[editor]
    # the `svcconf` script beside this Python, as a user's PATH would find it
    server = raw([os.path.join(os.path.dirname(sys.executable), program), *args])
    assert server.initialize()["result"]["capabilities"]["hoverProvider"]
    path = FIXTURES / "core/ambiguous-scalar-boolean.yaml"
    document = {"uri": path.as_uri(), "languageId": "yaml", "version": 1, "text": path.read_text()}
    server.send({"method": "textDocument/didOpen", "params": {"textDocument": document}})
    published = server.notification("textDocument/publishDiagnostics")["params"]
    assert [(d["code"], d["range"]["start"]) for d in published["diagnostics"]] == [("ambiguous-scalar", {"line": 2, "character": 19})]
    assert server.stop() == 0


# --------------------------------------------------------------------------- hostile clients


def test_malformed_messages_are_skipped_and_the_server_keeps_answering(raw) -> None:
    server = raw()
    server.send_bytes(b"Content-Length: 9\r\n\r\n{not json")
    server.send_bytes(b"no header at all\r\n\r\n")
    server.send({"id": "x", "method": "textDocument/hover", "params": {"textDocument": 7}})
    assert server.initialize()["result"]["serverInfo"]["name"] == "svcconf"
    server.send({"id": 2, "method": "textDocument/hover", "params": {"textDocument": {"uri": "file:///nowhere.yaml"}, "position": None}})
    hover = {"textDocument": {"uri": "file:///nowhere.yaml"}, "position": {"line": 0, "character": 0}}
    server.send({"id": 3, "method": "textDocument/hover", "params": hover})
    assert server.answer(3)["result"] is None  # answered: nothing to say about an empty file
    assert server.stop() == 0


def test_a_message_claiming_an_enormous_size_ends_the_session(raw) -> None:
    server = raw()
    server.initialize()
    server.send_bytes(b"Content-Length: 1000000000000\r\n\r\n{}")
    assert server.process.wait(timeout=WAIT) is not None


def test_a_client_that_closes_the_pipe_ends_the_server(raw) -> None:
    server = raw()
    server.initialize()
    server.process.stdin.close()
    assert server.process.wait(timeout=WAIT) is not None


def test_the_server_ends_when_the_editor_process_is_gone_though_stdin_stays_open(raw) -> None:
    editor = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        server = raw()
        server.initialize(process_id=editor.pid)
        assert server.process.poll() is None
    finally:
        editor.kill()
        editor.wait()
    assert server.process.wait(timeout=WAIT) == 0


# --------------------------------------------------------------------------- the other commands


def _loaded_after(args: list[str]) -> list[str]:
    code = (
        "import sys\nfrom svcconf.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol', 'cattrs') or m.startswith('svcconf.server')))"
    )
    ran = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, env=environment(), check=False)
    return json.loads(ran.stdout.strip().splitlines()[-1].replace("'", '"'))


@pytest.mark.parametrize("args", [["validate", "fixtures/examples"], ["--help"], ["rules", "unknown-field"]])
def test_other_commands_never_load_the_server(args: list[str]) -> None:
    assert _loaded_after(args) == []


def test_without_the_server_extra_the_command_says_how_to_get_it() -> None:
    code = "import sys\nsys.modules['pygls'] = None\nfrom svcconf.cli import main\nsys.exit(main(['server']))"
    ran = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environment(), check=False, stdin=subprocess.DEVNULL
    )
    assert ran.returncode == 2
    assert "pip install 'svcconf[server]'" in ran.stderr and "Traceback" not in ran.stderr


def test_messages_recorded_in_a_file_are_answered(tmp_path) -> None:
    frames = b""
    for message in (
        {"id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}},
        {"method": "initialized", "params": {}},
        {"id": 2, "method": "shutdown"},
        {"method": "exit"},
    ):
        frames += frame(message)
    recorded = tmp_path / "session"
    recorded.write_bytes(frames)
    with open(recorded, "rb") as stdin:
        ran = subprocess.run(
            [sys.executable, "-m", "svcconf", "server"], stdin=stdin, capture_output=True, env=environment(), timeout=WAIT, check=False
        )
    assert ran.returncode == 0
    assert b'"name": "svcconf"' in ran.stdout or b'"name":"svcconf"' in ran.stdout
