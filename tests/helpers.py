"""Run the CLI in-process and collect what a user would see; every SARIF log a run writes is checked against the SARIF schema."""

from __future__ import annotations

import functools
import io
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import svcconf
from svcconf.cli import main

SARIF_SCHEMA = Path(__file__).resolve().parent / "data" / "sarif-schema-2.1.0.json"


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
    result = Run(code, out.getvalue(), err.getvalue())
    _check_sarif_written(args, result)
    return result


def run_contained(*args: str, stdin=subprocess.DEVNULL, cwd=None) -> Run:
    """svcconf in a child process with a time limit and a memory cap: a regression that blocks on a
    pipe or reads a device without end fails the test instead of hanging or exhausting the machine."""
    import pytest

    resource = pytest.importorskip("resource")

    def cap_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    package_root = os.path.dirname(os.path.dirname(svcconf.__file__))  # the svcconf under test
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")]))}
    env.pop("GITHUB_ACTIONS", None)
    done = subprocess.run(
        [sys.executable, "-m", "svcconf", *args],
        stdin=stdin,
        env=env,
        cwd=cwd,
        capture_output=True,
        timeout=20,
        preexec_fn=cap_memory,
        check=False,
    )
    return Run(done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"))


def _option(args: tuple[str, ...], short: str, long: str) -> str | None:
    """The value of an option in a command line (`-f sarif`, `--format sarif`, `--format=sarif`), the last one if repeated."""
    value = None
    for index, arg in enumerate(args):
        if arg in (short, long) and index + 1 < len(args):
            value = args[index + 1]
        elif arg.startswith(long + "="):
            value = arg.partition("=")[2]
    return value


def _check_sarif_written(args: tuple[str, ...], result: Run) -> None:
    if not args or args[0] != "validate" or _option(args, "-f", "--format") != "sarif":
        return
    output = _option(args, "-o", "--output")
    if output is None:
        text = result.out
    else:
        path = Path(output)
        text = path.read_text(encoding="utf-8") if path.is_file() and not path.is_symlink() else ""
    if text:
        assert_valid_sarif(json.loads(text))


@functools.lru_cache(maxsize=1)
def _sarif_validator():
    import jsonschema

    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    return jsonschema.validators.validator_for(schema)(schema)


def assert_valid_sarif(log: dict) -> None:
    """The log conforms to the SARIF 2.1.0 schema."""
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in _sarif_validator().iter_errors(log)]
    assert errors == [], errors
