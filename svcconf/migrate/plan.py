"""The plan of one document's conversion, worked out on a copy of its plain data: which objects
convert (a document, the items of a List, plugin configurations embedded in an
AdmissionConfiguration), the steps `upgrade` chooses for each, and the converted data.

Nothing here touches the text: `engine` splices or re-emits what a plan changes, and `preview`
shows validate what migrate would write.
"""

from __future__ import annotations

from typing import Any

from ..known.catalog import canonical, format_release, lifecycle
from ..known.naming import UPSTREAM_DOMAIN, Naming
from ..load.source import Document
from ..model import Path
from ..settings.options import MigrateOptions
from . import emit, guard, upgrade
from .flags import flag_step
from .ops import Added, Context, Note, Review, clone
from .steps import Step


class Unit:
    """One object to convert: a whole document, or one item of a List."""

    def __init__(self, prefix: Path, written: tuple[str, str], gvk: tuple, steps: list[Step]) -> None:
        self.prefix = prefix
        self.written = written  # apiVersion and kind as written
        self.gvk = gvk
        self.steps = steps
        self.reviews: list[Review] = []
        self.notes: list[Note] = []
        self.added: list[Added] = []  # documents the conversion appends to the file
        self.new_api_version, self.new_kind = written
        self.copies: dict = {}  # id of each written map and list -> its copy in the conversion (see origin.py)

    @property
    def active(self) -> bool:
        return bool(self.steps) and not self.reviews


class Plan:
    """The conversion of one document, worked out on a copy of its plain data."""

    def __init__(self, document: Document) -> None:
        self.document = document
        data = document.data
        self.written = (str(data.get("apiVersion")), str(data.get("kind")))
        self.units: list[Unit] = []
        self.data: Any = data
        self.splices: list[tuple[Path, Any]] | None = None  # None: structural change
        self.blocker: guard.Blocker | None = None  # why the document cannot be converted safely

    @property
    def changes(self) -> bool:
        active = any(u.active for u in self.units) and self.blocker is None
        return active and (self.splices is None or bool(self.splices))


# --------------------------------------------------------------------------- spelling


def spell(naming: Naming, written_version: str, written_kind: str, target: tuple) -> tuple[str, str]:
    """apiVersion and kind of the target in the spelling of the input (domain, svc/kube)."""
    group, version, kind = target
    written_group = written_version.rpartition("/")[0]
    domain = naming.domain if written_group == naming.domain or written_group.endswith("." + naming.domain) else UPSTREAM_DOMAIN
    svc = any(label.startswith("svc") for label in written_group.split("."))
    spelled = Naming(domain).spell_group(group, "svc" if svc else "kube") if group else ""
    spelled_kind = Naming.spell_kind(kind, "svc" if written_kind.startswith("Svc") else "kube")
    return (f"{spelled}/{version}" if spelled else version), spelled_kind


# --------------------------------------------------------------------------- planning


def _unit(prefix: Path, data: dict, naming: Naming, options: MigrateOptions) -> Unit | None:
    """The steps that convert one object, or the review saying why none can (None: not an API object)."""
    written_version, written_kind = data.get("apiVersion"), data.get("kind")
    if not isinstance(written_version, str) or not isinstance(written_kind, str):
        return None
    gv = naming.api_version(written_version)
    if gv is None:
        return None
    gvk = canonical(gv.group, gv.version, naming.kind(written_kind))
    target = options.resolved_target()
    choice = upgrade.choose(gvk, target, options.from_version, options.deprecated, options.unsafe)
    unit = Unit(prefix, (written_version, written_kind), gvk, choice.steps)
    if choice.review is not None:
        unit.reviews.append(choice.review._replace(path=(*prefix, *choice.review.path)))
        return unit
    if choice.note is not None:
        unit.notes.append(choice.note._replace(path=(*prefix, *choice.note.path)))
    final = unit.steps[-1].target if unit.steps else gvk
    row = lifecycle().row(*final)
    if row is not None and row.scope != "payload" and row.removed is not None and target >= row.removed:
        unit.steps = []  # the chain ends at a version the target does not serve either
        replacement = (
            f"rewrite it as {row.replacement} by hand" if row.replacement else "it has no successor API; " + (row.note or "remove it")
        )
        served = f"{row.group}/{row.version}".lstrip("/")
        reason = f"{served} {row.kind} is not served since {format_release(row.removed)} and has no automatic conversion"
        unit.reviews.append(Review((*prefix, "apiVersion"), reason, replacement))
    elif (flags := flag_step(final, data, target)) is not None:
        unit.steps = [*unit.steps, flags]  # renamed or removed command-line flags (kubeadm extraArgs, static Pods)
    return unit


def _convert(unit: Unit, data: dict, naming: Naming, options: MigrateOptions, siblings: list, stash: dict, can_add: bool) -> Any:
    """The object converted on a copy of its plain data; reviews, notes and added documents go to the unit."""
    prefix = unit.prefix
    ctx = Context(options.resolved_target(), options.unsafe, siblings)
    ctx.stash = stash
    ctx.can_add = can_add and not prefix
    converted = clone(data, unit.copies)
    reviews: list[Review] = []
    for step in unit.steps:
        for op in step.ops:
            reviews.extend(op.review(converted, ctx))
            op.apply(converted, ctx)
    unsafe_applied = [r for r in reviews if r.unsafe_fix and options.unsafe]
    unit.reviews = [r._replace(path=(*prefix, *r.path)) for r in reviews if not (r.unsafe_fix and options.unsafe)]
    notes = ctx.notes + [Note(r.path, f"applied under --unsafe: {r.reason}", warn=True) for r in unsafe_applied]
    unit.notes += [n._replace(path=(*prefix, *n.path)) for n in notes]
    unit.added = ctx.added
    unit.new_api_version, unit.new_kind = spell(naming, *unit.written, unit.steps[-1].target)
    converted["apiVersion"] = unit.new_api_version
    converted["kind"] = unit.new_kind
    return converted


def plan_document(document: Document, naming: Naming, options: MigrateOptions, siblings: list, stash: dict, can_add: bool) -> Plan | None:
    data = document.data
    if not isinstance(data, dict):
        return None
    plan = Plan(document)
    items = data.get("items")
    if data.get("kind") == "List" and isinstance(items, list):
        candidates = [(("items", index), item) for index, item in enumerate(items) if isinstance(item, dict)]
    else:
        candidates = [((), data)]
    found = [(unit, unit_data) for prefix, unit_data in candidates if (unit := _unit(prefix, unit_data, naming, options)) is not None]
    # A plugin configuration embedded in an AdmissionConfiguration has an apiVersion of its own,
    # which the API server decodes as strictly as a file's: it is converted where it stands.
    for prefix, embedded in _embedded(data, naming):
        unit = _unit(prefix, embedded, naming, options)
        if unit is not None and (unit.steps or unit.reviews):
            found.append((unit, embedded))
    if not found:
        return None
    plan.units = [unit for unit, _data in found]
    if any(unit.steps for unit in plan.units):
        plan.blocker = guard.read_blocker(document)
        if plan.blocker is not None:
            return plan
    converted = None
    for unit, unit_data in found:
        if not unit.steps:
            continue
        new = _convert(unit, unit_data, naming, options, siblings, stash, can_add)
        if not unit.active:
            continue
        if not unit.prefix:
            converted = new
        else:
            converted = converted if converted is not None else clone(data)
            parent = converted
            for segment in unit.prefix[:-1]:
                parent = parent[segment]
            parent[unit.prefix[-1]] = new
    if converted is not None:
        plan.data = converted
        plan.splices = emit.scalar_changes(data, converted)
    return plan


def _embedded(data: dict, naming: Naming) -> list[tuple[Path, dict]]:
    """(path, object) of each plugin configuration an AdmissionConfiguration holds inline."""
    if naming.kind(str(data.get("kind"))) != "AdmissionConfiguration" or not isinstance(data.get("plugins"), list):
        return []
    return [
        (("plugins", index, "configuration"), plugin["configuration"])
        for index, plugin in enumerate(data["plugins"])
        if isinstance(plugin, dict) and isinstance(plugin.get("configuration"), dict)
    ]
