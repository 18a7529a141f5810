"""Command lines in kubeadm files and static Pods: flags upstream renamed exactly are rewritten; removed ones need a person.

A removed flag without a successor is a review (`migration-needs-review`) that leaves its document
unchanged; under --unsafe the flag is dropped. The flag tables and what is due at a release are
`svcconf.known.flags.migration`.
"""

from __future__ import annotations

from typing import Any

from ..known.flags import migration
from ..known.flags.arguments import at
from .ops import Context, Review, rename
from .steps import GVK, Custom, Step

KUBEADM = "kubeadm.k8s.io"
KINDS = {KUBEADM: ("ClusterConfiguration", *migration.KUBEADM_NODE_KINDS), "": ("Pod",)}


def flag_step(gvk: GVK, data: dict, target: tuple) -> Step | None:
    """A step that edits the document's flags, when any is due at the target (None: nothing to do)."""
    group, _version, kind = gvk
    planned = migration.changes(data, kind, target) if kind in KINDS.get(group, ()) else []
    if not planned:
        return None
    # Reviews point at the flag as written, before an earlier step reshapes the document (a v1beta3 map into a list).
    reviews = [
        Review(change.arg.name_path, change.reason, "remove the flag (--unsafe removes it)", unsafe_fix=True)
        for change in planned
        if change.new_name is None
    ]

    def review(doc: dict, ctx: Context) -> list[Review]:
        return reviews

    def apply(doc: dict, ctx: Context) -> None:
        due = migration.changes(doc, kind, ctx.target)
        for change in due:
            if change.new_name is not None:
                _rename(doc, change, ctx)
        # Removals last, from the end, so that the list positions of the others hold.
        for change in sorted((c for c in due if c.new_name is None), key=lambda c: c.arg.name_path, reverse=True):
            _remove(doc, change)
            # Applied only under --unsafe (the review keeps the document otherwise): say what went.
            ctx.note(change.arg.name_path, f"--{change.arg.name} removed", dropped=tuple(filter(None, (change.arg.name, change.arg.value))))

    return Step(gvk, gvk, (Custom(apply, review),))


def _rename(doc: dict, change: migration.FlagChange, ctx: Context) -> None:
    arg, new = change.arg, change.new_name
    assert new is not None
    parent: Any = at(doc, migration.parent_path(arg))
    if migration.in_map(arg):
        if isinstance(parent, dict) and new not in parent:
            rename(parent, arg.name, new, ctx)
    elif migration.in_command(arg):
        index = arg.name_path[-1]
        word = parent[index]
        parent[index] = migration.renamed_word(word, arg.name, new)
        ctx.note(arg.name_path, f"{word} is now {parent[index]}")  # the whole word, its value included
        return
    else:
        parent["name"] = new
    ctx.note(arg.name_path, change.reason)


def _remove(doc: dict, change: migration.FlagChange) -> None:
    arg = change.arg
    if migration.in_map(arg):
        at(doc, migration.parent_path(arg)).pop(arg.name, None)
        return
    if migration.in_command(arg):
        for path in sorted({arg.value_path, arg.name_path}, reverse=True):
            del at(doc, path[:-1])[path[-1]]
        return
    entries = at(doc, arg.name_path[:-2])
    del entries[arg.name_path[-2]]
