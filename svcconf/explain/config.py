"""Read a configuration through validate's own path, refuse one the server would refuse, and hand back the document and its nodes."""

from __future__ import annotations

from typing import Any, NamedTuple

from yaml.nodes import Node

from ..known.naming import Naming, default_domain
from ..lint.check import check_source
from ..lint.result import Report
from ..load.files import TooLarge, read_limited
from ..load.source import SourceFile, load_bytes
from ..model import Severity
from ..settings.options import DEFAULT_MAX_FILE_SIZE, ValidateOptions


class Unusable(Exception):
    """The file cannot be explained (exit 2); `lines` go to standard error as they are."""

    def __init__(self, *lines: str) -> None:
        super().__init__(lines[-1] if lines else "")
        self.lines = lines


class Loaded(NamedTuple):
    name: str
    data: dict
    root: Node  # the document's composed node: positions of its fields


def read_input(path: str) -> bytes:
    """The bytes of a file explain reads (a configuration, requests, RBAC objects, claims), within validate's default size limit.

    Raises OSError or TooLarge (svcconf.load.files) for a file that cannot be read.
    """
    return read_limited(path, DEFAULT_MAX_FILE_SIZE)


def unreadable(path: str, problem: Exception) -> str:
    """Why a file explain reads cannot be read, for a message."""
    reason = problem.strerror if isinstance(problem, OSError) and problem.strerror else str(problem)
    return f"cannot read {path}: {reason}"


def read(path: str, options: ValidateOptions | None = None, data: bytes | None = None) -> SourceFile:
    """The file's documents (`data`: its bytes, when already read), after validate (with `options`: the run's settings)
    found no error the server would refuse it for."""
    from ..report.text_format import lines

    if data is None:
        try:
            data = read_input(path)
        except (OSError, TooLarge) as problem:
            raise Unusable(unreadable(path, problem)) from None
    source = load_bytes(path, data)
    result = check_source(source, options or ValidateOptions(api_domain=default_domain()))
    refused = [d for d in result.diagnostics if d.severity == Severity.ERROR]
    if not source.documents and source.problems:
        refused = result.diagnostics  # e.g. a file over the size limit: nothing was read
    if refused:
        report = Report()
        report.diagnostics = refused
        found = [" ".join(parts) for parts in lines(report)]
        raise Unusable(*found, f"{path}: {len(refused)} problem(s) the server would refuse the file for; nothing explained")
    return source


def load(path: str, kinds: tuple, what: str, options: ValidateOptions | None = None, data: bytes | None = None) -> Loaded:
    """The first document of `kinds` ((group or None, kind) pairs, upstream spelling) in a file (`data`: its bytes, when already read)."""
    source = read(path, options, data)
    naming = Naming(options.api_domain if options else default_domain())
    for document in source.documents:
        data = document.data
        if isinstance(data, dict) and _is_kind(naming, data, kinds):
            return Loaded(source.name, data, document.root)
    raise Unusable(f"{path} holds no {what}")


def _is_kind(naming: Naming, data: dict, kinds: tuple) -> bool:
    kind, api_version = data.get("kind"), data.get("apiVersion")
    gv = naming.api_version(api_version) if isinstance(api_version, str) else None
    return any(kind == want and (group is None or (gv is not None and gv.group == group)) for group, want in kinds)


def objects(source: SourceFile) -> list[tuple[Any, Node, tuple]]:
    """(data, document node, path to the object) of every object: top-level documents and the items of `List` kinds."""
    out = []
    for document in source.documents:
        data = document.data
        if isinstance(data, dict) and isinstance(data.get("kind"), str) and data["kind"].endswith("List"):
            items = data.get("items")
            out += [(item, document.root, ("items", index)) for index, item in enumerate(items if isinstance(items, list) else [])]
        else:
            out.append((data, document.root, ()))
    return out
