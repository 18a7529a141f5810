"""events.k8s.io/v1 Event rules: what the API server requires when an Event is created through events.k8s.io/v1.

Upstream validates the internal core Event, so its paths name the core fields (`message`,
`source`, `firstTimestamp`, `involvedObject.namespace`); svcconf reports the events.k8s.io/v1
field that was written (`note`, `deprecatedSource`, `deprecatedFirstTimestamp`, `regarding.namespace`).
"""

from __future__ import annotations

from collections.abc import Iterator

from svcconf.go.names import dns1123_subdomain, qualified_name
from svcconf.model import Finding

from .. import Context, invalid, mapping, required, rule, text

LIMITS = (("reportingInstance", 128), ("action", 128), ("reason", 128), ("note", 1024))
DEPRECATED = ("deprecatedFirstTimestamp", "deprecatedLastTimestamp", "deprecatedCount")


@rule("Event")
def check_required(doc: dict, ctx: Context) -> Iterator[Finding]:
    if not doc.get("eventTime"):
        yield required(("eventTime",))
    for field in ("reportingController", "reportingInstance", "action", "reason"):
        if not doc.get(field):
            yield required((field,))
    controller = text(doc.get("reportingController"))
    for problem in qualified_name(controller) if controller else ():
        yield invalid(("reportingController",), controller, problem, "invalid-reporting-controller")
    for field, limit in LIMITS:
        value = text(doc.get(field))
        if len(value.encode("utf-8")) > limit:
            yield invalid((field,), "", f"can have at most {limit} characters", "event-field-too-long")


@rule("Event")
def check_type(doc: dict, ctx: Context) -> Iterator[Finding]:
    kind = doc.get("type")
    if kind not in ("Normal", "Warning") and (kind is None or isinstance(kind, str)):
        yield invalid(("type",), "", f"has invalid value: {kind or ''}", "invalid-event-type")


@rule("Event")
def check_deprecated(doc: dict, ctx: Context) -> Iterator[Finding]:
    for field in DEPRECATED:
        if doc.get(field):
            yield invalid((field,), "", "needs to be unset", "deprecated-event-field-set")
    source = mapping(doc.get("deprecatedSource"))
    if source.get("component") or source.get("host"):
        yield invalid(("deprecatedSource",), "", "needs to be unset", "deprecated-event-field-set")


@rule("Event")
def check_series(doc: dict, ctx: Context) -> Iterator[Finding]:
    series = doc.get("series")
    if not isinstance(series, dict):
        return
    count = series.get("count", 0)
    if isinstance(count, int) and count < 2:
        yield invalid(("series", "count"), "", "should be at least 2", "invalid-event-series")
    if not series.get("lastObservedTime"):
        yield required(("series", "lastObservedTime"))


@rule("Event")
def check_metadata(doc: dict, ctx: Context) -> Iterator[Finding]:
    metadata = mapping(doc.get("metadata"))
    name = metadata.get("name")
    if not name and not metadata.get("generateName"):
        yield required(("metadata", "name"), "name or generateName is required")
    elif isinstance(name, str) and name:
        for problem in dns1123_subdomain(name):
            yield invalid(("metadata", "name"), name, problem, "invalid-object-name")
    namespace = metadata.get("namespace")
    if not isinstance(namespace, str) or not namespace:
        return  # the namespace comes from the request; nothing to compare
    for problem in dns1123_subdomain(namespace):
        yield invalid(("metadata", "namespace"), namespace, problem, "invalid-object-name")
    regarding = text(mapping(doc.get("regarding")).get("namespace"))
    if doc.get("eventTime"):
        mismatch = not regarding and namespace not in ("default", "kube-system")
    else:
        mismatch = namespace != (regarding or "default")
    if mismatch:
        yield invalid(("regarding", "namespace"), regarding, "does not match event.namespace", "event-namespace-mismatch")
