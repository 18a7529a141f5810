"""Bootstrap configuration kubeadm.k8s.io v1beta1 -> v1beta2 -> v1beta3 -> v1beta4 (cmd/kubeadm/app/apis/kubeadm/v1beta3 and v1beta4: conversion.go)."""

from __future__ import annotations

from ..ops import Added, Context, Review, comment_gap, get, insert, new_map, new_seq, pop, set_comment
from ..steps import Custom, Move, same_shape, step

GROUP = "kubeadm.k8s.io"
same_shape(f"{GROUP}/v1beta1", "InitConfiguration ClusterConfiguration JoinConfiguration", f"{GROUP}/v1beta2")


def _drop_empty(parent: dict, key: str) -> None:
    if isinstance(parent.get(key), dict) and not parent[key]:
        pop(parent, key)


def _v1beta3_cluster_review(doc: dict, ctx: Context) -> list[Review]:
    kind = get(doc, "dns", "type")
    if kind is not None and kind != "CoreDNS":
        return [
            Review(
                ("dns", "type"),
                f"dns.type {kind} is gone: v1beta3 deploys CoreDNS only",
                "deploy your DNS add-on yourself, then delete dns.type",
                True,
            )
        ]
    return []


def _v1beta3_cluster(doc: dict, ctx: Context) -> None:
    if "useHyperKubeImage" in doc:
        value, _comment = pop(doc, "useHyperKubeImage")
        ctx.note(("useHyperKubeImage",), "useHyperKubeImage dropped: v1beta3 removed it (it was ignored)", (value,))
    dns = doc.get("dns")
    if isinstance(dns, dict) and "type" in dns:
        value, _comment = pop(dns, "type")
        ctx.note(("dns", "type"), "dns.type dropped: v1beta3 supports CoreDNS only", (value,))
        _drop_empty(doc, "dns")


step(f"{GROUP}/v1beta2", "ClusterConfiguration", f"{GROUP}/v1beta3", Custom(_v1beta3_cluster, _v1beta3_cluster_review))
same_shape(f"{GROUP}/v1beta2", "InitConfiguration JoinConfiguration", f"{GROUP}/v1beta3")


def _args_list(parent: dict, key: str, ctx: Context) -> None:
    """extraArgs map -> list of {name, value}, in source order; each value keeps its comment."""
    args = parent.get(key) if isinstance(parent, dict) else None
    if not isinstance(args, dict):
        return
    items = new_seq(parent)
    for name in list(args):
        gap = comment_gap(args, name, ctx)
        value, comment = pop(args, name)
        item = new_map(parent, [("name", name), ("value", value)])
        set_comment(item, "value", comment, ctx, ("gap", gap if gap is not None else 1))
        items.append(item)
    parent[key] = items


def _timeouts(doc: dict) -> dict:
    if not isinstance(doc.get("timeouts"), dict):
        insert(doc, len(doc), "timeouts", new_map(doc))
    return doc["timeouts"]


HEALTH_CHECK = ("timeouts", "controlPlaneComponentHealthCheck")
CLUSTER_TIMEOUT = ("apiServer", "timeoutForControlPlane")


def _duration(value) -> int | None:
    from ...go.durations import parse_duration  # only files with the field pay for it

    return parse_duration(value)


def _unset(value) -> bool:
    """kubeadm's conversion moves only a timeout that is set and not zero; v1beta4 then uses its default (4m0s)."""
    return value is None or _duration(value) == 0


def _cluster_timeout(ctx: Context):
    """(value, comment, gap) of ClusterConfiguration apiServer.timeoutForControlPlane in this file, if it moves."""
    if "timeoutForControlPlane" in ctx.stash:
        return ctx.stash["timeoutForControlPlane"]
    if "timeoutForControlPlane read" not in ctx.stash:  # read once per file: a file of n documents would cost n * n
        ctx.stash["timeoutForControlPlane read"] = _read_cluster_timeout(ctx)
    return ctx.stash["timeoutForControlPlane read"]


def _read_cluster_timeout(ctx: Context):
    for sibling in ctx.siblings:
        api_server = get(sibling.data, "apiServer")
        if sibling.kind == "ClusterConfiguration" and isinstance(api_server, dict) and "timeoutForControlPlane" in api_server:
            if _unset(api_server["timeoutForControlPlane"]):
                return None
            gap = comment_gap(api_server, "timeoutForControlPlane", ctx, sibling.lines)
            return (
                api_server["timeoutForControlPlane"],
                (api_server.ca.items.get("timeoutForControlPlane") if hasattr(api_server, "ca") else None),
                gap,
            )
    return None


def _health_check(doc: dict, ctx: Context) -> None:
    found = _cluster_timeout(ctx)
    if found is None:
        return
    value, comment, gap = found
    timeouts = _timeouts(doc)
    if "controlPlaneComponentHealthCheck" not in timeouts:
        insert(timeouts, len(timeouts), "controlPlaneComponentHealthCheck", value)
        set_comment(timeouts, "controlPlaneComponentHealthCheck", comment, ctx, ("gap", gap if gap is not None else 1))
        ctx.note(HEALTH_CHECK, "written from ClusterConfiguration apiServer.timeoutForControlPlane")


def _init(doc: dict, ctx: Context) -> None:
    _args_list(get(doc, "nodeRegistration"), "kubeletExtraArgs", ctx)
    _health_check(doc, ctx)


def _join(doc: dict, ctx: Context) -> None:
    _args_list(get(doc, "nodeRegistration"), "kubeletExtraArgs", ctx)
    Move(("discovery",), "timeout", ("timeouts",), "discovery").apply(doc, ctx)
    _health_check(doc, ctx)


def _init_sibling(ctx: Context):
    """This file's InitConfiguration, if it has one."""
    return next((s for s in ctx.siblings if s.kind == "InitConfiguration"), None)


def _cluster_review(doc: dict, ctx: Context) -> list[Review]:
    value = get(doc, *CLUSTER_TIMEOUT)
    if _unset(value):
        return []
    if _duration(value) is None:
        return [
            Review(CLUSTER_TIMEOUT, f"timeoutForControlPlane {value!r} is not a duration", "correct it (e.g. 4m0s), then migrate again")
        ]
    init = _init_sibling(ctx)
    if init is None and ctx.can_add:
        return []  # an InitConfiguration is added to the file for it, as kubeadm's `config migrate` does
    if init is not None and not str(get(init.data, "apiVersion", default="")).endswith("/v1beta4"):
        return []  # converted in the same run: it takes the value
    where = (
        "this file's InitConfiguration is already v1beta4 and is not rewritten"
        if init is not None
        else "this JSON file cannot take a second document"
    )
    return [
        Review(
            CLUSTER_TIMEOUT,
            f"v1beta4 keeps this timeout in InitConfiguration timeouts.controlPlaneComponentHealthCheck, and {where}",
            f"set timeouts.controlPlaneComponentHealthCheck: {value} in the InitConfiguration by hand and delete this field",
        )
    ]


def _cluster(doc: dict, ctx: Context) -> None:
    for component in ("apiServer", "controllerManager", "scheduler"):
        _args_list(get(doc, component), "extraArgs", ctx)
    _args_list(get(doc, "etcd", "local"), "extraArgs", ctx)
    api_server = doc.get("apiServer")
    if isinstance(api_server, dict) and "timeoutForControlPlane" in api_server:
        gap = comment_gap(api_server, "timeoutForControlPlane", ctx)
        value, comment = pop(api_server, "timeoutForControlPlane")
        if _unset(value):
            ctx.note(
                CLUSTER_TIMEOUT,
                "timeoutForControlPlane dropped: kubeadm reads a zero or null timeout as unset (v1beta4 uses 4m0s)",
                (value,),
            )
        elif _init_sibling(ctx) is not None:
            ctx.stash["timeoutForControlPlane"] = (value, comment, gap)
            ctx.note(
                CLUSTER_TIMEOUT, f"timeoutForControlPlane {value} moved to InitConfiguration timeouts.controlPlaneComponentHealthCheck"
            )
        else:
            ctx.stash["timeoutForControlPlane"] = (value, comment, gap)
            if "InitConfiguration added" not in ctx.stash:
                ctx.stash["InitConfiguration added"] = True
                ctx.added.append(Added("InitConfiguration", ((HEALTH_CHECK, CLUSTER_TIMEOUT),)))
            ctx.note(
                CLUSTER_TIMEOUT,
                f"timeoutForControlPlane {value} moved to timeouts.controlPlaneComponentHealthCheck of an InitConfiguration "
                "added at the end of the file (as kubeadm config migrate does)",
            )
        _drop_empty(doc, "apiServer")


step(f"{GROUP}/v1beta3", "InitConfiguration", f"{GROUP}/v1beta4", Custom(_init))
step(f"{GROUP}/v1beta3", "JoinConfiguration", f"{GROUP}/v1beta4", Custom(_join))
step(f"{GROUP}/v1beta3", "ClusterConfiguration", f"{GROUP}/v1beta4", Custom(_cluster, _cluster_review))
