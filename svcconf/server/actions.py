"""Code actions: suppress a finding (the comment --add-suppressions writes), migrate a document (migrate's edit), and rule fixes.

A rule fix rewrites one scalar as the server reads it: an unquoted `on`, `010` or `0b1` whose
YAML 1.1 reading is what the server uses (ambiguous-scalar) becomes that reading; one that a
string field receives as a boolean or number (wrong-type) is quoted.
"""

from __future__ import annotations

import difflib

from lsprotocol import types as lsp

from ..known.secrets import is_secret
from ..lint.add_suppressions import NOT_INLINE, suppressed_line
from ..load.positions import LINE_BREAK
from ..model import Diagnostic
from ..settings.options import MigrateOptions
from .convert import lines_of, to_lsp, units
from .cursor import document_lines

MIGRATE_RULES = {"removed-api-version": False, "deprecated-api-version": True}  # rule -> rewrite deprecated versions too
MAX_ACTIONS = 20  # findings a request gets actions for: a selection of a whole file is not a request for each fix
MAX_DIFF_LINES = 20_000  # a migration of a larger file is left to `svcconf migrate`


def actions_for(ls, uri: str, selected: lsp.Range) -> list[lsp.CodeAction]:
    text = ls.text(uri)
    if text is None:
        return []
    state = ls.state(uri)
    lines = lines_of(text)
    encoding = ls.encoding
    here = [d for d in state.diagnostics if selected.start.line <= d.line - 1 <= selected.end.line]
    # One action of a kind per line and rule: each suppression reads the file twice, each migration converts it.
    here = list({(d.line, d.rule): d for d in here}.values())[:MAX_ACTIONS]
    actions: list[lsp.CodeAction] = []
    for diagnostic in here:
        shown = to_lsp(diagnostic, lines, encoding)
        fix = _rule_fix(state, diagnostic, lines, encoding)
        if fix is not None:
            actions.append(_action(fix[0], uri, [fix[1]], shown, preferred=True))
        suppress = _suppress(state.path, text, diagnostic, lines, encoding)
        if suppress is not None:
            actions.append(_action(f"Suppress {diagnostic.rule} on this line", uri, [suppress], shown))
    migrating = {(d.document, MIGRATE_RULES[d.rule]): d for d in here if d.rule in MIGRATE_RULES and d.document}
    for (_document, deprecated), diagnostic in migrating.items():
        migration = _migrate(state, text, lines, diagnostic, deprecated, encoding)
        if migration is not None:
            actions.append(_action(migration[0], uri, migration[1], to_lsp(diagnostic, lines, encoding), preferred=True))
    return actions


def _action(title: str, uri: str, edits: list[lsp.TextEdit], shown: lsp.Diagnostic, preferred: bool = False) -> lsp.CodeAction:
    return lsp.CodeAction(
        title=title,
        kind=lsp.CodeActionKind.QuickFix,
        diagnostics=[shown],
        edit=lsp.WorkspaceEdit(changes={uri: edits}),
        is_preferred=preferred or None,
    )


def _suppress(name: str, text: str, diagnostic: Diagnostic, lines: list[str], encoding: str) -> lsp.TextEdit | None:
    if diagnostic.document is None or diagnostic.rule in NOT_INLINE:
        return None
    found = suppressed_line(name, text, diagnostic)
    if found is None:
        return None
    line, new = found
    return _narrowed(lines, line - 1, new, encoding)


def _narrowed(lines: list[str], row: int, new: str, encoding: str) -> lsp.TextEdit:
    """The edit turning line `row` into `new`, carrying only what changes: the line's value (a secret, maybe) stays put."""
    old = lines[row]
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    end = 0
    while end < min(len(old), len(new)) - start and old[-1 - end] == new[-1 - end]:
        end += 1
    where = lsp.Range(lsp.Position(row, units(old, start, encoding)), lsp.Position(row, units(old, len(old) - end, encoding)))
    return lsp.TextEdit(where, new[start : len(new) - end])


# --------------------------------------------------------------------------- rule fixes


def _rule_fix(state, diagnostic: Diagnostic, lines: list[str], encoding: str) -> tuple[str, lsp.TextEdit] | None:
    """The scalar rewrite that fixes an ambiguous-scalar or a quotable wrong-type finding, with its title."""
    source = state.file.source if state.file is not None else None
    if diagnostic.rule not in ("ambiguous-scalar", "wrong-type") or source is None or not diagnostic.document:
        return None
    document = source.documents[diagnostic.document - 1]
    written = next((entry for entry in document.ambiguous if entry[0] == diagnostic.path), None)
    if written is None:
        return None
    _path, text, value, line, column = written
    row, start = line - 1 + source.offsets[diagnostic.document - 1], column - 1
    if lines[row][start : start + len(text)] != text:
        return None
    if diagnostic.rule == "ambiguous-scalar":
        new = ("true" if value else "false") if isinstance(value, bool) else str(value)
        title = "Write the value as the server reads it" if is_secret(diagnostic.path) else f"Write {new} (as the server reads {text})"
    elif "quote it" in diagnostic.message:
        new = f'"{text}"'
        title = "Quote the value" if is_secret(diagnostic.path) else f"Quote {text}"
    else:
        return None
    where = lsp.Range(
        lsp.Position(row, units(lines[row], start, encoding)), lsp.Position(row, units(lines[row], start + len(text), encoding))
    )
    return title, lsp.TextEdit(where, new)


# --------------------------------------------------------------------------- migration


def _migrate(state, text: str, lines: list[str], diagnostic: Diagnostic, deprecated: bool, encoding: str):
    """(title, edits) converting the diagnostic's document as `svcconf migrate` would; the whole file when others change with it."""
    from ..migrate.diff import masked
    from ..migrate.engine import FileOutcome, migrate_text

    if state.file is None or state.file.source is None or len(lines) > MAX_DIFF_LINES:
        return None
    validate = state.file.options
    options = MigrateOptions(target=validate.target, api_domain=validate.api_domain, deprecated=deprecated)
    outcome = FileOutcome(state.path, b"")
    new = migrate_text(state.path, text, options, outcome)
    if new is None or new == text:
        return None
    old_lines, new_lines = _with_breaks(text), _with_breaks(new)
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    changed = [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]
    shown = masked(new, new_lines)
    if any(shown[j1:j2] != new_lines[j1:j2] for _i1, _i2, j1, j2 in changed):
        # A written line holds a secret value (in whatever form the YAML spells it): `svcconf migrate` writes it,
        # the protocol does not carry it.
        return None
    hunks = [(i1, i2, "".join(new_lines[j1:j2])) for i1, i2, j1, j2 in changed]
    first, last = document_lines(lines, diagnostic.line - 1)
    alone = all(first <= i1 and i2 <= last + 1 for i1, i2, _new in hunks)
    edits = [lsp.TextEdit(_rows(lines, i1, i2, encoding), replacement) for i1, i2, replacement in hunks]
    moved = [edit for edit in outcome.edits if edit.document == diagnostic.document]
    change = f": {moved[0].source} -> {moved[0].target}" if moved else ""
    return (f"Migrate this document{change}" if alone else f"Migrate this file ({len(outcome.edits)} documents change together)"), edits


def _with_breaks(text: str) -> list[str]:
    """The text's lines, each with its line break."""
    out, start = [], 0
    for match in LINE_BREAK.finditer(text):
        out.append(text[start : match.end()])
        start = match.end()
    if start < len(text):
        out.append(text[start:])
    return out


def _rows(lines: list[str], first: int, end: int, encoding: str) -> lsp.Range:
    """Lines first..end (exclusive) as a range: to the start of line `end`, or to the end of the text."""
    if end < len(lines):
        return lsp.Range(lsp.Position(first, 0), lsp.Position(end, 0))
    last = len(lines) - 1
    return lsp.Range(lsp.Position(first, 0), lsp.Position(last, units(lines[last], len(lines[last]), encoding)))
