"""Migrate one file: plan each document's conversion on plain data, then splice scalars or re-emit it.

A document whose conversion changes only scalar values (apiVersion, kind, a nested apiVersion)
is spliced: those scalars' text is replaced and every other byte is kept. A structural change
re-emits only that document's body through ruamel's round-trip dumper (imported only then);
comments before it, `---` lines and everything after it stay byte for byte. A document the two
readings could disagree on (`guard`) leaves its whole file unchanged, with the reason. Which
documents are converted, and to which version, is `upgrade`'s choice; a document a conversion
adds (kubeadm's InitConfiguration for a moved timeout) is appended after the last one.
"""

from __future__ import annotations

import gc
from typing import NamedTuple

from yaml.nodes import ScalarNode

from ..known.naming import Naming
from ..load.construct import PLAIN_TAG, STR_TAG
from ..load.mentions import skip_reason
from ..load.source import Document, FileProblem, decode, leading_mark, parse, position
from ..model import Anchor, Diagnostic, Path, Severity, render_path
from ..settings.options import MigrateOptions
from . import emit, guard
from .plan import Plan, Unit, plan_document, spell
from .rewrite import NotConvertible, Sibling, load, rewrite


class Edit(NamedTuple):
    """What happened to one document."""

    document: int  # 1-based
    line: int
    source: str  # "extensions/v1beta1 Ingress"
    target: str
    mode: str  # "splice" (scalars replaced) or "rewrite" (document re-emitted)
    notes: tuple[str, ...] = ()
    path: str = ""  # the List item converted ("items[0]"), empty for a whole document


class FileOutcome:
    __slots__ = ("diagnostics", "documents", "edits", "name", "original", "output")

    def __init__(self, name: str, original: bytes) -> None:
        self.name = name
        self.original = original
        self.output: bytes | None = None  # None: nothing to change
        self.diagnostics: list[Diagnostic] = []
        self.edits: list[Edit] = []
        self.documents = 0

    @property
    def changed(self) -> bool:
        return self.output is not None and self.output != self.original


# --------------------------------------------------------------------------- applying


def _splice(text: str, plan: Plan) -> list[tuple[int, int, str]] | None:
    """Replacements of the changed scalars (None: re-emit the document, which also checks explicit tags)."""
    out = []
    for path, value in plan.splices or []:
        node = emit.node_at(plan.document.root, path)
        if not isinstance(node, ScalarNode) or node.style in ("|", ">") or node.tag not in (PLAIN_TAG, STR_TAG):
            return None
        out.append((node.start_mark.index, node.end_mark.index, emit.scalar_text(value, node)))
    return out


def _diagnostic(name: str, document: Document, plan: Plan, rule: str, severity: Severity, message: str, path: Path = ()) -> Diagnostic:
    anchor = Anchor.PARENT if path and path[-1] != "apiVersion" else Anchor.VALUE
    line, column = position(document.root, path or ("apiVersion",), anchor)
    return Diagnostic(name, line, column, rule, severity, message, tuple(path), document.index + 1, plan.written[0], plan.written[1])


def _describe(unit: Unit) -> tuple[str, str]:
    before, after = f"{unit.written[0]} {unit.written[1]}", f"{unit.new_api_version} {unit.new_kind}"
    if after != before:
        return before, after
    flags_only = all(step.source == step.target for step in unit.steps)  # only the command line's flags changed
    return before, f"{after} ({'flags renamed' if flags_only else 'nested apiVersions updated'})"


def migrate_text(name: str, text: str, options: MigrateOptions, outcome: FileOutcome) -> str | None:
    """The migrated text of a decoded file (None when nothing changes); diagnostics go to outcome."""
    source = parse(name, text, json_like=name.endswith(".json"))
    if source.problems and skip_reason(source.problems, text, Naming(options.api_domain)):
        return None  # not YAML, and not configuration svcconf converts (a Helm template): left as it is
    if source.problems:
        for problem in source.problems:
            outcome.diagnostics.append(
                Diagnostic(name, problem.line, problem.column, problem.rule, Severity.ERROR, f"{problem.message}; file left unchanged")
            )
        return None
    outcome.documents = len(source.documents)
    naming = Naming(options.api_domain)
    plain_siblings = [Sibling(str(d.data.get("kind")) if isinstance(d.data, dict) else "", d.data, []) for d in source.documents]
    stash: dict = {}
    can_add = not name.endswith(".json")
    plans = [p for p in (plan_document(d, naming, options, plain_siblings, stash, can_add) for d in source.documents) if p is not None]
    for plan in plans:
        for unit in plan.units:
            for review in unit.reviews:
                message = f"{review.reason}; {review.todo}; left unchanged"
                severity = Severity.WARNING if review.warn else Severity.INFO
                outcome.diagnostics.append(_diagnostic(name, plan.document, plan, "migration-needs-review", severity, message, review.path))
    changing = [p for p in plans if p.changes]
    blocked = [(p, p.blocker) for p in plans if p.blocker is not None]
    replacements: list[tuple[int, int, str]] = []
    rewritten: set[int] = set()
    if changing and not blocked:
        replacements, rewritten, blocked = _edit(text, source.documents, changing, options)
    if blocked:
        # Documents of one file can exchange fields (kubeadm): converting only some could lose one.
        for plan, blocker in blocked:
            where = (blocker.path, plan.document.index + 1, *plan.written)
            message = f"{blocker.reason}; file left unchanged"
            outcome.diagnostics.append(
                Diagnostic(name, blocker.line, blocker.column, "migration-needs-review", Severity.WARNING, message, *where)
            )
        return None
    if not changing:
        return None
    for plan in changing:
        _record(name, plan, "rewrite" if plan.document.index in rewritten else "splice", outcome)
    replacements.extend(_appended(text, naming, changing, len(source.documents), outcome))
    replacements.sort()
    pieces, cursor = [], 0
    for start, end, new in replacements:
        pieces.append(text[cursor:start])
        pieces.append(new)
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)


def _record(name: str, plan: Plan, mode: str, outcome: FileOutcome) -> None:
    """The edit of each object a changing document converts, with its diagnostics (`migrated`, its notes)."""
    for unit in (u for u in plan.units if u.active):
        before, after = _describe(unit)
        line = plan.document.root.start_mark.line + 1 if not unit.prefix else position(plan.document.root, unit.prefix)[0]
        edit = Edit(plan.document.index + 1, line, before, after, mode, tuple(n.text for n in unit.notes), render_path(unit.prefix))
        outcome.edits.append(edit)
        where = (*unit.prefix, "apiVersion")
        outcome.diagnostics.append(_diagnostic(name, plan.document, plan, "migrated", Severity.INFO, f"{before} -> {after}", where))
        for note in unit.notes:
            rule = "migration-dropped-field" if note.dropped else "migrated"
            severity = Severity.WARNING if note.dropped or note.warn else Severity.INFO
            message = note.text if not note.dropped else f"{note.text} (dropped: {', '.join(str(v) for v in note.dropped)})"
            outcome.diagnostics.append(_diagnostic(name, plan.document, plan, rule, severity, message, note.path))


def _appended(text: str, naming: Naming, changing: list[Plan], count: int, outcome: FileOutcome) -> list[tuple[int, int, str]]:
    """The documents conversions add, as one insertion at the end of the text; each is reported as an edit."""
    inserted = ""
    for plan in changing:
        for unit in (u for u in plan.units if u.active):
            for added in unit.added:
                group, version, _kind = unit.steps[-1].target
                api_version, kind = spell(naming, *unit.written, (group, version, added.kind))
                document, line = emit.appended(text + inserted, plan.document.root, text, api_version, kind, added.moved)
                inserted += document
                count += 1
                outcome.edits.append(Edit(count, line, "(none)", f"{api_version} {kind}", "append"))
    return [(len(text), len(text), inserted)] if inserted else []


def _edit(
    text: str, documents: list[Document], changing: list[Plan], options: MigrateOptions
) -> tuple[list[tuple[int, int, str]], set[int], list[tuple[Plan, guard.Blocker]]]:
    """The text replacements of every changing document, the documents re-emitted, and those that cannot be."""
    replacements: list[tuple[int, int, str]] = []
    rewrites = []
    for plan in changing:
        spliced = _splice(text, plan) if plan.splices is not None else None
        if spliced is None:
            rewrites.append(plan)
        else:
            replacements.extend(spliced)
    if not rewrites:
        return replacements, set(), []
    indent = emit.detect_indent([d.root for d in documents])
    yaml = emit.round_trip_yaml(indent)
    loaded, blocked = load(text, rewrites, yaml)
    for plan in rewrites if not blocked else []:
        try:
            replacements.append(rewrite(text, plan, yaml, indent, options, loaded))
        except NotConvertible as err:
            blocked.append((plan, err.blocker))
    return replacements, {plan.document.index for plan in rewrites}, blocked


def left_unchanged(name: str, data: bytes, problem: FileProblem) -> FileOutcome:
    """The outcome of a file that cannot be read as text (too large, not decodable): unchanged, with the reason."""
    outcome = FileOutcome(name, data)
    message = f"{problem.message}; file left unchanged"
    outcome.diagnostics.append(Diagnostic(name, problem.line, problem.column, problem.rule, Severity.ERROR, message))
    return outcome


def migrate_bytes(name: str, data: bytes, options: MigrateOptions | None = None) -> FileOutcome:
    """Migrate one file's bytes; the outcome holds the new bytes (same encoding, BOM, line endings)."""
    options = options or MigrateOptions()
    if not isinstance(options, MigrateOptions):
        raise TypeError(f"migrate_bytes takes svcconf.MigrateOptions, not {type(options).__name__}")
    text, problem = decode(name, data)
    if problem is not None or text is None:
        return left_unchanged(name, data, problem or FileProblem("encoding-error", "cannot decode"))
    outcome = FileOutcome(name, data)
    # As validate's check_file: a file's nodes and values form no reference cycles, and the cyclic
    # collector walking all of them again and again made a file of 10x the documents cost 19x the time.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _migrate_decoded(name, data, text, options, outcome)
    finally:
        if collecting:
            gc.enable()


def _migrate_decoded(name: str, data: bytes, text: str, options: MigrateOptions, outcome: FileOutcome) -> FileOutcome:
    lead = leading_mark(text)  # kept aside, so that the reader's positions are the text's
    try:
        new = migrate_text(name, text[len(lead) :], options, outcome)
        new = lead + new if new is not None else None
    except Exception as err:  # noqa: BLE001 - a bug in one conversion must never damage or hide the file
        outcome.edits = []  # nothing is changed
        outcome.diagnostics.append(
            Diagnostic(
                name,
                1,
                1,
                "internal-error",
                Severity.ERROR,
                f"migrate failed ({type(err).__name__}); file left unchanged; please report it",
            )
        )
        return outcome
    if new is not None and new != text:
        bom, encoding = _encoding_of(data)
        outcome.output = bom + new.encode(encoding)
    outcome.diagnostics.sort(key=Diagnostic.sort_key)
    return outcome


def _encoding_of(data: bytes) -> tuple[bytes, str]:
    from ..load.source import _BOMS

    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return bom, encoding
    return b"", "utf-8"
