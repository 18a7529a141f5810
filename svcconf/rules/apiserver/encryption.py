"""EncryptionConfiguration rules: resources, providers, keys and KMS settings, as the API server checks them.

Secrets are never echoed: key errors say "REDACTED" where the server would print the value.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator

from svcconf.go.durations import format_duration, parse_duration
from svcconf.go.url import parse_url
from svcconf.known.apiserver import PROVIDER_ORDER, parse_group_resource
from svcconf.model import Anchor, Finding, Severity, render_value

from .. import Context, advice, invalid, invalid_redacted, items, mapping, required, rule, text

PROVIDER_NAMES = {"kms": "KMS", "aesgcm": "AESGCM", "aescbc": "AESCBC", "secretbox": "Secretbox", "identity": "Identity"}
KEY_LENGTHS = {"aesgcm": (16, 24, 32), "aescbc": (16, 24, 32), "secretbox": (32,)}
NO_REST_API = ("apiserveripinfo", "serviceipallocations", "servicenodeportallocations")
_BASE64 = re.compile(r"^[A-Za-z0-9+/]*={0,2}\Z")


def upstream_spelling(resource: str, group: str) -> str:
    """A group resource as the server's messages print it (grYAMLString): only the core wildcard keeps its dot."""
    if group == "":
        return "*." if resource == "*" else resource
    return f"{resource}.{group}"


@rule("EncryptionConfiguration", "EncryptionConfig")
def check_resources(doc: dict, ctx: Context) -> Iterator[Finding]:
    entries = doc.get("resources")
    if not isinstance(entries, list) or not entries:
        if entries is None or entries == []:
            yield required(("resources",), "at least one resources is required")
        return
    kms_names: set[str] = set()
    for i, entry in items(entries):
        entry = mapping(entry)
        base = ("resources", i)
        yield from _check_resource_list(base, entry.get("resources"))
        providers = entry.get("providers")
        if not providers:
            yield required(base + ("providers",), f"at least one resources[{i}].providers is required")
            continue
        for k, provider in items(providers):
            yield from _check_provider(base + ("providers", k), mapping(provider), kms_names, ctx)
    yield from _check_masking(entries)
    yield from _advice(entries, ctx)


def _check_resource_list(base: tuple, names) -> Iterator[Finding]:
    i = base[1]
    if not names:
        yield required(base + ("resources",), f"at least one resources[{i}].resources is required")
        return
    if not isinstance(names, list):
        return
    strings = [n for n in names if isinstance(n, str)]
    parsed = [parse_group_resource(n) for n in strings]
    if len(set(parsed)) != len(parsed):
        yield invalid(base + ("resources",), names, "the same resource cannot be specified multiple times", "duplicate-resource")
    elif len(parsed) > 1 and _overlapping(parsed):
        yield invalid(
            base + ("resources",),
            names,
            "using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked",
            "overlapping-resources",
        )
    for j, name in items(names):
        if isinstance(name, str):
            detail = _resource_name_problem(name)
            if detail:
                yield invalid(base + ("resources", j), name, detail, "invalid-resource-name")


def _overlapping(parsed: list[tuple[str, str]]) -> bool:
    """`*.*`, or a group's wildcard beside another resource of the group."""
    groups: dict[str, int] = {}
    wildcards: set[str] = set()
    for resource, group in parsed:
        groups[group] = groups.get(group, 0) + 1
        if resource == "*":
            wildcards.add(group)
    return "*" in wildcards or any(groups[group] > 1 for group in wildcards)


def _resource_name_problem(name: str) -> str | None:
    if name != name.lower():
        return "resource name should not contain capital letters"
    if name == "*":
        return "use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources"
    if name in NO_REST_API:
        return "resources which do not have REST API/s cannot be encrypted"
    resource, group = parse_group_resource(name)
    if group == "events.k8s.io":
        return "'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file"
    if group == "extensions":
        return "'extensions' group has been removed and cannot be used for encryption"
    if group == "*" and resource != "*":
        return "encrypting the same resource across groups is not supported"
    return None


def _check_provider(path: tuple, provider: dict, kms_names: set[str], ctx: Context) -> Iterator[Finding]:
    present = [name for name in PROVIDER_ORDER if name in provider]
    if not present:
        yield invalid(
            path,
            _internal_json(provider),
            "provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity",
            "missing-provider",
        )
        return
    if len(present) > 1:
        # The server prints the whole element, keys included; svcconf names the providers only.
        names = ", ".join(PROVIDER_NAMES[p] for p in present)
        yield Finding(
            "multiple-providers",
            path,
            f"Invalid value: {{{names}}}: more than one provider specified in a single element, should split into different list elements",
            subject=names,
        )
    first = present[0]
    body = mapping(provider.get(first))
    if first == "kms":
        yield from _check_kms(path + ("kms",), body, kms_names, ctx)
    elif first in KEY_LENGTHS:
        yield from _check_keys(path + (first,), first, body)


def _internal_json(provider: dict) -> dict:
    return {"AESGCM": None, "AESCBC": None, "Secretbox": None, "Identity": None, "KMS": None}


def _check_keys(path: tuple, provider: str, body: dict) -> Iterator[Finding]:
    keys = body.get("keys")
    if not keys:
        yield required(path + ("keys",), "at least one keys is required")
        return
    allowed = KEY_LENGTHS[provider]
    for m, key in items(keys):
        key = mapping(key)
        key_path = path + ("keys", m)
        if not text(key.get("name")):
            yield required(key_path + ("name",), "name is a mandatory field for a key")
        secret = key.get("secret")
        if not secret:
            yield required(key_path + ("secret",), "secret is a mandatory field for a key")
            continue
        if not isinstance(secret, str):
            continue
        decoded = decode_key(secret)
        if decoded is None:
            yield invalid_redacted(key_path + ("secret",), "secrets must be base64 encoded", "key-not-base64")
        elif len(decoded) not in allowed:
            expected = " ".join(str(n) for n in allowed)
            yield invalid_redacted(
                key_path + ("secret",),
                f"secret is not of the expected length, got {len(decoded)}, expected one of [{expected}]",
                "invalid-key-length",
            )
        elif provider == "aescbc" and len(decoded) != 32:
            yield advice(
                "aescbc-key-length",
                key_path + ("secret",),
                f"AES-CBC key is {len(decoded)} bytes; the API documents 32-byte keys for aescbc (the server accepts 16 and 24)",
            )


def decode_key(secret: str) -> bytes | None:
    """Standard padded base64, as Go's StdEncoding reads it (line breaks are ignored)."""
    cleaned = secret.replace("\r", "").replace("\n", "")
    if len(cleaned) % 4 or not _BASE64.match(cleaned):
        return None
    try:
        return base64.b64decode(cleaned, validate=True)
    except (binascii.Error, ValueError):
        return None


def _check_kms(path: tuple, kms: dict, kms_names: set[str], ctx: Context) -> Iterator[Finding]:
    api_version = kms.get("apiVersion") or "v1"
    name = text(kms.get("name"))
    if not name:
        yield required(path + ("name",), "name is a mandatory field for a provider")
    elif api_version != "v1" and ":" in name:
        yield invalid(path + ("name",), name, f"invalid KMS provider name {name}, must not contain ':'", "invalid-kms-name")
    elif api_version != "v1" and name in kms_names:
        yield invalid(path + ("name",), name, f"duplicate KMS provider name {name}, names must be unique", "duplicate-kms-name")
    elif name in kms_names:
        yield advice(
            "duplicate-kms-name",
            path + ("name",),
            f"KMS v1 provider name {name} is used twice; the server refuses this when the config is reloaded automatically",
        )
    if name:
        kms_names.add(name)
    timeout = kms.get("timeout")
    if isinstance(timeout, str):
        nanos = parse_duration(timeout)
        if nanos is None:
            yield invalid(path + ("timeout",), timeout, 'time: invalid duration "' + timeout + '"', "kms-timeout-not-positive")
        elif nanos <= 0:
            yield invalid(path + ("timeout",), format_duration(nanos), "timeout should be a positive value", "kms-timeout-not-positive")
    endpoint = kms.get("endpoint")
    if not endpoint:
        yield Finding(
            "missing-field",
            path + ("endpoint",),
            'Invalid value: "": endpoint is a mandatory field for a kms',
            Severity.ERROR,
            Anchor.PARENT,
        )
    elif isinstance(endpoint, str):
        yield from _check_endpoint(path + ("endpoint",), endpoint)
    cachesize = kms.get("cachesize")
    if cachesize is not None and isinstance(cachesize, int):
        if api_version != "v1":
            yield invalid(path + ("cachesize",), cachesize, "cachesize is not supported in v2", "invalid-kms-cachesize")
        elif cachesize == 0:
            yield invalid(path + ("cachesize",), 0, "cachesize should be a positive value, or negative to disable", "invalid-kms-cachesize")
    if api_version not in ("v1", "v2"):
        yield invalid(
            path + ("apiVersion",),
            api_version,
            "unsupported apiVersion apiVersion for KMS provider, only v1 and v2 are supported",
            "unsupported-kms-api-version",
        )
    elif api_version == "v1":
        yield from _kms_v1(path, kms, ctx)
    elif not ctx.at_least(1, 27):
        yield from _kms_v2_gated(path, name, ctx)


def _check_endpoint(path: tuple, endpoint: str) -> Iterator[Finding]:
    scheme, error = parse_url(endpoint)
    if error:
        yield invalid(path, endpoint, f"invalid endpoint for kms provider, error: {error}", "invalid-kms-endpoint")
        return
    if scheme != "unix":
        yield invalid(path, endpoint, f'unsupported scheme "{scheme}" for KMS provider, only unix is supported', "invalid-kms-endpoint")


def _kms_v1(path: tuple, kms: dict, ctx: Context) -> Iterator[Finding]:
    implicit = "apiVersion" not in kms
    where = path + (() if implicit else ("apiVersion",))
    why = "kms.apiVersion is not set and defaults to v1; " if implicit else ""
    if ctx.at_least(1, 29):
        yield Finding(
            "kms-v1-disabled",
            where,
            f"{why}KMSv1 is deprecated and will only receive security updates going forward. Use KMSv2 instead.  "
            "Set --feature-gates=KMSv1=true to use the deprecated KMSv1 feature.",
        )
    elif ctx.at_least(1, 28):
        yield Finding(
            "kms-v1-disabled",
            where,
            f"{why}KMSv1 is deprecated since 1.28 and disabled by default from 1.29; use apiVersion: v2",
            Severity.WARNING,
        )


def _kms_v2_gated(path: tuple, name: str, ctx: Context) -> Iterator[Finding]:
    """KMSv2 was alpha and off by default in 1.25 and 1.26 (beta, on by default, from 1.27)."""
    # 1.25 built the health probes first; 1.26 builds each plugin once, with its own wording.
    if ctx.at_least(1, 26):
        refusal = f"could not configure KMSv2 plugin {render_value(name)}, KMSv2 feature is not enabled"
    else:
        refusal = f"could not configure KMSv2-Plugin's probe {render_value(name)}, KMSv2 feature is not enabled"
    yield Finding("kms-v2-not-enabled", path + ("apiVersion",), f"{refusal}; set --feature-gates=KMSv2=true (alpha) or use apiVersion v1")


def _check_masking(entries: list) -> Iterator[Finding]:
    """A resource after an earlier wildcard of its group (or `*.*`) can never be reached."""
    earlier: dict[str, int] = {}  # group of a wildcard in an earlier entry -> its order among them
    for i, entry in items(entries):
        wildcards = []
        for j, name in items(mapping(entry).get("resources")):
            if not isinstance(name, str):
                continue
            resource, group = parse_group_resource(name)
            # The first earlier wildcard that covers it: its group's or `*.*`.
            covering = [g for g in (group, "*") if g in earlier]
            if covering:
                wild_group = min(covering, key=earlier.__getitem__)
                yield Finding(
                    "masked-resource",
                    ("resources", i, "resources", j),
                    f'resource "{upstream_spelling(resource, group)}" is masked by earlier rule "{upstream_spelling("*", wild_group)}"',
                )
            if resource == "*":
                wildcards.append(group)
        for group in wildcards:
            earlier.setdefault(group, len(earlier))


def _advice(entries: list, ctx: Context) -> Iterator[Finding]:
    seen: dict[tuple[str, str], int] = {}
    for i, entry in items(entries):
        entry = mapping(entry)
        for j, name in items(entry.get("resources")):
            if not isinstance(name, str) or "*" in name:
                continue
            key = parse_group_resource(name)
            if key in seen and seen[key] != i:
                yield advice(
                    "resource-in-multiple-entries",
                    ("resources", i, "resources", j),
                    f"{name} is already listed in resources[{seen[key]}]; this entry's providers only serve as extra read fallbacks",
                )
            seen.setdefault(key, i)
        providers = [mapping(p) for _k, p in items(entry.get("providers"))]
        if len(providers) > 1 and "identity" in providers[0]:
            yield advice(
                "identity-first",
                ("resources", i, "providers", 0, "identity"),
                "identity is the first provider, so new writes are stored unencrypted; put the encrypting provider first",
            )
        for k, provider in enumerate(providers):
            names: dict[str, int] = {}
            for kind in ("aesgcm", "aescbc", "secretbox"):
                for m, key in items(mapping(provider.get(kind)).get("keys")):
                    key_name = mapping(key).get("name")
                    if isinstance(key_name, str) and key_name:
                        if key_name in names:
                            yield advice(
                                "duplicate-key-name",
                                ("resources", i, "providers", k, kind, "keys", m, "name"),
                                f"key name {key_name} is already used by keys[{names[key_name]}]; data written with one cannot be told apart from the other",
                            )
                        names.setdefault(key_name, m)
            if "aescbc" in provider and k == 0:
                yield advice(
                    "aescbc-discouraged",
                    ("resources", i, "providers", k, "aescbc"),
                    "aescbc is not recommended (CBC is open to padding-oracle attacks); prefer kms v2, or aesgcm with regular key rotation",
                    Severity.INFO,
                )


@rule("EncryptionConfig")
def legacy_kind(doc: dict, ctx: Context) -> Iterator[Finding]:
    yield advice(
        "legacy-encryption-config",
        ("kind",),
        "apiVersion v1, kind EncryptionConfig is the legacy spelling; write apiVersion apiserver.config.k8s.io/v1, kind EncryptionConfiguration",
    )
