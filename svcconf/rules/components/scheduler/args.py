"""Scheduler plugin args rules (validation_pluginargs.go), on the args after the scheduler's defaulting.

Each kind is checked as its own unit: inside `profiles[i].pluginConfig[j].args` through
`ctx.embedded`, or as a document of its own. NodeResourcesFit args are checked here too, with
config-time paths, although upstream checks them only when the plugin starts.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from svcconf.go.durations import SECOND, format_duration, parse_duration
from svcconf.go.names import label_value, qualified_name
from svcconf.go.numbers import parse_int
from svcconf.known.naming import Naming
from svcconf.model import Finding, Path, render_value
from svcconf.rules import Context, duplicate, forbidden, integer, invalid, items, mapping, not_supported, required, rule, text

GROUP = "kubescheduler.config.k8s.io"
STRATEGIES = ("LeastAllocated", "MostAllocated", "RequestedToCapacityRatio")
RANGE = "plugin-args-out-of-range"
DEFAULT_RESOURCES = [{"name": "cpu", "weight": 1}, {"name": "memory", "weight": 1}]
SELECTOR_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt")


def _defaulted(value: Any, default: int) -> int | None:
    """An integer field as the component sees it after defaulting (None: a wrong type)."""
    return default if value is None else integer(value)


def check_args_kind(path: Path, plugin: str, args: dict, ctx: Context) -> Iterator[Finding]:
    """Decoding: args that name an apiVersion or kind must be the plugin's own args kind."""
    naming = Naming(ctx.api_domain)
    written_version, written_kind = args.get("apiVersion"), args.get("kind")
    want = f"{plugin}Args"
    if isinstance(written_kind, str) and naming.kind(written_kind) != want:
        yield Finding(
            "plugin-args-kind-mismatch",
            path + ("kind",),
            f"args for plugin {plugin} were not of type {want}.{GROUP}, got {written_kind}.{GROUP}",
        )
        return
    if isinstance(written_version, str):
        gv = naming.api_version(written_version)
        if gv is None or gv.group != GROUP or gv.version != "v1":
            yield Finding(
                "plugin-args-kind-mismatch",
                path + ("apiVersion",),
                f'args for plugin {plugin} were not of type {want}.{GROUP}: apiVersion "{written_version}" is not {GROUP}/v1',
            )


# --------------------------------------------------------------------------- simple kinds


@rule("DefaultPreemptionArgs")
def check_default_preemption(args: dict, ctx: Context) -> Iterator[Finding]:
    percentage = _defaulted(args.get("minCandidateNodesPercentage"), 10)
    absolute = _defaulted(args.get("minCandidateNodesAbsolute"), 100)
    if percentage is not None and not 0 <= percentage <= 100:
        yield invalid(("minCandidateNodesPercentage",), percentage, "not in valid range [0, 100]", RANGE)
    if absolute is not None and absolute < 0:
        yield invalid(("minCandidateNodesAbsolute",), absolute, "not in valid range [0, inf)", RANGE)
    if percentage == 0 and absolute == 0:
        yield invalid(
            ("minCandidateNodesPercentage",),
            0,
            "cannot be zero at the same time as minCandidateNodesAbsolute",
            "preemption-candidates-zero",
        )
        yield invalid(
            ("minCandidateNodesAbsolute",),
            0,
            "cannot be zero at the same time as minCandidateNodesPercentage",
            "preemption-candidates-zero",
        )


@rule("InterPodAffinityArgs")
def check_inter_pod_affinity(args: dict, ctx: Context) -> Iterator[Finding]:
    weight = _defaulted(args.get("hardPodAffinityWeight"), 1)
    if weight is not None and not 0 <= weight <= 100:
        yield invalid(("hardPodAffinityWeight",), weight, "not in valid range [0, 100]", RANGE)


@rule("VolumeBindingArgs")
def check_volume_binding(args: dict, ctx: Context) -> Iterator[Finding]:
    timeout = _defaulted(args.get("bindTimeoutSeconds"), 600)
    if timeout is not None and timeout < 0:
        yield invalid(("bindTimeoutSeconds",), timeout, "invalid BindTimeoutSeconds, should not be a negative value", RANGE)
    if not isinstance(args.get("shape"), list):
        return
    if not ctx.at_least(1, 37):  # StorageCapacityScoring: alpha and off until 1.36
        gate = "StorageCapacityScoring" if ctx.at_least(1, 33) else "VolumeCapacityPriority"
        yield invalid(
            ("shape",),
            _shape_json(args.get("shape")),
            f"unexpected field `shape`, remove it or turn on the feature gate {gate}",
            "feature-gated-plugin-args",
        )
        return
    yield from check_shape(("shape",), args.get("shape"))


def _shape_json(shape: Any) -> Any:
    if not isinstance(shape, list):
        return shape
    return [{"Utilization": mapping(p).get("utilization", 0), "Score": mapping(p).get("score", 0)} for p in shape]


def check_shape(path: Path, shape: Any) -> Iterator[Finding]:
    """validateFunctionShape: at least one point, utilization strictly increasing in 0..100, score 0..10."""
    if not isinstance(shape, list):
        return
    if not shape:
        yield required(path, "at least one point must be specified", "invalid-scoring-shape")
        return
    points = [(_defaulted(mapping(p).get("utilization"), 0), _defaulted(mapping(p).get("score"), 0)) for p in shape]
    for k in range(1, len(points)):
        before, current = points[k - 1][0], points[k][0]
        if before is not None and current is not None and before >= current:
            yield invalid(path + (k, "utilization"), current, "values must be sorted in increasing order", "invalid-scoring-shape")
            break
    for k, (utilization, score) in enumerate(points):
        if utilization is not None and not 0 <= utilization <= 100:
            yield invalid(path + (k, "utilization"), utilization, "not in valid range [0, 100]", "invalid-scoring-shape")
        if score is not None and not 0 <= score <= 10:
            yield invalid(path + (k, "score"), score, "not in valid range [0, 10]", "invalid-scoring-shape")


@rule("DynamicResourcesArgs")
def check_dynamic_resources(args: dict, ctx: Context) -> Iterator[Finding]:
    # DRASchedulerFilterTimeout is on by default since 1.34; DRADeviceBindingConditions from 1.36.
    timeout = parse_duration(args.get("filterTimeout"))
    if timeout is not None and timeout < 0:
        yield invalid(("filterTimeout",), format_duration(timeout), "must be zero or positive", RANGE)
    if args.get("bindingTimeout") is None:
        return
    binding = parse_duration(args.get("bindingTimeout"))
    if not ctx.at_least(1, 35):
        return  # unknown before 1.35: the schema check reports it
    if not ctx.at_least(1, 36):
        yield forbidden(
            ("bindingTimeout",),
            "DRADeviceBindingConditions or DRAResourceClaimDeviceStatus feature gate is disabled",
            "feature-gated-plugin-args",
        )
    elif binding is not None and binding < SECOND:
        yield invalid(("bindingTimeout",), format_duration(binding), "must be at least 1 second", RANGE)


# --------------------------------------------------------------------------- resources


def _resources(value: Any) -> list[tuple[int, str, int | None]]:
    """Resource specs after defaulting: cpu and memory when empty, weight 0 as 1."""
    specs = value if isinstance(value, list) and value else DEFAULT_RESOURCES
    out = []
    for k, spec in enumerate(specs):
        if not isinstance(spec, dict) or not isinstance(spec.get("name", ""), str):
            continue
        weight = _defaulted(spec.get("weight"), 0)
        out.append((k, text(spec.get("name")), 1 if weight == 0 else weight))
    return out


@rule("NodeResourcesBalancedAllocationArgs")
def check_balanced_allocation(args: dict, ctx: Context) -> Iterator[Finding]:
    seen: set[str] = set()
    for k, name, weight in _resources(args.get("resources")):
        if name in seen:
            yield duplicate(("resources", k, "name"), name, "duplicate-resource-name")
        seen.add(name)
        if weight is not None and weight != 1:
            yield invalid(("resources", k, "weight"), weight, "must be 1", "invalid-resource-weight")


@rule("NodeResourcesFitArgs")
def check_fit(args: dict, ctx: Context) -> Iterator[Finding]:
    for k, name in items(args.get("ignoredResources")):
        if isinstance(name, str):
            for message in qualified_name(name):
                yield invalid(("ignoredResources", k), name, message, "invalid-ignored-resource")
    for k, group in items(args.get("ignoredResourceGroups")):
        if isinstance(group, str):
            if "/" in group:
                yield invalid(("ignoredResourceGroups", k), group, "resource group name can't contain '/'", "invalid-ignored-resource")
            for message in qualified_name(group):
                yield invalid(("ignoredResourceGroups", k), group, message, "invalid-ignored-resource")
    strategy = args.get("scoringStrategy")
    if isinstance(strategy, dict):
        yield from _strategy(("scoringStrategy",), strategy, ctx)


def _strategy(path: Path, strategy: dict, ctx: Context) -> Iterator[Finding]:
    kind = strategy.get("type") if isinstance(strategy.get("type"), str) else ""
    if kind not in STRATEGIES:
        yield not_supported(path + ("type",), kind, STRATEGIES, "invalid-scoring-strategy")
    for k, name, weight in _resources(strategy.get("resources")):
        if weight is not None and not 0 < weight <= 100:
            yield invalid(
                path + ("resources", k, "weight"),
                weight,
                f"resource weight of {name} not in valid range (0, 100]",
                "invalid-resource-weight",
            )
    yield from _scoring_resource_names(path + ("resources",), strategy.get("resources"))
    ratio = strategy.get("requestedToCapacityRatio")
    if kind == "RequestedToCapacityRatio":
        if ratio is None and ctx.at_least(1, 34):
            yield required(
                path + ("requestedToCapacityRatio",), "must be specified when type is RequestedToCapacityRatio", "invalid-scoring-strategy"
            )
        elif isinstance(ratio, dict):
            yield from check_shape(path + ("requestedToCapacityRatio", "shape"), ratio.get("shape", []))
    elif ratio is not None and ctx.at_least(1, 34):
        yield forbidden(
            path + ("requestedToCapacityRatio",), "must be nil when type is not RequestedToCapacityRatio", "invalid-scoring-strategy"
        )


def _scoring_resource_names(path: Path, resources: Any) -> Iterator[Finding]:
    """NodeResourcesFit never checks these names (unlike BalancedAllocation): a typo scores nothing, a repeat counts twice."""
    from svcconf.rules import advice

    seen: set[str] = set()
    for k, spec in items(resources):
        name = mapping(spec).get("name")
        if not isinstance(name, str):
            continue
        if name in seen:
            yield advice(
                "scoring-resource-name",
                path + (k, "name"),
                f"Duplicate value: {render_value(name)}: NodeResourcesFit accepts it and counts the resource twice in the score",
            )
        elif not name or qualified_name(name):
            yield advice(
                "scoring-resource-name",
                path + (k, "name"),
                f"Invalid value: {render_value(name)}: not a resource name; NodeResourcesFit accepts it, and no node has it",
            )
        seen.add(name)


# --------------------------------------------------------------------------- topology spread


@rule("PodTopologySpreadArgs")
def check_topology_spread(args: dict, ctx: Context) -> Iterator[Finding]:
    kind = args.get("defaultingType") or "System"
    if not isinstance(kind, str):
        return
    constraints = args.get("defaultConstraints")
    if kind not in ("System", "List"):
        yield not_supported(("defaultingType",), kind, ("System", "List"), "invalid-defaulting-type")
    elif kind == "System" and isinstance(constraints, list) and constraints:
        yield invalid(("defaultingType",), kind, "when .defaultConstraints are not empty", "invalid-defaulting-type")
    seen: set[tuple[str, str]] = set()
    for k, constraint in items(constraints):
        if not isinstance(constraint, dict):
            continue
        yield from _constraint(("defaultConstraints", k), constraint)
        pair = (text(constraint.get("topologyKey")), text(constraint.get("whenUnsatisfiable")))
        if pair in seen:
            yield duplicate(("defaultConstraints", k), f"{{{pair[0]}, {pair[1]}}}", "invalid-spread-constraint")
        seen.add(pair)


def _constraint(path: Path, constraint: dict) -> Iterator[Finding]:
    skew = _defaulted(constraint.get("maxSkew"), 0)
    if skew is not None and skew <= 0:
        yield invalid(path + ("maxSkew",), skew, "not in valid range (0, inf)", "invalid-spread-constraint")
    key = text(constraint.get("topologyKey"))
    if not key:
        yield required(path + ("topologyKey",), "can not be empty", "invalid-spread-constraint")
    for message in qualified_name(key) if key else ():
        yield invalid(path + ("topologyKey",), key, message, "invalid-spread-constraint")
    action = text(constraint.get("whenUnsatisfiable"))
    if not action:
        yield required(path + ("whenUnsatisfiable",), "can not be empty", "invalid-spread-constraint")
    elif action not in ("DoNotSchedule", "ScheduleAnyway"):
        yield not_supported(path + ("whenUnsatisfiable",), action, ("DoNotSchedule", "ScheduleAnyway"), "invalid-spread-constraint")
    if constraint.get("labelSelector") is not None:
        yield forbidden(
            path + ("labelSelector",), "constraint must not define a selector, as they deduced for each pod", "invalid-spread-constraint"
        )
    yield from _constraint_advice(path, constraint, action)


def _constraint_advice(path: Path, constraint: dict, action: str) -> Iterator[Finding]:
    from svcconf.rules import advice

    if constraint.get("matchLabelKeys"):
        yield advice(
            "spread-constraint-setting-ignored",
            path + ("matchLabelKeys",),
            "matchLabelKeys has no effect in a default constraint: the selector is deduced for each pod",
        )
    if constraint.get("minDomains") is not None and action == "ScheduleAnyway":
        yield advice(
            "spread-constraint-setting-ignored", path + ("minDomains",), "minDomains applies only with whenUnsatisfiable DoNotSchedule"
        )
    for key in ("nodeAffinityPolicy", "nodeTaintsPolicy"):
        value = constraint.get(key)
        if isinstance(value, str) and value not in ("Honor", "Ignore"):
            yield advice("spread-constraint-setting-ignored", path + (key,), f'{key} "{value}" is neither Honor nor Ignore')


# --------------------------------------------------------------------------- node affinity


@rule("NodeAffinityArgs")
def check_node_affinity(args: dict, ctx: Context) -> Iterator[Finding]:
    affinity = mapping(args.get("addedAffinity"))
    base = ("addedAffinity",)
    required_terms = mapping(affinity.get("requiredDuringSchedulingIgnoredDuringExecution"))
    for t, term in items(required_terms.get("nodeSelectorTerms")):
        yield from _term(base + ("requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms", t), mapping(term))
    for t, preferred in items(affinity.get("preferredDuringSchedulingIgnoredDuringExecution")):
        # Upstream paths omit `.preference`; the real path keeps positions exact.
        yield from _term(
            base + ("preferredDuringSchedulingIgnoredDuringExecution", t, "preference"), mapping(mapping(preferred).get("preference"))
        )


def _term(path: Path, term: dict) -> Iterator[Finding]:
    for e, expression in items(term.get("matchExpressions")):
        if isinstance(expression, dict):
            yield from _expression(path + ("matchExpressions", e), expression)
    for f, requirement in items(term.get("matchFields")):
        if isinstance(requirement, dict):
            yield from _field(path + ("matchFields", f), requirement)


def _expression(path: Path, expression: dict) -> Iterator[Finding]:
    operator = text(expression.get("operator"))
    if operator not in SELECTOR_OPERATORS:
        yield not_supported(path + ("operator",), operator, SELECTOR_OPERATORS, "invalid-node-selector")
        return
    key = expression.get("key")
    problems = qualified_name(key) if isinstance(key, str) else []
    if problems:
        yield invalid(path + ("key",), key, "; ".join(problems), "invalid-node-selector")
    values = [v for v in expression.get("values") or [] if isinstance(v, str)] if isinstance(expression.get("values"), list) else []
    shown = expression.get("values") or []
    if operator in ("In", "NotIn") and not values:
        yield invalid(path + ("values",), shown, "for 'in', 'notin' operators, values set can't be empty", "invalid-node-selector")
    if operator in ("Exists", "DoesNotExist") and values:
        yield invalid(path + ("values",), shown, "values set must be empty for exists and does not exist", "invalid-node-selector")
    if operator in ("Gt", "Lt"):
        if len(values) != 1:
            yield invalid(path + ("values",), shown, "for 'Gt', 'Lt' operators, exactly one value is required", "invalid-node-selector")
        for i, value in enumerate(values):
            if parse_int(value) is None:  # strconv.ParseInt(value, 10, 64)
                yield invalid(
                    path + ("values", i), value, "for 'Gt', 'Lt' operators, the value must be an integer", "invalid-node-selector"
                )
    for i, value in enumerate(values):
        problems = label_value(value)
        if problems:
            yield invalid(path + ("values", i), value, "; ".join(problems), "invalid-node-selector")


def _field(path: Path, requirement: dict) -> Iterator[Finding]:
    key = text(requirement.get("key"))
    if key != "metadata.name":
        yield invalid(path + ("key",), key, "field label not supported", "invalid-node-selector")
    operator = text(requirement.get("operator"))
    values = requirement.get("values") if isinstance(requirement.get("values"), list) else []
    if operator in ("In", "NotIn"):
        if len(values) != 1:
            yield invalid(path + ("values",), values, "must have one element", "invalid-node-selector")
    else:
        yield not_supported(path + ("operator",), operator, ("In", "NotIn"), "invalid-node-selector")
