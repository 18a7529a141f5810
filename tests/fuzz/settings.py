"""The checks of a sampled case in a repository a pull request controls: hostile `.gitignore`, `exclude` and baseline.

The case's file is committed as `deploy/enc.yaml` in a git work tree, then a `.gitignore` naming
it (with other hostile patterns), a configuration file with hostile `exclude` patterns (never
naming it) and a hostile baseline are added, and `python -m svcconf validate -v .` runs in it.
It must exit 0, 1 or 2 with no traceback, and unless it refuses the settings (exit code 2) it
must never leave the tracked file out as ignored by git.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import tempfile

from . import mutators as m
from .checks import Failure
from .generate import Case
from .process import _crashed, _run

TRACKED = os.path.join("deploy", "enc.yaml")


def _git(top: str, *args: str) -> bool:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    done = subprocess.run(["git", "-C", top, *args], capture_output=True, env=env, check=False)
    return done.returncode == 0


def check_settings(case: Case) -> list[Failure]:
    if shutil.which("git") is None:
        return []
    rng = random.Random(f"svcconf-settings:{case.index}")
    failures: list[Failure] = []
    top = tempfile.mkdtemp(prefix="svcconf-settings-")
    here = os.getcwd()
    try:
        os.makedirs(os.path.join(top, "deploy"))
        with open(os.path.join(top, TRACKED), "wb") as handle:
            handle.write(case.data)
        if not (_git(top, "init", "-q") and _git(top, "add", TRACKED)):
            return []
        ignores = [*m.pattern_lines(rng), "enc.yaml"]
        with open(os.path.join(top, "deploy", ".gitignore"), "w", encoding="utf-8", errors="surrogateescape") as handle:
            handle.write("\n".join(rng.sample(ignores, len(ignores))) + "\n")
        excludes = [p for p in m.pattern_lines(rng) if "enc" not in p and p not in ("*.yaml", "**", "[!/]*", "/deploy/")]
        with open(os.path.join(top, "baseline.json"), "wb") as handle:
            handle.write(m.baseline_text(rng, TRACKED))
        with open(os.path.join(top, ".svcconf.yaml"), "w", encoding="utf-8") as handle:
            handle.write(json.dumps({"exclude": excludes, "baseline": "baseline.json"}) + "\n")
        os.chdir(top)
        ran = _run(["validate", "--jobs", "1", "-v", "-f", "json", "."], failures, "validate in a hostile repository")
        if ran is not None:
            _crashed(ran, "validate in a hostile repository", failures)
            hidden = f"{TRACKED}: skipped: ignored by git"
            if ran.returncode != 2 and hidden in ran.stderr.decode("utf-8", "replace"):
                failures.append(Failure("stray-write", "hidden: a tracked file was left out as ignored by git", hidden))
    finally:
        os.chdir(here)
        shutil.rmtree(top, ignore_errors=True)
    return failures
