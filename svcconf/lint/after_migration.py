"""A document at a removed or deprecated version checked a second time, as `svcconf migrate` would convert it.

As written, such a document gets its lifecycle finding (and, where svcconf has no schema for
the old version, nothing else). Its real problems, a feature gate the new release does not know,
a field the new version refuses, would surface only after the migration. Here the conversion is
planned on the document's data (migrate's own plan), the result is checked at the same target,
and each finding is placed at the line its value comes from in the file as written, its message
saying that it holds after the migration. A document migrate would leave unconverted gets one
info saying how much of it went unchecked, and why.
"""

from __future__ import annotations

from typing import Any

from ..known import catalog
from ..known.naming import Naming
from ..load.source import Document, SourceFile
from ..model import Anchor, Diagnostic, Finding, Severity
from ..rules import Siblings
from ..settings.options import MigrateOptions, ValidateOptions
from .document import DocumentChecker

NOT_CHECKED = "content-not-checked"


def findings_after_migration(source: SourceFile, options: ValidateOptions, due: set[int], written: list[Diagnostic]) -> list[Diagnostic]:
    """The findings of the documents numbered `due` (removed or deprecated) as migrate would convert them, placed in the file
    as written; `written` holds the file's findings so far, which are not said twice."""
    try:
        return _findings(source, options, due, written)
    except Exception as err:  # noqa: BLE001 - a bug in a conversion must not hide the file's other findings
        number = min(due)
        message = f"checking the document as migrate would convert it failed ({type(err).__name__}); please report it. Other checks ran."
        return [Diagnostic(source.name, 1, 1, "internal-error", Severity.ERROR, message, (), number)]


def _findings(source: SourceFile, options: ValidateOptions, due: set[int], written: list[Diagnostic]) -> list[Diagnostic]:
    from .conversion import provided

    conversions = provided()
    if conversions is None:
        return []
    positions = {number - 1 for number in due}
    # A large file keeps no nodes: the plan of a document needs its own, composed again (one document at a time).
    documents = [
        document._replace(root=source.locator(position).root) if document.root is None and position in positions else document
        for position, document in enumerate(source.documents)
    ]
    migrate = MigrateOptions(target=options.resolved_target(), api_domain=options.api_domain, deprecated=True)
    previews = conversions.preview(documents, migrate, can_add=not source.name.endswith(".json"), only=positions)
    siblings = Siblings(p.data if isinstance(p, conversions.Converted) else d.data for p, d in zip(previews, documents))
    checker = DocumentChecker(options, source.name)
    # What the file as written already says: the same finding at the same path, or at the same place.
    said = {(d.document, d.rule, d.path, d.message) for d in written} | {(d.rule, d.line, d.column, d.message) for d in written}
    out: list[Diagnostic] = []
    for position in sorted(positions):
        outcome = previews[position]
        if isinstance(outcome, conversions.Converted):
            out.extend(_converted(source, position, outcome, checker, siblings, said))
        elif (unchecked := _not_checked(source, position, options, outcome.reason if outcome else None)) is not None:
            out.append(unchecked)
    return out


def _converted(source: SourceFile, position: int, outcome, checker: DocumentChecker, siblings: Siblings, said: set) -> list[Diagnostic]:
    """The converted document's findings, each at the line of the written value it comes from."""
    written = source.documents[position]
    findings, _skipped = checker.check(Document(written.index, outcome.data, None, [], []), siblings)
    locator = source.locator(position)
    api_version, kind = _written_kind(written.data)
    out = []
    for finding in findings:
        label = outcome.label(finding.path)
        if finding.document not in (None, position) or label is None:
            continue  # about another document, or a part the conversion leaves as it is: its own check says it
        if (written.index + 1, finding.rule, finding.path, finding.message) in said:
            continue  # the document as written already says it
        line, column = _place(locator, outcome, finding)
        if (finding.rule, line, column, finding.message) in said:
            continue
        message = f"{finding.message} (after migration to {label})"
        number = written.index + 1
        out.append(
            Diagnostic(
                source.name, line, column, finding.rule, finding.severity, message, finding.path, number, api_version, kind, migrated=label
            )
        )
    return out


def _place(locator, outcome, finding: Finding) -> tuple[int, int]:
    found = outcome.origin.source(finding.path, finding.anchor)
    if found is None:  # a field the conversion adds: at the document's apiVersion
        return locator.position(("apiVersion",))
    path, anchor = found
    return locator.position(path, anchor)


def _not_checked(source: SourceFile, position: int, options: ValidateOptions, reason: str | None) -> Diagnostic | None:
    """An info that the rest of a document svcconf would check at a served version went unchecked, with how much and why."""
    document = source.documents[position]
    api_version, kind = _written_kind(document.data)
    gv = Naming(options.api_domain).api_version(api_version or "")
    if gv is None or kind is None:
        return None
    group, version, canonical_kind = catalog.canonical(gv.group, gv.version, Naming.kind(kind))
    schemas = catalog.schema_index()
    if (group, version, canonical_kind) in schemas or not any(g == group and k == canonical_kind for g, _v, k in schemas):
        return None  # checked as written, or a kind whose content svcconf never checks
    count = sum(1 for key, value in document.data.items() if key not in ("apiVersion", "kind") for _leaf in _leaves(value))
    target = catalog.format_release(options.resolved_target())
    why = (
        f"migrate leaves it unconverted: {reason}" if reason else f"migrate has no conversion of {api_version} {kind} that {target} serves"
    )
    values = f"{count} other value was" if count == 1 else f"{count} other values were"
    message = f"the document's {values} not checked: {why}"
    line, column = source.locator(position).position(("apiVersion",), Anchor.VALUE)
    return Diagnostic(
        source.name, line, column, NOT_CHECKED, Severity.INFO, message, ("apiVersion",), document.index + 1, api_version, kind
    )


def _written_kind(data: Any) -> tuple[str | None, str | None]:
    if not isinstance(data, dict):
        return None, None
    api_version, kind = data.get("apiVersion"), data.get("kind")
    return (api_version if isinstance(api_version, str) else None), (kind if isinstance(kind, str) else None)


def _leaves(value: Any):
    """Every value a document holds below a field: its scalars, and its empty maps and lists."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict) and node:
            stack.extend(node.values())
        elif isinstance(node, list) and node:
            stack.extend(node)
        else:
            yield node
