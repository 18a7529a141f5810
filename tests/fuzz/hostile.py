"""Checks of a sampled case run as a user runs svcconf: a hostile file where a command names one, and CEL past any budget in explain.

A pull request can put a named pipe, a link to /dev/zero, a folder or a huge file where a
configuration, a baseline, requests, RBAC objects or claims are named, and expressions that grow
without end into an authorization or authentication configuration. Whatever it puts there, every
command ends with exit code 0, 1 or 2, no traceback (a MemoryError is one), within the time limit.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Iterator

from .checks import Failure
from .generate import NAMED, Case, cel_cost_config, hostile_input
from .process import _crashed, _run

FOLDER = "hostile"  # beside the case's own file, in the worker's scratch folder
OVERSIZED = 17 * 1024 * 1024  # over every input's limit, the baseline's 16 MiB included
POLICY = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n"
AUTHZ = "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n  - type: RBAC\n    name: rbac\n"
AUTHN = (
    "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\njwt:\n  - issuer:\n"
    "      url: https://issuer.example.com\n      audiences: [kubernetes]\n    claimMappings:\n"
    '      username: {claim: sub, prefix: ""}\n'
)
CLAIMS = {"iss": "https://issuer.example.com", "aud": "kubernetes", "exp": 4102444800, "sub": "aaaa"}


def check_hostile(case: Case) -> list[Failure]:
    failures: list[Failure] = []
    with _folder() as folder:
        failures += _named_input(case, folder)
        failures += _cel_cost(case, folder)
    return failures


@contextlib.contextmanager
def _folder() -> Iterator[str]:
    """A folder with the files the commands need besides the hostile one; removed with whatever is in it (links not followed)."""
    shutil.rmtree(FOLDER, ignore_errors=True)
    os.makedirs(FOLDER)
    for name, text in (("audit.yaml", POLICY), ("authz.yaml", AUTHZ), ("authn.yaml", AUTHN), ("claims.json", json.dumps(CLAIMS))):
        with open(os.path.join(FOLDER, name), "w", encoding="utf-8") as handle:
            handle.write(text)
    try:
        yield FOLDER
    finally:
        shutil.rmtree(FOLDER, ignore_errors=True)


def _plant(kind: str, path: str, data: bytes) -> None:
    if kind == "pipe":
        os.mkfifo(path)  # no writer: opening it to read waits for ever
    elif kind == "device":
        os.symlink("/dev/zero", path)
    elif kind == "folder":
        os.mkdir(path)
    else:
        with open(path, "wb") as handle:
            if kind == "oversized":
                handle.truncate(OVERSIZED)
            else:
                handle.write(data)


def _named_input(case: Case, folder: str) -> list[Failure]:
    hostile = hostile_input(case)
    path = os.path.join(folder, "named.yaml")
    _plant(hostile.kind, path, case.data)
    args = [path if arg == NAMED else os.path.join(folder, arg) if arg.endswith((".yaml", ".json")) else arg for arg in hostile.args]
    label = f"{' '.join(hostile.args)} with {hostile.kind} as {'stdin' if '-' in args else NAMED}"
    failures: list[Failure] = []
    with open(path, "rb") if "-" in args else contextlib.nullcontext() as stdin:
        ran = _run(args, failures, label, stdin=stdin)
    if ran is not None:
        _crashed(ran, label, failures)
    return failures


def _cel_cost(case: Case, folder: str) -> list[Failure]:
    cost = cel_cost_config(case)
    config = os.path.join(folder, "cel.yaml")
    with open(config, "w", encoding="utf-8") as handle:
        handle.write(cost.config)
    args = ["explain", cost.topic, config, *(os.path.join(folder, a) if a.endswith(".json") else a for a in cost.args)]
    label = f"explain {cost.topic} with CEL past the budget"
    failures: list[Failure] = []
    ran = _run(args, failures, label)
    if ran is not None:
        _crashed(ran, label, failures)
    return failures
