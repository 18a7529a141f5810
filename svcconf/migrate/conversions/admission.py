"""Webhook configurations, PodDisruptionBudget and flow control (the conversions of pkg/apis/admissionregistration, pkg/apis/policy and pkg/apis/flowcontrol)."""

from __future__ import annotations

from ..ops import Context, Review, get, insert, new_map, new_seq, pop, replace_value, walk
from ..steps import Custom, SetIfAbsent, step


def _webhook_reviews(doc: dict, ctx: Context) -> list[Review]:
    out = []
    names: dict = {}
    for path, hook in walk(doc, ("webhooks", "*")):
        if not isinstance(hook, dict):
            continue
        effects = hook.get("sideEffects")
        if effects not in ("None", "NoneOnDryRun"):
            shown = "absent (v1beta1 default Unknown)" if effects is None else f"{effects}"
            out.append(
                Review(
                    (*path, "sideEffects"),
                    f"sideEffects is {shown}; v1 accepts only None or NoneOnDryRun and only the webhook's author knows which holds",
                    "set sideEffects: None, or NoneOnDryRun if the webhook honours dryRun (--unsafe writes None, NoneOnDryRun for Some)",
                    unsafe_fix=True,
                )
            )
        name = hook.get("name")
        if isinstance(name, str) and name in names:
            out.append(Review((*path, "name"), f"webhook name {name!r} is used twice; v1 requires unique names", "rename one of them"))
        if isinstance(name, str):
            names[name] = path
    return out


def _side_effects(doc: dict, ctx: Context) -> None:
    """--unsafe only (the review stops it otherwise): Some -> NoneOnDryRun, absent or Unknown -> None."""
    for _path, hook in walk(doc, ("webhooks", "*")):
        effects = hook.get("sideEffects") if isinstance(hook, dict) else "None"
        if effects in ("None", "NoneOnDryRun"):
            continue
        new = "NoneOnDryRun" if effects == "Some" else "None"
        if "sideEffects" in hook:
            replace_value(hook, "sideEffects", new, ctx)
        else:
            insert(hook, len(hook), "sideEffects", new)


HOOKS = ("webhooks", "*")
WEBHOOK_V1 = (
    Custom(_side_effects, _webhook_reviews),
    SetIfAbsent(HOOKS, "failurePolicy", "Ignore", "failurePolicy Ignore written: the v1beta1 default (v1: Fail)"),
    SetIfAbsent(HOOKS, "matchPolicy", "Exact", "matchPolicy Exact written: the v1beta1 default (v1: Equivalent)"),
    SetIfAbsent(HOOKS, "timeoutSeconds", 30, "timeoutSeconds 30 written: the v1beta1 default (v1: 10)"),
    SetIfAbsent(
        HOOKS,
        "admissionReviewVersions",
        ["v1beta1"],
        "admissionReviewVersions [v1beta1] written: what the server sent before (v1 requires it)",
    ),
)
for _kind in ("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"):
    step("admissionregistration.k8s.io/v1beta1", _kind, "admissionregistration.k8s.io/v1", *WEBHOOK_V1)

MATCH_NONE_KEY = "pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match"


def _pdb_reviews(doc: dict, ctx: Context) -> list[Review]:
    selector = get(doc, "spec", "selector")
    if isinstance(selector, dict) and not selector:
        return [
            Review(
                ("spec", "selector"),
                "selector {} selected no pods in policy/v1beta1 but selects every pod of the namespace in policy/v1",
                "write the selector you mean; --unsafe keeps the old meaning with a match-nothing selector",
                unsafe_fix=True,
            )
        ]
    return []


def _pdb(doc: dict, ctx: Context) -> None:
    spec = doc.get("spec")
    selector = get(spec, "selector")
    if isinstance(selector, dict) and not selector:
        requirement = new_map(spec, [("key", MATCH_NONE_KEY), ("operator", "Exists")])
        spec["selector"] = new_map(spec, [("matchExpressions", new_seq(spec, [requirement]))])
        return
    expressions = get(selector, "matchExpressions")
    if not isinstance(expressions, list):
        return
    # The server's own v1beta1 forms (StripPDBV1beta1Label): a lone DoesNotExist meant "all pods"; other uses are dropped.
    marked = [e for e in expressions if isinstance(e, dict) and e.get("key") == MATCH_NONE_KEY and e.get("operator") != "Exists"]
    if not marked:
        return
    if len(expressions) == 1 and len(selector) == 1 and marked[0].get("operator") == "DoesNotExist":
        spec["selector"] = new_map(spec, flow=True)
        ctx.note(
            ("spec", "selector"),
            "the v1beta1 match-all selector (the marker key DoesNotExist) written as {} (policy/v1 reads {} as every pod)",
        )
        return
    for requirement in marked:
        expressions.remove(requirement)
        values = requirement.get("values")
        values = values if isinstance(values, list) else [] if values is None else [values]  # a malformed file: shown as written
        shown = " ".join(str(part) for part in (requirement.get("operator"), *values))
        message = f"requirement {MATCH_NONE_KEY} {shown} dropped: it only carried the v1beta1 meaning"
        ctx.note(("spec", "selector", "matchExpressions"), message)
    if not expressions:
        pop(selector, "matchExpressions")


step("policy/v1beta1", "PodDisruptionBudget", "policy/v1", Custom(_pdb, _pdb_reviews))

PRESERVE_ZERO = "flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares"


def _assured_to_nominal(doc: dict, ctx: Context) -> None:
    limited = get(doc, "spec", "limited")
    if isinstance(limited, dict) and "assuredConcurrencyShares" in limited and "nominalConcurrencyShares" not in limited:
        from ..ops import rename

        rename(limited, "assuredConcurrencyShares", "nominalConcurrencyShares", ctx)


def _explicit_zero(doc: dict, ctx: Context) -> None:
    limited = get(doc, "spec", "limited")
    annotations = get(doc, "metadata", "annotations")
    preserved = isinstance(annotations, dict) and PRESERVE_ZERO in annotations
    if preserved:
        pop(annotations, PRESERVE_ZERO)
        if not annotations:
            pop(doc["metadata"], "annotations")
        ctx.note(("metadata", "annotations", PRESERVE_ZERO), "annotation dropped: v1 forbids it and keeps an explicit 0 by itself")
    if isinstance(limited, dict) and limited.get("nominalConcurrencyShares") == 0 and not preserved:
        replace_value(limited, "nominalConcurrencyShares", 30, ctx)
        ctx.note(
            ("spec", "limited", "nominalConcurrencyShares"),
            "nominalConcurrencyShares 0 written as 30: v1beta3 used 30 for 0 (v1 keeps 0)",
            warn=True,
        )


FLOW = "flowcontrol.apiserver.k8s.io"
step(f"{FLOW}/v1alpha1", "FlowSchema", f"{FLOW}/v1beta1")
step(f"{FLOW}/v1alpha1", "PriorityLevelConfiguration", f"{FLOW}/v1beta1")
step(f"{FLOW}/v1beta1", "PriorityLevelConfiguration", f"{FLOW}/v1beta2")
step(f"{FLOW}/v1beta2", "PriorityLevelConfiguration", f"{FLOW}/v1beta3", Custom(_assured_to_nominal))
step(f"{FLOW}/v1beta3", "PriorityLevelConfiguration", f"{FLOW}/v1", Custom(_explicit_zero))
