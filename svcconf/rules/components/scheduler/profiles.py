"""KubeSchedulerConfiguration rules: ValidateKubeSchedulerConfiguration, the framework's start-up checks, and advice.

Upstream validates the defaulted object; the rules here apply the same defaults first (a missing
parallelism is 16, a single unnamed profile is default-scheduler, ...). Plugin args are checked
with their own kinds through `ctx.embedded` (rules in scheduler_args.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from svcconf.known import scheduler_plugins as plugins
from svcconf.known.catalog import format_release
from svcconf.model import Finding, Path, Severity, render_value
from svcconf.rules import Context, advice, duplicate, integer, invalid, items, mapping, required, rule, text

from ..base import check_client_connection, check_debugging, check_leader_election
from . import plugin_checks as checks
from .args import check_args_kind
from .extenders import check_extenders

GROUP = "kubescheduler.config.k8s.io"
LEADER_DEFAULTS = {"resourceLock": "leases", "resourceNamespace": "kube-system", "resourceName": "kube-scheduler"}
DEFAULT_SCHEDULER = "default-scheduler"
# The wording of the queueSort error changed in 1.32 (pkg/scheduler/apis/config/validation/validation.go: validateCommonQueueSort).
_SAME_SORT, _SAME_SORT_OLD = "must be the same for all profiles", "queueSort must be the same for all profiles"


def _written(doc: dict) -> tuple[str, str]:
    """apiVersion and kind as the document spells them, for messages that quote them."""
    version = doc.get("apiVersion") if isinstance(doc.get("apiVersion"), str) else f"{GROUP}/v1"
    kind = doc.get("kind") if isinstance(doc.get("kind"), str) else "KubeSchedulerConfiguration"
    return version, kind


@rule("KubeSchedulerConfiguration")
def check_top_level(doc: dict, ctx: Context) -> Iterator[Finding]:
    yield from check_client_connection(("clientConnection",), doc.get("clientConnection"), ctx)
    yield from check_leader_election(("leaderElection",), doc.get("leaderElection"), ctx, LEADER_DEFAULTS)
    yield from check_debugging((), doc, ctx)
    parallelism = integer(doc.get("parallelism"))
    if parallelism is not None and parallelism <= 0:
        yield invalid(("parallelism",), parallelism, "should be an integer value greater than zero", "parallelism-not-positive")
    yield from _percentage(("percentageOfNodesToScore",), doc.get("percentageOfNodesToScore"))
    yield from _backoff(doc)
    elect = mapping(doc.get("leaderElection")).get("leaderElect")
    if doc.get("delayCacheUntilActive") is True and elect is False:
        yield advice(
            "leader-election-setting-ignored",
            ("delayCacheUntilActive",),
            "delayCacheUntilActive has no effect while leaderElection.leaderElect is false",
            Severity.INFO,
        )


def _percentage(path: Path, value: Any) -> Iterator[Finding]:
    value = integer(value)
    if value is not None and not 0 <= value <= 100:
        yield invalid(path, value, "not in valid range [0-100]", "percentage-of-nodes-out-of-range")


def _backoff(doc: dict) -> Iterator[Finding]:
    initial, maximum = integer(doc.get("podInitialBackoffSeconds")), integer(doc.get("podMaxBackoffSeconds"))
    if initial is not None and initial <= 0:
        yield invalid(("podInitialBackoffSeconds",), initial, "must be greater than 0", "pod-backoff-not-positive")
    effective_initial = 1 if initial is None else initial
    effective_max = 10 if maximum is None else maximum
    if effective_max < effective_initial:
        yield invalid(
            ("podMaxBackoffSeconds",),
            effective_max,
            "must be greater than or equal to PodInitialBackoffSeconds",
            "pod-max-backoff-below-initial",
        )
    elif effective_max == effective_initial and (initial is not None or maximum is not None) and effective_initial > 0:
        yield advice(
            "pod-max-backoff-equals-initial",
            ("podMaxBackoffSeconds",),
            f"podMaxBackoffSeconds equals podInitialBackoffSeconds ({effective_max}): unschedulable pods are retried "
            "without exponential backoff; the spec asks for a maximum greater than the initial backoff",
        )


# --------------------------------------------------------------------------- profiles


class Profile:
    """One profile as the scheduler sees it after merging its plugins onto the defaults."""

    def __init__(self, index: int, body: dict, count: int, target: tuple) -> None:
        self.index = index
        self.body = body
        self.path: Path = ("profiles", index)
        name = body.get("schedulerName")
        self.name = DEFAULT_SCHEDULER if name is None and count == 1 else name
        self.plugins = mapping(body.get("plugins"))
        self.multipoint = _merge(plugins.default_multipoint(target), mapping(self.plugins.get("multiPoint")))
        self._enabled: dict[str, list[tuple[int, str, Any]]] = {}  # every check asks for them again

    def point(self, point: str) -> dict:
        return mapping(self.plugins.get(point))

    def enabled(self, point: str) -> list[tuple[int, str, Any]]:
        found = self._enabled.get(point)
        if found is None:
            entries = items(self.point(point).get("enabled"))
            found = self._enabled[point] = [(j, text(p.get("name")), p.get("weight")) for j, p in entries if isinstance(p, dict)]
        return found

    def disabled(self, point: str) -> set[str]:
        return {text(p.get("name")) for _j, p in items(self.point(point).get("disabled")) if isinstance(p, dict)}

    def effective(self, point: str) -> list[str] | None:
        """Plugins the framework runs at a point; None when an unknown multiPoint plugin may implement it."""
        explicit = [name for _j, name, _w in self.enabled(point)]
        disabled = self.disabled(point)
        if "*" in disabled:
            return explicit
        names = list(explicit)
        for name, _weight in self.multipoint:
            does = plugins.implements(name, point)
            if does is None:
                return None
            if does and name not in disabled and name not in explicit and name not in names:
                names.append(name)
        return names

    def enabled_names(self) -> set[str]:
        names = {name for name, _w in self.multipoint}
        for point in self.written(plugins.POINTS):
            names.update(name for _j, name, _w in self.enabled(point))
        return names

    def written(self, points: tuple[str, ...]) -> list[str]:
        """The points, in their order, that this profile's plugins name (the others enable and disable nothing)."""
        return [point for point in points if point in self.plugins]


def _merge(default: list[tuple[str, Any]], custom: dict) -> list[tuple[str, Any]]:
    """mergePluginSet: defaults minus disabled, replaced in place by custom entries, then the rest appended."""
    disabled = {text(p.get("name")) for _j, p in items(custom.get("disabled")) if isinstance(p, dict)}
    enabled = [(text(p.get("name")), p.get("weight")) for _j, p in items(custom.get("enabled")) if isinstance(p, dict)]
    used: set[int] = set()
    merged: list[tuple[str, Any]] = []
    if "*" not in disabled:
        unused: dict[str, list[int]] = {}  # name -> positions of its custom entries, earliest last
        for k in reversed(range(len(enabled))):
            unused.setdefault(enabled[k][0], []).append(k)
        for name, weight in default:
            if name in disabled:
                continue
            waiting = unused.get(name)
            if waiting:
                index = waiting.pop()  # the first custom entry of that name not used yet
                used.add(index)
                merged.append(enabled[index])
            else:
                merged.append((name, weight))
    merged.extend(entry for k, entry in enumerate(enabled) if k not in used)
    return merged


@rule("KubeSchedulerConfiguration")
def check_profiles(doc: dict, ctx: Context) -> Iterator[Finding]:
    written = list(items(doc.get("profiles")))
    bodies = [(i, p) for i, p in written if isinstance(p, dict)] if written else [(0, {})]
    if not bodies:
        return
    profiles = [Profile(i, body, len(written) or 1, ctx.target) for i, body in bodies]
    version, kind = _written(doc)
    seen: dict[str, int] = {}
    for profile in profiles:
        if profile.name == "" or profile.name is None:
            yield required(profile.path + ("schedulerName",))
        elif isinstance(profile.name, str):
            if profile.name in seen:
                yield duplicate(profile.path + ("schedulerName",), profile.name, "duplicate-scheduler-name")
            seen.setdefault(profile.name, profile.index)
        yield from _percentage(profile.path + ("percentageOfNodesToScore",), profile.body.get("percentageOfNodesToScore"))
        yield from _check_plugins(profile, version, kind, ctx)
        yield from _check_plugin_config(profile, version, kind, ctx)
        yield from _runtime_counts(profile)
    yield from _queue_sort(profiles, ctx)
    yield from _overridden_percentage(doc, bodies)


def _removed_message(name: str, version: str, kind: str) -> str:
    return f'was invalid in version "{version}" ({kind} is version "{version}")'


def _check_plugins(profile: Profile, version: str, kind: str, ctx: Context) -> Iterator[Finding]:
    invalid_names = plugins.invalid_in_v1(ctx.target)
    deprecated = plugins.deprecated(ctx.target)
    for point in profile.written((*plugins.POINTS, "multiPoint")):
        base = profile.path + ("plugins", point, "enabled")
        seen: set[str] = set()
        for j, name, weight in profile.enabled(point):
            path = base + (j,)
            if name in invalid_names:
                if point == "multiPoint":
                    yield invalid(
                        path,
                        name,
                        f"{_removed_message(name, version, kind)}; config validation skips multiPoint, but the scheduler "
                        f'fails at start-up: {_first_interface(name)} "{name}" does not exist',
                        "removed-scheduler-plugin",
                    )
                else:
                    yield invalid(path, name, _removed_message(name, version, kind), "removed-scheduler-plugin")
                continue
            if plugins.gone(name, ctx.target):
                yield _gone(path, name, point, ctx)
                continue
            if name in deprecated:
                yield advice(
                    "deprecated-scheduler-plugin",
                    path,
                    f'plugin "{name}" is deprecated and no longer enabled by default since 1.31; it is refused from 1.32; '
                    f"use {plugins.REPLACEMENT[name]}",
                    subject=name,
                )
            yield from _known_plugin(path, name, point, ctx)
            if name in seen:
                iface = interface_of(point, name)
                yield Finding("duplicate-scheduler-plugin", path, f'plugin "{name}" already registered as "{iface}"', subject=name)
            seen.add(name)
            yield from checks.weight_checks(path, name, point, weight, f"profiles.plugins.{point}.enabled")
        yield from checks.disabled_entries(profile, point, ctx.target)


def interface_of(point: str, name: str) -> str:
    return _first_interface(name) if point == "multiPoint" else plugins.interface(point)


def _first_interface(name: str) -> str:
    points = plugins.IN_TREE.get(name, ())
    for point in plugins.EXPANSION_ORDER:
        if point in points:
            return plugins.interface(point)
    return plugins.interface("filter" if name in plugins.GONE else "preFilter")


def _gone(path: Path, name: str, point: str, ctx: Context) -> Finding:
    since = format_release(plugins.GONE[name])
    return invalid(
        path,
        name,
        f"plugin was removed from kube-scheduler in {since}; the scheduler fails at start-up: "
        f'{interface_of(point, name)} "{name}" does not exist; use {plugins.REPLACEMENT[name]}',
        "removed-scheduler-plugin",
    )


def _known_plugin(path: Path, name: str, point: str, ctx: Context) -> Iterator[Finding]:
    if not name:
        return
    if not plugins.known(name, ctx.target):
        yield advice(
            "unknown-scheduler-plugin",
            path,
            f'{interface_of(point, name)} "{name}" does not exist in kube-scheduler {format_release(ctx.target)}: '
            "a stock scheduler fails at start-up; ignore this only for a scheduler built with this plugin",
            subject=name,
        )
        return
    points = plugins.points_of(name)
    if point != "multiPoint" and points is not None and point not in points:
        yield Finding(
            "plugin-not-at-extension-point", path, f'plugin "{name}" does not extend {plugins.interface(point)} plugin', subject=name
        )


def _check_plugin_config(profile: Profile, version: str, kind: str, ctx: Context) -> Iterator[Finding]:
    invalid_names = plugins.invalid_in_v1(ctx.target)
    enabled = profile.enabled_names()
    seen: set[str] = set()
    for j, entry in items(profile.body.get("pluginConfig")):
        entry = mapping(entry)
        name = text(entry.get("name"))
        path = profile.path + ("pluginConfig", j)
        if name in seen:
            yield duplicate(path, name, "duplicate-plugin-config")
            continue
        seen.add(name)
        if name in invalid_names:
            yield invalid(path, name, _removed_message(name, version, kind), "removed-scheduler-plugin")
            continue
        args_plugin = checks.args_kind_plugin(name)
        if args_plugin is not None:
            yield from checks.named_after_args_kind(path, name, args_plugin, entry)
            continue
        if name not in enabled:
            yield advice(
                "unused-plugin-config",
                path + ("name",),
                f'plugin "{name}" is not enabled in profile "{profile.name}": the scheduler ignores this pluginConfig entry',
            )
        since = plugins.ARGS_KINDS.get(name)
        args = entry.get("args")
        if since is None or not ctx.at_least(*since) or not isinstance(args, dict):
            continue
        mismatch = list(check_args_kind(path + ("args",), name, args, ctx))
        yield from mismatch
        if not mismatch:
            yield from ctx.embedded(path + ("args",), args, f"{GROUP}/v1", f"{name}Args")


def _runtime_counts(profile: Profile) -> Iterator[Finding]:
    """The framework's start-up checks of one profile: exactly one queue sort plugin, at least one binder."""
    name = profile.name if isinstance(profile.name, str) else ""
    sort = profile.effective("queueSort")
    if sort is not None and len(sort) != 1 and not (profile.index == 0 and len(profile.enabled("queueSort")) > 1):
        yield Finding(
            "queue-sort-plugin-count",
            profile.path + ("plugins", "queueSort"),
            f'only one queue sort plugin required for profile with scheduler name "{name}", but got {len(sort)}',
            subject=len(sort),
        )
    bind = profile.effective("bind")
    if bind is not None and not bind:
        yield Finding(
            "no-bind-plugin",
            profile.path + ("plugins", "bind"),
            f'at least one bind plugin is needed for profile with scheduler name "{name}"',
        )


def _plugin_set(value: dict) -> dict:
    """The internal PluginSet after merging, as upstream compares and prints it."""
    enabled = [
        {"Name": text(p.get("name")), "Weight": integer(p.get("weight")) or 0}
        for _j, p in items(value.get("enabled"))
        if isinstance(p, dict)
    ]
    disabled = [{"Name": text(p.get("name")), "Weight": 0} for _j, p in items(value.get("disabled")) if isinstance(p, dict)]
    return {"Enabled": enabled or None, "Disabled": disabled or None}


def _queue_sort(profiles: list[Profile], ctx: Context) -> Iterator[Finding]:
    first = profiles[0]
    count = len(first.enabled("queueSort"))
    if count > 1:
        yield invalid(
            first.path + ("plugins", "queueSort", "enabled"),
            count,
            "only one queue sort plugin can be enabled",
            "multiple-queue-sort-plugins",
        )
    canon = _plugin_set(first.point("queueSort"))
    sort_name = first.enabled("queueSort")[0][1] if count else ""
    sort_args = next(
        (mapping(c).get("args") for _j, c in items(first.body.get("pluginConfig")) if mapping(c).get("name") == sort_name), None
    )
    for profile in profiles[1:]:
        current = _plugin_set(profile.point("queueSort"))
        if current != canon:
            yield invalid(
                profile.path + ("plugins", "queueSort"),
                current,
                _SAME_SORT if ctx.at_least(1, 32) else _SAME_SORT_OLD,
                "queue-sort-differs-between-profiles",
            )
        for j, entry in items(profile.body.get("pluginConfig")):
            entry = mapping(entry)
            if sort_name and entry.get("name") == sort_name and entry.get("args") != sort_args:
                yield invalid(
                    profile.path + ("pluginConfig", j, "args"),
                    entry.get("args"),
                    "queueSort must be the same for all profiles",
                    "queue-sort-differs-between-profiles",
                )


def _overridden_percentage(doc: dict, bodies: list[tuple[int, dict]]) -> Iterator[Finding]:
    if doc.get("percentageOfNodesToScore") is None or not isinstance(doc.get("profiles"), list):
        return
    if all(body.get("percentageOfNodesToScore") is not None for _i, body in bodies):
        yield advice(
            "percentage-of-nodes-overridden",
            ("percentageOfNodesToScore",),
            f"percentageOfNodesToScore {render_value(doc['percentageOfNodesToScore'])} never applies: every profile sets its own",
        )


@rule("KubeSchedulerConfiguration")
def check_extender_list(doc: dict, ctx: Context) -> Iterator[Finding]:
    yield from check_extenders(doc.get("extenders"), ctx)
