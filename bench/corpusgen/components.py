"""Generators of component configurations: kube-proxy, kubelet, controller managers and leader migration."""

from __future__ import annotations

import random

from .writer import Comment, Quoted, header, pick, rename

# Pod and service networks that agree with each other (cluster DNS is the 10th service address).
NETWORKS = (
    ("10.244.0.0/16", "10.96.0.0/12", "10.96.0.10"),
    ("192.168.0.0/16", "10.96.0.0/12", "10.96.0.10"),
    ("10.100.0.0/16", "10.200.0.0/16", "10.200.0.10"),
    ("172.16.0.0/16", "172.20.0.0/16", "172.20.0.10"),
    ("10.32.0.0/12", "10.0.0.0/16", "10.0.0.10"),
)
PROXY_GATES = ("ContextualLogging", "WatchListClient", "LoggingBetaOptions")  # beta, not locked


def network(rng: random.Random) -> tuple[str, str, str]:
    """(pod CIDR, service CIDR, cluster DNS address)."""
    return rng.choice(NETWORKS)


def _lease(rng: random.Random, keys: tuple[str, ...]) -> dict:
    """Leader election with renewDeadline below leaseDuration and above retryPeriod, in the given key spelling."""
    lease = rng.choice((15, 30, 60))
    elect, duration, deadline, retry, lock = keys
    return {elect: True, duration: f"{lease}s", deadline: f"{lease * 2 // 3}s", retry: rng.choice(("2s", "5s")), lock: "leases"}


# --------------------------------------------------------------------------- kube-proxy


def proxy_configuration(rng: random.Random, index: int, pod_cidr: str | None = None) -> dict:
    doc = header(
        rng, ("kube-proxy configuration", f"proxy {index}"), "kubeproxy.config.k8s.io/v1alpha1", "KubeProxyConfiguration", kind_first=0.4
    )
    pod_cidr = pod_cidr or network(rng)[0]
    doc["bindAddress"] = "0.0.0.0"
    doc["clientConnection"] = {"kubeconfig": "/var/lib/kube-proxy/kubeconfig.conf"}
    if rng.random() < 0.5:
        doc["clientConnection"].update(
            qps=rng.choice((5, 20, 50)), burst=rng.choice((50, 100)), contentType="application/vnd.kubernetes.protobuf"
        )
    doc["clusterCIDR"] = pod_cidr
    doc["configSyncPeriod"] = rng.choice(("15m0s", "30m", "1h"))
    if rng.random() < 0.6:
        doc["conntrack"] = {
            "maxPerCore": rng.choice((32768, 65536)),
            "min": 131072,
            "tcpCloseWaitTimeout": "1h0m0s",
            "tcpEstablishedTimeout": rng.choice(("24h0m0s", "2h")),
        }
    doc["healthzBindAddress"] = "0.0.0.0:10256"
    doc["metricsBindAddress"] = rng.choice(("127.0.0.1:10249", "0.0.0.0:10249"))
    mode = rng.choice(("iptables", "iptables", "nftables", ""))
    doc["mode"] = mode
    if mode in ("iptables", ""):
        doc["iptables"] = {
            "masqueradeAll": False,
            "masqueradeBit": 14,
            "minSyncPeriod": rng.choice(("1s", "0s", "2s")),
            "syncPeriod": "30s",
        }
    else:
        doc["nftables"] = {"masqueradeAll": False, "masqueradeBit": 14, "minSyncPeriod": "1s", "syncPeriod": "30s"}
    if rng.random() < 0.4:
        doc["nodePortAddresses"] = rng.choice((["primary"], ["10.0.0.0/8"], ["10.0.0.0/8", "192.168.0.0/16"]))
    doc["oomScoreAdj"] = -999
    if rng.random() < 0.3:
        doc["detectLocalMode"] = "ClusterCIDR"
    if rng.random() < 0.3:
        doc["featureGates"] = {gate: True for gate in pick(rng, PROXY_GATES, 1, 2)}
    if rng.random() < 0.3:
        doc["logging"] = {"format": "text", "verbosity": rng.choice((0, 2, 4))}
    return doc


def break_proxy(rng: random.Random, doc: dict) -> tuple[str, list[str]] | None:
    choice = rng.choice(("typo", "cidr", "sync"))
    if choice == "cidr":
        doc["clusterCIDR"] = rng.choice(("10.244.0.0/33", "10.244.0/16", "fd00::/129"))
        return f"clusterCIDR {doc['clusterCIDR']}", ["proxy-invalid-cluster-cidr"]
    if choice == "sync" and "iptables" in doc:
        doc["iptables"]["syncPeriod"] = "-30s"
        # minSyncPeriod (0s or more) is then above syncPeriod as well.
        return "iptables syncPeriod -30s", ["proxy-sync-period-not-positive", "proxy-min-sync-period-above-sync-period"]
    key, typo = rng.choice((("clusterCIDR", "clusterCidr"), ("oomScoreAdj", "oomScoreAdjust"), ("bindAddress", "bindAdress")))
    rename(doc, key, typo)
    return f"unknown field {typo} (for {key})", ["unknown-field"]


# --------------------------------------------------------------------------- kubelet


def kubelet_configuration(rng: random.Random, index: int, dns: str | None = None, domain: str = "cluster.local") -> dict:
    doc = header(
        rng,
        ("kubelet configuration (--config)", f"kubelet {index}"),
        "kubelet.config.k8s.io/v1beta1",
        "KubeletConfiguration",
        kind_first=0.3,
    )
    doc["authentication"] = {
        "anonymous": {"enabled": False},
        "webhook": {"enabled": True, "cacheTTL": "2m0s"},
        "x509": {"clientCAFile": "/etc/kubernetes/pki/ca.crt"},
    }
    doc["authorization"] = {"mode": "Webhook", "webhook": {"cacheAuthorizedTTL": "5m0s", "cacheUnauthorizedTTL": "30s"}}
    doc["cgroupDriver"] = "systemd"
    doc["clusterDNS"] = [dns or network(rng)[2]]
    doc["clusterDomain"] = domain
    doc["containerRuntimeEndpoint"] = rng.choice(("unix:///run/containerd/containerd.sock", "unix:///var/run/crio/crio.sock"))
    if rng.random() < 0.6:
        doc["evictionHard"] = {
            "memory.available": Quoted(rng.choice(("100Mi", "200Mi", "5%"))),
            "nodefs.available": Quoted("10%"),
            "imagefs.available": Quoted("15%"),
        }
    if rng.random() < 0.5:
        doc["kubeReserved"] = {"cpu": Quoted(rng.choice(("100m", "200m", "500m"))), "memory": rng.choice(("256Mi", "512Mi", "1Gi"))}
        doc["systemReserved"] = {"cpu": Quoted("100m"), "memory": "256Mi"}
    doc["maxPods"] = rng.choice((110, 110, 64, 250))
    doc["rotateCertificates"] = True
    if rng.random() < 0.5:
        doc["serverTLSBootstrap"] = True
    doc["staticPodPath"] = "/etc/kubernetes/manifests"
    doc["runtimeRequestTimeout"] = rng.choice(("2m0s", "15m"))
    if rng.random() < 0.3:
        doc["cpuManagerPolicy"] = "static"
        doc["reservedSystemCPUs"] = Quoted("0-1")
    if rng.random() < 0.3:
        doc["shutdownGracePeriod"] = "30s"
        doc["shutdownGracePeriodCriticalPods"] = "10s"
    if rng.random() < 0.3:
        doc["logging"] = {"format": rng.choice(("text", "json")), "verbosity": 2}
    return doc


def break_kubelet(rng: random.Random, doc: dict) -> tuple[str, list[str]] | None:
    key, typo = rng.choice((("maxPods", "maxPod"), ("cgroupDriver", "cgroupdriver"), ("staticPodPath", "staticPodsPath")))
    rename(doc, key, typo)
    return f"unknown field {typo} (for {key})", ["unknown-field"]


# --------------------------------------------------------------------------- controller managers

KCM_DISABLED = ("-bootstrapsigner", "-tokencleaner", "-ttl", "-cloud-node-lifecycle", "-route", "-service")


def _generic(rng: random.Random, controllers: list[str]) -> dict:
    generic: dict = {
        "ClientConnection": {
            "kubeconfig": "/etc/kubernetes/controller-manager.conf",
            "qps": rng.choice((20, 50, 100)),
            "burst": rng.choice((100, 200)),
        },
        "LeaderElection": {
            **_lease(rng, ("leaderElect", "leaseDuration", "renewDeadline", "retryPeriod", "resourceLock")),
            "resourceNamespace": "kube-system",
        },
        "Controllers": controllers,
    }
    if rng.random() < 0.3:
        generic["Debugging"] = {"enableProfiling": False}
    return generic


def kube_controller_manager(rng: random.Random, index: int) -> dict:
    doc = header(
        rng,
        ("kube-controller-manager flags as a document", f"kcm {index}"),
        "kubecontrollermanager.config.k8s.io/v1alpha1",
        "KubeControllerManagerConfiguration",
        kind_first=0.2,
    )
    pod_cidr, service_cidr, _dns = network(rng)
    doc["Generic"] = _generic(rng, ["*"] + pick(rng, KCM_DISABLED[:3], 0, 2))
    doc["KubeCloudShared"] = {
        "ClusterName": rng.choice(("kubernetes", "prod-eu", "staging")),
        "ClusterCIDR": pod_cidr,
        "AllocateNodeCIDRs": True,
        "UseServiceAccountCredentials": True,
    }
    doc["NodeIPAMController"] = {"ServiceCIDR": service_cidr, "NodeCIDRMaskSize": rng.choice((24, 24, 25))}
    blocks = {
        "DeploymentController": {"ConcurrentDeploymentSyncs": rng.choice((5, 10))},
        "ReplicaSetController": {"ConcurrentRSSyncs": rng.choice((5, 10))},
        "NamespaceController": {"NamespaceSyncPeriod": "5m0s", "ConcurrentNamespaceSyncs": 10},
        "GarbageCollectorController": {"EnableGarbageCollector": True, "ConcurrentGCSyncs": 20},
        "HPAController": {
            "HorizontalPodAutoscalerSyncPeriod": "15s",
            "HorizontalPodAutoscalerTolerance": 0.1,
            "HorizontalPodAutoscalerDownscaleStabilizationWindow": "5m0s",
        },
        "NodeLifecycleController": {
            "NodeMonitorGracePeriod": "50s",
            "NodeStartupGracePeriod": "1m0s",
            "NodeEvictionRate": 0.1,
            "UnhealthyZoneThreshold": 0.55,
        },
        "PodGCController": {"TerminatedPodGCThreshold": rng.choice((1000, 12500))},
        "EndpointSliceController": {"ConcurrentServiceEndpointSyncs": 5, "MaxEndpointsPerSlice": 100},
        "CSRSigningController": {
            "ClusterSigningCertFile": "/etc/kubernetes/pki/ca.crt",
            "ClusterSigningKeyFile": "/etc/kubernetes/pki/ca.key",
            "ClusterSigningDuration": "8760h0m0s",
        },
        "SAController": {"ServiceAccountKeyFile": "/etc/kubernetes/pki/sa.key", "RootCAFile": "/etc/kubernetes/pki/ca.crt"},
    }
    for name in pick(rng, sorted(blocks), 3, len(blocks)):
        doc[name] = blocks[name]
    return doc


def cloud_controller_manager(rng: random.Random, index: int) -> dict:
    doc = header(
        rng,
        ("cloud-controller-manager flags as a document", f"ccm {index}"),
        "cloudcontrollermanager.config.k8s.io/v1alpha1",
        "CloudControllerManagerConfiguration",
        kind_first=0.2,
    )
    pod_cidr = network(rng)[0]
    doc["Generic"] = _generic(rng, ["*"] + pick(rng, ("-route", "-service", "-cloud-node-lifecycle"), 0, 1))
    shared: dict = {"CloudProvider": {"Name": "external"}, "ClusterName": rng.choice(("kubernetes", "prod-eu"))}
    if rng.random() < 0.5:
        shared.update(ClusterCIDR=pod_cidr, AllocateNodeCIDRs=True, ConfigureCloudRoutes=True)
    else:
        shared["ConfigureCloudRoutes"] = False
    doc["KubeCloudShared"] = shared
    doc["NodeController"] = {"ConcurrentNodeSyncs": rng.choice((1, 5)), "ConcurrentNodeStatusUpdates": rng.choice((1, 5))}
    doc["ServiceController"] = {"ConcurrentServiceSyncs": rng.choice((1, 5))}
    return doc


def break_controller_manager(rng: random.Random, doc: dict) -> tuple[str, list[str]] | None:
    if rng.random() < 0.5:
        election = doc["Generic"]["LeaderElection"]
        election["renewDeadline"] = election["leaseDuration"]
        return "renewDeadline equal to leaseDuration", ["renew-deadline-not-below-lease"]
    key, typo = ("NodeIPAMController", "NodeIpamController") if "NodeIPAMController" in doc else ("ServiceController", "ServicesController")
    rename(doc, key, typo)
    return f"unknown field {typo} (for {key})", ["unknown-field"]


# --------------------------------------------------------------------------- leader migration

LM_VERSIONS = ("controllermanager.config.k8s.io/v1", "controllermanager.config.k8s.io/v1", "controllermanager.config.k8s.io/v1beta1")
LM_LEADERS = (
    ("route-controller", "*"),
    ("service-controller", "*"),
    ("cloud-node-lifecycle-controller", "*"),
    ("cloud-node-controller", "cloud-controller-manager"),
    ("node-ipam-controller", "kube-controller-manager"),
)


def leader_migration(rng: random.Random, index: int) -> dict:
    api_version = rng.choice(LM_VERSIONS)
    doc = header(
        rng,
        ("Leader migration from kube-controller-manager to cloud-controller-manager",),
        api_version,
        "LeaderMigrationConfiguration",
        kind_first=0.2,
    )
    doc["leaderName"] = rng.choice(("cloud-provider-extraction-migration", f"migration-{index}"))
    if not api_version.endswith("/v1"):
        doc["resourceLock"] = "leases"
    doc[Comment("Controllers that move, and which manager runs them during the migration.")] = None
    doc["controllerLeaders"] = [{"name": name, "component": component} for name, component in pick(rng, LM_LEADERS, 2, 5)]
    return doc


def break_leader_migration(rng: random.Random, doc: dict) -> tuple[str, list[str]] | None:
    if "resourceLock" in doc and rng.random() < 0.5:
        doc["resourceLock"] = rng.choice(("configmaps", "lease", "Leases"))
        return f"resourceLock {doc['resourceLock']}", ["leader-migration-invalid-resource-lock"]
    rename(doc, "leaderName", "leadername")
    # leaderName is required: its absence is reported as well.
    return "unknown field leadername (for leaderName)", ["unknown-field", "missing-field"]
