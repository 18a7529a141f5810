"""ClusterConfiguration rules of the bootstrap tool: networking, etcd, images, endpoints and feature gates."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

from svcconf.go.names import dns1123_subdomain, is_subdomain, wildcard_dns1123_subdomain
from svcconf.go.net import AddressError, parse_cidr_sloppy, parse_ip_sloppy, parse_port, split_host_port
from svcconf.go.numbers import parse_int
from svcconf.go.reference import valid_image_repository
from svcconf.go.url import parse_url
from svcconf.known.catalog import parse_release
from svcconf.known.tsv import read_table
from svcconf.model import Finding, Path, render_value

from .. import Context, advice, invalid, items, mapping
from .cross import bootstrap_file, pod_subnet_checks
from .fields import check_absolute, check_args, last_arg
from .versions import check_kubernetes_version

MIN_SERVICE_ADDRESSES = 10
MIN_POD_ADDRESSES = 14
MAX_SERVICE_HOST_BITS = 20
MAX_NODE_MASK_DIFFERENCE = 16
DEFAULT_NODE_MASK = {4: 24, 6: 64}
ALGORITHMS = ("ECDSA-P256", "RSA-2048", "RSA-3072", "RSA-4096")
SITE_LOCAL = parse_cidr_sloppy("fec0::/10")
# kubeadm's version patterns (util/version.go), with Go's ASCII \w and \d spelled out. The release
# pattern's third number and suffix, `(0|[1-9][0-9]*)([-\w.+]*)?`, match the same texts as one digit
# followed by suffix characters, written that way so that digits cannot be split two ways.
SEMVER = re.compile(r"^v?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.[0-9][-0-9A-Za-z_.+]*\Z")
LABEL = re.compile(r"^(latest|stable)+(-[1-9](\.[1-9][0-9]?)?)?\Z")
BUCKET = re.compile(r"^((release|ci)/)?([-0-9A-Za-z_.+]+)\Z")


def check(doc: dict, ctx: Context) -> Iterator[Finding]:
    dns = mapping(doc.get("dns"))
    yield from _image_repository(("dns", "imageRepository"), dns.get("imageRepository"))
    yield from _networking(doc, mapping(doc.get("networking")))
    api_server = mapping(doc.get("apiServer"))
    yield from _sans(("apiServer", "certSANs"), api_server.get("certSANs"), lowercase=True)
    for component in ("apiServer", "controllerManager", "scheduler"):
        yield from check_args((component, "extraArgs"), mapping(doc.get(component)).get("extraArgs"))
    yield from check_absolute(("certificatesDir",), doc.get("certificatesDir"))
    yield from _feature_gates(doc.get("featureGates"), ctx)
    yield from _control_plane_endpoint(doc, ctx)
    yield from _image_repository(("imageRepository",), doc.get("imageRepository"))
    yield from _etcd(mapping(doc.get("etcd")))
    yield from _encryption_algorithm(doc.get("encryptionAlgorithm"), ctx)
    yield from _kubernetes_version(doc.get("kubernetesVersion"))
    yield from check_kubernetes_version(doc.get("kubernetesVersion"), ctx)
    yield from pod_subnet_checks(doc, ctx)


# --------------------------------------------------------------------------- images


def _image_repository(path: Path, value: Any) -> Iterator[Finding]:
    if not isinstance(value, str) or not value:
        return  # unset: defaulted to registry.k8s.io (dns, etcd: the cluster's repository)
    if value.lower().startswith("http://"):
        yield advice(
            "image-repository-over-http",
            path,
            f"image repository {value} names plain http: images would travel unauthenticated and unencrypted; use a TLS registry",
        )
    if not valid_image_repository(value):
        yield invalid(path, value, "invalid image repository format", "invalid-image-repository")


# --------------------------------------------------------------------------- networking


def _networking(doc: dict, net: dict) -> Iterator[Finding]:
    domain = net.get("dnsDomain")
    if isinstance(domain, str) and domain:
        for problem in dns1123_subdomain(domain):
            yield invalid(("networking", "dnsDomain"), domain, problem, "invalid-dns-domain")
    service = net.get("serviceSubnet")
    if isinstance(service, str) and service:
        networks = yield from _subnets(("networking", "serviceSubnet"), service, MIN_SERVICE_ADDRESSES, "invalid-service-subnet")
        for network in networks:
            if network.max_prefixlen - network.prefixlen > MAX_SERVICE_HOST_BITS:
                yield invalid(
                    ("networking", "serviceSubnet"),
                    str(network),
                    f"specified service subnet is too large; for {network.max_prefixlen}-bit addresses, "
                    f"the mask must be >= {network.max_prefixlen - MAX_SERVICE_HOST_BITS}",
                    "invalid-service-subnet",
                )
    pods = net.get("podSubnet")
    if isinstance(pods, str) and pods:
        networks = yield from _subnets(("networking", "podSubnet"), pods, MIN_POD_ADDRESSES, "invalid-pod-subnet")
        if networks and last_arg(mapping(doc.get("controllerManager")).get("extraArgs"), "allocate-node-cidrs") != "false":
            for network in networks:
                yield from _node_mask(doc, network)


def _subnets(path: Path, raw: str, minimum: int, rule_id: str):
    """Parse a comma list of CIDRs; yields findings and returns the networks when all parse."""
    networks = [parse_cidr_sloppy(part) for part in raw.split(",")]
    if any(n is None for n in networks):
        yield invalid(path, raw, "couldn't parse subnet", rule_id)
        return []
    if len(networks) > 2 or (len(networks) == 2 and networks[0].version == networks[1].version):
        yield invalid(path, raw, "expected one (IPv4 or IPv6) CIDR or two CIDRs from each family for dual-stack networking", rule_id)
        return []
    for network in networks:
        if network.num_addresses < minimum:
            yield invalid(
                path, str(network), f"subnet with {network.num_addresses} address(es) is too small, the minimum is {minimum}", rule_id
            )
        if network.version == 6 and network.overlaps(SITE_LOCAL):
            yield advice(
                "site-local-subnet",
                path,
                f"the subnet {network} contains IPv6 site-local addresses that belong to fec0::/10 which has been deprecated by rfc3879",
            )
    return networks


def _node_mask(doc: dict, network) -> Iterator[Finding]:
    path = ("networking", "podSubnet")
    flag = f"node-cidr-mask-size-ipv{network.version}"
    written = last_arg(mapping(doc.get("controllerManager")).get("extraArgs"), flag)
    node_mask = DEFAULT_NODE_MASK[network.version]
    if written is not None:
        node_mask = parse_int(written)  # strconv.Atoi
        if node_mask is None:
            yield invalid(
                path,
                str(network),
                f'could not parse the value of the kube-controller-manager flag {flag} as an integer: strconv.Atoi: parsing "{written}": invalid syntax',
                "pod-subnet-node-mask",
            )
            return
    pod_mask = network.prefixlen
    if pod_mask > node_mask:
        yield invalid(
            path,
            str(network),
            f"the size of pod subnet with mask {pod_mask} is smaller than the size of node subnet with mask {node_mask}",
            "pod-subnet-node-mask",
        )
    elif node_mask - pod_mask > MAX_NODE_MASK_DIFFERENCE:
        yield invalid(
            path,
            str(network),
            f"pod subnet mask ({pod_mask}) and node-mask ({node_mask}) difference is greater than {MAX_NODE_MASK_DIFFERENCE}",
            "pod-subnet-node-mask",
        )


# --------------------------------------------------------------------------- names and endpoints


def _sans(path: Path, values: Any, lowercase: bool = False) -> Iterator[Finding]:
    """Check extra SANs; kubeadm lower-cases the API server's before validating them (LowercaseSANs)."""
    for index, san in items(values):
        if not isinstance(san, str):
            continue
        if lowercase:
            san = san.lower()
        if is_subdomain(san):
            continue
        wildcard_problems = wildcard_dns1123_subdomain(san)
        if not wildcard_problems or parse_ip_sloppy(san) is not None:
            continue
        detail = "; ".join(dns1123_subdomain(san) + wildcard_problems)
        yield invalid(
            path + (index,),
            san,
            f"altname is not a valid IP address, DNS label or a DNS label with subdomain wildcards: {detail}",
            "invalid-cert-san",
        )


def _control_plane_endpoint(doc: dict, ctx: Context) -> Iterator[Finding]:
    value = doc.get("controlPlaneEndpoint")
    if not isinstance(value, str) or not value:
        return
    host = _parse_host_port(value)
    if host is None:
        yield invalid(("controlPlaneEndpoint",), value, "endpoint is not valid", "invalid-control-plane-endpoint")
        return
    if parse_ip_sloppy(host) is not None and _several_control_planes(ctx):
        yield advice(
            "control-plane-endpoint-bare-ip",
            ("controlPlaneEndpoint",),
            f"controlPlaneEndpoint {value} is a bare IP while more than one control plane is planned: the address cannot move "
            "to another node; use a DNS name or a load balancer address",
        )


def _parse_host_port(value: str) -> str | None:
    """The host of kubeadm's ParseHostPort (host[:port], host an IP or a DNS subdomain), or None where it fails."""
    try:
        host, port = split_host_port(value)
    except AddressError:
        host, port = value, ""  # the whole text is the host
    if port and not 1 <= (parse_port(port) or 0) <= 65535:
        return None
    if parse_ip_sloppy(host) is None and not is_subdomain(host):
        return None
    return host


def _several_control_planes(ctx: Context) -> bool:
    """More control planes are planned when certificates are shared or a control-plane join sits beside."""
    file = bootstrap_file(ctx)
    return ctx.siblings.derived(("several-control-planes", ctx.api_domain, ctx.bootstrap), lambda: _plans_more(file.documents))


def _plans_more(documents: list[tuple[str, str, str, dict]]) -> bool:
    for _group, _version, kind, sibling in documents:
        if kind == "InitConfiguration" and sibling.get("certificateKey"):
            return True
        if kind == "JoinConfiguration" and isinstance(sibling.get("controlPlane"), dict):
            return True
    return False


# --------------------------------------------------------------------------- etcd


def _etcd(etcd: dict) -> Iterator[Finding]:
    local, external = etcd.get("local"), etcd.get("external")
    if local is not None and external is not None:
        yield invalid(("etcd",), "", ".Etcd.Local and .Etcd.External are mutually exclusive", "invalid-etcd")
        return
    if isinstance(local, dict):
        yield from check_absolute(("etcd", "local", "dataDir"), local.get("dataDir"))
        yield from _sans(("etcd", "local", "serverCertSANs"), local.get("serverCertSANs"))
        yield from _sans(("etcd", "local", "peerCertSANs"), local.get("peerCertSANs"))
        yield from _image_repository(("etcd", "local", "imageRepository"), local.get("imageRepository"))
        yield from check_args(("etcd", "local", "extraArgs"), local.get("extraArgs"))
    if isinstance(external, dict):
        yield from _external_etcd(external)


def _external_etcd(external: dict) -> Iterator[Finding]:
    path = ("etcd", "external")
    ca, cert, key = (external.get(k) or "" for k in ("caFile", "certFile", "keyFile"))
    if bool(cert) != bool(key):
        yield invalid(
            path, "", "either both or none of .Etcd.External.CertFile and .Etcd.External.KeyFile must be set", "invalid-external-etcd"
        )
    elif cert and key and not ca:
        yield invalid(
            path, "", "setting .Etcd.External.CertFile and .Etcd.External.KeyFile requires .Etcd.External.CAFile", "invalid-external-etcd"
        )
    endpoints = external.get("endpoints")
    if not endpoints:
        yield advice(
            "external-etcd-without-endpoints",
            path + ("endpoints",),
            "external etcd has no endpoints: the API server would have no etcd to talk to",
        )
    tls = bool(ca or cert or key)
    for index, url in items(endpoints):
        if not isinstance(url, str):
            continue
        scheme, error = parse_url(url)
        if error:
            yield invalid(path + ("endpoints", index), url, f"URL parse error: {error}", "invalid-etcd-endpoint")
        elif not scheme:
            yield invalid(path + ("endpoints", index), url, "the URL without scheme is not allowed", "invalid-etcd-endpoint")
        elif tls and scheme != "https":
            yield invalid(path + ("endpoints", index), url, "the URL must be using the HTTPS scheme", "invalid-etcd-endpoint")
    for name in ("caFile", "certFile", "keyFile"):
        yield from check_absolute(path + (name,), external.get(name))


# --------------------------------------------------------------------------- versions, algorithms, gates


def _encryption_algorithm(value: Any, ctx: Context) -> Iterator[Finding]:
    if not isinstance(value, str) or not value:
        return
    allowed = sorted(ALGORITHMS + (("ECDSA-P384",) if ctx.at_least(1, 34) else ()))
    if value not in allowed:
        yield invalid(
            ("encryptionAlgorithm",),
            value,
            f'Invalid encryption algorithm "{value}". Must be one of [{" ".join(allowed)}]',
            "invalid-encryption-algorithm",
        )


def _kubernetes_version(value: Any) -> Iterator[Finding]:
    if not isinstance(value, str) or not value:
        return
    match = BUCKET.match(value)
    name = match.group(3) if match else value
    if not (match and (SEMVER.match(name) or LABEL.match(name))):
        yield invalid(
            ("kubernetesVersion",),
            value,
            f'version "{value}" doesn\'t match patterns for neither semantic version nor labels (stable, latest, ...)',
            "invalid-kubernetes-version",
        )


@functools.cache
def feature_gates() -> list[tuple[str, tuple, tuple | None]]:
    _meta, rows = read_table("kubeadm", "feature-gates.tsv")
    return [(r["gate"], parse_release(r["introduced"]), parse_release(r["removed"]) if r["removed"] else None) for r in rows]


def known_gates(target: tuple) -> list[str]:
    return [gate for gate, introduced, removed in feature_gates() if introduced <= target and (removed is None or target < removed)]


def _feature_gates(gates: Any, ctx: Context) -> Iterator[Finding]:
    if not isinstance(gates, dict):
        return
    known = set(known_gates(ctx.target))
    shown = "map[string]bool{" + ", ".join(f"{render_value(k)}:{render_value(v)}" for k, v in sorted(gates.items())) + "}"
    for name in gates:
        if name not in known:
            yield Finding(
                "unknown-bootstrap-feature-gate", ("featureGates", name), f"Invalid value: {shown}: {name} is not a valid feature name."
            )
