"""Generator of KubeSchedulerConfiguration documents: several profiles, plugin sets, pluginConfig args of every args kind."""

from __future__ import annotations

import random

from .writer import Comment, header, pick, rename

API_VERSION = "kubescheduler.config.k8s.io/v1"
ZONE, HOST, REGION = "topology.kubernetes.io/zone", "kubernetes.io/hostname", "topology.kubernetes.io/region"
SCHEDULER_NAMES = ("default-scheduler", "bin-packing-scheduler", "gpu-scheduler", "batch-scheduler", "spread-scheduler", "low-latency")
# Score plugins of the default set with their default weights: a profile may disable them or reweigh them.
SCORE_PLUGINS = ("TaintToleration", "NodeAffinity", "NodeResourcesFit", "PodTopologySpread", "InterPodAffinity", "ImageLocality")


def _args(rng: random.Random, plugin: str, body: dict) -> dict:
    """Plugin args, sometimes with their own apiVersion and kind as upstream's examples write them."""
    if rng.random() < 0.3:
        return {"apiVersion": API_VERSION, "kind": f"{plugin}Args", **body}
    return body


def _resources(rng: random.Random, weights: tuple[int, ...]) -> list[dict]:
    names = ["cpu", "memory"] + (["nvidia.com/gpu"] if rng.random() < 0.3 else []) + (["ephemeral-storage"] if rng.random() < 0.2 else [])
    return [{"name": name, "weight": rng.choice(weights)} for name in names]


def _fit(rng: random.Random) -> dict:
    strategy_type = rng.choice(("LeastAllocated", "MostAllocated", "MostAllocated", "RequestedToCapacityRatio"))
    strategy: dict = {"type": strategy_type, "resources": _resources(rng, (1, 1, 2, 3, 5))}
    if strategy_type == "RequestedToCapacityRatio":
        # Ascending utilizations, scores 0-10: the bin-packing shape of upstream's docs, or its mirror.
        points = sorted(rng.sample(range(0, 101, 10), rng.randint(2, 4)))
        rising = rng.random() < 0.7
        strategy["requestedToCapacityRatio"] = {
            "shape": [{"utilization": u, "score": (u // 10 if rising else 10 - u // 10)} for u in points]
        }
    body: dict = {"scoringStrategy": strategy}
    if rng.random() < 0.3:
        body["ignoredResources"] = pick(rng, ("example.com/fpga", "example.com/license", "vendor.io/dongle"), 1, 2)
    if rng.random() < 0.2:
        body["ignoredResourceGroups"] = ["example.com"]
    return body


def _spread(rng: random.Random) -> dict:
    if rng.random() < 0.25:
        return {"defaultingType": "System"}
    constraints = [{"maxSkew": rng.choice((1, 1, 2, 3)), "topologyKey": ZONE, "whenUnsatisfiable": "ScheduleAnyway"}]
    if rng.random() < 0.6:
        constraints.append(
            {"maxSkew": rng.choice((1, 2, 5)), "topologyKey": HOST, "whenUnsatisfiable": rng.choice(("ScheduleAnyway", "DoNotSchedule"))}
        )
    return {"defaultingType": "List", "defaultConstraints": constraints}


def _node_affinity(rng: random.Random) -> dict:
    required = {
        "nodeSelectorTerms": [
            {
                "matchExpressions": [
                    {"key": "node-role.kubernetes.io/worker", "operator": "Exists"},
                    {"key": ZONE, "operator": "In", "values": pick(rng, ("eu-west-1a", "eu-west-1b", "eu-west-1c"), 1, 3)},
                ]
            }
        ]
    }
    affinity: dict = {"requiredDuringSchedulingIgnoredDuringExecution": required}
    if rng.random() < 0.5:
        affinity["preferredDuringSchedulingIgnoredDuringExecution"] = [
            {
                "weight": rng.randint(1, 100),
                "preference": {"matchExpressions": [{"key": "node.example.com/pool", "operator": "In", "values": ["fast"]}]},
            }
        ]
    return {"addedAffinity": affinity}


# Plugin -> args body maker: one entry per args kind the scheduler registers.
ARGS = {
    "NodeResourcesFit": _fit,
    "PodTopologySpread": _spread,
    "NodeAffinity": _node_affinity,
    "InterPodAffinity": lambda rng: {
        "hardPodAffinityWeight": rng.randint(0, 100),
        "ignorePreferredTermsOfExistingPods": rng.random() < 0.3,
    },
    "DefaultPreemption": lambda rng: {
        "minCandidateNodesPercentage": rng.randint(1, 100),
        "minCandidateNodesAbsolute": rng.choice((10, 50, 100, 200)),
    },
    "VolumeBinding": lambda rng: {"bindTimeoutSeconds": rng.choice((60, 300, 600))},
    "NodeResourcesBalancedAllocation": lambda rng: {"resources": _resources(rng, (1,))},
    "DynamicResources": lambda rng: {"filterTimeout": rng.choice(("10s", "5s", "30s", "0s"))},
}


def _plugins(rng: random.Random, config: list[dict]) -> dict | None:
    """Extension point changes: disable score plugins the profile does not configure, reweigh others."""
    if rng.random() < 0.35:
        return None
    configured = {entry["name"] for entry in config}
    disabled = pick(rng, [p for p in SCORE_PLUGINS if p not in configured], 0, 2)
    reweighed = [p for p in SCORE_PLUGINS if p not in disabled and rng.random() < 0.25]
    plugins: dict = {}
    if disabled:
        plugins["score"] = {"disabled": [{"name": name} for name in disabled]}
    if reweighed:
        plugins["multiPoint"] = {"enabled": [{"name": name, "weight": rng.randint(1, 10)} for name in reweighed]}
    return plugins or None


def _profile(rng: random.Random, name: str) -> dict:
    profile: dict = {"schedulerName": name}
    config = [{"name": plugin, "args": _args(rng, plugin, ARGS[plugin](rng))} for plugin in pick(rng, sorted(ARGS), 1, 5)]
    plugins = _plugins(rng, config)
    if plugins:
        profile["plugins"] = plugins
    if rng.random() < 0.85:
        profile["pluginConfig"] = config
    if rng.random() < 0.15:
        profile["percentageOfNodesToScore"] = rng.choice((10, 30, 50, 100))
    return profile


def _leader_election(rng: random.Random) -> dict:
    if rng.random() < 0.2:
        return {"leaderElect": False}
    lease = rng.choice((15, 30, 60))
    return {
        "leaderElect": True,
        "leaseDuration": f"{lease}s",
        "renewDeadline": f"{lease * 2 // 3}s",
        "retryPeriod": rng.choice(("2s", "5s")),
        "resourceLock": "leases",
        "resourceName": "kube-scheduler",
        "resourceNamespace": "kube-system",
    }


def _extender(rng: random.Random, index: int) -> dict:
    extender: dict = {
        "urlPrefix": f"https://scheduler-extender-{index}.kube-system.svc:8443/scheduler",
        "filterVerb": "filter",
        "prioritizeVerb": "prioritize",
        "weight": rng.randint(1, 5),
        "enableHTTPS": True,
        "httpTimeout": rng.choice(("5s", "30s")),
        "nodeCacheCapable": rng.random() < 0.5,
        "ignorable": True,
    }
    if rng.random() < 0.5:
        extender["managedResources"] = [{"name": f"example.com/fpga-{index}", "ignoredByScheduler": True}]
    extender["tlsConfig"] = {"caFile": "/etc/kubernetes/pki/extender-ca.crt"}
    return extender


def scheduler_configuration(rng: random.Random, index: int) -> dict:
    doc = header(
        rng, ("kube-scheduler configuration (--config)", f"scheduler {index}"), API_VERSION, "KubeSchedulerConfiguration", kind_first=0.2
    )
    doc["clientConnection"] = {"kubeconfig": rng.choice(("/etc/kubernetes/scheduler.conf", "/var/lib/kube-scheduler/kubeconfig"))}
    if rng.random() < 0.5:
        doc["clientConnection"].update(qps=rng.choice((50, 100)), burst=rng.choice((100, 200)))
    doc["leaderElection"] = _leader_election(rng)
    if rng.random() < 0.4:
        doc["parallelism"] = rng.choice((8, 16, 32))
    if rng.random() < 0.3:
        initial = rng.choice((1, 2))
        doc["podInitialBackoffSeconds"] = initial
        doc["podMaxBackoffSeconds"] = initial * rng.choice((5, 10))
    names = ["default-scheduler"] + pick(rng, SCHEDULER_NAMES[1:], 0, 3)
    profiles = [_profile(rng, name) for name in names]
    if not any("percentageOfNodesToScore" in p for p in profiles) and rng.random() < 0.3:
        doc["percentageOfNodesToScore"] = rng.choice((0, 20, 50))
    doc[Comment("One profile per schedulerName a Pod can ask for.", blank=True)] = None
    doc["profiles"] = profiles
    if rng.random() < 0.15:
        doc["extenders"] = [_extender(rng, i) for i in range(rng.randint(1, 2))]
    return doc


def break_scheduler(rng: random.Random, doc: dict) -> tuple[str, list[str]] | None:
    profiles = doc["profiles"]
    configured = [(p, c) for p in profiles for c in p.get("pluginConfig", ())]
    choice = rng.choice(("typo", "weight", "duplicate", "skew"))
    if choice == "weight":
        with_ipa = [c for _p, c in configured if c["name"] == "InterPodAffinity"]
        if with_ipa:
            rng.choice(with_ipa)["args"]["hardPodAffinityWeight"] = rng.choice((101, 150, -1))
            return "hardPodAffinityWeight out of 0-100", ["plugin-args-out-of-range"]
    if choice == "duplicate" and len(profiles) > 1:
        profiles[-1]["schedulerName"] = profiles[0]["schedulerName"]
        return "two profiles named default-scheduler", ["duplicate-scheduler-name"]
    if choice == "skew":
        with_list = [c for _p, c in configured if c["name"] == "PodTopologySpread" and c["args"].get("defaultConstraints")]
        if with_list:
            rng.choice(with_list)["args"]["defaultConstraints"][0]["maxSkew"] = 0
            return "spread constraint maxSkew 0", ["invalid-spread-constraint"]
    key, typo = rng.choice((("leaderElection", "leaderElect1on"), ("clientConnection", "clientconnection"), ("profiles", "profile")))
    if key == "profiles":
        profile = rng.choice(profiles)
        if "pluginConfig" in profile:
            rename(profile, "pluginConfig", "pluginConfigs")
            return "unknown field pluginConfigs (for pluginConfig)", ["unknown-field"]
        key, typo = "clientConnection", "clientconnection"
    rename(doc, key, typo)
    return f"unknown field {typo} (for {key})", ["unknown-field"]
