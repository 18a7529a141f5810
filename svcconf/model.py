"""Plain data shared by every stage: severities, field paths, diagnostics, and readers of untrusted values (no I/O)."""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from .escape import printable

Segment = str | int
Path = tuple  # tuple[Segment, ...]
Release = tuple  # (major, minor), e.g. (1, 31)

_PLAIN_FIELD = re.compile(r"^[A-Za-z0-9_\-]+\Z")


class Severity(enum.IntEnum):
    """Ordered so that comparisons read naturally: ERROR > WARNING > INFO."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown severity {text!r}: use error, warning or info") from None

    def __str__(self) -> str:
        return self.name.lower()


class Anchor(enum.Enum):
    """Which part of the source a diagnostic points at."""

    VALUE = "value"  # the value node at the path
    KEY = "key"  # the key of the last path segment (unknown and duplicate fields)
    PARENT = "parent"  # the key if present, else the enclosing object (missing fields)


def render_path(path: Iterable[Segment]) -> str:
    """Render a path the way Kubernetes' field.Path does: `a.b[0].c`, odd keys as `[key]`."""
    out = []
    for seg in path:
        if isinstance(seg, int):
            out.append(f"[{seg}]")
        elif _PLAIN_FIELD.match(seg):
            out.append(f".{seg}" if out else seg)
        else:
            out.append(f"[{seg}]")
    return "".join(out)


class Subject(enum.Enum):
    """What a finding concerns, where it is not a value the finding carries (a baseline entry fingerprints it)."""

    AT_PATH = "the value at the path"  # a scalar's value; for a mapping or list, the path alone
    PATH_ONLY = "the path alone"  # the path names it: an unknown or missing field, a duplicate key
    SECRET = "a secret"  # fingerprinted as a marker, never hashed


class Finding(NamedTuple):
    """What a rule or the schema check reports about one document, before positions are known."""

    rule: str
    path: Path
    message: str
    severity: Severity = Severity.ERROR
    anchor: Anchor = Anchor.VALUE
    # Cross-document rules may speak about a sibling: its position in ctx.siblings (None: this document).
    document: int | None = None
    # Exactly what the finding is about: the value judged, or the members of a mapping or list the
    # rule read to decide (never the whole container, so that editing a sibling keeps the finding).
    subject: object = Subject.AT_PATH

    def under(self, prefix: Path) -> Finding:
        """The same finding with its path starting `prefix` higher up in its own document."""
        return self if self.document is not None or not prefix else self._replace(path=prefix + self.path)


class Diagnostic(NamedTuple):
    """A finding placed in a file: what every report format renders.

    Value types are NamedTuples rather than dataclasses: dataclasses cost ~20 ms of start-up
    (they import inspect and exec code per class), which a pre-commit hook pays on every commit.
    """

    file: str
    line: int
    column: int
    rule: str
    severity: Severity
    message: str
    path: Path = ()
    document: int | None = None
    api_version: str | None = None
    kind: str | None = None
    fix: str | None = None
    migrated: str | None = None  # found checking the document as migrate would convert it: the apiVersion it becomes
    fingerprint: Fingerprint | None = None  # only when a baseline is read or written

    @property
    def path_text(self) -> str:
        return render_path(self.path)

    def sort_key(self) -> tuple:
        return (self.file, self.line, self.column, self.rule, self.path_text, self.message)

    def with_severity(self, severity: Severity) -> Diagnostic:
        return self._replace(severity=severity)


class Fingerprint(NamedTuple):
    """What a baseline entry knows a finding by besides its file and rule (fingerprint.py computes it)."""

    api_version: str | None  # of the document, or of the List item the finding lies in
    kind: str | None
    name: str | None  # metadata.name, or the kind's own name field
    path: str  # the field path from that document or item
    subject: str | None  # a short hash of what the finding concerns; "secret" for a secret; None: the path says it
    legacy: str | None = None  # version 1's hash of the whole value at the path (only to read a version-1 baseline)


def at_least(release: Release, major: int, minor: int) -> bool:
    """Whether `release` is major.minor or later: every check of a release against a fixed one says it this way."""
    return release >= (major, minor)


def go_quote(value: str) -> str:
    """Quote a string like Go's %q, as upstream messages print values: characters that are not printable escaped."""
    return '"' + printable(value.replace("\\", "\\\\").replace('"', '\\"')) + '"'


def render_value(value: object) -> str:
    """Render a value as apimachinery's field errors do: strings quoted, others as JSON."""
    import json

    if isinstance(value, str):
        return go_quote(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# --------------------------------------------------------------------------- readers
# A document is untrusted: a field may hold any type. The readers give the type the field should
# have, or an empty one, so that code reading a document never fails on a wrong type (the schema
# reports that).


def items(value: Any) -> Iterator[tuple[int, Any]]:
    """Enumerate a list field, tolerating a wrong type."""
    if isinstance(value, list):
        yield from enumerate(value)


def integer(value: Any) -> int | None:
    """An integer field's value, tolerating a wrong type; a boolean is not one."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def mapping(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def text(value: Any) -> str:
    return value if isinstance(value, str) else ""
