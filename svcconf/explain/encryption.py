"""Which providers write and read a resource under an EncryptionConfiguration: the API server's transformer lookup.

Semantics of `pkg/server/options/encryptionconfig/config.go`: each entry's providers are appended,
in file order, to every group resource the entry names; a resource takes the providers listed for
its exact name, else for `*.group`, else for `*.*`, else none (stored unencrypted). The first
provider writes, with its first key; every provider reads the data that carries its prefix, and
identity reads unencrypted data. Key secrets are never part of the result: only key names.
"""

from __future__ import annotations

from typing import NamedTuple

from ..known.apiserver import PROVIDER_ORDER, covers, display, parse_group_resource
from ..load.source import position
from ..model import items, mapping, text

# events.k8s.io Events are stored as core events (the validate rule tells config writers the same).
_STORED_AS = {("events", "events.k8s.io"): ("events", "")}


class Provider(NamedTuple):
    entry: int  # resources[entry].providers[index]
    index: int
    line: int
    type: str  # kms, aesgcm, aescbc, secretbox, identity
    keys: tuple = ()  # key names; the first one writes
    name: str = ""  # kms
    api_version: str = ""  # kms
    endpoint: str = ""  # kms

    def prefixes(self) -> tuple:
        """What the provider writes in front of stored data (identity: nothing)."""
        if self.type == "kms":
            return (f"k8s:enc:kms:{self.api_version}:{self.name}:",)
        return tuple(f"k8s:enc:{self.type}:v1:{key}:" for key in self.keys)


class Listed(NamedTuple):
    """One resource name as an entry lists it."""

    entry: int
    written: str  # normalised: `secrets.`, `*.apps`, `*.*`
    line: int


class Outcome(NamedTuple):
    resource: str
    group: str
    note: str
    listed: tuple  # the entries whose providers the resource takes (Listed)
    writer: Provider | None  # None: no entry matches, data is stored unencrypted
    readers: tuple  # Provider, in the order the server tries them
    masked: tuple  # (Listed, Listed that takes precedence): entries that match but are never used for it

    @property
    def encrypted(self) -> bool:
        return self.writer is not None and self.writer.type != "identity"


def _provider(entry: int, index: int, body: dict, root) -> Provider | None:
    line = position(root, ("resources", entry, "providers", index))[0]
    kind = next((name for name in PROVIDER_ORDER if name in body), None)
    if kind is None:
        return None
    config = mapping(body.get(kind))
    if kind == "kms":
        return Provider(
            entry, index, line, kind, (), text(config.get("name")), text(config.get("apiVersion")) or "v1", text(config.get("endpoint"))
        )
    keys = tuple(text(mapping(key).get("name")) for _m, key in items(config.get("keys")))
    return Provider(entry, index, line, kind, keys)


def explain(data: dict, root, resource: str, group: str) -> Outcome:
    note = ""
    if (resource, group) in _STORED_AS:
        resource, group = _STORED_AS[(resource, group)]
        note = "events.k8s.io Events are stored as core events"
    # Rank of each way an entry can name the resource: the lookup takes the lowest present.
    ranks = {(resource, group): 0, ("*", group): 1, ("*", "*"): 2}
    matching: list[tuple[int, Listed]] = []
    entries = [mapping(entry) for _i, entry in items(data.get("resources"))]
    for i, entry in enumerate(entries):
        for j, name in items(entry.get("resources")):
            if not isinstance(name, str):
                continue
            key = parse_group_resource(name)
            if key == (resource, group) or covers(key, resource, group):
                listed = Listed(i, display(*key), position(root, ("resources", i, "resources", j))[0])
                matching.append((ranks[key], listed))
    if not matching:
        return Outcome(resource, group, note, (), None, (), ())
    best = min(rank for rank, _listed in matching)
    used = tuple(listed for rank, listed in matching if rank == best)
    masked = tuple((listed, used[0]) for rank, listed in matching if rank != best)
    readers = tuple(
        provider
        for listed in used
        for k, body in items(entries[listed.entry].get("providers"))
        if (provider := _provider(listed.entry, k, mapping(body), root)) is not None
    )
    return Outcome(resource, group, note, used, readers[0] if readers else None, readers, masked)
