#!/usr/bin/env python3
"""Diagnostics latency of `svcconf server` after a one-line change, against an in-process check of the whole file.

    python bench/server_bench.py [--repeats 41] [--json FILE]

A 1,000-line file of 20 configuration documents (the all-kinds corpus generators) is opened in a
server started as an editor starts it (`svcconf server`, JSON-RPC over stdio). Each repetition
changes one line of one document (in turn) and waits for the diagnostics of that version. In the
same run, interleaved: validate's check of the whole text in this process (`check_bytes`), and the
server's own check of the change in this process (`OpenFile.check`, no protocol). Figures are medians;
the ratios are what to compare across machines. Target: latency <= 0.5 x the whole-file check.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from corpusgen import all_kinds
from corpusgen.writer import Style, write_document
from timing import load_average, median

from tests.jsonrpc import frame, read_frame  # the frames the suite's raw client speaks

LINES, DOCUMENTS = 1000, 20
KINDS = ("scheduler", "authn", "authz", "audit", "encryption", "admission", "proxy", "controller-manager", "tracing", "egress")


def make_file(seed: int = 5) -> str:
    """20 documents of about 50 lines each, 1,000 lines in all (the last one trimmed to a list item's end or padded with comments)."""
    rng = random.Random(seed)
    pool = [k for k in all_kinds.KINDS if k.name in KINDS]
    documents: list[str] = []
    index = 0
    while len(documents) < DOCUMENTS:
        kind = pool[index % len(pool)]
        text = write_document(all_kinds.documents_of(rng, kind, 1, index)[0], Style(rng))
        index += 1
        if 30 <= text.count("\n") <= 70 or index > 400:
            documents.append(text)
    body = "---\n".join(documents)
    missing = LINES - body.count("\n")
    return body + "# padding\n" * max(missing, 0)


class Server:
    """`svcconf server` in a child process, spoken to in JSON-RPC frames by this thread alone (no reader thread to wake)."""

    def __init__(self) -> None:
        script = os.path.join(os.path.dirname(sys.executable), "svcconf")
        self.process = subprocess.Popen([script, "server", "--no-config"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def send(self, message: dict) -> None:
        self.process.stdin.write(frame(message))
        self.process.stdin.flush()

    def wait(self, version: int) -> float:
        """When the diagnostics of `version` arrived (-1: when the answer to a request arrived)."""
        while (body := read_frame(self.process.stdout)) is not None:
            message = json.loads(body)
            if message.get("method") == "textDocument/publishDiagnostics" and (message["params"].get("version") or 0) == version:
                return time.perf_counter()
            if version == -1 and "id" in message and "method" not in message:
                return time.perf_counter()
        raise SystemExit("svcconf server stopped answering")

    def stop(self) -> None:
        self.send({"id": 9, "method": "shutdown"})
        self.send({"method": "exit"})
        self.process.wait(timeout=30)


def one_line_change(text: str, round_: int) -> tuple[int, str, str]:
    """(line, old, new) changing a value on one line of document round_ % 20: a comment appended to a line of data."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if line == "---"]
    document = round_ % DOCUMENTS
    first = 0 if document == 0 else starts[document - 1] + 1
    row = first + 3
    return row, lines[row], f"{lines[row]}  # edit {round_}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=41)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()

    from svcconf.lint.check import check_bytes
    from svcconf.server.incremental import OpenFile
    from svcconf.settings.options import ValidateOptions

    text = make_file()
    uri = Path(os.path.abspath("bench-server.yaml")).as_uri()
    options = ValidateOptions()
    file = OpenFile("bench-server.yaml", options)
    file.check(text)
    check_bytes("bench-server.yaml", text.encode(), options)  # schemas compiled, rules imported
    server = Server()
    server.send({"id": 1, "method": "initialize", "params": {"processId": os.getpid(), "rootUri": None, "capabilities": {}}})
    server.wait(-1)
    server.send({"method": "initialized", "params": {}})
    server.send(
        {"method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}}
    )
    server.wait(1)
    latency, whole, incremental = [], [], []
    current = text
    for round_ in range(args.repeats):
        row, old, new = one_line_change(text, round_)
        change = {"range": {"start": {"line": row, "character": 0}, "end": {"line": row, "character": len(old)}}, "text": new}
        version = round_ + 2
        started = time.perf_counter()
        server.send(
            {"method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}}
        )
        latency.append(server.wait(version) - started)
        lines = current.split("\n")
        lines[row] = new
        current = "\n".join(lines)
        started = time.perf_counter()
        check_bytes("bench-server.yaml", current.encode(), options)
        whole.append(time.perf_counter() - started)
        started = time.perf_counter()
        file.check(current)
        incremental.append(time.perf_counter() - started)
        # the server's text now holds this change; undo it in both at the next round's line only
        text = current
    server.stop()
    figures = {
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "load_average": load_average(),
        "lines": text.count("\n"),
        "documents": DOCUMENTS,
        "whole_file_check_ms": median(whole) * 1000,
        "server_latency_ms": median(latency) * 1000,
        "incremental_check_ms": median(incremental) * 1000,
    }
    figures["latency_ratio"] = figures["server_latency_ms"] / figures["whole_file_check_ms"]
    figures["incremental_ratio"] = figures["incremental_check_ms"] / figures["whole_file_check_ms"]
    load = f", load average {figures['load_average']:.1f}" if figures["load_average"] is not None else ""
    print(f"svcconf server, a one-line change in a {figures['lines']}-line file of {DOCUMENTS} documents ({figures['machine']}{load}):")
    print(f"  whole-file check in-process (validate's): {figures['whole_file_check_ms']:.2f} ms")
    print(
        f"  diagnostics after the change over stdio:  {figures['server_latency_ms']:.2f} ms = "
        f"{figures['latency_ratio']:.2f} x the whole-file check (target <= 0.5)"
    )
    print(f"  the server's check alone, in-process:     {figures['incremental_check_ms']:.2f} ms = {figures['incremental_ratio']:.2f} x")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n")
    return 0 if figures["latency_ratio"] <= 0.5 else 1


if __name__ == "__main__":
    sys.exit(main())
