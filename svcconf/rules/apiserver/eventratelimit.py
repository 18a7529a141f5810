"""EventRateLimit Configuration rules: limit types, positive qps and burst, cache sizes, and fields the plugin drops.

The plugin decodes its configuration leniently: unknown fields are silently dropped upstream, so
svcconf reports them with their own rule (lenient-unknown-field) at the field-validation level.
"""

from __future__ import annotations

from collections.abc import Iterator

from svcconf.model import Anchor, Finding, Severity

from .. import Context, advice, integer, invalid, items, mapping, not_supported, rule

LIMIT_TYPES = ("Server", "Namespace", "User", "SourceAndObject")


@rule("Configuration")
def check_limits(doc: dict, ctx: Context) -> Iterator[Finding]:
    limits = doc.get("limits")
    if not limits:
        shown = "[]" if isinstance(limits, list) else "null"
        yield Finding("missing-field", ("limits",), f"Invalid value: {shown}: must not be empty", Severity.ERROR, Anchor.PARENT)
        return
    for i, limit in items(limits):
        limit = mapping(limit)
        base = ("limits", i)
        kind = limit.get("type")
        if kind is None or (isinstance(kind, str) and kind not in LIMIT_TYPES):
            # Upstream lists the supported values in map order (random); svcconf lists them in a fixed order.
            yield not_supported(base + ("type",), kind or "", LIMIT_TYPES, "invalid-limit-type")
        for field in ("burst", "qps"):
            value = limit.get(field, 0)
            if integer(value) is not None and value <= 0:
                yield invalid(base + (field,), value, "must be positive", "limit-not-positive")
        cache = limit.get("cacheSize")
        if kind != "Server" and integer(cache) is not None and cache < 0:
            yield invalid(base + ("cacheSize",), cache, "must not be negative", "limit-not-positive")


@rule("Configuration")
def check_advice(doc: dict, ctx: Context) -> Iterator[Finding]:
    limits = [(i, mapping(limit)) for i, limit in items(doc.get("limits"))]
    if not limits:
        return
    types = [limit.get("type") for _i, limit in limits]
    if "Server" not in types:
        yield advice(
            "no-server-event-limit",
            ("limits",),
            "no limit of type Server: the total rate of events the API server accepts is unbounded "
            "(per-namespace and per-user limits do not cap many namespaces or users together)",
            Severity.INFO,
            subject=sorted(map(str, types)),  # the types the rule read, in any order, not the limits' rates
        )
    seen: dict[str, int] = {}
    for i, limit in limits:
        kind = limit.get("type")
        if isinstance(kind, str) and kind in LIMIT_TYPES:
            if kind in seen:
                yield advice(
                    "duplicate-limit-type",
                    ("limits", i, "type"),
                    f"limits[{seen[kind]}] already limits type {kind}; both apply independently, so the stricter one decides",
                    Severity.INFO,
                )
            seen.setdefault(kind, i)
