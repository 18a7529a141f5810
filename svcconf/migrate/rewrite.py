"""Re-emit converted documents through ruamel's round-trip dumper, keeping every source line the change did not touch.

Every failure of the round-trip reader or writer on a document is raised as `NotConvertible`
with its reason and position, so that the file is left as it is.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, NamedTuple

from yaml.nodes import Node

from ..load.source import parse
from . import emit, guard
from .ops import Context, comment_gap, comment_of

if TYPE_CHECKING:
    from ..settings.options import MigrateOptions
    from .plan import Plan


class NotConvertible(Exception):
    """A document the conversion cannot rewrite safely; the file stays unchanged."""

    def __init__(self, blocker: guard.Blocker) -> None:
        super().__init__(blocker.reason)
        self.blocker = blocker


class Sibling(NamedTuple):
    kind: str
    data: Any
    lines: list


class Loaded(NamedTuple):
    """A document to rewrite, read with the round-trip loader before any document is changed."""

    data: Any
    as_json: bool  # a JSON document, written back as JSON
    siblings: list[Sibling]
    stash: dict
    normalised: str  # the unchanged document as the dumper writes it ("" for JSON)


def load(text: str, plans: list[Plan], yaml: Any) -> tuple[dict[int, Loaded], list[tuple[Plan, guard.Blocker]]]:
    """Round-trip objects of every document to re-emit, loaded before any is changed (cross-document moves).

    Also the documents the round-trip reader cannot take, with the reason.
    """
    loaded: dict[int, Loaded] = {}
    unreadable = []
    stash: dict = {}
    siblings: list[Sibling] = []
    for plan in plans:
        start, end = emit.body_span(text, plan.document.root)
        body = text[start:end].replace("\r\n", "\n")
        try:
            data, as_json = _read(yaml, body, plan.document.root)
            # Dumped now, before any conversion moves a field into or out of it: the spelling the source is compared with.
            normalised = "" if as_json else _dumped(yaml, data, plan.document.root)
        except NotConvertible as err:
            unreadable.append((plan, err.blocker))
            continue
        loaded[plan.document.index] = Loaded(data, as_json, siblings, stash, normalised)
        siblings.append(Sibling(plan.units[0].gvk[2] if plan.units else "", data, body.split("\n")))
    return loaded, unreadable


def _read(yaml: Any, body: str, root: Node) -> tuple[Any, bool]:
    """The round-trip data of a document body and whether it is JSON; NotConvertible when it cannot be read safely."""
    blocker = guard.tag_blocker(guard.nodes(root))
    if blocker is not None:
        raise NotConvertible(blocker)
    if root.flow_style:
        try:
            return json.loads(body), True
        except ValueError:
            pass  # a YAML flow mapping rather than JSON
    from ruamel.yaml.error import YAMLError

    try:
        return yaml.load(body), False
    except YAMLError as err:
        raise NotConvertible(_placed(root, err, "the round-trip reader cannot read it")) from None
    except ValueError as err:  # a constructor refusing a value: a timestamp such as 2001-13-45
        raise NotConvertible(_placed(root, err, "the round-trip reader cannot read a value")) from None


def _placed(root: Node, err: Exception, what: str) -> guard.Blocker:
    """A blocker at the reader's position inside the document body (or at its start)."""
    mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
    problem = getattr(err, "problem", None) or str(err)
    line, column = root.start_mark.line + 1, root.start_mark.column + 1
    if mark is not None:
        column = mark.column + 1 + (root.start_mark.column if mark.line == 0 else 0)
        line += mark.line
    return guard.Blocker(line, column, (), f"{what} ({problem})")


def _dumped(yaml: Any, data: Any, root: Node) -> str:
    """A document as the round-trip dumper writes it; NotConvertible when it cannot."""
    from ruamel.yaml.error import YAMLError

    try:
        return emit.dump(yaml, data).rstrip("\n")
    except YAMLError as err:
        raise NotConvertible(_placed(root, err, "the round-trip writer cannot write it back")) from None


def reads_as(text: str, data: Any) -> bool:
    source = parse("-", text)
    return not source.problems and len(source.documents) == 1 and source.documents[0].data == data


def rewrite(
    text: str, plan: Plan, yaml: Any, indent: emit.Indent, options: MigrateOptions, loaded: dict[int, Loaded]
) -> tuple[int, int, str]:
    """(start, end, new text) of one converted document's body."""
    start, end = emit.body_span(text, plan.document.root)
    body = text[start:end]
    crlf = "\r\n" in body
    if crlf:
        body = body.replace("\r\n", "\n")
    info = loaded[plan.document.index]
    document = info.data
    ctx = Context(options.resolved_target(), options.unsafe, info.siblings)
    ctx.stash = info.stash
    ctx.lines = body.split("\n")
    for unit in plan.units:
        if not unit.active:
            continue
        target = document if not unit.prefix else document["items"][unit.prefix[1]]
        for key, value in (("apiVersion", unit.new_api_version), ("kind", unit.new_kind)):
            old = target.get(key)
            gap = comment_gap(target, key, ctx) if old != value else None
            target[key] = type(old)(value) if isinstance(old, str) and type(old) is not str else value
            comment = comment_of(target, key)
            if gap is not None and comment and comment[2] is not None:  # the comment keeps its distance, not its column
                ctx.comment_fixes.append((comment[2].value.split("\n", 1)[0].strip(), "gap", gap, key))
        for step in unit.steps:
            for op in step.ops:
                op.apply(target, ctx)
    if info.as_json:
        candidates = [json.dumps(document, indent=indent.mapping, ensure_ascii=False)]
    else:
        dumped = emit.fix_comments(_dumped(yaml, document, plan.document.root), ctx.comment_fixes)
        merged = "\n".join(emit.keep_original_lines(body.split("\n"), info.normalised.split("\n"), dumped.split("\n")))
        # Kept source lines must fit the new ones (a file indented unevenly may not): check, else take the dump.
        candidates = [merged, dumped]
    new = next((candidate for candidate in candidates if reads_as(candidate, plan.data)), None)
    if new is None:
        mark = plan.document.root.start_mark
        reason = "the rewritten document would not read back as the conversion (please report this file)"
        raise NotConvertible(guard.Blocker(mark.line + 1, mark.column + 1, (), reason))
    if crlf:
        new = new.replace("\n", "\r\n")
    return start, end, new
