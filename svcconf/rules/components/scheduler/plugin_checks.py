"""Scheduler plugin-list checks beyond the server: disabled entries that disable nothing, weights, args-kind names."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from svcconf.known import scheduler_plugins as plugins
from svcconf.known.catalog import format_release
from svcconf.model import Finding, Path, Severity
from svcconf.rules import advice, integer, invalid, items, mapping

INT32 = (-(2**31), 2**31 - 1)


def disabled_entries(profile, point: str, target: tuple) -> Iterator[Finding]:
    """A disabled entry only removes a default or multiPoint plugin that runs at the point; anything else is a typo."""
    entries = [(j, mapping(e).get("name")) for j, e in items(profile.point(point).get("disabled"))]
    if not entries:
        return
    names = [n for _j, n in entries if isinstance(n, str)]
    base = profile.path + ("plugins", point, "disabled")
    if point == "multiPoint":
        candidates = {name for name, _w in plugins.default_multipoint(target)}
    else:
        candidates = {name for name, _w in profile.multipoint if plugins.implements(name, point) is not False}
    for j, name in entries:
        if not isinstance(name, str) or not name or name == "*":
            continue
        if "*" in names:
            yield advice(
                "disabled-plugin-not-enabled",
                base + (j,),
                f'disabling "{name}" is redundant: "*" in the same list already disables every default plugin of {point}',
                Severity.INFO,
                subject=name,
            )
        elif not plugins.known(name, target) or name in plugins.GONE:
            yield advice(
                "unknown-scheduler-plugin",
                base + (j,),
                f'disabled plugin "{name}" does not exist in kube-scheduler {format_release(target)}: nothing is disabled',
                subject=name,
            )
        elif name not in candidates:
            where = "the default multiPoint set" if point == "multiPoint" else f"the plugins that run at {point}"
            why = "" if plugins.implements(name, point) is not False else f" (it does not extend {plugins.interface(point)})"
            yield advice(
                "disabled-plugin-not-enabled",
                base + (j,),
                f'disabled plugin "{name}" is not among {where}{why}: this entry disables nothing',
                subject=name,
            )


def weight_checks(path: Path, name: str, point: str, weight: Any, decode_path: str) -> Iterator[Finding]:
    weight = integer(weight)
    if weight is None:
        return
    if not INT32[0] <= weight <= INT32[1]:
        # Weights are int32: the decoder refuses larger numbers, so the framework's overflow
        # check of the summed score weights (pkg/scheduler/framework/runtime/framework.go: NewFramework)
        # is never reached from a file.
        yield invalid(
            path + ("weight",),
            weight,
            f"weight must fit in int32 [-2147483648, 2147483647]; kube-scheduler cannot decode the file: json: cannot "
            f"unmarshal number {weight} into Go struct field Plugin.{decode_path}.weight of type int32",
            "plugin-weight-out-of-range",
        )
        return
    scores = point == "score" or (point == "multiPoint" and plugins.implements(name, "score") is not False)
    if not scores:
        where = "a multiPoint plugin that does not score" if point == "multiPoint" else f"the {point} extension point"
        yield advice(
            "plugin-weight-ignored",
            path + ("weight",),
            f'weight of plugin "{name}" is ignored: weights apply only to score plugins, and this is {where}',
        )
    elif weight < 0:
        yield advice(
            "plugin-weight-negative",
            path + ("weight",),
            f'weight {weight} of score plugin "{name}" is negative: it inverts the plugin\'s preference; use 1 or more (0 means 1)',
        )


def args_kind_plugin(name: str) -> str | None:
    """The plugin whose args kind `name` is (NodeResourcesFitArgs -> NodeResourcesFit), else None."""
    if name.endswith("Args") and name[: -len("Args")] in plugins.ARGS_KINDS:
        return name[: -len("Args")]
    return None


def _sorted(value: Any) -> Any:
    """JSON as Go marshals decoded YAML: object keys sorted."""
    return json.loads(json.dumps(value, sort_keys=True)) if isinstance(value, (dict, list)) else value


def named_after_args_kind(path: Path, name: str, plugin: str, entry: dict) -> Iterator[Finding]:
    """A pluginConfig entry named after an args kind instead of its plugin."""
    hint = f'"{name}" is an args kind, not a plugin: write name: {plugin}'
    if name == "NodeResourcesFitArgs":
        # Upstream's validation table keys NodeResourcesFit by this very string, so the entry is
        # dispatched, its args decode as an opaque object, and validation refuses them.
        yield invalid(path + ("args",), _sorted(entry.get("args")), f"has to match plugin args ({hint})", "plugin-args-kind-mismatch")
        return
    yield advice(
        "plugin-config-named-after-args-kind",
        path + ("name",),
        f"{hint}; kube-scheduler ignores this entry and {plugin} runs with its default args",
    )
