"""What a baseline entry knows a finding by besides its file and rule: whose finding it is, and what it concerns.

The document is named by its apiVersion, kind and name (an item of a `kind: List` by its own),
never by its position in the file, so that moving it keeps its findings. What the finding
concerns is fingerprinted as narrowly as the finding allows (Finding.subject): the value judged,
the members a rule read, or nothing beyond the path for an unknown or missing field, so that
editing a sibling (even one inside the same mapping) keeps the finding.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ..known.naming import Naming
from ..known.secrets import holds_secret
from ..model import Fingerprint, Path, Subject, render_path

SECRET = "secret"  # in place of the hash of a value that is, or holds, a secret: no secret reaches a baseline, not even hashed
_MISSING = object()
# Kinds without metadata that keep a name of their own: (group, kind) -> the field (upstream spelling).
NAME_FIELDS = {
    ("kubeadm.k8s.io", "InitConfiguration"): ("nodeRegistration", "name"),
    ("kubeadm.k8s.io", "JoinConfiguration"): ("nodeRegistration", "name"),
    ("kubeadm.k8s.io", "ClusterConfiguration"): ("clusterName",),
}


def fingerprint(data: Any, path: Path, subject: Any, naming: Naming, legacy: bool = False) -> Fingerprint:
    """The fingerprint of a finding at `path` of a document's data; with `legacy`, also version 1's hash."""
    prefix = _list_item(data, path)
    unit = _at(data, prefix) if prefix else data
    api_version, kind = (_text(unit, "apiVersion"), _text(unit, "kind")) if isinstance(unit, dict) else (None, None)
    return Fingerprint(
        api_version,
        kind,
        _name(unit, api_version, kind, naming),
        render_path(path[len(prefix) :]),
        _subject_hash(data, path, subject),
        legacy_value_hash(data, path) if legacy else None,
    )


def _list_item(data: Any, path: Path) -> Path:
    """`("items", i)` when the finding lies in an item of a List (checked as a document of its own, as here), else ()."""
    if len(path) < 2 or path[0] != "items" or not isinstance(path[1], int) or not isinstance(data, dict):
        return ()
    kind, items = data.get("kind"), data.get("items")
    listed = isinstance(kind, str) and kind.endswith("List") and isinstance(items, list) and 0 <= path[1] < len(items)
    return path[:2] if listed and isinstance(items[path[1]], dict) else ()


def _text(data: dict, key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


def _name(data: Any, api_version: str | None, kind: str | None, naming: Naming) -> str | None:
    """metadata.name, else the field a kind names itself by (a kubeadm node or cluster name), where it is a string."""
    if not isinstance(data, dict):
        return None
    metadata = data.get("metadata")
    if isinstance(metadata, dict) and isinstance(metadata.get("name"), str):
        return metadata["name"]
    gv = naming.api_version(api_version) if api_version else None
    field = NAME_FIELDS.get((gv.group, naming.kind(kind))) if gv is not None and kind else None
    value = _at(data, field) if field else None
    return value if isinstance(value, str) else None


def _at(data: Any, path: Path) -> Any:
    """The value at `path`, or _MISSING."""
    for segment in path:
        listed = isinstance(data, list) and isinstance(segment, int) and 0 <= segment < len(data)
        if not (listed or (isinstance(data, dict) and segment in data)):
            return _MISSING
        data = data[segment]
    return data


def _subject_hash(data: Any, path: Path, subject: Any) -> str | None:
    if subject is Subject.PATH_ONLY:
        return None
    if subject is Subject.SECRET:
        return SECRET
    if subject is Subject.AT_PATH:
        subject = _at(data, path)
        if subject is _MISSING or isinstance(subject, (dict, list)):
            return None  # a whole mapping or list: its path; the rule names the members it read when they matter
    return SECRET if holds_secret(path, subject) else _hash(subject)


def _hash(value: Any) -> str:
    try:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=repr)
    except (TypeError, ValueError):  # keys of several types cannot be sorted
        text = repr(value)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]


def legacy_value_hash(data: Any, path: Path) -> str | None:
    """Version 1's key: a hash of the whole value at `path` (None for the whole document or a missing field)."""
    if not path:
        return None
    value = _at(data, path)
    if value is _MISSING:
        return None
    return SECRET if holds_secret(path, value) else _hash(value)
