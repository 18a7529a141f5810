"""LeaderMigrationConfiguration rules, and the controller names both controller managers know.

The same checks apply to a standalone file (--leader-migration-config) and to the
Generic.LeaderMigration block of a controller-manager document.
"""

from __future__ import annotations

from collections.abc import Iterator

from svcconf.model import Finding, Severity, at_least

from .. import Context, advice, invalid, items, mapping, required, rule, text

LM = "LeaderMigrationConfiguration"

# cmd/kube-controller-manager/names plus the aliases each descriptor still accepts.
KCM_CONTROLLERS = frozenset(
    [
        "serviceaccount-token-controller",
        "endpoints-controller",
        "endpointslice-controller",
        "endpointslice-mirroring-controller",
        "replicationcontroller-controller",
        "pod-garbage-collector-controller",
        "resourcequota-controller",
        "namespace-controller",
        "serviceaccount-controller",
        "garbage-collector-controller",
        "daemonset-controller",
        "job-controller",
        "deployment-controller",
        "replicaset-controller",
        "horizontal-pod-autoscaler-controller",
        "disruption-controller",
        "statefulset-controller",
        "cronjob-controller",
        "certificatesigningrequest-signing-controller",
        "certificatesigningrequest-approving-controller",
        "certificatesigningrequest-cleaner-controller",
        "ttl-controller",
        "bootstrap-signer-controller",
        "token-cleaner-controller",
        "node-ipam-controller",
        "node-lifecycle-controller",
        "taint-eviction-controller",
        "persistentvolume-binder-controller",
        "persistentvolume-attach-detach-controller",
        "persistentvolume-expander-controller",
        "clusterrole-aggregation-controller",
        "persistentvolumeclaim-protection-controller",
        "persistentvolume-protection-controller",
        "ttl-after-finished-controller",
        "root-ca-certificate-publisher-controller",
        "ephemeral-volume-controller",
        "storageversion-garbage-collector-controller",
        "resourceclaim-controller",
        "legacy-serviceaccount-token-cleaner-controller",
        "validatingadmissionpolicy-status-controller",
        "service-cidr-controller",
        "storage-version-migrator-controller",
        "selinux-warning-controller",
        "device-taint-eviction-controller",
        "kube-apiserver-serving-clustertrustbundle-publisher-controller",
        "podcertificaterequest-cleaner-controller",
        "service-lb-controller",
        "node-route-controller",
        "cloud-node-lifecycle-controller",
        "serviceaccount-token",
        "endpoint",
        "endpointslice",
        "endpointslicemirroring",
        "replicationcontroller",
        "podgc",
        "resourcequota",
        "namespace",
        "serviceaccount",
        "garbagecollector",
        "daemonset",
        "job",
        "deployment",
        "replicaset",
        "horizontalpodautoscaling",
        "disruption",
        "statefulset",
        "cronjob",
        "csrsigning",
        "csrapproving",
        "csrcleaner",
        "ttl",
        "bootstrapsigner",
        "tokencleaner",
        "nodeipam",
        "nodelifecycle",
        "service",
        "route",
        "cloud-node-lifecycle",
        "persistentvolume-binder",
        "attachdetach",
        "persistentvolume-expander",
        "clusterrole-aggregation",
        "pvc-protection",
        "pv-protection",
        "ttl-after-finished",
        "root-ca-cert-publisher",
        "ephemeral-volume",
        "storage-version-gc",
        "resource-claim-controller",
        "legacy-service-account-token-cleaner",
        "validatingadmissionpolicy-status",
    ]
)
CCM_CONTROLLERS = frozenset(
    [
        "cloud-node-controller",
        "cloud-node-lifecycle-controller",
        "service-lb-controller",
        "node-route-controller",
        "cloud-node",
        "cloud-node-lifecycle",
        "service",
        "route",
    ]
)
CCM_WEBHOOKS: frozenset[str] = frozenset()  # in-tree cloud-provider registers none; providers add their own
LM_COMPONENTS = ("kube-controller-manager", "cloud-controller-manager", "*")
# Leader migration names controllers as the migration docs do (route-controller, service-controller).
LM_CONTROLLERS = KCM_CONTROLLERS | CCM_CONTROLLERS | {"route-controller", "service-controller"}


@rule(LM)
def check_leader_migration(doc: dict, ctx: Context) -> Iterator[Finding]:
    version = getattr(ctx.group_version, "version", "v1")
    yield from leader_migration((), doc, with_lock=version != "v1", target=ctx.target)


def leader_migration(base: tuple, lm: dict, with_lock: bool, target: tuple) -> Iterator[Finding]:
    """ValidateLeaderMigrationConfiguration (staging/src/k8s.io/controller-manager/pkg/leadermigration/config/config.go) and svcconf's advice; also used for Generic.LeaderMigration of both controller managers."""
    if not text(lm.get("leaderName")):
        yield required(base + ("leaderName",), "leaderName must be set for LeaderMigrationConfiguration")
    lock = lm.get("resourceLock")
    if with_lock and isinstance(lock, str) and lock:
        if lock not in ("leases", "endpoints"):
            yield invalid(
                base + ("resourceLock",),
                lock,
                "resource Lock must be one of 'leases' or 'endpoints'",
                "leader-migration-invalid-resource-lock",
            )
        elif lock == "endpoints" and at_least(target, 1, 24):
            # The controller manager builds the migration lock with client-go, which refuses it and exits.
            yield invalid(
                base + ("resourceLock",),
                lock,
                "endpoints lock is removed, migrate to endpointsleases; leader migration takes only leases or endpoints: use leases (or version v1)",
                "leader-migration-endpoints-lock",
            )
        elif lock == "endpoints":
            yield advice(
                "leader-migration-endpoints-lock",
                base + ("resourceLock",),
                "client-go removes the endpoints lock in 1.24; use leases (or version v1)",
            )
    names: dict[str, int] = {}
    for i, leader in items(lm.get("controllerLeaders")):
        leader = mapping(leader)
        path = base + ("controllerLeaders", i)
        name, component = leader.get("name"), leader.get("component")
        if not text(name):
            yield required(path + ("name",))
        elif name in names:
            yield Finding("duplicate-controller-leader", path + ("name",), f'Duplicate value: "{name}"', Severity.WARNING)
        else:
            names[name] = i
            if name not in LM_CONTROLLERS:
                yield advice("unknown-controller", path + ("name",), f'"{name}" is not in the list of known controllers')
        if not text(component):
            yield required(path + ("component",))
        elif component not in LM_COMPONENTS:
            yield advice(
                "unknown-leader-migration-component",
                path + ("component",),
                f'component "{component}" is none of kube-controller-manager, cloud-controller-manager or *: '
                "every controller manager leaves this controller to another, so none runs it",
            )
