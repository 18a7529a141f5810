"""Every file a command is told to read goes through one bounded reader: a named pipe without a
writer reads as empty, a device (a symbolic link to /dev/zero) is refused unread, a file over its
limit is refused; never a hang, a MemoryError or a traceback.

Each case runs svcconf in a child process with a time limit and a memory cap, so that a
regression fails the test instead of hanging it or exhausting the machine.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.fuzz.hostile import AUTHN, AUTHZ, CLAIMS, POLICY
from tests.helpers import Run, run_contained

pytestmark = pytest.mark.skipif(not (hasattr(os, "mkfifo") and os.path.exists("/dev/zero")), reason="no named pipes or /dev/zero")

REQUEST = ("--user", "jane", "--verb", "get", "--resource", "pods")
LARGE = 17 * 1024 * 1024  # over every limit: --max-file-size (8 MiB), the configuration file's (1 MiB), the baseline's (16 MiB)

# (command line with NAMED where the hostile file goes, exit code for a pipe without a writer, for a
# link to /dev/zero, for a file over the limit). A pipe without a writer reads as an empty file.
CASES = {
    "validate PATH": (("validate", "--no-config", "NAMED"), 0, 0, 0),
    "validate --config": (("validate", "--config", "NAMED", "audit.yaml"), 0, 2, 2),
    "validate --baseline": (("validate", "--no-config", "--baseline", "NAMED", "audit.yaml"), 2, 2, 2),
    "migrate PATH": (("migrate", "--no-config", "NAMED"), 0, 2, 1),
    "migrate --config": (("migrate", "--config", "NAMED", "audit.yaml"), 0, 2, 2),
    "config --config": (("config", "--config", "NAMED"), 0, 2, 2),
    "explain audit CONFIG": (("explain", "audit", "NAMED", *REQUEST), 2, 2, 2),
    "explain audit --requests": (("explain", "audit", "audit.yaml", "--requests", "NAMED"), 2, 2, 2),
    "explain authz --rbac": (("explain", "authz", "authz.yaml", "--rbac", "NAMED", *REQUEST), 0, 2, 2),
    "explain encryption CONFIG": (("explain", "encryption", "NAMED", "--resource", "secrets"), 2, 2, 2),
    "explain claims CONFIG": (("explain", "claims", "NAMED", "--claims", "claims.json"), 2, 2, 2),
    "explain claims --claims": (("explain", "claims", "authn.yaml", "--claims", "NAMED"), 2, 2, 2),
}
KINDS = ("pipe", "device", "large")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("named")
    (root / "audit.yaml").write_text(POLICY)
    (root / "authz.yaml").write_text(AUTHZ)
    (root / "authn.yaml").write_text(AUTHN)
    (root / "claims.json").write_text(json.dumps(CLAIMS))
    os.mkfifo(root / "pipe")
    (root / "device").symlink_to("/dev/zero")
    with open(root / "large", "wb") as handle:
        handle.truncate(LARGE)  # sparse: its size is what counts
    return root


def _checked(result: Run) -> Run:
    for stream in (result.out, result.err):
        assert "Traceback" not in stream and "internal error" not in stream and "MemoryError" not in stream, stream
    return result


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("case", list(CASES))
def test_a_hostile_named_input_is_refused_or_read_within_bounds(folder, case: str, kind: str) -> None:
    args, *codes = CASES[case]
    result = _checked(run_contained(*(kind if arg == "NAMED" else arg for arg in args), cwd=folder))
    assert result.code == codes[KINDS.index(kind)], result.err
    if kind == "device" and result.code == 2:
        assert "not a regular file" in result.err, result.err
    if kind == "large" and result.code == 2:
        assert "limit" in result.err, result.err


def test_validate_reports_each_hostile_path_as_a_finding(folder) -> None:
    result = _checked(run_contained("validate", "--no-config", "-f", "json", "pipe", "device", "large", cwd=folder))
    found = [(d["file"], d["severity"], d["rule"]) for d in result.json()["diagnostics"]]
    assert found == [("device", "warning", "not-a-regular-file"), ("large", "warning", "file-too-large"), ("pipe", "info", "empty-file")]


@pytest.mark.parametrize(
    "args",
    [
        ("validate", "--no-config", "--stdin-filename", "deploy/audit.yaml", "-"),
        ("migrate", "--no-config", "--stdin-filename", "deploy/audit.yaml", "-"),
        ("explain", "claims", "authn.yaml", "--claims", "-"),
    ],
    ids=["validate", "migrate", "explain claims"],
)
@pytest.mark.parametrize("source", ["device", "large"])
def test_stdin_is_read_only_up_to_its_limit(folder, args, source: str) -> None:
    with open(folder / source, "rb") as stdin:
        result = _checked(run_contained(*args, stdin=stdin, cwd=folder))
    assert result.code in (0, 1, 2)
    assert "limit" in result.out + result.err


def test_a_pipe_with_a_writer_is_read(folder) -> None:
    # What `svcconf explain audit <(generate-policy) ...` passes: a pipe its writer fills.
    writer = subprocess.Popen(["sh", "-c", f"printf '{POLICY}' > pipe"], cwd=folder)
    try:
        result = _checked(run_contained("explain", "audit", "pipe", *REQUEST, cwd=folder))
    finally:
        writer.wait(timeout=20)
    assert result.code == 0, result.err
    assert "level: Metadata" in result.out


def test_add_suppressions_leaves_a_pipe_alone(folder) -> None:
    # validate reads what the writer sends; writing suppressions would open the pipe again, with no writer left.
    policy = POLICY.replace("Metadata", "Everything")
    writer = subprocess.Popen(["sh", "-c", f"printf '{policy}' > pipe"], cwd=folder)
    try:
        result = _checked(run_contained("validate", "--no-config", "--add-suppressions", "pipe", cwd=folder))
    finally:
        writer.wait(timeout=20)
    assert result.code == 1, result.err
    assert "pipe: 1 finding not suppressed: it is not a regular file" in result.err
