"""The all-kinds corpus: every kind svcconf checks, one sub-folder per kind, in the shares a platform repository has."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import NamedTuple

from . import admission, apiserver_misc, audit, auth, bootstrap, components, encryption, manifests, scheduler, static_pods

Spoil = Callable[[random.Random, dict], "tuple[str, list[str]] | None"]


class Kind(NamedTuple):
    """One sub-folder of the corpus: what its files hold and how a document of it gets a mistake."""

    name: str  # the sub-folder, and the name the benchmark reports figures under
    share: float  # of all documents
    make: Callable[[random.Random, int], list[dict]]  # the documents that belong together in a file
    spoil: Spoil | None  # None: a kind svcconf skips
    stem: str  # file names: <stem>-NNN.yaml
    units_per_file: tuple[int, ...]  # drawn from uniformly: how many of make's groups a file holds


def _one(make: Callable[[random.Random, int], dict]) -> Callable[[random.Random, int], list[dict]]:
    return lambda rng, index: [make(rng, index)]


def _controller_manager(rng: random.Random, index: int) -> list[dict]:
    return [(components.kube_controller_manager if rng.random() < 0.6 else components.cloud_controller_manager)(rng, index)]


# Most configuration files hold one document; some repositories keep several per file (kustomize
# bundles, per-cluster variants). A bootstrap file is one set (init, join, reset or upgrade); a
# kubelet or kube-proxy file one document (two kubelet documents in a file are a bootstrap error).
SINGLE = (1,)
FEW = (1, 1, 1, 1, 2, 2, 3, 4)
MANY = (1, 2, 3, 4, 5, 6, 8, 10, 12)

KINDS = (
    Kind("bootstrap", 0.14, bootstrap.bootstrap_file, bootstrap.break_bootstrap, "kubeadm", SINGLE),
    Kind("scheduler", 0.10, _one(scheduler.scheduler_configuration), scheduler.break_scheduler, "kube-scheduler", FEW),
    Kind("proxy", 0.06, _one(components.proxy_configuration), components.break_proxy, "kube-proxy", SINGLE),
    Kind("kubelet", 0.05, _one(components.kubelet_configuration), components.break_kubelet, "kubelet", SINGLE),
    Kind("controller-manager", 0.07, _controller_manager, components.break_controller_manager, "controller-manager", FEW),
    Kind("leader-migration", 0.03, _one(components.leader_migration), components.break_leader_migration, "leader-migration", FEW),
    Kind("admission", 0.09, admission.admission_file, admission.break_admission, "admission", FEW),
    Kind("authn", 0.06, _one(auth.authentication_configuration), auth.break_authentication, "authentication", FEW),
    Kind("authz", 0.06, _one(auth.authorization_configuration), auth.break_authorization, "authorization", FEW),
    Kind("egress", 0.03, _one(apiserver_misc.egress_selector), apiserver_misc.break_egress, "egress-selector", FEW),
    Kind("tracing", 0.03, _one(apiserver_misc.tracing_configuration), apiserver_misc.break_tracing, "tracing", FEW),
    Kind("audit", 0.09, audit.audit_file, audit.break_audit, "audit-policy", FEW),
    Kind("encryption", 0.06, _one(encryption.encryption_configuration), encryption.break_encryption, "encryption-config", FEW),
    Kind("payloads", 0.03, apiserver_misc.events_file, apiserver_misc.break_payload, "recorded", MANY),
    Kind("static-pods", 0.03, _one(static_pods.static_pod), static_pods.break_static_pod, "static-pod", FEW),
    Kind("manifests", 0.07, _one(manifests.other_manifest), None, "manifests", MANY),
)
BY_NAME = {kind.name: kind for kind in KINDS}
SUBFOLDERS = ("", "", "base", "overlays/prod", "overlays/staging")


def documents_of(rng: random.Random, kind: Kind, count: int, first_index: int = 0) -> list[dict]:
    """count documents of a kind: whole groups, the last one cut short (a bootstrap set stays valid without its tail)."""
    docs: list[dict] = []
    while len(docs) < count:
        docs.extend(kind.make(rng, first_index + len(docs)))
    return docs[:count]


def plan(rng: random.Random, documents: int) -> list[tuple[str, list[tuple[dict, Spoil | None]]]]:
    """The corpus as (relative path, [(document, spoil)]) per file; documents in total, split by share."""
    quotas = [round(documents * kind.share) for kind in KINDS]
    quotas[-1] += documents - sum(quotas)  # rounding leftovers go to the manifests
    files = []
    index = 0
    for kind, quota in zip(KINDS, quotas):
        written = 0
        number = 0
        while written < quota:
            units = rng.choice(kind.units_per_file)
            docs = []
            for _ in range(units):
                docs.extend(kind.make(rng, index + len(docs)))
            docs = docs[: quota - written]
            number += 1
            folder = rng.choice(SUBFOLDERS)
            suffix = ".yml" if rng.random() < 0.15 else ".yaml"
            relpath = "/".join(part for part in (kind.name, folder, f"{kind.stem}-{number:03d}{suffix}") if part)
            files.append((relpath, [(doc, kind.spoil) for doc in docs]))
            written += len(docs)
            index += len(docs)
    return files
