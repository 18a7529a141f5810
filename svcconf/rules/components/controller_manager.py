"""Controller-manager rules: KubeControllerManagerConfiguration and CloudControllerManagerConfiguration.

kube-controller-manager and cloud-controller-manager read no config file: their documents declare
flag values, so a value is checked as the flag would be (an explicit 0 is a 0, not "unset") and
upstream's plain option errors are quoted after svcconf's own field path.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator

from svcconf.go.durations import SECOND, format_duration, parse_duration
from svcconf.go.net import parse_cidr_sloppy
from svcconf.model import Finding, Severity

from .. import Context, advice, integer, invalid, items, mapping, required, rule, text
from .base import check_client_connection, check_debugging, check_leader_election
from .leader_migration import CCM_CONTROLLERS, CCM_WEBHOOKS, KCM_CONTROLLERS, leader_migration

KCM = "KubeControllerManagerConfiguration"
CCM = "CloudControllerManagerConfiguration"


# (block, field, flag name, upstream wording) for counts kube-controller-manager checks
# (the Validate methods of cmd/kube-controller-manager/app/options/).
AT_LEAST_ONE = (
    ("StatefulSetController", "ConcurrentStatefulSetSyncs", "concurrent-statefulset-syncs must be greater than 0"),
    ("EphemeralVolumeController", "ConcurrentEphemeralVolumeSyncs", "concurrent-ephemeralvolume-syncs must be greater than 0"),
    ("HPAController", "ConcurrentHorizontalPodAutoscalerSyncs", "concurrent-horizontal-pod-autoscaler-syncs must be greater than 0"),
    ("JobController", "ConcurrentJobSyncs", "concurrent-job-syncs must be greater than 0"),
    ("CronJobController", "ConcurrentCronJobSyncs", "concurrent-cron-job-syncs must be greater than 0"),
    ("ValidatingAdmissionPolicyStatusController", "ConcurrentPolicySyncs", "must be positive, got {n}"),
    ("DeviceTaintEvictionController", "ConcurrentSyncs", "concurrent-device-taint-eviction-syncs must be greater than zero, got {n}"),
    ("ResourceClaimController", "ConcurrentSyncs", "concurrent-resourceclaim-syncs must be larger than 0, got {n}"),
)
# (block, field, flag, low, high) for the EndpointSlice limits
# (cmd/kube-controller-manager/app/options/endpointslicecontroller.go, endpointslicemirroringcontroller.go).
RANGES = (
    ("EndpointSliceController", "ConcurrentServiceEndpointSyncs", "concurrent-service-endpoint-syncs", 1, 50),
    ("EndpointSliceController", "MaxEndpointsPerSlice", "max-endpoints-per-slice", 1, 1000),
    ("EndpointSliceMirroringController", "MirroringConcurrentServiceEndpointSyncs", "mirroring-concurrent-service-endpoint-syncs", 1, 50),
    ("EndpointSliceMirroringController", "MirroringMaxEndpointsPerSubset", "mirroring-max-endpoints-per-subset", 1, 1000),
)
# Worker counts upstream does not check; 0 workers means the controller never syncs (svcconf's own advice).
UNCHECKED_COUNTS = (
    ("DaemonSetController", "ConcurrentDaemonSetSyncs"),
    ("DeploymentController", "ConcurrentDeploymentSyncs"),
    ("ReplicaSetController", "ConcurrentRSSyncs"),
    ("ReplicationController", "ConcurrentRCSyncs"),
    ("EndpointController", "ConcurrentEndpointSyncs"),
    ("GarbageCollectorController", "ConcurrentGCSyncs"),
    ("NamespaceController", "ConcurrentNamespaceSyncs"),
    ("ResourceQuotaController", "ConcurrentResourceQuotaSyncs"),
    ("SAController", "ConcurrentSATokenSyncs"),
    ("ServiceController", "ConcurrentServiceSyncs"),
    ("TTLAfterFinishedController", "ConcurrentTTLSyncs"),
)
# CSR signer blocks and the label upstream prints for each (upstream mislabels two of them).
SIGNERS = (
    ("KubeletServingSignerConfiguration", "cluster-signing-kubelet-serving"),
    ("KubeletClientSignerConfiguration", "cluster-signing-kube-apiserver-client"),
    ("KubeAPIServerClientSignerConfiguration", "cluster-signing-kube-apiserver"),
    ("LegacyUnknownSignerConfiguration", "cluster-signing-legacy-unknown"),
)
DEPRECATED = (
    (("KubeCloudShared", "AllowUntaggedCloud"), "AllowUntaggedCloud (--allow-untagged-cloud) is deprecated"),
    (("KubeCloudShared", "NodeSyncPeriod"), "NodeSyncPeriod (--node-sync-period) is deprecated and has no effect"),
    (("NodeLifecycleController", "PodEvictionTimeout"), "PodEvictionTimeout has no flag any more and is not used"),
    (("Generic", "Port"), "Port was the insecure port, which has been removed"),
)


# --------------------------------------------------------------------------- generic (both managers)


@rule(KCM, CCM)
def check_generic(doc: dict, ctx: Context) -> Iterator[Finding]:
    kind = ctx.kind or KCM
    generic = mapping(doc.get("Generic"))
    base = ("Generic",)
    name = "kube-controller-manager" if kind == KCM else "cloud-controller-manager"
    defaults = {"resourceName": name, "resourceNamespace": "kube-system"}
    yield from check_leader_election(base + ("LeaderElection",), mapping(generic.get("LeaderElection")), ctx, defaults)
    yield from check_client_connection(base + ("ClientConnection",), mapping(generic.get("ClientConnection")), ctx)
    yield from check_debugging(base + ("Debugging",), mapping(generic.get("Debugging")), ctx)
    # kube-controller-manager's controller list is fixed, so it refuses a name it does not know;
    # a cloud provider adds its own controllers to cloud-controller-manager's list.
    known, severity = (KCM_CONTROLLERS, Severity.ERROR) if kind == KCM else (CCM_CONTROLLERS, Severity.WARNING)
    yield from _name_list(base + ("Controllers",), generic.get("Controllers"), known, "controllers", "unknown-controller", severity)
    migration = generic.get("LeaderMigration")
    if generic.get("LeaderMigrationEnabled") is True:
        if isinstance(migration, dict) and migration:
            yield from leader_migration(base + ("LeaderMigration",), migration, with_lock=True, target=ctx.target)
    elif isinstance(migration, dict) and migration:
        yield advice(
            "leader-migration-not-enabled",
            base + ("LeaderMigration",),
            "LeaderMigration is ignored while LeaderMigrationEnabled is not true",
        )


def _name_list(
    path: tuple, names, known: frozenset, noun: str, unknown_rule: str, severity: Severity = Severity.WARNING
) -> Iterator[Finding]:
    """`*`, `foo`, `-foo`; the first item for a name wins (staging/src/k8s.io/controller-manager/app/helper.go: IsControllerEnabled)."""
    seen: dict[str, int] = {}
    for i, entry in items(names):
        if not isinstance(entry, str):
            continue
        if entry == "*":
            if i > 0:
                yield advice(
                    "controller-list-order", path + (i,), f'"*" is not the first item: items before it already decided their {noun}'
                )
            continue
        plain = entry.removeprefix("-")
        if plain not in known:
            yield Finding(unknown_rule, path + (i,), f'"{plain}" is not in the list of known {noun}', severity)
        if plain in seen:
            yield advice(
                "controller-list-order",
                path + (i,),
                f'"{entry}" is ignored: item {seen[plain]} already names {plain} and the first item for a name wins',
            )
        else:
            seen[plain] = i


# --------------------------------------------------------------------------- kube-controller-manager


@rule(KCM)
def check_counts(doc: dict, ctx: Context) -> Iterator[Finding]:
    for block, field, detail in AT_LEAST_ONE:
        value = integer(mapping(doc.get(block)).get(field))
        if value is not None and value < 1:
            yield invalid((block, field), value, detail.format(n=value), "concurrent-syncs-too-low")
    for block, field, flag, low, high in RANGES:
        value = integer(mapping(doc.get(block)).get(field))
        if value is not None and value < low:
            yield invalid(
                (block, field), value, f"{flag} must not be less than {low}, but got {value}", "endpoint-slice-limit-out-of-range"
            )
        elif value is not None and value > high:
            yield invalid(
                (block, field), value, f"{flag} must not be more than {high}, but got {value}", "endpoint-slice-limit-out-of-range"
            )
    for block, field in UNCHECKED_COUNTS:
        value = integer(mapping(doc.get(block)).get(field))
        if value is not None and value < 1:
            yield advice(
                "concurrent-syncs-not-positive",
                (block, field),
                f"{field} {value}: the controller gets no workers and never syncs (upstream does not check this one)",
            )


@rule(KCM)
def check_attach_detach_and_csr(doc: dict, ctx: Context) -> Iterator[Finding]:
    period = mapping(doc.get("AttachDetachController")).get("ReconcilerSyncLoopPeriod")
    ns = parse_duration(period)
    if ns is not None and ns < SECOND:
        yield invalid(
            ("AttachDetachController", "ReconcilerSyncLoopPeriod"),
            format_duration(ns),
            "duration time must be greater than one second",
            "attach-detach-reconcile-period-too-short",
        )
    csr = mapping(doc.get("CSRSigningController"))
    base = ("CSRSigningController",)
    single = text(csr.get("ClusterSigningCertFile")) or text(csr.get("ClusterSigningKeyFile"))
    any_signer = False
    for block, label in SIGNERS:
        signer = mapping(csr.get(block))
        cert, key = text(signer.get("CertFile")), text(signer.get("KeyFile"))
        any_signer = any_signer or bool(cert or key)
        if key and not cert:
            yield invalid(base + (block, "KeyFile"), key, f'"{label}": cannot specify key without cert', "csr-signing-files-conflict")
        if cert and not key:
            yield invalid(base + (block, "CertFile"), cert, f'"{label}": cannot specify cert without key', "csr-signing-files-conflict")
    if single and any_signer:
        field = "ClusterSigningCertFile" if text(csr.get("ClusterSigningCertFile")) else "ClusterSigningKeyFile"
        yield invalid(
            base + (field,),
            single,
            "cannot specify --cluster-signing-{cert,key}-file and other --cluster-signing-*-file flags at the same time",
            "csr-signing-files-conflict",
        )


@rule(KCM)
def check_node_ipam(doc: dict, ctx: Context) -> Iterator[Finding]:
    ipam = mapping(doc.get("NodeIPAMController"))
    base = ("NodeIPAMController",)
    services = []
    for field in ("ServiceCIDR", "SecondaryServiceCIDR"):
        value = ipam.get(field)
        if isinstance(value, str) and value:
            network = parse_cidr_sloppy(value)
            if network is None:
                detail = (
                    "--service-cluster-ip-range can not contain more than two entries"
                    if value.count(",") > 1
                    else "must be a valid CIDR (write the other family in SecondaryServiceCIDR)"
                )
                yield invalid(base + (field,), value, detail, "invalid-service-cidr")
            else:
                services.append(network)
    if len(services) == 2 and services[0].version == services[1].version:
        yield invalid(
            base + ("SecondaryServiceCIDR",),
            ipam.get("SecondaryServiceCIDR"),
            "must be of a different IP family than ServiceCIDR",
            "invalid-service-cidr",
        )
    shared = mapping(doc.get("KubeCloudShared"))
    if shared.get("AllocateNodeCIDRs") is True:
        yield from _node_cidrs(shared, ipam)


def _node_cidrs(shared: dict, ipam: dict) -> Iterator[Finding]:
    cluster = shared.get("ClusterCIDR")
    if not isinstance(cluster, str) or not cluster:
        yield required(("KubeCloudShared", "ClusterCIDR"), "AllocateNodeCIDRs needs the cluster's pod CIDR", "cluster-cidr-required")
        return
    networks = [parse_cidr_sloppy(part.strip()) for part in cluster.split(",")]
    if None in networks or len(networks) > 2 or (len(networks) == 2 and networks[0].version == networks[1].version):
        yield invalid(
            ("KubeCloudShared", "ClusterCIDR"), cluster, "must be one CIDR or a dual-stack pair of CIDRs", "cluster-cidr-required"
        )
        return
    base = ("NodeIPAMController",)
    single = integer(ipam.get("NodeCIDRMaskSize")) or 0
    if len(networks) == 2 and single:
        yield advice(
            "node-cidr-mask-size-invalid",
            base + ("NodeCIDRMaskSize",),
            "usage of --node-cidr-mask-size is not allowed with dual-stack clusters; set NodeCIDRMaskSizeIPv4 and NodeCIDRMaskSizeIPv6",
            Severity.ERROR,
        )
        single = 0
    for network in networks:
        field = "NodeCIDRMaskSizeIPv4" if network.version == 4 else "NodeCIDRMaskSizeIPv6"
        own = integer(ipam.get(field)) or 0
        if single and len(networks) == 1:
            yield from _mask_size(base + ("NodeCIDRMaskSize",), single, network)
        elif own:
            yield from _mask_size(base + (field,), own, network)
        else:  # the runtime default mask: the cluster CIDR is what to change
            yield from _default_mask(field, 24 if network.version == 4 else 64, network)


def _mask_problem(mask: int, network: ipaddress.IPv4Network | ipaddress.IPv6Network) -> str | None:
    # The node IPAM controller refuses only a cluster prefix longer than the node mask
    # (pkg/controller/nodeipam/node_ipam_controller.go); an equal mask gives one node the whole CIDR.
    if mask < network.prefixlen:
        return (
            f"mask size of cluster CIDR (/{network.prefixlen}) must be less than or equal to "
            "--node-cidr-mask-size configured for CIDR family"
        )
    if mask > network.max_prefixlen:
        return f"must be at most {network.max_prefixlen}"
    if network.version == 6 and mask - network.prefixlen > 16:
        return f"must be at most 16 bits longer than the cluster CIDR prefix /{network.prefixlen}"
    return None


def _mask_size(path: tuple, mask: int, network: ipaddress.IPv4Network | ipaddress.IPv6Network) -> Iterator[Finding]:
    problem = _mask_problem(mask, network)
    if problem:
        yield invalid(path, mask, problem, "node-cidr-mask-size-invalid")


def _default_mask(field: str, mask: int, network: ipaddress.IPv4Network | ipaddress.IPv6Network) -> Iterator[Finding]:
    problem = _mask_problem(mask, network)
    if problem:
        yield invalid(
            ("KubeCloudShared", "ClusterCIDR"),
            str(network),
            f"with the default node CIDR mask size {mask} ({field}): {problem}",
            "node-cidr-mask-size-invalid",
        )


@rule(KCM)
def check_node_lifecycle(doc: dict, ctx: Context) -> Iterator[Finding]:
    block = mapping(doc.get("NodeLifecycleController"))
    base = ("NodeLifecycleController",)
    for field in ("NodeEvictionRate", "SecondaryNodeEvictionRate"):
        rate = block.get(field)
        if isinstance(rate, (int, float)) and not isinstance(rate, bool) and rate < 0:
            yield advice(
                "node-eviction-setting-invalid", base + (field,), f"{field} {rate} is negative: it is a number of nodes per second"
            )
    threshold = block.get("UnhealthyZoneThreshold")
    if isinstance(threshold, (int, float)) and not isinstance(threshold, bool) and not 0 < threshold <= 1:
        yield advice(
            "node-eviction-setting-invalid",
            base + ("UnhealthyZoneThreshold",),
            f"UnhealthyZoneThreshold {threshold} is not a fraction in (0, 1]",
        )
    monitor = parse_duration(block.get("NodeMonitorGracePeriod"))
    if monitor is not None and 0 < monitor < 40_000_000_000:
        yield advice(
            "node-monitor-grace-period-short",
            base + ("NodeMonitorGracePeriod",),
            f"NodeMonitorGracePeriod {format_duration(monitor)} is below 4 node status updates (4 x 10s): healthy nodes get marked NotReady",
        )
    startup = parse_duration(block.get("NodeStartupGracePeriod"))
    if startup is not None and monitor is not None and 0 < startup < monitor:
        yield advice(
            "node-monitor-grace-period-short",
            base + ("NodeStartupGracePeriod",),
            f"NodeStartupGracePeriod {format_duration(startup)} is shorter than NodeMonitorGracePeriod {format_duration(monitor)}",
        )
    tolerance = mapping(doc.get("HPAController")).get("HorizontalPodAutoscalerTolerance")
    if isinstance(tolerance, (int, float)) and not isinstance(tolerance, bool) and not 0 < tolerance < 1:
        yield advice(
            "hpa-tolerance-out-of-range",
            ("HPAController", "HorizontalPodAutoscalerTolerance"),
            f"HorizontalPodAutoscalerTolerance {tolerance} is not a ratio between 0 and 1",
        )


@rule(KCM)
def check_cloud_provider(doc: dict, ctx: Context) -> Iterator[Finding]:
    name = mapping(mapping(doc.get("KubeCloudShared")).get("CloudProvider")).get("Name")
    if isinstance(name, str) and name not in ("", "external"):
        yield advice(
            "in-tree-cloud-provider",
            ("KubeCloudShared", "CloudProvider", "Name"),
            f'cloud provider "{name}" is in-tree; in-tree providers were removed in 1.31: use "external" and a cloud-controller-manager',
        )


# --------------------------------------------------------------------------- both: deprecated, negative durations, flags only


@rule(KCM, CCM)
def check_deprecated_and_durations(doc: dict, ctx: Context) -> Iterator[Finding]:
    yield advice(
        "controller-manager-flags-only",
        ("kind",),
        f"{ctx.kind or KCM} is not read from a file by the component; pass these values as flags",
        Severity.INFO,
    )
    for path, message in DEPRECATED:
        value = mapping(doc.get(path[0])).get(path[1])
        if value not in (None, 0, False, "", "0s"):
            yield advice("controller-manager-deprecated-field", path, message)
    yield from _negative_durations((), doc)


def _negative_durations(path: tuple, value) -> Iterator[Finding]:
    if isinstance(value, dict):
        for key, child in value.items():
            if key not in ("LeaderElection", "LeaderMigration"):  # checked by their own rules
                yield from _negative_durations(path + (key,), child)
    elif isinstance(value, str) and value.startswith("-"):
        ns = parse_duration(value)
        if ns is not None and ns < 0:
            yield advice(
                "negative-duration", path, f"{format_duration(ns)} is negative; upstream does not check it and the controller misbehaves"
            )


# --------------------------------------------------------------------------- cloud-controller-manager


@rule(CCM)
def check_cloud_controller_manager(doc: dict, ctx: Context) -> Iterator[Finding]:
    shared = mapping(doc.get("KubeCloudShared"))
    provider = mapping(shared.get("CloudProvider"))
    if not text(provider.get("Name")):
        yield required(("KubeCloudShared", "CloudProvider", "Name"), "--cloud-provider cannot be empty", "cloud-provider-empty")
    node = mapping(doc.get("NodeController"))
    syncs, updates = integer(node.get("ConcurrentNodeSyncs")), integer(node.get("ConcurrentNodeStatusUpdates"))
    if syncs is not None and syncs <= 0:
        yield invalid(
            ("NodeController", "ConcurrentNodeSyncs"), syncs, "concurrent-node-syncs must be a positive number", "concurrent-syncs-too-low"
        )
    if updates is not None and updates < 0:
        yield invalid(
            ("NodeController", "ConcurrentNodeStatusUpdates"),
            updates,
            "concurrent-node-status-updates cannot be a negative number",
            "concurrent-syncs-too-low",
        )
    webhooks = mapping(doc.get("Webhook")).get("Webhooks")
    yield from _name_list(("Webhook", "Webhooks"), webhooks, CCM_WEBHOOKS, "webhooks", "unknown-webhook")
    if shared.get("AllocateNodeCIDRs") is True and not text(shared.get("ClusterCIDR")):
        yield advice("cloud-node-cidr-settings", ("KubeCloudShared", "ClusterCIDR"), "AllocateNodeCIDRs is true but ClusterCIDR is empty")
    if shared.get("ConfigureCloudRoutes") is not False and shared.get("AllocateNodeCIDRs") is False:
        yield advice(
            "cloud-node-cidr-settings",
            ("KubeCloudShared", "AllocateNodeCIDRs"),
            "ConfigureCloudRoutes (default true) needs node CIDRs, but AllocateNodeCIDRs is false",
        )
