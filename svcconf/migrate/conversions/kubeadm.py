"""Bootstrap configuration kubeadm.k8s.io v1beta1 -> v1beta2 -> v1beta3 -> v1beta4 (kubeadm.md 5.3, 5.5; KAT-10)."""

from __future__ import annotations

from ..ops import Context, Custom, Move, Review, comment_gap, get, insert, new_map, new_seq, pop, set_comment
from ..steps import same_shape, step

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


def _cluster_timeout(ctx: Context):
    """(value, comment, gap) of ClusterConfiguration apiServer.timeoutForControlPlane in this file, if any."""
    if "timeoutForControlPlane" in ctx.stash:
        return ctx.stash["timeoutForControlPlane"]
    for sibling in ctx.siblings:
        api_server = get(sibling.data, "apiServer")
        if sibling.kind == "ClusterConfiguration" and isinstance(api_server, dict) and "timeoutForControlPlane" in api_server:
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
        ctx.note(("timeouts", "controlPlaneComponentHealthCheck"), "written from ClusterConfiguration apiServer.timeoutForControlPlane")


def _init(doc: dict, ctx: Context) -> None:
    _args_list(get(doc, "nodeRegistration"), "kubeletExtraArgs", ctx)
    _health_check(doc, ctx)


def _join(doc: dict, ctx: Context) -> None:
    _args_list(get(doc, "nodeRegistration"), "kubeletExtraArgs", ctx)
    Move(("discovery",), "timeout", ("timeouts",), "discovery").apply(doc, ctx)
    _health_check(doc, ctx)


def _cluster_review(doc: dict, ctx: Context) -> list[Review]:
    if get(doc, "apiServer", "timeoutForControlPlane") is None:
        return []
    if any(s.kind in ("InitConfiguration", "JoinConfiguration") for s in ctx.siblings):
        return []
    return [
        Review(
            ("apiServer", "timeoutForControlPlane"),
            "v1beta4 keeps this timeout in InitConfiguration (and JoinConfiguration) timeouts.controlPlaneComponentHealthCheck, "
            "and this file holds neither",
            "add an InitConfiguration document to this file (migrate then moves the value), or set the timeout where the file is used",
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
        ctx.stash["timeoutForControlPlane"] = (value, comment, gap)
        ctx.note(
            ("apiServer", "timeoutForControlPlane"),
            f"timeoutForControlPlane {value} moved to InitConfiguration timeouts.controlPlaneComponentHealthCheck",
        )
        _drop_empty(doc, "apiServer")


step(f"{GROUP}/v1beta3", "InitConfiguration", f"{GROUP}/v1beta4", Custom(_init))
step(f"{GROUP}/v1beta3", "JoinConfiguration", f"{GROUP}/v1beta4", Custom(_join))
step(f"{GROUP}/v1beta3", "ClusterConfiguration", f"{GROUP}/v1beta4", Custom(_cluster, _cluster_review))
