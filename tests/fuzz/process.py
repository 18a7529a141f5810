"""The checks of a sampled case run as a user runs svcconf: `python -m svcconf ...` in a child process.

File names are passed the way pre-commit passes them (after the flags, with no `--`), so a name
that looks like a flag is read as one: that must end in exit code 2, never in a write elsewhere.
"""

from __future__ import annotations

import os
import random
import resource
import signal
import subprocess
import sys
import time

from . import reports
from .checks import TIME_LIMIT, Failure, migrate_limit
from .generate import Case

FORMATS = ("text", "json", "sarif", "github", "junit", "gitlab")
CPU_LIMIT = int(TIME_LIMIT) + 2  # seconds of CPU time for a child: the in-process limit and the interpreter's start
WALL_LIMIT = 120  # seconds: only for a child that waits instead of working
KILLED = "killed"  # the folder a killed `migrate --write` works in


def _environment() -> dict[str, str]:  # pragma: no mutate block
    env = {k: v for k, v in os.environ.items() if not k.startswith("SVCCONF_") and k != "GITHUB_ACTIONS"}
    env["NO_COLOR"] = "1"
    return env


def _run(args: list, failures: list[Failure], label: str, cpu_limit: int = CPU_LIMIT, stdin=None) -> subprocess.CompletedProcess | None:
    def limit_cpu() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 1))  # pragma: no mutate - SIGXCPU, then SIGKILL a second on

    try:
        ran = subprocess.run(
            [sys.executable, "-m", "svcconf", *args],
            stdin=stdin,
            capture_output=True,
            timeout=WALL_LIMIT,  # pragma: no mutate - reached only by a child that waits (the planted tests fake it)
            env=_environment(),
            preexec_fn=limit_cpu,  # pragma: no mutate - reached only by a child that spins (the planted tests fake it)
            check=False,  # pragma: no mutate - the default, spelled out: an exit code is a result
        )
    except subprocess.TimeoutExpired:
        failures.append(Failure("hang", f"hang: process {label}", f"over {WALL_LIMIT} s without finishing"))
        return None
    if ran.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        failures.append(Failure("hang", f"hang: process {label}", f"over {cpu_limit} s of CPU time"))
        return None
    return ran


def _crashed(ran: subprocess.CompletedProcess, label: str, failures: list[Failure]) -> None:
    err = ran.stderr.decode("utf-8", "replace")  # pragma: no mutate - codec names ignore case
    if ran.returncode not in (0, 1, 2) or "Traceback" in err or "internal error" in err:
        last = err.strip().rpartition("\n")[2]
        kind = last.partition("internal error: ")[2].partition(":")[0] if "internal error: " in last else f"exit {ran.returncode}"
        failures.append(Failure("traceback", f"traceback: process {label} ({kind})", last[:200]))


def _stray(before: set[bytes], label: str, failures: list[Failure]) -> None:
    for name in sorted(set(os.listdir(b".")) - before):
        failures.append(Failure("stray-write", f"stray-write: process {label} wrote a file it was not asked to", repr(name)))
        os.unlink(name)


def check_process(case: Case, migrated: bytes | None) -> list[Failure]:  # pragma: no mutate block
    """Validate (one format, picked by the case number) and migrate as child processes, in the current folder."""
    failures: list[Failure] = []
    fmt = FORMATS[case.index % len(FORMATS)]
    with open(case.name, "wb") as handle:
        handle.write(case.data)
    before = set(os.listdir(b"."))
    try:
        label = f"validate -f {fmt}"
        ran = _run(["validate", "--no-config", "--jobs", "1", "-f", fmt, case.name], failures, label)
        if ran is not None:
            _crashed(ran, label, failures)
            out = ran.stdout.decode("utf-8", "replace")
            if ran.returncode != 2:  # 2: a usage error (a name read as a flag) prints no report
                failures += [Failure("malformed-report", f"process: {c}", d) for c, d in reports.CHECKS[fmt](out)]
            for stream in (ran.stdout, ran.stderr):
                lines = reports.secrets_shown(stream.decode("utf-8", "replace"), case.markers)
                if lines:
                    failures.append(Failure("secret", f"secret: shown by process {label}", repr(lines[0][:200])))
        _stray(before, label, failures)
        ran = _run(["migrate", "--diff", case.name], failures, "migrate --diff", int(migrate_limit(len(case.data))) + 2)
        if ran is not None:
            _crashed(ran, "migrate --diff", failures)
            for stream in (ran.stdout, ran.stderr):
                lines = reports.secrets_shown(stream.decode("utf-8", "replace"), case.markers)
                if lines:
                    failures.append(Failure("secret", "secret: shown by process migrate --diff", repr(lines[0][:200])))
        _stray(before, "migrate --diff", failures)
    finally:
        os.unlink(case.name)
    if migrated is not None:
        failures += killed_migration(case, migrated)
    return failures


def killed_migration(case: Case, migrated: bytes) -> list[Failure]:  # pragma: no mutate block
    """`migrate --write` killed at a random moment leaves the old bytes or the new ones, nothing between."""
    os.makedirs(KILLED, exist_ok=True)
    path = os.path.join(KILLED, "input" + os.fsdecode(case.name)[-5:].replace("/", "_"))
    with open(path, "wb") as handle:
        handle.write(case.data)
    child = subprocess.Popen(
        [sys.executable, "-m", "svcconf", "migrate", "--write", "--", path],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=_environment(),
    )
    time.sleep(random.Random(case.index).uniform(0.05, 0.6))
    child.send_signal(signal.SIGKILL)
    child.wait()
    with open(path, "rb") as handle:
        left = handle.read()
    for name in os.listdir(KILLED):  # a killed writer may leave its temporary file: not a loss
        os.unlink(os.path.join(KILLED, name))
    if left not in (case.data, migrated):
        return [Failure("migrate-loss", "migrate-loss: a killed migrate --write left a partial file", f"{len(left)} bytes")]
    return []
