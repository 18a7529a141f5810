"""Workloads from extensions/v1beta1 and apps/v1beta1 to apps/v1 (the conversions and defaults of pkg/apis/apps and pkg/apis/extensions)."""

from __future__ import annotations

from ..ops import Context, Review, bare_copy, get, index_of, insert, insert_before, new_map
from ..steps import Custom, Remove, step


def _selector_review(doc: dict, ctx: Context) -> list[Review]:
    spec = doc.get("spec")
    if not isinstance(spec, dict) or "selector" in spec:
        return []
    if get(spec, "template", "metadata", "labels"):
        return []
    return [
        Review(
            ("spec", "selector"),
            "apps/v1 requires spec.selector and the old default copied the template labels, but the template has none",
            "add labels to spec.template.metadata.labels and a spec.selector.matchLabels that matches them",
        )
    ]


def _selector(doc: dict, ctx: Context) -> None:
    spec = doc.get("spec")
    labels = get(spec, "template", "metadata", "labels")
    if not isinstance(spec, dict) or "selector" in spec or not isinstance(labels, dict) or not labels:
        return
    selector = new_map(spec, [("matchLabels", bare_copy(labels))])
    insert(spec, index_of(spec, "replicas") + 1 if "replicas" in spec else 0, "selector", selector)
    ctx.note(("spec", "selector"), "spec.selector written from the template labels (the old server's default; apps/v1 requires it)")


def _pin(doc: dict, ctx: Context, key: str, value, why: str, warn: bool = False) -> None:
    spec = doc.get("spec")
    if isinstance(spec, dict) and key not in spec:
        insert_before(spec, "template", key, value)
        ctx.note(("spec", key), why, warn=warn)


def _update_strategy_on_delete(doc: dict, ctx: Context) -> None:
    spec = doc.get("spec")
    if not isinstance(spec, dict):
        return
    strategy = spec.get("updateStrategy")
    if strategy is None:
        _pin(doc, ctx, "updateStrategy", new_map(spec, [("type", "OnDelete")]), _ON_DELETE, warn=True)
    elif isinstance(strategy, dict) and "type" not in strategy:
        insert(strategy, 0, "type", "OnDelete")
        ctx.note(("spec", "updateStrategy", "type"), _ON_DELETE, warn=True)


_ON_DELETE = (
    "updateStrategy.type OnDelete written: the old default (apps/v1 defaults to RollingUpdate, which rolls every pod on the next change)"
)


def _extensions_deployment_defaults(doc: dict, ctx: Context) -> None:
    spec = doc.get("spec")
    if not isinstance(spec, dict):
        return
    strategy = spec.get("strategy")
    if strategy is None:
        rolling = new_map(spec, [("maxSurge", 1), ("maxUnavailable", 1)])
        _pin(doc, ctx, "strategy", new_map(spec, [("rollingUpdate", rolling)]), _SURGE)
    elif isinstance(strategy, dict) and strategy.get("type", "RollingUpdate") == "RollingUpdate":
        rolling = strategy.get("rollingUpdate")
        if rolling is None:
            strategy["rollingUpdate"] = new_map(spec, [("maxSurge", 1), ("maxUnavailable", 1)])
            ctx.note(("spec", "strategy", "rollingUpdate"), _SURGE)
        elif isinstance(rolling, dict):
            for key in ("maxSurge", "maxUnavailable"):
                if key not in rolling:
                    rolling[key] = 1
                    ctx.note(("spec", "strategy", "rollingUpdate", key), _SURGE)
    _pin(doc, ctx, "revisionHistoryLimit", 2147483647, "revisionHistoryLimit 2147483647 written: the old default (apps/v1: 10)")
    _pin(doc, ctx, "progressDeadlineSeconds", 2147483647, "progressDeadlineSeconds 2147483647 written: the old default (apps/v1: 600)")


_SURGE = "rollingUpdate maxSurge and maxUnavailable 1 written: the old defaults (apps/v1: 25%)"

SELECTOR = Custom(_selector, _selector_review)
ROLLBACK = Remove(("spec",), "rollbackTo", "spec.rollbackTo dropped: it was a one-shot trigger; use `kubectl rollout undo --to-revision=N`")

step("extensions/v1beta1", "Deployment", "apps/v1", ROLLBACK, SELECTOR, Custom(_extensions_deployment_defaults))
step(
    "apps/v1beta1",
    "Deployment",
    "apps/v1",
    ROLLBACK,
    SELECTOR,
    Custom(lambda doc, ctx: _pin(doc, ctx, "revisionHistoryLimit", 2, "revisionHistoryLimit 2 written: the old default (apps/v1: 10)")),
)
step(
    "extensions/v1beta1",
    "DaemonSet",
    "apps/v1",
    Remove(("spec",), "templateGeneration", "spec.templateGeneration dropped: it is managed by the server", warn=False),
    SELECTOR,
    Custom(_update_strategy_on_delete),
)
step("extensions/v1beta1", "ReplicaSet", "apps/v1", SELECTOR)
step("apps/v1beta1", "StatefulSet", "apps/v1", SELECTOR, Custom(_update_strategy_on_delete))
