"""HPA metric sources and DRA request/device shapes (the conversions of pkg/apis/autoscaling and pkg/apis/resource)."""

from __future__ import annotations

import json

from ..ops import Context, Review, gather, get, index_of, insert, move, new_map, pop, rename, to_node, walk
from ..steps import Custom, step


def _target(source: dict, ctx: Context, choices: list[tuple[str, str, str]]) -> None:
    """Move the first present old target key into `target: {type, <new key>}`."""
    for old, kind, new in choices:
        if old in source:
            gather(source, "target", [(old, new)], ctx, first=[("type", kind)])
            return


def _metrics(doc: dict, ctx: Context) -> None:
    for _path, metric in walk(doc, ("spec", "metrics", "*")):
        if not isinstance(metric, dict):
            continue
        for key in ("resource", "containerResource"):
            source = metric.get(key)
            if isinstance(source, dict):
                _target(
                    source,
                    ctx,
                    [
                        ("targetAverageUtilization", "Utilization", "averageUtilization"),
                        ("targetAverageValue", "AverageValue", "averageValue"),
                    ],
                )
        source = metric.get("pods")
        if isinstance(source, dict):
            gather(source, "metric", [("metricName", "name"), ("selector", "selector")], ctx)
            _target(source, ctx, [("targetAverageValue", "AverageValue", "averageValue")])
        source = metric.get("object")
        if isinstance(source, dict):
            rename(source, "target", "describedObject", ctx)
            gather(source, "metric", [("metricName", "name"), ("selector", "selector")], ctx)
            if "averageValue" in source:
                value, _comment = pop(source, "targetValue") if "targetValue" in source else (None, None)
                _target(source, ctx, [("averageValue", "AverageValue", "averageValue")])
                if value is not None:
                    ctx.note(("spec", "metrics"), f"object metric targetValue {value} dropped: averageValue decides the target", (value,))
            else:
                _target(source, ctx, [("targetValue", "Value", "value")])
        source = metric.get("external")
        if isinstance(source, dict):
            gather(source, "metric", [("metricName", "name"), ("metricSelector", "selector")], ctx)
            _target(source, ctx, [("targetValue", "Value", "value"), ("targetAverageValue", "AverageValue", "averageValue")])


BEHAVIOR = "autoscaling.alpha.kubernetes.io/behavior"
STATUS_CARRIERS = ("autoscaling.alpha.kubernetes.io/conditions", "autoscaling.alpha.kubernetes.io/current-metrics")


def _behavior_review(doc: dict, ctx: Context) -> list[Review]:
    text = get(doc, "metadata", "annotations", BEHAVIOR)
    if text is None or get(doc, "spec", "behavior") is not None:
        return []
    try:
        json.loads(str(text))
    except ValueError:
        return [Review(("metadata", "annotations", BEHAVIOR), "the behavior annotation is not JSON", "write spec.behavior by hand")]
    return []


def _behavior(doc: dict, ctx: Context) -> None:
    """The v2beta1 round-trip carrier of spec.behavior becomes spec.behavior; status carriers go."""
    annotations = get(doc, "metadata", "annotations")
    spec = doc.get("spec")
    if not isinstance(annotations, dict) or not isinstance(spec, dict):
        return
    if BEHAVIOR in annotations and "behavior" not in spec:
        try:
            behavior = json.loads(str(annotations[BEHAVIOR]))
        except ValueError:
            return
        insert(spec, len(spec), "behavior", to_node(spec, behavior))
        text, _comment = pop(annotations, BEHAVIOR)
        ctx.note(("spec", "behavior"), f"annotation {BEHAVIOR} written as spec.behavior: {text}")
    for key in STATUS_CARRIERS:
        if key in annotations:
            value, _comment = pop(annotations, key)
            ctx.note(("metadata", "annotations", key), f"annotation {key} dropped: it carried status", (value,))
    if not annotations:
        pop(doc["metadata"], "annotations")


step("autoscaling/v2beta1", "HorizontalPodAutoscaler", "autoscaling/v2", Custom(_metrics), Custom(_behavior, _behavior_review))

EXACTLY = ("deviceClassName", "selectors", "allocationMode", "count", "adminAccess", "tolerations", "capacity")


def _requests(prefix: tuple):
    def apply(doc: dict, ctx: Context) -> None:
        for _path, request in walk(doc, (*prefix, "devices", "requests", "*")):
            if isinstance(request, dict) and "exactly" not in request and "firstAvailable" not in request:
                gather(request, "exactly", [(key, key) for key in EXACTLY], ctx)

    return Custom(apply)


def _flatten_basic(doc: dict, ctx: Context) -> None:
    for _path, device in walk(doc, ("spec", "devices", "*")):
        basic = get(device, "basic")
        if not isinstance(basic, dict):
            continue
        position = index_of(device, "basic")
        for key in list(basic):
            move(basic, key, device, key, ctx, position=position + 1)
            position += 1
        pop(device, "basic")


def _wrap_capacity(doc: dict, ctx: Context) -> None:
    for _path, capacity in walk(doc, ("spec", "devices", "*", "basic", "capacity")):
        if isinstance(capacity, dict):
            for key, value in list(capacity.items()):
                if not isinstance(value, dict):
                    capacity[key] = new_map(capacity, [("value", value)], flow=True)


step("resource.k8s.io/v1beta1", "ResourceClaim", "resource.k8s.io/v1", _requests(("spec",)))
step("resource.k8s.io/v1beta1", "ResourceClaimTemplate", "resource.k8s.io/v1", _requests(("spec", "spec")))
step("resource.k8s.io/v1beta1", "ResourceSlice", "resource.k8s.io/v1", Custom(_flatten_basic))
step("resource.k8s.io/v1alpha3", "ResourceSlice", "resource.k8s.io/v1beta1", Custom(_wrap_capacity))
