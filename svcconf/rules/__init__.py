"""Rule plumbing: registration by kind, the context a rule sees, and Kubernetes-style error helpers.

A rule is a small pure function `(doc, ctx) -> Iterable[Finding]`. Modules register their rules
with `@rule("Kind", ...)`; a schema names its modules in `x-svcconf-rules` (relative to this
package, e.g. `apiserver.audit`), and a module is imported only when a document of that kind appears.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

from ..known.naming import GroupVersion
from ..known.secrets import REDACTED, render_at
from ..model import Anchor, Finding, Path, Severity, Subject, at_least, render_value

# The readers of untrusted values, part of the rule author's API.
from ..model import integer as integer
from ..model import items as items
from ..model import mapping as mapping
from ..model import text as text
from ..settings.options import ValidateOptions

RuleFunction = Callable[[dict, "Context"], Iterable[Finding]]

_REGISTRY: dict[str, dict[str, list[RuleFunction]]] = {}
# Kinds a module checks in some documents only (a Pod: a component's static Pod): module -> kind -> predicate.
_SELECTORS: dict[str, dict[str, Callable[[dict], bool]]] = {}
_CURRENT_MODULE: list[str] = []
View = TypeVar("View")


class Siblings(list):
    """The documents of one file (their data), with the views cross-document rules derive from them.

    Every document of a file sees the same Siblings. A rule that needs to know about the others
    (their kinds, the first of a kind) asks `derived` for a view built once per file: looking at
    every sibling for every document would make a file of n documents cost n * n.
    """

    __slots__ = ("_views",)

    def __init__(self, documents: Iterable = ()) -> None:
        super().__init__(documents)
        self._views: dict[Hashable, Any] = {}

    def derived(self, key: Hashable, build: Callable[[], View]) -> View:
        """The view named `key` (which names whatever it depends on besides the documents), built on first use."""
        try:
            return self._views[key]
        except KeyError:
            view = self._views[key] = build()
            return view


class Context:
    """What a rule may know besides its document: the run's settings and the document's place."""

    __slots__ = (
        "_embedded",
        "api_domain",
        "bootstrap",
        "field_validation",
        "file",
        "fs_checks",
        "group_version",
        "kind",
        "service_account_issuers",
        "siblings",
        "target",
    )

    def __init__(
        self,
        target: tuple,
        file: str = "-",
        siblings: Siblings | list[dict] | None = None,
        options: ValidateOptions | None = None,
        *,
        kind: str | None = None,
        group_version: GroupVersion | None = None,
        embedded: Callable[..., list[Finding]] | None = None,
    ) -> None:
        options = options or ValidateOptions()
        self.target = target  # target release, (1, NN)
        self.file = file
        # The documents of the same file (a plain list is wrapped: its views then last for this context only).
        self.siblings = siblings if isinstance(siblings, Siblings) else Siblings(siblings or ())
        self.kind = kind  # the kind being checked (upstream spelling)
        self.group_version = group_version
        self.api_domain = options.api_domain
        self.field_validation = options.field_validation
        self.bootstrap = options.bootstrap  # "init" or "join" (None: inferred from the kinds)
        self.service_account_issuers = options.service_account_issuers
        self.fs_checks = options.fs_checks  # files named by absolute paths are looked up
        self._embedded = embedded

    def at_least(self, major: int, minor: int) -> bool:
        return at_least(self.target, major, minor)

    def embedded(self, path: Path, data: Any, api_version: str | None = None, kind: str | None = None) -> list[Finding]:
        """Check an object embedded at `path` as a document of its own (its schema and rules).

        `api_version` (upstream spelling, e.g. "kubescheduler.config.k8s.io/v1") and `kind` are the
        defaults when the object does not name them itself. Paths in the findings start at this
        document, so positions point into the embedding file.
        """
        if self._embedded is None or not isinstance(data, dict):
            return []
        return self._embedded(path, data, api_version, kind)


def rule(*kinds: str) -> Callable[[RuleFunction], RuleFunction]:
    """Register a rule function for the given kinds (upstream spelling)."""

    def register(function: RuleFunction) -> RuleFunction:
        module = function.__module__.removeprefix(f"{__name__}.")
        table = _REGISTRY.setdefault(module, {})
        for kind in kinds:
            table.setdefault(kind, []).append(function)
        return function

    return register


def selects(kind: str) -> Callable[[Callable[[dict], bool]], Callable[[dict], bool]]:
    """Register which documents of a kind the module checks; the others are skipped as svcconf skips any served kind."""

    def register(predicate: Callable[[dict], bool]) -> Callable[[dict], bool]:
        _SELECTORS.setdefault(predicate.__module__.removeprefix(f"{__name__}."), {})[kind] = predicate
        return predicate

    return register


def selected(modules: str | list[str] | None, kind: str, data: dict) -> bool:
    """Whether the named modules check this document of the kind (True unless a module selects and refuses it)."""
    rules_for(modules, kind)  # imports the modules
    for module in [modules] if isinstance(modules, str) else modules or []:
        predicate = _SELECTORS.get(module, {}).get(kind)
        if predicate is not None and not predicate(data):
            return False
    return True


def rules_for(modules: str | list[str] | None, kind: str) -> list[RuleFunction]:
    """The rule functions the named modules (`x-svcconf-rules` of a schema) register for a kind.

    A module is imported the first time a document of one of its kinds appears.
    """
    found: list[RuleFunction] = []
    for module in [modules] if isinstance(modules, str) else modules or []:
        if module not in _REGISTRY:
            importlib.import_module(f"{__name__}.{module}")
            _REGISTRY.setdefault(module, {})
        found.extend(_REGISTRY[module].get(kind, []))
    return found


# Files the server reads without apiVersion and kind, by the pseudo-kind svcconf gives them: the rule
# module that checks them (a schema names the modules of a versioned kind).
_UNVERSIONED = {"LegacyAdmissionPluginConfig": "apiserver.admission"}


def rules_for_unversioned(kind: str) -> list[RuleFunction]:
    """The rule functions for an unversioned file of the pseudo-kind `kind`."""
    return rules_for(_UNVERSIONED.get(kind), kind)


# --------------------------------------------------------------------------- error shapes
# The constructors mirror apimachinery's field errors, so messages read as the server's do. Those
# that quote a value render it with secrets.render_at: a value at a secret field is never shown.
# Each records what its finding concerns (Finding.subject), which a baseline fingerprints: the
# value judged; a finding about a mapping or list passes `subject=` the members its rule read
# (never a secret), so that editing another member keeps the finding.


def required(path: Path, detail: str = "", rule: str = "missing-field") -> Finding:
    message = f"Required value: {detail}" if detail else "Required value"
    return Finding(rule, path, message, Severity.ERROR, Anchor.PARENT, subject=Subject.PATH_ONLY)


_THE_VALUE = object()  # a finding's subject is the value it quotes


def invalid(
    path: Path, value: Any, detail: str, rule: str = "invalid-value", severity: Severity = Severity.ERROR, subject: Any = _THE_VALUE
) -> Finding:
    """`subject`: what the finding concerns when `value` quotes more (a whole map of which one entry is wrong)."""
    concerns = value if subject is _THE_VALUE else subject
    return Finding(rule, path, f"Invalid value: {render_at(path, value)}: {detail}", severity, subject=concerns)


def invalid_redacted(path: Path, detail: str, rule: str) -> Finding:
    """Invalid value for a secret: the value is never shown."""
    return Finding(rule, path, f"Invalid value: {REDACTED}: {detail}", subject=Subject.SECRET)


def forbidden(path: Path, detail: str, rule: str, severity: Severity = Severity.ERROR, subject: Any = Subject.AT_PATH) -> Finding:
    return Finding(rule, path, f"Forbidden: {detail}", severity, subject=subject)


def not_supported(path: Path, value: Any, valid: Iterable[str], rule: str = "invalid-value") -> Finding:
    supported = ", ".join(render_value(v) for v in valid)
    return Finding(rule, path, f"Unsupported value: {render_at(path, value)}: supported values: {supported}", subject=value)


def duplicate(path: Path, value: Any, rule: str) -> Finding:
    return Finding(rule, path, f"Duplicate value: {render_at(path, value)}", subject=value)


def too_many(path: Path, count: int, limit: int, rule: str) -> Finding:
    noun = "item" if limit == 1 else "items"
    return Finding(rule, path, f"Too many: {count}: must have at most {limit} {noun}", subject=count)


def advice(rule: str, path: Path, message: str, severity: Severity = Severity.WARNING, subject: Any = Subject.AT_PATH) -> Finding:
    """A finding beyond the server's own checks (svcconf's warnings and advice)."""
    return Finding(rule, path, message, severity, subject=subject)


def in_memory(file: str) -> bool:
    """Standard input and in-memory text have no folder to resolve paths against."""
    return not file or file.startswith("<") or file == "-"


def node_path_problem(ctx: Context, path: str, want: str = "file") -> str | None:
    """What is wrong with a file or folder the component reads at start-up, looked up with --fs-checks.

    Such paths name the control-plane node's file system, so they are checked only when svcconf
    runs there. Returns None when the path is fine or not checked, else the server's wording.
    """
    import os
    import stat

    if not ctx.fs_checks or not path:
        return None
    try:
        mode = os.stat(path).st_mode
    except OSError as err:
        return f"unable to read: stat {path}: {(err.strerror or str(err)).lower()}"
    if want == "dir" and not stat.S_ISDIR(mode):
        return "must be a directory"
    if want == "file" and not stat.S_ISREG(mode):
        return "must be a regular file"
    return None
