"""The in-tree kube-scheduler plugin registry per release: extension points, default set, removed and args kinds."""

from __future__ import annotations

from ..model import at_least

# Extension points in the order the Plugins type declares them (config validation reports in this order).
POINTS = (
    "preEnqueue",
    "queueSort",
    "preFilter",
    "filter",
    "postFilter",
    "preScore",
    "score",
    "reserve",
    "permit",
    "preBind",
    "bind",
    "postBind",
    "placementGenerate",
    "placementScore",
    "podGroupPostFilter",
)
# The framework expands multiPoint plugins in this order (getExtensionPoints); it names the
# interface in start-up errors.
EXPANSION_ORDER = (
    "preFilter",
    "filter",
    "postFilter",
    "reserve",
    "preScore",
    "score",
    "preBind",
    "bind",
    "postBind",
    "permit",
    "preEnqueue",
    "queueSort",
)


def interface(point: str) -> str:
    return point[0].upper() + point[1:] + "Plugin"


_FILTERING = ("preFilter", "filter")
_SCORING = ("preFilter", "filter", "preScore", "score")
# Plugin -> extension points it implements (the interfaces of each plugin under pkg/scheduler/framework/plugins/).
IN_TREE: dict[str, tuple[str, ...]] = {
    "SchedulingGates": ("preEnqueue",),
    "PrioritySort": ("queueSort",),
    "NodeUnschedulable": ("filter",),
    "NodeName": ("filter",),
    "TaintToleration": ("filter", "preScore", "score"),
    "NodeAffinity": _SCORING,
    "NodePorts": _FILTERING,
    "NodeResourcesFit": _SCORING,
    "VolumeRestrictions": _FILTERING,
    "NodeVolumeLimits": _FILTERING,
    "VolumeBinding": ("preFilter", "filter", "reserve", "preBind", "preScore", "score"),
    "VolumeZone": _FILTERING,
    "PodTopologySpread": _SCORING,
    "InterPodAffinity": _SCORING,
    "DynamicResources": ("preEnqueue", "preFilter", "filter", "postFilter", "reserve", "preBind", "preScore", "score"),
    "DefaultPreemption": ("postFilter", "preEnqueue"),
    "NodeResourcesBalancedAllocation": ("preScore", "score"),
    "ImageLocality": ("score",),
    "DefaultBinder": ("bind",),
    "NodeDeclaredFeatures": _FILTERING,
}
# Points not confirmed for these plugins: never claim they do not extend a point.
UNCERTAIN_POINTS = frozenset({"DynamicResources", "DefaultPreemption", "NodeDeclaredFeatures"})
# Alpha workload plugins whose points are not pinned down: known names, nothing more.
KNOWN_NAMES = frozenset({"GangScheduling", "TopologyPlacementGenerator", "PodGroupPodsCount", "DeferredPodScheduling"})
PLUGIN_SINCE = {"NodeDeclaredFeatures": (1, 35), "DynamicResources": (1, 26), "SchedulingGates": (1, 26)}

# Plugins whose args have a registered <Name>Args kind, and the release it appeared in.
ARGS_KINDS = {
    "DefaultPreemption": (1, 25),
    "InterPodAffinity": (1, 25),
    "NodeAffinity": (1, 25),
    "NodeResourcesBalancedAllocation": (1, 25),
    "NodeResourcesFit": (1, 25),
    "PodTopologySpread": (1, 25),
    "VolumeBinding": (1, 25),
    "DynamicResources": (1, 34),
}

# Config validation refuses these names in kubescheduler.config.k8s.io/v1 (invalidPluginsByVersion).
_VOLUME_LIMITS = ("AzureDiskLimits", "CinderLimits", "EBSLimits", "GCEPDLimits")
# Plugins that no longer exist, with the release they were dropped in.
GONE = {
    "SelectorSpread": (1, 29),
    "NodeLabel": (1, 25),
    "ServiceAffinity": (1, 25),
    "NodePreferAvoidPods": (1, 25),
    "NodeResourcesLeastAllocated": (1, 25),
    "NodeResourcesMostAllocated": (1, 25),
    "RequestedToCapacityRatio": (1, 25),
    **{name: (1, 32) for name in _VOLUME_LIMITS},
}
# Replacements named in messages.
REPLACEMENT = {
    "SelectorSpread": "PodTopologySpread",
    "NodeLabel": "NodeAffinity args addedAffinity",
    "ServiceAffinity": "InterPodAffinity or PodTopologySpread",
    "NodePreferAvoidPods": "taints and TaintToleration",
    "NodeResourcesLeastAllocated": "NodeResourcesFit with scoringStrategy.type LeastAllocated",
    "NodeResourcesMostAllocated": "NodeResourcesFit with scoringStrategy.type MostAllocated",
    "RequestedToCapacityRatio": "NodeResourcesFit with scoringStrategy.type RequestedToCapacityRatio",
    **{name: "NodeVolumeLimits (CSI migration)" for name in _VOLUME_LIMITS},
}


def invalid_in_v1(target: tuple) -> frozenset:
    """The v1 invalid-plugin list of a release (pkg/scheduler/apis/config/validation/validation.go: invalidPluginsByVersion)."""
    if at_least(target, 1, 32):
        return frozenset(_VOLUME_LIMITS)
    if at_least(target, 1, 25) and not at_least(target, 1, 29):
        return frozenset({"SelectorSpread"})
    return frozenset()


def deprecated(target: tuple) -> frozenset:
    """Plugins still accepted but deprecated and out of the defaults (1.31)."""
    if at_least(target, 1, 31) and not at_least(target, 1, 32):
        return frozenset({"AzureDiskLimits", "EBSLimits", "GCEPDLimits"})
    return frozenset()


def gone(name: str, target: tuple) -> bool:
    since = GONE.get(name)
    return since is not None and target >= since


def known(name: str, target: tuple) -> bool:
    if name in KNOWN_NAMES:
        return True
    if name in IN_TREE:
        return target >= PLUGIN_SINCE.get(name, (1, 0))
    return name in GONE and not gone(name, target)


def points_of(name: str) -> tuple[str, ...] | None:
    """Extension points of an in-tree plugin; None when unknown or unconfirmed."""
    if name in UNCERTAIN_POINTS or name not in IN_TREE:
        return None
    return IN_TREE[name]


def implements(name: str, point: str) -> bool | None:
    """Whether a plugin implements a point: True, False, or None when svcconf cannot tell."""
    if name in IN_TREE:
        return point in IN_TREE[name]
    if name in _VOLUME_LIMITS:
        return point in _FILTERING
    return None


def default_multipoint(target: tuple) -> list[tuple[str, int | None]]:
    """The default multiPoint plugins (name, weight) of a release with default feature gates."""
    plugins: list[tuple[str, int | None]] = []
    if at_least(target, 1, 27):
        plugins.append(("SchedulingGates", None))
    plugins += [
        ("PrioritySort", None),
        ("NodeUnschedulable", None),
        ("NodeName", None),
        ("TaintToleration", 3),
        ("NodeAffinity", 2),
        ("NodePorts", None),
        ("NodeResourcesFit", 1),
        ("VolumeRestrictions", None),
        ("NodeVolumeLimits", None),
    ]
    if not at_least(target, 1, 31):
        plugins += [("EBSLimits", None), ("GCEPDLimits", None), ("AzureDiskLimits", None)]
    plugins += [("VolumeBinding", None), ("VolumeZone", None), ("PodTopologySpread", 2), ("InterPodAffinity", 2)]
    if at_least(target, 1, 34):
        plugins.append(("DynamicResources", None))
    plugins += [("DefaultPreemption", None), ("NodeResourcesBalancedAllocation", 1), ("ImageLocality", 1), ("DefaultBinder", None)]
    if at_least(target, 1, 36):
        plugins.append(("NodeDeclaredFeatures", None))
    return plugins
