"""Cross-document rules of a bootstrap file: which kinds the action needs, duplicates, ignored documents, agreeing values."""

from __future__ import annotations

from collections.abc import Iterator

from svcconf.go.net import parse_cidr_sloppy
from svcconf.known.naming import Naming
from svcconf.model import Finding, Severity

from .. import Context, advice, mapping, text
from .fields import last_arg

KUBEADM = "kubeadm.k8s.io"
KUBELET = "kubelet.config.k8s.io"
KUBEPROXY = "kubeproxy.config.k8s.io"
INIT_KINDS = ("InitConfiguration", "ClusterConfiguration")
# `kubeadm upgrade` and `kubeadm reset` read one kind and warn about every other document
# (upgradeconfiguration.go and resetconfiguration.go, documentMapTo...Configuration), refusing a
# file without theirs; reset's message names JoinConfiguration, as upstream's does.
OWN_KIND = {"upgrade": "UpgradeConfiguration", "reset": "ResetConfiguration"}
NOT_FOUND = {
    "upgrade": "no UpgradeConfiguration found in the supplied config",
    "reset": "no JoinConfiguration found in the supplied config (kubeadm reset's words: it found no ResetConfiguration)",
}
IGNORED = "[config] WARNING: Ignored configuration document with GroupVersionKind {gv}, Kind={kind}"
KUBEPROXY_KIND = "KubeProxyConfiguration"
COMPONENT_KINDS = {KUBELET: "KubeletConfiguration", KUBEPROXY: KUBEPROXY_KIND}
DEFAULT_SERVICE_SUBNET = "10.96.0.0/12"
DEFAULT_DNS_DOMAIN = "cluster.local"


def identify(doc: object, naming: Naming) -> tuple[str, str, str] | None:
    """(group, version, kind) of a document in upstream spelling, or None."""
    if not isinstance(doc, dict) or not isinstance(doc.get("apiVersion"), str) or not isinstance(doc.get("kind"), str):
        return None
    gv = naming.api_version(doc["apiVersion"])
    if gv is None:
        return None
    return gv.group, gv.version, naming.kind(doc["kind"])


def _naming(ctx: Context) -> Naming:
    return Naming(ctx.api_domain)


class BootstrapFile:
    """The documents of one file that the bootstrap tool reads, indexed once for the checks of every document."""

    __slots__ = ("count", "documents", "first", "first_own", "identities", "intent", "kinds")

    def __init__(self, siblings: list, naming: Naming, stated: str | None) -> None:
        self.identities = [identify(doc, naming) for doc in siblings]  # (group, version, kind) of every document, or None
        # (group, version, kind, data) of the documents of the bootstrap tool and its components
        self.documents = [
            (*gvk, doc)
            for gvk, doc in zip(self.identities, siblings)
            if gvk and (gvk[0] == KUBEADM or COMPONENT_KINDS.get(gvk[0]) == gvk[2])
        ]
        self.first: dict[str, dict] = {}
        self.count: dict[str, int] = {}
        for _group, _version, kind, doc in self.documents:
            self.first.setdefault(kind, doc)
            self.count[kind] = self.count.get(kind, 0) + 1
        # The proxy document's rules live in another module, so the first of the others speaks for the file.
        self.first_own = next((doc for _g, _v, kind, doc in self.documents if kind != KUBEPROXY_KIND), None)
        self.kinds = frozenset(self.first)
        self.intent = stated or _inferred_intent(self.kinds)


def _inferred_intent(kinds: frozenset[str]) -> str | None:
    init, join = bool(kinds & set(INIT_KINDS)), "JoinConfiguration" in kinds
    if init and not join:
        return "init"
    if join and not init:
        return "join"
    return None


def bootstrap_file(ctx: Context) -> BootstrapFile:
    """The file's bootstrap documents, indexed on the first call for any of its documents."""
    return ctx.siblings.derived(
        ("bootstrap-file", ctx.api_domain, ctx.bootstrap), lambda: BootstrapFile(ctx.siblings, _naming(ctx), ctx.bootstrap)
    )


def first_of(ctx: Context, kind: str) -> dict | None:
    return bootstrap_file(ctx).first.get(kind)


def intent(ctx: Context) -> str | None:
    """init, join, upgrade or reset (stated with --bootstrap), or None when the file is for neither
    init nor join or for both (then every document is used). A file inferred to be for init or join
    may also hold the UpgradeConfiguration of `kubeadm upgrade` (kubespray writes one file for init
    and upgrade): only a stated intent makes that document ignored."""
    return bootstrap_file(ctx).intent


def builds_cluster(ctx: Context) -> bool:
    """Whether the file's components are read with the cluster it builds: init, or an intent left open (not join, upgrade, reset)."""
    return intent(ctx) in (None, "init")


def check(doc: dict, ctx: Context) -> Iterator[Finding]:
    """Checks of the file, made once on its first bootstrap document, and of this document among the others."""
    file = bootstrap_file(ctx)
    kind = _naming(ctx).kind(doc.get("kind", ""))
    if file.first_own is doc:
        yield from _file_level(ctx, file.documents)
        yield from _other_documents(ctx)
    # A kind a second time: the tool refuses the file, at every document after the first of that kind.
    if file.count.get(kind, 0) > 1 and file.first.get(kind) is not doc:
        yield Finding("duplicate-bootstrap-kind", ("kind",), f'invalid configuration: kind "{kind}" is specified twice in YAML file')
    yield from _ignored(doc, kind, ctx)


def _file_level(ctx: Context, docs: list) -> Iterator[Finding]:
    action = intent(ctx)
    kinds = bootstrap_file(ctx).kinds
    if action == "init" and not kinds & set(INIT_KINDS):
        yield Finding(
            "missing-bootstrap-document",
            ("kind",),
            "no InitConfiguration or ClusterConfiguration kind was found in the configuration file",
        )
    if action == "join" and "JoinConfiguration" not in kinds:
        yield Finding("missing-bootstrap-document", ("kind",), "no JoinConfiguration found in the supplied config")
    if action in OWN_KIND and OWN_KIND[action] not in kinds:
        yield Finding("missing-bootstrap-document", ("kind",), NOT_FOUND[action])
    if action == "join":
        for _g, _v, kind, _d in docs:
            if kind == KUBEPROXY_KIND:
                yield advice(
                    "ignored-bootstrap-document",
                    ("kind",),
                    "this join file also holds a KubeProxyConfiguration, which join silently ignores: a joining node takes the "
                    "component configurations from the cluster",
                )
                break


def _other_documents(ctx: Context) -> Iterator[Finding]:
    """File-level findings placed in the documents they are about: a duplicated proxy document,
    and documents of kinds the tool does not read at all (init warns about each, as the tool does)."""
    seen: set[str] = set()
    action = intent(ctx)
    for position, gvk in enumerate(bootstrap_file(ctx).identities):
        if gvk is None:
            continue
        group, version, kind = gvk
        written = f"{group}/{version}" if group else version
        if group == KUBEPROXY and kind == KUBEPROXY_KIND:  # the kubelet document checks itself
            if kind in seen:
                yield Finding(
                    "duplicate-bootstrap-kind",
                    ("kind",),
                    f'invalid configuration: kind "{kind}" is specified twice in YAML file',
                    document=position,
                )
            seen.add(kind)
            if action in OWN_KIND:
                yield Finding(
                    "ignored-bootstrap-document", ("kind",), IGNORED.format(gv=written, kind=kind), Severity.WARNING, document=position
                )
        elif group != KUBEADM and COMPONENT_KINDS.get(group) != kind and action in ("init", *OWN_KIND) and kind != OWN_KIND.get(action):
            yield Finding(
                "ignored-bootstrap-document", ("kind",), IGNORED.format(gv=written, kind=kind), Severity.WARNING, document=position
            )


def _ignored(doc: dict, kind: str, ctx: Context) -> Iterator[Finding]:
    action = intent(ctx)
    gvk = identify(doc, _naming(ctx))
    if gvk is None:
        return
    group, version, _kind = gvk
    # Unless --bootstrap says otherwise, an UpgradeConfiguration beside init or join documents is for `kubeadm upgrade`.
    companion = ctx.bootstrap is None and group == KUBEADM and kind == OWN_KIND["upgrade"]
    if (
        action in OWN_KIND
        and kind != OWN_KIND[action]
        or (action == "init" and group == KUBEADM and kind not in INIT_KINDS and not companion)
    ):
        yield advice("ignored-bootstrap-document", ("kind",), IGNORED.format(gv=f"{group}/{version}", kind=kind))
    elif action == "join" and kind != "JoinConfiguration" and not companion:
        yield advice(
            "ignored-bootstrap-document",
            ("kind",),
            f"join reads only JoinConfiguration and silently ignores this {kind}"
            + (": a joining node takes the component configurations from the cluster" if group != KUBEADM else ""),
        )


# --------------------------------------------------------------------------- values kept consistent


def cluster_values(ctx: Context) -> dict:
    """Networking values of the file's ClusterConfiguration, defaulted as the tool defaults them."""
    cluster = first_of(ctx, "ClusterConfiguration")
    net = mapping(mapping(cluster).get("networking"))
    return {
        "present": cluster is not None,
        # Values of the wrong type are the schema's to report; here they count as unset.
        "serviceSubnet": text(net.get("serviceSubnet")) or DEFAULT_SERVICE_SUBNET,
        "podSubnet": text(net.get("podSubnet")),
        "dnsDomain": text(net.get("dnsDomain")) or DEFAULT_DNS_DOMAIN,
        "certificatesDir": text(mapping(cluster).get("certificatesDir")) or "/etc/kubernetes/pki",
    }


def dns_ip(service_subnet: str) -> str:
    """The cluster DNS address the tool derives: the 10th address of the first service CIDR."""
    network = parse_cidr_sloppy(service_subnet.split(",")[0].strip())
    return str(network.network_address + 10) if network is not None else "10.96.0.10"


def recommended(rule_id: str, path: tuple, kind: str, field: str, want: object, got: object, severity=Severity.WARNING) -> Finding:
    """The tool's own wording when a component value differs from what it keeps consistent."""
    return advice(
        rule_id,
        path,
        f'The recommended value for "{field}" in "{kind}" is: {_go(want)}; the provided value is: {_go(got)}',
        severity,
        subject=got,
    )


def _go(value: object) -> str:
    if isinstance(value, list):
        return "[" + " ".join(str(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def pod_subnet_checks(doc: dict, ctx: Context) -> Iterator[Finding]:
    """Pod subnet against the proxy's clusterCIDR and the controller manager's --cluster-cidr (from the cluster document)."""
    pods = mapping(doc.get("networking")).get("podSubnet")
    if not isinstance(pods, str) or not pods:
        return
    cidr = last_arg(mapping(doc.get("controllerManager")).get("extraArgs"), "cluster-cidr")
    if cidr is not None and _cidrs(cidr) != _cidrs(pods):
        yield advice(
            "pod-subnet-mismatch",
            ("networking", "podSubnet"),
            f"podSubnet {pods} differs from the controller manager's --cluster-cidr={cidr} in controllerManager.extraArgs, "
            "which overrides the value the tool derives: nodes get pod ranges outside the pod subnet",
        )
    proxy = first_of(ctx, KUBEPROXY_KIND)
    if proxy is not None and builds_cluster(ctx):
        cluster_cidr = proxy.get("clusterCIDR")
        if isinstance(cluster_cidr, str) and cluster_cidr and _cidrs(cluster_cidr) != _cidrs(pods):
            yield advice(
                "pod-subnet-mismatch",
                ("networking", "podSubnet"),
                f'The recommended value for "clusterCIDR" in "KubeProxyConfiguration" is: {pods}; the provided value is: {cluster_cidr}',
            )


def _cidrs(raw: str) -> set:
    """The networks of a comma list of CIDRs as the tool reads them (ParseCIDRSloppy); an unreadable part as written."""
    return {parse_cidr_sloppy(part.strip()) or part.strip() for part in raw.split(",")}
