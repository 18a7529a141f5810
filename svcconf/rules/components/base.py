"""Shared component-base checks: leader election, client connection and debugging, as every component validates them.

Components call these from their own rules with the path of the embedded object; the module
registers no kind of its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from svcconf.go.durations import format_duration, parse_duration
from svcconf.model import Finding, Path, Severity

from .. import Context, advice, invalid, mapping, required

# RecommendedDefaultLeaderElectionConfiguration, with the lock that scheduler, KCM and CCM set first.
LEADER_ELECTION_DEFAULTS = {
    "leaderElect": True,
    "leaseDuration": "15s",
    "renewDeadline": "10s",
    "retryPeriod": "2s",
    "resourceLock": "leases",
}
JITTER_FACTOR = Fraction(12, 10)  # client-go leaderelection.JitterFactor
CONTENT_TYPES = ("application/json", "application/vnd.kubernetes.protobuf")
_WINDOWS_DRIVE = re.compile(r"^[A-Za-z]:[\\/]")  # C:\ or C:/ starts an absolute path on Windows


def _effective(le: dict, defaults: dict, key: str) -> Any:
    """The value after defaulting: a zero value ("", 0, "0s", null) counts as unset."""
    value = le.get(key)
    if value is None or value == "" or value == 0 or (isinstance(value, str) and parse_duration(value) == 0):
        return defaults.get(key, value)
    return value


# --------------------------------------------------------------------------- leader election


def check_leader_election(path: Path, le: dict, ctx: Context, defaults: dict | None = None, leases_only: bool = True) -> Iterator[Finding]:
    """ValidateLeaderElectionConfiguration on the defaulted object, plus the lock and client-go checks.

    `defaults` adds the component's own defaults (the scheduler's resourceName and
    resourceNamespace) to the recommended ones; `leases_only` is the scheduler, KCM and CCM rule
    that the lock must be "leases".
    """
    le = mapping(le)
    merged = {**LEADER_ELECTION_DEFAULTS, **(defaults or {})}
    elect = le.get("leaderElect")
    if elect is None:
        elect = merged["leaderElect"]
    if elect is not True:
        yield from _ignored_settings(path, le)
        return
    durations = {}
    for key in ("leaseDuration", "renewDeadline", "retryPeriod"):
        durations[key] = parse_duration(_effective(le, merged, key))
    lease, renew, retry = durations["leaseDuration"], durations["renewDeadline"], durations["retryPeriod"]
    for key, value in durations.items():
        if value is not None and value <= 0:
            yield invalid(path + (key,), format_duration(value), "must be greater than zero", "leader-election-duration-not-positive")
    if lease is not None and renew is not None and lease <= renew:
        detail = "must be greater than `RenewDeadline`" if ctx.at_least(1, 34) else "LeaseDuration must be greater than RenewDeadline"
        yield invalid(path + ("leaseDuration",), format_duration(renew), detail, "renew-deadline-not-below-lease")
    if renew is not None and retry is not None and renew > 0 and retry > 0 and renew <= JITTER_FACTOR * retry:
        yield advice(
            "renew-deadline-below-retry-period",
            path + ("renewDeadline",),
            "renewDeadline must be greater than retryPeriod*JitterFactor: "
            f"{format_duration(renew)} is not above 1.2 x {format_duration(retry)}; leader election fails at start-up",
            Severity.ERROR,
        )
    yield from _resource_fields(path, le, merged, ctx, leases_only)


def _resource_fields(path: Path, le: dict, merged: dict, ctx: Context, leases_only: bool) -> Iterator[Finding]:
    for key in ("resourceLock", "resourceNamespace", "resourceName"):
        if _effective(le, merged, key) in (None, ""):
            if ctx.at_least(1, 34):
                yield required(path + (key,))
            else:
                yield invalid(path + (key,), "", f"{key} is required", "missing-field")
    lock = _effective(le, merged, "resourceLock")
    if leases_only and isinstance(lock, str) and lock and lock != "leases":
        yield from _lock_problem(path + ("resourceLock",), lock, ctx)


# client-go's lock types: the one-object locks went in 1.24 (kubernetes#106852), the migration
# multilocks (from 1.17) in 1.28 (kubernetes#117558); the components accept only leases from 1.27
# (kubernetes#114055).
OLD_LOCKS = ("endpoints", "configmaps")
MULTILOCKS = ("endpointsleases", "configmapsleases")


def _lock_problem(path: Path, lock: str, ctx: Context) -> Iterator[Finding]:
    """A lock other than leases, as the scheduler and the controller managers of the target release take it."""
    if ctx.at_least(1, 27):
        yield invalid(path, lock, 'resourceLock value must be "leases"', "resource-lock-not-leases")
    elif lock in OLD_LOCKS and ctx.at_least(1, 24):
        # resourcelock.New refuses it when leader election starts: the component exits.
        yield invalid(path, lock, f"{lock} lock is removed, migrate to {lock}leases", "resource-lock-not-leases")
    elif lock in OLD_LOCKS:
        yield advice(
            "resource-lock-not-leases", path, f"client-go removes the {lock} lock in 1.24; migrate to {lock}leases, then to leases"
        )
    elif lock in MULTILOCKS and ctx.at_least(1, 17):
        yield advice(
            "resource-lock-not-leases", path, f"the {lock} lock is accepted until 1.26; from 1.27 only leases is; switch to leases"
        )
    else:
        yield invalid(path, lock, f"Invalid lock-type {lock}", "resource-lock-not-leases")


def _ignored_settings(path: Path, le: dict) -> Iterator[Finding]:
    """Leader election is off: the other fields are never read."""
    for key in ("leaseDuration", "renewDeadline", "retryPeriod", "resourceLock", "resourceName", "resourceNamespace"):
        if le.get(key) not in (None, ""):
            yield advice(
                "leader-election-setting-ignored",
                path + (key,),
                f"{key} has no effect while leaderElect is false",
                Severity.INFO,
            )


# --------------------------------------------------------------------------- client connection


def check_client_connection(path: Path, cc: dict, ctx: Context, check_burst: bool = True) -> Iterator[Finding]:
    """ValidateClientConnectionConfiguration (burst), and svcconf's checks of qps and content types.

    kube-proxy words its burst check differently: it passes `check_burst=False` and checks it itself.
    """
    cc = mapping(cc)
    burst, qps = cc.get("burst"), cc.get("qps")
    number = (int, float)
    if check_burst and isinstance(burst, int) and not isinstance(burst, bool) and burst < 0:
        yield invalid(path + ("burst",), burst, "must be non-negative", "client-burst-negative")
    if isinstance(qps, number) and not isinstance(qps, bool):
        if qps < 0:
            yield advice(
                "client-qps-negative",
                path + ("qps",),
                f"qps {_number(qps)} is negative: client-go then applies no rate limit at all; write a positive value",
            )
        elif qps > 0 and isinstance(burst, int) and not isinstance(burst, bool) and 0 < burst < qps:
            yield advice(
                "client-burst-below-qps",
                path + ("burst",),
                f"burst {burst} is below qps {_number(qps)}: the client can never use its full rate in a burst",
                Severity.INFO,
            )
    yield from _content_types(path, cc)
    kubeconfig = cc.get("kubeconfig")
    if isinstance(kubeconfig, str) and kubeconfig and not kubeconfig.startswith("/") and not _WINDOWS_DRIVE.match(kubeconfig):
        yield advice(
            "relative-kubeconfig-path",
            path + ("kubeconfig",),
            f"kubeconfig path {kubeconfig!r} is relative: it resolves against the component's working directory; write an absolute path",
        )


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _content_types(path: Path, cc: dict) -> Iterator[Finding]:
    content = cc.get("contentType")
    if isinstance(content, str) and content and content not in CONTENT_TYPES:
        yield advice(
            "unknown-content-type",
            path + ("contentType",),
            f'contentType "{content}" is not one the API server speaks; use "application/vnd.kubernetes.protobuf" or "application/json"',
        )
    accept = cc.get("acceptContentTypes")
    if isinstance(accept, str) and accept:
        unknown = [part.strip() for part in accept.split(",") if part.strip().split(";")[0] not in CONTENT_TYPES]
        if unknown:
            yield advice(
                "unknown-content-type",
                path + ("acceptContentTypes",),
                f"acceptContentTypes names {', '.join(repr(u) for u in unknown)}, which the API server does not serve; "
                'use "application/vnd.kubernetes.protobuf" and/or "application/json"',
            )


# --------------------------------------------------------------------------- debugging


def check_debugging(path: Path, dbg: dict, ctx: Context) -> Iterator[Finding]:
    """Contention profiling is served by the profiling handlers: alone it does nothing."""
    dbg = mapping(dbg)
    if dbg.get("enableContentionProfiling") is True and dbg.get("enableProfiling") is False:
        yield advice(
            "contention-profiling-without-profiling",
            path + ("enableContentionProfiling",),
            "enableContentionProfiling has no effect while enableProfiling is false",
        )
