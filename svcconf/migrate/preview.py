"""What migrate would make of each document of a file, worked out on plain data and never written.

`validate` checks a document at a removed or deprecated version through this: the conversion is
migrate's own plan (the same table, the same cross-document moves, the same reasons to leave a
document alone), so what validate predicts and what migrate writes cannot diverge.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..known.naming import Naming
from ..load.source import Document
from ..model import Path
from ..settings.options import MigrateOptions
from .origin import Origin
from .plan import Plan, plan_document
from .rewrite import Sibling
from .steps import fix_for

__all__ = ["Converted", "Left", "fix_for", "preview"]


class Converted(NamedTuple):
    """A document as migrate would write it, and where its values came from."""

    data: Any
    labels: tuple[tuple[Path, str], ...]  # (path of a converted object, the apiVersion it becomes), deepest first
    origin: Origin

    def label(self, path: Path) -> str | None:
        """The apiVersion the object holding `path` becomes (None: the path is outside every converted object)."""
        return next((api_version for prefix, api_version in self.labels if path[: len(prefix)] == prefix), None)


class Left(NamedTuple):
    """A document migrate would leave as it is, and why."""

    reason: str


def preview(
    documents: list[Document], options: MigrateOptions, can_add: bool = True, only: set[int] | None = None
) -> list[Converted | Left | None]:
    """Per document: its conversion, the reason migrate leaves it, or None when migrate has nothing to do with it.

    `only` limits the plans to the documents at these positions (the others still lend their data to
    cross-document moves). A planned document needs its composed nodes (`Document.root`): the plan
    checks them for what a rewrite could not keep.
    """
    naming = Naming(options.api_domain)
    siblings = [Sibling(str(d.data.get("kind")) if isinstance(d.data, dict) else "", d.data, []) for d in documents]
    stash: dict = {}
    plans = [
        plan_document(document, naming, options, siblings, stash, can_add) if only is None or position in only else None
        for position, document in enumerate(documents)
    ]
    blocked = next((plan for plan in plans if plan is not None and plan.blocker is not None), None)
    out: list[Converted | Left | None] = []
    for plan in plans:
        if plan is None or not plan.units:
            out.append(None)
        elif blocked is not None:
            # Documents of one file can exchange fields: migrate converts all of them or none.
            number = blocked.document.index + 1
            out.append(Left(f"migrate leaves this file unchanged: document {number}: {blocked.blocker.reason}"))
        else:
            out.append(_outcome(plan))
    return out


def _outcome(plan: Plan) -> Converted | Left | None:
    reviews = [review for unit in plan.units for review in unit.reviews]
    if reviews:
        return Left(f"{reviews[0].reason}; {reviews[0].todo}")
    if not plan.changes:
        return None
    active = sorted((unit for unit in plan.units if unit.active), key=lambda unit: -len(unit.prefix))
    labels = tuple((unit.prefix, unit.new_api_version) for unit in active)
    return Converted(plan.data, labels, Origin(plan.document.data, plan.data, [unit.copies for unit in active]))
