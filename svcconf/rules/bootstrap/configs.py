"""Bootstrap tool (kubeadm.k8s.io) rules: the tool's own validation of Init, Cluster, Join, Reset and Upgrade configurations."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

from svcconf.go.durations import parse_duration
from svcconf.go.names import dns1123_subdomain, qualified_name
from svcconf.go.net import AddressError, parse_ip_sloppy, split_host_port
from svcconf.go.url import parse_url
from svcconf.known.secrets import REDACTED, REDACTION, Masked
from svcconf.model import Finding, Path

from .. import Context, advice, invalid, items, mapping, not_supported, required, rule
from . import cluster, cross
from .fields import check_absolute, check_args, is_absolute

TOKEN = re.compile(r"^([a-z0-9]{6})\.([a-z0-9]{16})\Z")
TOKEN_ID = re.compile(r"^[a-z0-9]{6}")
GROUP = re.compile(r"^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\Z")
GROUP_PATTERN = r"\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\z"
USAGES = ("signing", "authentication")
PULL_POLICIES = ("Always", "IfNotPresent", "Never")
TAINT_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")
UNMOUNT_FLAGS = ("MNT_FORCE", "MNT_DETACH", "MNT_EXPIRE", "UMOUNT_NOFOLLOW")
CA_HASH = re.compile(r"^[0-9a-fA-F]*\Z")
KINDS = ("InitConfiguration", "ClusterConfiguration", "JoinConfiguration", "ResetConfiguration", "UpgradeConfiguration")


def token_shown(value: str) -> Masked:
    """A bootstrap token as messages may show it: its id only, never its secret."""
    match = TOKEN_ID.match(value)
    return Masked(f"{match.group(0)}.{REDACTION}" if match and value[6:7] == "." else REDACTION)


def check_token(path: Path, value: Any) -> Iterator[Finding]:
    if isinstance(value, str) and value and not TOKEN.match(value):
        yield invalid(path, token_shown(value), "the bootstrap token is invalid", "invalid-bootstrap-token")


# --------------------------------------------------------------------------- InitConfiguration


@rule("InitConfiguration")
def check_init(doc: dict, ctx: Context) -> Iterator[Finding]:
    for index, token in items(doc.get("bootstrapTokens")):
        yield from _bootstrap_token(("bootstrapTokens", index), mapping(token))
    yield from check_node_registration(("nodeRegistration",), mapping(doc.get("nodeRegistration")), ctx)
    yield from check_api_endpoint(("localAPIEndpoint",), mapping(doc.get("localAPIEndpoint")))
    yield from check_certificate_key(("certificateKey",), doc.get("certificateKey"))


def _bootstrap_token(path: Path, token: dict) -> Iterator[Finding]:
    yield from check_token(path + ("token",), token.get("token"))
    usages = [u for _i, u in items(token.get("usages")) if isinstance(u, str)]
    wrong = sorted(u for u in usages if u not in USAGES)
    if wrong:
        yield invalid(
            path + ("usages",),
            usages,
            f"invalid bootstrap token usage string: {','.join(wrong)}, valid usage options: {','.join(USAGES)}",
            "invalid-token-usage",
        )
    groups = token.get("groups")
    if groups and usages and "authentication" not in usages:
        yield invalid(
            path + ("groups",), groups, 'token groups cannot be specified unless --usages includes "authentication"', "invalid-token-group"
        )
    for j, group in items(groups):
        if isinstance(group, str) and not GROUP.match(group):
            yield invalid(
                path + ("groups", j), group, f'bootstrap group "{group}" is invalid (must match {GROUP_PATTERN})', "invalid-token-group"
            )
    ttl, expires = token.get("ttl"), token.get("expires")
    if expires is not None:
        # Defaulting sets ttl (24h) before validation, so expires alone fails like expires with ttl.
        yield invalid(path, "", "the BootstrapToken .TTL and .Expires fields are mutually exclusive", "token-ttl-and-expires")
    if isinstance(ttl, str) and _non_positive_duration(ttl):
        yield advice(
            "token-never-expires",
            path + ("ttl",),
            f"a token ttl of {ttl} never expires: anyone who learns the token can join nodes for ever; give it a lifetime such as 24h",
        )


def _non_positive_duration(value: str) -> bool:
    ns = parse_duration(value)
    return ns is not None and ns <= 0


def check_api_endpoint(path: Path, endpoint: dict) -> Iterator[Finding]:
    address = endpoint.get("advertiseAddress")
    # Empty is filled from the host's default route at run time, so only a written value is checked.
    if isinstance(address, str) and address and parse_ip_sloppy(address) is None:
        yield invalid(path + ("advertiseAddress",), address, "ip address is not valid", "invalid-advertise-address")
    port = endpoint.get("bindPort")
    # 0 is Go's zero value and becomes 6443.
    if isinstance(port, int) and not isinstance(port, bool) and port != 0 and not 1 <= port <= 65535:
        yield invalid(path + ("bindPort",), port, "port number is not valid", "invalid-bind-port")


def check_certificate_key(path: Path, value: Any) -> Iterator[Finding]:
    if not isinstance(value, str) or not value:
        return
    problem, size = hex_problem(value)
    if problem:
        yield Finding("invalid-certificate-key", path, f"Invalid value: {REDACTED}: certificate key decoding error: {problem}")
    elif size != 32:
        yield Finding(
            "invalid-certificate-key",
            path,
            f"Invalid value: {REDACTED}: invalid certificate key size {size}, the key must be an AES key of size 32",
        )


def check_node_registration(path: Path, node: dict, ctx: Context) -> Iterator[Finding]:
    name = node.get("name")
    if isinstance(name, str) and name.strip():
        # The tool trims and lower-cases the name before validating it.
        lowered = name.strip().lower()
        for problem in dns1123_subdomain(lowered):
            yield invalid(path + ("name",), lowered, problem, "invalid-node-name")
    yield from check_cri_socket(path + ("criSocket",), node.get("criSocket"))
    yield from check_args(path + ("kubeletExtraArgs",), node.get("kubeletExtraArgs"))
    policy = node.get("imagePullPolicy")
    if isinstance(policy, str) and policy and policy not in PULL_POLICIES:
        yield invalid(path + ("imagePullPolicy",), policy, "invalid pull policy", "invalid-pull-policy")
    for index, taint in items(node.get("taints")):
        yield from _taint(path + ("taints", index), mapping(taint))
    yield from check_preflight(path + ("ignorePreflightErrors",), node.get("ignorePreflightErrors"))


def check_cri_socket(path: Path, value: Any) -> Iterator[Finding]:
    if not isinstance(value, str) or not value:
        return
    if not value.startswith("unix"):
        scheme, _error = parse_url(value)
        if scheme and "://" in value:
            yield invalid(path, value, f'only URL scheme "unix" is supported, got "{scheme}"', "invalid-cri-socket")
            return
        yield advice(
            "cri-socket-without-scheme",
            path,
            "Usage of CRI endpoints without URL scheme is deprecated and can cause kubelet errors in the future. "
            f'Automatically prepending scheme "unix" to the "criSocket" with value "{value}". Please update your configuration!',
        )
        return
    scheme, _error = parse_url(value)
    if scheme != "unix":
        yield invalid(path, value, f'only URL scheme "unix" is supported, got "{scheme}"', "invalid-cri-socket")


def _taint(path: Path, taint: dict) -> Iterator[Finding]:
    # The tool does not check taints; the API server refuses them when the node registers.
    key = taint.get("key")
    if not key:
        yield required(path + ("key",))
    elif isinstance(key, str) and qualified_name(key):
        yield invalid(
            path + ("key",),
            key,
            "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
            "invalid-node-taint",
        )
    effect = taint.get("effect")
    if not effect:
        yield required(path + ("effect",))
    elif isinstance(effect, str) and effect not in TAINT_EFFECTS:
        yield not_supported(path + ("effect",), effect, TAINT_EFFECTS, "invalid-node-taint")


def check_preflight(path: Path, value: Any) -> Iterator[Finding]:
    names = sorted({v.lower() for _i, v in items(value) if isinstance(v, str)})
    if "all" in names and len(names) > 1:
        yield invalid(path, ",".join(names), "don't specify individual checks if 'all' is used", "preflight-all-with-others")


def hex_problem(value: str) -> tuple[str | None, int]:
    """(decoding error, decoded length) of Go's hex.DecodeString, never quoting the input."""
    if any(ch not in "0123456789abcdefABCDEF" for ch in value):
        return "encoding/hex: invalid byte", 0
    if len(value) % 2:
        return "encoding/hex: odd length hex string", 0
    return None, len(value) // 2


# --------------------------------------------------------------------------- ClusterConfiguration


@rule("ClusterConfiguration")
def check_cluster(doc: dict, ctx: Context) -> Iterator[Finding]:
    yield from cluster.check(doc, ctx)


# --------------------------------------------------------------------------- JoinConfiguration


@rule("JoinConfiguration")
def check_join(doc: dict, ctx: Context) -> Iterator[Finding]:
    yield from _discovery(mapping(doc.get("discovery")), ctx)
    yield from check_node_registration(("nodeRegistration",), mapping(doc.get("nodeRegistration")), ctx)
    control_plane = doc.get("controlPlane")
    if isinstance(control_plane, dict):
        yield from check_api_endpoint(("controlPlane", "localAPIEndpoint"), mapping(control_plane.get("localAPIEndpoint")))
        yield from check_certificate_key(("controlPlane", "certificateKey"), control_plane.get("certificateKey"))
    path = doc.get("caCertPath")
    if isinstance(path, str) and path and (not is_absolute(path) or not path.endswith(".crt")):
        yield invalid(("caCertPath",), path, "the ca certificate path must be an absolute path", "invalid-ca-cert-path")


def _discovery(discovery: dict, ctx: Context) -> Iterator[Finding]:
    token, file = discovery.get("bootstrapToken"), discovery.get("file")
    if token is None and file is None:
        yield invalid(("discovery",), "", "bootstrapToken or file must be set", "invalid-discovery")
    elif token is not None and file is not None:
        yield invalid(("discovery",), "", "bootstrapToken and file cannot both be set", "invalid-discovery")
    if isinstance(token, dict):
        yield from _token_discovery(("discovery", "bootstrapToken"), token)
    if isinstance(file, dict):
        yield from _file_discovery(("discovery", "file", "kubeConfigPath"), file.get("kubeConfigPath"), ctx)
    tls = discovery.get("tlsBootstrapToken")
    yield from check_token(("discovery", "tlsBootstrapToken"), tls)


def _token_discovery(path: Path, token: dict) -> Iterator[Finding]:
    endpoint = token.get("apiServerEndpoint")
    if not endpoint:
        yield required(path + ("apiServerEndpoint",), "APIServerEndpoint is not set", "invalid-discovery-endpoint")
    elif isinstance(endpoint, str):
        try:
            split_host_port(endpoint)
        except AddressError as err:
            yield invalid(path + ("apiServerEndpoint",), endpoint, str(err), "invalid-discovery-endpoint")
    hashes = token.get("caCertHashes")
    unsafe = token.get("unsafeSkipCAVerification") is True
    if not hashes and not unsafe:
        yield invalid(
            path + ("caCertHashes",),
            "",
            "using token-based discovery without caCertHashes can be unsafe. Set unsafeSkipCAVerification as true in your "
            "kubeadm config file or pass --discovery-token-unsafe-skip-ca-verification flag to continue",
            "discovery-without-ca-pinning",
        )
    if unsafe:
        yield advice(
            "unsafe-skip-ca-verification",
            path + ("unsafeSkipCAVerification",),
            "the joining node trusts whatever API server answers at the endpoint: pin the cluster CA with caCertHashes instead",
        )
    yield from check_token(path + ("token",), token.get("token"))
    for index, value in items(hashes):
        if isinstance(value, str):
            problem = ca_hash_problem(value)
            if problem:
                yield invalid(path + ("caCertHashes", index), value, problem, "invalid-ca-cert-hash")


def ca_hash_problem(value: str) -> str | None:
    """The check the tool makes only at join time (pubkeypin), made here before provisioning."""
    if value.count(":") != 1:
        return 'invalid public key hash, expected "format:value"'
    kind, digest = value.split(":")
    if kind.lower() != "sha256":
        return f'unknown hash format "{kind}"'
    if len(digest) != 64:
        return f"expected a 32 byte SHA-256 hash, found {len(digest) // 2} bytes"
    if not CA_HASH.match(digest):
        return "encoding/hex: invalid byte"
    return None


def _file_discovery(path: Path, value: Any, ctx: Context) -> Iterator[Finding]:
    if not isinstance(value, str) or not value:
        yield required(path)
        return
    scheme, error = parse_url(value)
    if error:
        yield invalid(path, value, "not a valid HTTPS URL or a file on disk", "invalid-discovery-file")
    elif scheme and scheme != "file" and len(scheme) > 1 and scheme != "https":
        yield invalid(path, value, "if a URL is used, the scheme must be https", "invalid-discovery-file")
    elif scheme in ("", "file") and ctx.fs_checks:
        # The file must exist on the joining node; svcconf can tell only when run there.
        local = value.removeprefix("file://")
        if not os.path.exists(local):
            yield invalid(path, value, "not a valid HTTPS URL or a file on disk", "invalid-discovery-file")


# --------------------------------------------------------------------------- Reset and Upgrade


@rule("ResetConfiguration")
def check_reset(doc: dict, ctx: Context) -> Iterator[Finding]:
    yield from check_absolute(("certificatesDir",), doc.get("certificatesDir"))
    yield from check_cri_socket(("criSocket",), doc.get("criSocket"))
    yield from check_preflight(("ignorePreflightErrors",), doc.get("ignorePreflightErrors"))
    for index, flag in items(doc.get("unmountFlags")):
        if isinstance(flag, str) and flag not in UNMOUNT_FLAGS:
            yield invalid(("unmountFlags", index), flag, f"unknown unmount flag {flag}", "invalid-unmount-flag")


@rule("UpgradeConfiguration")
def check_upgrade(doc: dict, ctx: Context) -> Iterator[Finding]:
    for section in ("apply", "node"):
        body = mapping(doc.get(section))
        yield from check_absolute((section, "patches", "directory"), mapping(body.get("patches")).get("directory"))
        policy = body.get("imagePullPolicy")
        if isinstance(policy, str) and policy and policy not in PULL_POLICIES:
            yield invalid((section, "imagePullPolicy"), policy, "invalid pull policy", "invalid-pull-policy")
        yield from check_preflight((section, "ignorePreflightErrors"), body.get("ignorePreflightErrors"))


# --------------------------------------------------------------------------- the file as a whole


@rule(*KINDS)
def check_file(doc: dict, ctx: Context) -> Iterator[Finding]:
    yield from cross.check(doc, ctx)
