"""Run the CLI in-process and collect what a user would see."""

from __future__ import annotations

import io
import json
import sys
from dataclasses import dataclass

from svcconf.cli import main


@dataclass
class Run:
    code: int
    out: str
    err: str

    def json(self) -> dict:
        return json.loads(self.out)

    def rules(self) -> list[tuple[int, int, str, str, str]]:
        """(line, column, severity, rule, path) of each diagnostic in a JSON report."""
        return [(d["line"], d["column"], d["severity"], d["rule"], d["path"]) for d in self.json()["diagnostics"]]


def run(*args: str, stdin: bytes = b"", monkeypatch=None) -> Run:
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr = out, err
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        code = main(list(args))
    except SystemExit as exit:  # argparse usage errors
        code = exit.code if isinstance(exit.code, int) else 2
    finally:
        sys.stdout, sys.stderr, sys.stdin = old
    return Run(code, out.getvalue(), err.getvalue())
