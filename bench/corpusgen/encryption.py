"""Generator of EncryptionConfiguration documents (modelled on shared/corpus/encryption) and their deliberate mistakes."""

from __future__ import annotations

import base64
import random

from .writer import Inline, header, rename

# --------------------------------------------------------------------------- EncryptionConfiguration

# Resource lists in the order a correct configuration needs them: specific resources before the
# wildcards of their group, '*.*' last (an earlier wildcard would mask later entries).
SPECIFIC_RESOURCES = (
    ("secrets",),
    ("secrets", "configmaps"),
    ("configmaps",),
    ("events",),
    ("customresourcedefinitions.apiextensions.k8s.io",),
    ("leases.coordination.k8s.io",),
    ("deployments.apps", "statefulsets.apps"),
    ("pandas.awesome.bears.example",),
    ("certificates.cert-manager.io", "issuers.cert-manager.io"),
    ("applications.argoproj.io",),
)
WILDCARD_RESOURCES = (("*.apps",), ("*.batch",), ("*.networking.k8s.io",), ("*.",))


def _key(rng: random.Random, name: str, size: int = 32) -> dict:
    return {"name": name, "secret": base64.b64encode(rng.randbytes(size)).decode("ascii")}


def _keys(rng: random.Random) -> list[dict]:
    count = rng.choice((1, 1, 1, 2, 2, 3))
    first = rng.randint(1, 9)
    names = rng.choice(("key{}", "key{}", "k{}", "rotation-{}"))
    return [_key(rng, names.format(first + i)) for i in range(count)][:: -1 if rng.random() < 0.3 else 1]


def _provider(rng: random.Random, kind: str, kms_counter: list[int]) -> dict:
    if kind == "kms":
        kms_counter[0] += 1
        n = kms_counter[0]
        body = {
            "apiVersion": "v2",
            "name": f"{rng.choice(('kms', 'vault', 'cloudkms', 'azurekms'))}-{n}",
            "endpoint": f"unix:///var/run/kms-{n}.sock",
            "timeout": "3s",
        }
        return {"kms": body}
    return {kind: {"keys": _keys(rng)}}


def encryption_configuration(rng: random.Random, index: int) -> dict:
    """An EncryptionConfiguration; one in 20 in its legacy spelling, v1 EncryptionConfig."""
    entries = []
    count = rng.choice((1, 1, 1, 2, 2, 3, 4))
    specific = rng.sample(SPECIFIC_RESOURCES, max(1, count - rng.randint(0, 2)))
    names: list[tuple[str, ...]] = []
    seen: set[str] = set()
    for group in specific:
        group = tuple(n for n in group if n not in seen)
        if group:
            names.append(group)
            seen.update(group)
    wildcards = rng.sample(WILDCARD_RESOURCES, max(0, min(count - len(names), len(WILDCARD_RESOURCES))))
    names += wildcards
    if len(names) < count:
        names.append(("*.*",))
    kms_counter = [0]
    for resource_names in names[:count]:
        first = rng.choice(("aesgcm", "aesgcm", "aesgcm", "secretbox", "secretbox", "kms", "kms", "kms", "aescbc"))
        providers = [_provider(rng, first, kms_counter)]
        if rng.random() < 0.3:
            # Key rotation: the older provider stays to read what it wrote.
            providers.append(_provider(rng, rng.choice(("aescbc", "aesgcm", "secretbox", "kms")), kms_counter))
        if resource_names == ("events",) and rng.random() < 0.5:
            providers = []  # events are often left unencrypted
        if not providers or rng.random() < 0.8:
            # identity last: it reads what was stored before encryption was turned on.
            fallback = Inline({}, "read data written before encryption") if rng.random() < 0.1 else {}
            providers.append({"identity": fallback})
        entry = {"resources": list(resource_names), "providers": providers}
        entries.append(entry)
    doc = header(
        rng,
        (
            "Encryption at rest for the API server (--encryption-provider-config).",
            "Rotate keys with the runbook in docs/rotate-keys.md.",
            f"encryption config {index}",
        ),
        *(("v1", "EncryptionConfig") if index % 20 == 7 else ("apiserver.config.k8s.io/v1", "EncryptionConfiguration")),
        kind_first=0.3,
    )
    doc["resources"] = entries
    return doc


def break_encryption(rng: random.Random, doc: dict) -> tuple[str, list[str]]:
    kms = [p["kms"] for e in doc["resources"] for p in e["providers"] if "kms" in p]
    keyed = [
        (kind, k)
        for e in doc["resources"]
        for p in e["providers"]
        for kind in ("aesgcm", "aescbc", "secretbox")
        if kind in p
        for k in p[kind]["keys"]
    ]
    choice = rng.choice(("typo", "keylen"))
    if choice == "keylen" and keyed:
        kind, key = rng.choice(keyed)
        size = rng.choice((16, 24, 31) if kind == "secretbox" else (12, 20, 31, 64))
        key["secret"] = base64.b64encode(rng.randbytes(size)).decode("ascii")
        return f"{kind} key of {size} bytes", ["invalid-key-length"]
    if kms and rng.random() < 0.6:
        body = rng.choice(kms)
        typo = rng.choice(("timout", "timeOut"))
        rename(body, "timeout", typo)
        return f"unknown field {typo} (for timeout)", ["unknown-field"]
    entry = rng.choice(doc["resources"])
    rename(entry, "providers", "provider")
    # Without providers the entry is also incomplete: the server says both.
    return "unknown field provider (for providers)", ["unknown-field", "missing-field"]
