"""PodSecurityConfiguration rules: default levels and versions, and exemptions, as ValidatePodSecurityConfiguration checks them."""

from __future__ import annotations

import re
from collections.abc import Iterator

from svcconf.go.names import dns1123_label, dns1123_subdomain
from svcconf.go.numbers import parse_int
from svcconf.model import Finding, Severity

from .. import Context, advice, duplicate, invalid, items, mapping, rule

LEVELS = ("privileged", "baseline", "restricted")
_VERSION = re.compile(r"^v1\.(0|[1-9][0-9]*)\Z")
MODES = ("enforce", "warn", "audit")  # the validation order upstream


@rule("PodSecurityConfiguration")
def check_defaults(doc: dict, ctx: Context) -> Iterator[Finding]:
    defaults = mapping(doc.get("defaults"))
    for mode in MODES:
        level = defaults.get(mode)
        # An empty value is defaulted (privileged / latest) before validation.
        if isinstance(level, str) and level and level not in LEVELS:
            yield invalid(("defaults", mode), level, "must be one of privileged, baseline, restricted", "invalid-pod-security-level")
        version = defaults.get(f"{mode}-version")
        if isinstance(version, str) and version and version != "latest":
            match = _VERSION.match(version)
            minor = parse_int(match.group(1)) if match else None  # strconv.Atoi: an overflow is no version either
            if minor is None:
                yield invalid(("defaults", f"{mode}-version"), version, 'must be "latest" or "v1.x"', "invalid-pod-security-version")
            elif (1, minor) > ctx.target:
                yield advice(
                    "pod-security-version-ahead",
                    ("defaults", f"{mode}-version"),
                    f"{version} is newer than the target release {ctx.target[0]}.{ctx.target[1]}; the server treats it as latest",
                    Severity.INFO,
                )


@rule("PodSecurityConfiguration")
def check_exemptions(doc: dict, ctx: Context) -> Iterator[Finding]:
    exemptions = mapping(doc.get("exemptions"))
    yield from _names(("exemptions", "namespaces"), exemptions.get("namespaces"), dns1123_label)
    yield from _names(("exemptions", "runtimeClasses"), exemptions.get("runtimeClasses"), dns1123_subdomain)
    seen: set[str] = set()
    for i, user in items(exemptions.get("usernames")):
        if not isinstance(user, str):
            continue
        if user == "":
            yield invalid(("exemptions", "usernames", i), "", "username must not be empty", "invalid-pod-security-exemption")
        elif user in seen:
            yield duplicate(("exemptions", "usernames", i), user, "duplicate-pod-security-exemption")
        seen.add(user)


def _names(base: tuple, values, check) -> Iterator[Finding]:
    seen: set[str] = set()
    for i, value in items(values):
        if not isinstance(value, str):
            continue
        problems = check(value)
        if problems:
            yield invalid(base + (i,), value, ", ".join(problems), "invalid-pod-security-exemption")
            continue
        if value in seen:
            yield duplicate(base + (i,), value, "duplicate-pod-security-exemption")
        seen.add(value)
