"""KubeSchedulerConfiguration v1beta1 -> v1beta2 -> v1beta3 -> v1 (https://kubernetes.io/docs/reference/scheduling/config/#scheduler-configuration-migrations)."""

from __future__ import annotations

from svcconf.known import scheduler_plugins as plugins

from ..ops import Context, Review, get, insert, new_map, new_seq, pop, replace_value, walk
from ..steps import Custom, step

GROUP = "kubescheduler.config.k8s.io"
# Every extension point a profile may list (v1beta1 documents hold only the older ones).
POINTS = ("multiPoint", *plugins.POINTS)


def _args_version(version: str):
    """pluginConfig args name the config version too; a leftover old one fails to decode."""

    def apply(doc: dict, ctx: Context) -> None:
        for _path, args in walk(doc, ("profiles", "*", "pluginConfig", "*", "args")):
            written = args.get("apiVersion") if isinstance(args, dict) else None
            if isinstance(written, str) and "scheduler.config." in written and not written.endswith("/" + version):
                args["apiVersion"] = written.rpartition("/")[0] + "/" + version

    return Custom(apply)


def _uses(doc: dict, names: dict) -> list[tuple[tuple, str]]:
    """(path, name) of every plugin entry or pluginConfig entry naming one of `names`."""
    found = []
    for point in POINTS:
        for which in ("enabled", "disabled"):
            for path, plugin in walk(doc, ("profiles", "*", "plugins", point, which, "*")):
                if isinstance(plugin, dict) and isinstance(plugin.get("name"), str) and plugin["name"] in names:
                    found.append((path, plugin["name"]))
    for path, entry in walk(doc, ("profiles", "*", "pluginConfig", "*")):
        if isinstance(entry, dict) and isinstance(entry.get("name"), str) and entry["name"] in names:
            found.append((path, entry["name"]))
    return found


def _removed_plugins(names: dict, version: str):
    """Plugins the next version no longer has: review; --unsafe removes them and their pluginConfig."""

    def review(doc: dict, ctx: Context) -> list[Review]:
        return [
            Review((*path, "name"), f"plugin {name} does not exist in {GROUP}/{version}", names[name], unsafe_fix=True)
            for path, name in _uses(doc, names)
        ]

    def apply(doc: dict, ctx: Context) -> None:
        for path, name in reversed(_uses(doc, names)):
            parent = get(doc, *path[:-1])
            removed = parent.pop(path[-1])
            ctx.note(path, f"plugin {name} removed: {names[name]}", tuple(_leaves(removed)))

    return Custom(apply, review)


def _leaves(node):
    from ..ops import leaves

    return leaves(node)


SCORING = {
    "NodeResourcesLeastAllocated": "LeastAllocated",
    "NodeResourcesMostAllocated": "MostAllocated",
    "RequestedToCapacityRatio": "RequestedToCapacityRatio",
}
V1BETA1_REMOVED = {name: f"use {plugins.REPLACEMENT[name]}" for name in SCORING}
V1BETA1_GONE = {name: f"use {plugins.REPLACEMENT[name]}" for name in ("NodeLabel", "ServiceAffinity", "NodePreferAvoidPods")}


def _scoring_used(profile) -> set:
    """The allocation score plugins a profile enables or configures (disabling one needs no strategy)."""
    if not isinstance(profile, dict):
        return set()
    return {name for path, name in _uses({"profiles": [profile]}, SCORING) if "disabled" not in path}


def _scoring_review(doc: dict, ctx: Context) -> list[Review]:
    out = []
    for index, profile in enumerate(doc.get("profiles") or []):
        used = sorted(_scoring_used(profile))
        if len(used) > 1:
            out.append(
                Review(
                    ("profiles", index, "plugins", "score"),
                    f"{' and '.join(used)} both score by allocation; NodeResourcesFit has one scoring strategy",
                    "keep one of them, then run migrate again",
                )
            )
    return out


def _scoring_strategy(doc: dict, ctx: Context) -> None:
    """The v1beta1 allocation score plugins become NodeResourcesFit with the matching scoringStrategy."""
    for index, profile in enumerate(doc.get("profiles") or []):
        for point in POINTS:
            disabled = get(profile, "plugins", point, "disabled")
            for entry in list(disabled) if isinstance(disabled, list) else []:
                if isinstance(entry, dict) and isinstance(entry.get("name"), str) and entry["name"] in SCORING:
                    disabled.remove(entry)
                    if not disabled:
                        pop(profile["plugins"][point], "disabled")
                    ctx.note(
                        ("profiles", index, "plugins", point, "disabled"), f"disabling {entry['name']} dropped: v1beta2 has no such plugin"
                    )
        used = _scoring_used(profile)
        if len(used) != 1:
            continue
        old = used.pop()
        strategy = new_map(profile, [("type", SCORING[old])])
        for point in POINTS:
            entries = get(profile, "plugins", point, "enabled")
            for entry in list(entries) if isinstance(entries, list) else []:
                if not (isinstance(entry, dict) and entry.get("name") == old):
                    continue
                if not any(isinstance(e, dict) and e.get("name") == "NodeResourcesFit" for e in entries):
                    replace_value(entry, "name", "NodeResourcesFit", ctx)
                else:
                    entries.remove(entry)
        configs = profile.get("pluginConfig")
        fit = next((c for c in configs or [] if isinstance(c, dict) and c.get("name") == "NodeResourcesFit"), None)
        for config in list(configs or []):
            if not (isinstance(config, dict) and config.get("name") == old):
                continue
            args = config.get("args") if isinstance(config.get("args"), dict) else {}
            if "resources" in args:
                strategy["resources"] = args["resources"]
            if "shape" in args:
                strategy["requestedToCapacityRatio"] = new_map(profile, [("shape", args["shape"])])
            if fit is None:  # the old entry becomes NodeResourcesFit's, in place
                replace_value(config, "name", "NodeResourcesFit", ctx)
                header = [(key, args[key]) for key in ("apiVersion",) if key in args]
                kind = [("kind", "NodeResourcesFitArgs")] if "kind" in args else []
                config["args"] = new_map(profile, [*header, *kind, ("scoringStrategy", strategy)])
                fit = config
            else:
                configs.remove(config)
        if fit is None:
            args = new_map(profile, [("scoringStrategy", strategy)])
            fit = new_map(profile, [("name", "NodeResourcesFit"), ("args", args)])
            if not isinstance(configs, list):
                insert(profile, len(profile), "pluginConfig", new_seq(profile))
                configs = profile["pluginConfig"]
            configs.append(fit)
        elif isinstance(fit.get("args"), dict) and "scoringStrategy" not in fit["args"]:
            insert(fit["args"], len(fit["args"]), "scoringStrategy", strategy)
        ctx.note(
            ("profiles", index, "pluginConfig"),
            f"{old} (args {old}Args) written as NodeResourcesFit with scoringStrategy.type {SCORING[old]}",
        )


SELECTOR_SPREAD = {"SelectorSpread": "rely on PodTopologySpread (defaultingType System spreads over zones and hosts)"}


def _spread_list(doc: dict, ctx: Context) -> None:
    """v1beta1 switched to List when defaultConstraints were given; v1beta2 defaults to System."""
    for path, args in walk(doc, ("profiles", "*", "pluginConfig", "*", "args")):
        if isinstance(args, dict) and args.get("defaultConstraints") and "defaultingType" not in args:
            insert(args, len(args), "defaultingType", "List")
            ctx.note((*path, "defaultingType"), "defaultingType List written: v1beta1 used the given defaultConstraints")


BIND_ADDRESSES = ("healthzBindAddress", "metricsBindAddress")


def _bind_review(doc: dict, ctx: Context) -> list[Review]:
    return [
        Review(
            (key,),
            f"{key} no longer exists in {GROUP}/v1beta3",
            "serve health and metrics with the --bind-address and --secure-port flags",
            True,
        )
        for key in BIND_ADDRESSES
        if key in doc
    ]


def _bind_remove(doc: dict, ctx: Context) -> None:
    for key in BIND_ADDRESSES:
        if key in doc:
            value, _comment = pop(doc, key)
            ctx.note((key,), f"{key} dropped: use the --bind-address and --secure-port flags", (value,))


OLD_WEIGHTS = ("InterPodAffinity", "NodeAffinity", "TaintToleration")


def _weights(doc: dict, ctx: Context) -> None:
    """v1beta3 raised the default weights of three score plugins; write the old weight 1."""
    profiles = doc.get("profiles")
    if profiles is None:
        profiles = new_seq(doc, [new_map(doc, [("schedulerName", "default-scheduler")])])
        insert(doc, len(doc), "profiles", profiles)
    for index, profile in enumerate(profiles if isinstance(profiles, list) else []):
        if not isinstance(profile, dict):
            continue
        score = get(profile, "plugins", "score")
        score = {} if score is None else score
        if not isinstance(score, dict):
            continue  # a wrong type: validate reports it, and there is nothing to add weights to
        # None (absent or written empty) is an empty list; anything else but a list (`enabled: off`) is left alone.
        lists = [score.get("enabled"), score.get("disabled"), get(profile, "plugins", "multiPoint", "enabled")]
        lists = [[] if entries is None else entries for entries in lists]
        if not all(isinstance(entries, list) for entries in lists):
            continue
        enabled, disabled_entries, multi_point = lists
        disabled = _names(disabled_entries)
        named = _names([*enabled, *multi_point])
        missing = [name for name in OLD_WEIGHTS if name not in named and name not in disabled and "*" not in disabled]
        if not missing:
            continue
        plugins = profile.get("plugins")
        if not isinstance(plugins, dict):
            plugins = new_map(profile)
            insert(profile, len(profile), "plugins", plugins)
        if plugins.get("score") is None:  # absent, or written empty
            plugins.pop("score", None)
            insert(plugins, len(plugins), "score", new_map(plugins))
        if plugins["score"].get("enabled") is None:
            plugins["score"].pop("enabled", None)
            insert(plugins["score"], len(plugins["score"]), "enabled", new_seq(plugins))
        for name in missing:
            plugins["score"]["enabled"].append(new_map(plugins, [("name", name), ("weight", 1)], flow=True))
        ctx.note(
            ("profiles", index, "plugins", "score"),
            "score weight 1 written for " + ", ".join(missing) + ": the v1beta2 defaults (v1beta3: 2, 2, 3)",
            warn=True,
        )


step(
    f"{GROUP}/v1beta1",
    "KubeSchedulerConfiguration",
    f"{GROUP}/v1beta2",
    Custom(_scoring_strategy, _scoring_review),
    _removed_plugins(V1BETA1_GONE, "v1beta2"),
    Custom(_spread_list),
    _args_version("v1beta2"),
)
step(
    f"{GROUP}/v1beta2",
    "KubeSchedulerConfiguration",
    f"{GROUP}/v1beta3",
    _removed_plugins({**V1BETA1_REMOVED, **V1BETA1_GONE}, "v1beta3"),
    Custom(_bind_remove, _bind_review),
    Custom(_weights),
    _args_version("v1beta3"),
)
step(f"{GROUP}/v1beta3", "KubeSchedulerConfiguration", f"{GROUP}/v1", _removed_plugins(SELECTOR_SPREAD, "v1"), _args_version("v1"))


def _names(entries: list) -> set[str]:
    """The plugin names of a list of entries; an entry or name of the wrong type (validate reports it) names none."""
    return {entry["name"] for entry in entries if isinstance(entry, dict) and isinstance(entry.get("name"), str)}
