"""Generator of bootstrap files: init (Init + Cluster + kubelet + proxy documents), join, reset and upgrade files."""

from __future__ import annotations

import ipaddress
import random

from .components import kubelet_configuration, network, proxy_configuration
from .writer import Comment, Quoted, header, pick, rename

VERSIONS = ("kubeadm.k8s.io/v1beta4", "kubeadm.k8s.io/v1beta4", "kubeadm.k8s.io/v1beta4", "kubeadm.k8s.io/v1beta3")
K8S_VERSIONS = ("v1.35.2", "v1.35.0", "v1.35.1", "v1.36.0")  # what kubeadm 1.36 deploys: 1.35 and 1.36
CRI_SOCKETS = ("unix:///var/run/containerd/containerd.sock", "unix:///var/run/crio/crio.sock")
TOKEN_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789"
HEX = "0123456789abcdef"
DOMAINS = ("cluster.local", "cluster.local", "k8s.example.com", "prod.internal")
ADMISSION_PLUGINS = "NamespaceLifecycle,LimitRanger,ServiceAccount,DefaultStorageClass,NodeRestriction,ResourceQuota"


def _token(rng: random.Random) -> str:
    return "".join(rng.choices(TOKEN_CHARS, k=6)) + "." + "".join(rng.choices(TOKEN_CHARS, k=16))


def _hex(rng: random.Random, size: int) -> str:
    return "".join(rng.choices(HEX, k=size))


def _address(rng: random.Random) -> str:
    return f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(2, 250)}"


def _args(version: str, pairs: dict) -> list | dict:
    """Extra arguments: a list of name/value pairs from v1beta4, a map before."""
    if version.endswith("v1beta3"):
        return {name: Quoted(value) for name, value in pairs.items()}
    return [{"name": name, "value": Quoted(value)} for name, value in pairs.items()]


def _node_registration(rng: random.Random, version: str, name: str, address: str, control_plane: bool) -> dict:
    registration: dict = {"name": name, "criSocket": rng.choice(CRI_SOCKETS)}
    if control_plane and rng.random() < 0.3:
        registration["taints"] = []  # a single-node cluster schedules workloads on the control plane
    elif control_plane:
        registration["taints"] = [{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]
    if rng.random() < 0.5:
        registration["kubeletExtraArgs"] = _args(version, {"node-ip": address})
    if rng.random() < 0.2:
        registration["ignorePreflightErrors"] = ["NumCPU"]
    return registration


def init_configuration(rng: random.Random, version: str, node: str, address: str) -> dict:
    doc = header(rng, ("kubeadm init",), version, "InitConfiguration", kind_first=0.2)
    doc["bootstrapTokens"] = [
        {
            "token": _token(rng),
            "description": "initial join token",
            "ttl": rng.choice(("24h0m0s", "2h", "1h")),
            "usages": ["signing", "authentication"],
            "groups": ["system:bootstrappers:kubeadm:default-node-token"],
        }
    ]
    doc["localAPIEndpoint"] = {"advertiseAddress": address, "bindPort": 6443}
    doc["nodeRegistration"] = _node_registration(rng, version, node, address, control_plane=True)
    if rng.random() < 0.3:
        doc["certificateKey"] = _hex(rng, 64)
    if rng.random() < 0.2:
        doc["skipPhases"] = ["addon/kube-proxy"]
    return doc


def cluster_configuration(rng: random.Random, version: str, name: str, pod: str, service: str, domain: str, address: str) -> dict:
    doc = header(rng, ("kubeadm cluster-wide settings",), version, "ClusterConfiguration", kind_first=0.2)
    doc["clusterName"] = name
    doc["kubernetesVersion"] = rng.choice(K8S_VERSIONS)
    doc["controlPlaneEndpoint"] = rng.choice((f"{name}-api.example.com:6443", f"{address}:6443", "control-plane.internal:6443"))
    doc["certificatesDir"] = "/etc/kubernetes/pki"
    doc["imageRepository"] = rng.choice(("registry.k8s.io", "registry.example.com/k8s"))
    doc["networking"] = {"podSubnet": pod, "serviceSubnet": service, "dnsDomain": domain}
    if rng.random() < 0.8:
        etcd: dict = {"dataDir": "/var/lib/etcd"}
        if rng.random() < 0.4:
            etcd["extraArgs"] = _args(version, {"listen-metrics-urls": "http://0.0.0.0:2381"})
        if rng.random() < 0.3:
            etcd["serverCertSANs"] = [address, "etcd.internal"]
        doc["etcd"] = {"local": etcd}
    else:
        doc["etcd"] = {
            "external": {
                "endpoints": [f"https://10.0.0.{i}:2379" for i in range(11, 14)],
                "caFile": "/etc/kubernetes/pki/etcd/ca.crt",
                "certFile": "/etc/kubernetes/pki/apiserver-etcd-client.crt",
                "keyFile": "/etc/kubernetes/pki/apiserver-etcd-client.key",
            }
        }
    api_server: dict = {"certSANs": [address, "127.0.0.1", "localhost", f"{name}-api.example.com"]}
    api_args = {"enable-admission-plugins": ADMISSION_PLUGINS, "audit-log-maxage": "30"}
    if rng.random() < 0.5:
        api_args["audit-policy-file"] = "/etc/kubernetes/audit/policy.yaml"
        api_server["extraVolumes"] = [
            {
                "name": "audit",
                "hostPath": "/etc/kubernetes/audit",
                "mountPath": "/etc/kubernetes/audit",
                "readOnly": True,
                "pathType": "DirectoryOrCreate",
            }
        ]
    api_server["extraArgs"] = _args(version, api_args)
    doc["apiServer"] = api_server
    doc["controllerManager"] = {"extraArgs": _args(version, {"cluster-cidr": pod, "bind-address": "0.0.0.0"})}
    doc["scheduler"] = {"extraArgs": _args(version, {"bind-address": "0.0.0.0"})}
    if version.endswith("v1beta4") and rng.random() < 0.3:
        doc["encryptionAlgorithm"] = rng.choice(("RSA-2048", "ECDSA-P256", "RSA-3072"))
        doc["certificateValidityPeriod"] = "8760h0m0s"
        doc["caCertificateValidityPeriod"] = "87600h0m0s"
    return doc


def init_file(rng: random.Random, index: int) -> list[dict]:
    """An init file: Init and Cluster documents, usually the kubelet's, often the proxy's, all agreeing."""
    version = rng.choice(VERSIONS)
    pod, service, dns = network(rng)
    domain = rng.choice(DOMAINS)
    if domain != "cluster.local":
        dns = str(ipaddress.ip_network(service)[10])
    address = _address(rng)
    name = rng.choice(("prod", "staging", "dev", "edge", "lab")) + f"-{index}"
    docs = [
        init_configuration(rng, version, f"{name}-cp-1", address),
        cluster_configuration(rng, version, name, pod, service, domain, address),
    ]
    if rng.random() < 0.2:
        docs.reverse()
    if rng.random() < 0.75:
        docs.append(kubelet_configuration(rng, index, dns, domain))
    if rng.random() < 0.6:
        docs.append(proxy_configuration(rng, index, pod))
    return docs


def join_file(rng: random.Random, index: int) -> list[dict]:
    version = rng.choice(VERSIONS)
    doc = header(rng, ("kubeadm join",), version, "JoinConfiguration", kind_first=0.2)
    address = _address(rng)
    doc["discovery"] = {
        "bootstrapToken": {
            "token": _token(rng),
            "apiServerEndpoint": rng.choice((f"{address}:6443", "control-plane.internal:6443")),
            "caCertHashes": ["sha256:" + _hex(rng, 64)],
        },
        "timeout": "5m0s" if version.endswith("v1beta3") else None,
    }
    if doc["discovery"]["timeout"] is None:
        del doc["discovery"]["timeout"]
    control_plane = rng.random() < 0.3
    doc["nodeRegistration"] = _node_registration(rng, version, f"node-{index}", _address(rng), control_plane)
    if control_plane:
        doc["controlPlane"] = {"localAPIEndpoint": {"advertiseAddress": _address(rng), "bindPort": 6443}, "certificateKey": _hex(rng, 64)}
    return [doc]


def reset_file(rng: random.Random, index: int) -> list[dict]:
    doc = header(rng, ("kubeadm reset",), "kubeadm.k8s.io/v1beta4", "ResetConfiguration", kind_first=0.2)
    doc["certificatesDir"] = "/etc/kubernetes/pki"
    doc["criSocket"] = rng.choice(CRI_SOCKETS)
    doc["cleanupTmpDir"] = rng.random() < 0.5
    if rng.random() < 0.5:
        doc["unmountFlags"] = pick(rng, ("MNT_FORCE", "MNT_DETACH", "MNT_EXPIRE", "UMOUNT_NOFOLLOW"), 1, 2)
    if rng.random() < 0.3:
        doc["skipPhases"] = ["cleanup-node"]
    return [doc]


def upgrade_file(rng: random.Random, index: int) -> list[dict]:
    doc = header(rng, ("kubeadm upgrade",), "kubeadm.k8s.io/v1beta4", "UpgradeConfiguration", kind_first=0.2)
    doc["apply"] = {
        "kubernetesVersion": rng.choice(K8S_VERSIONS),
        "certificateRenewal": True,
        "etcdUpgrade": True,
        "imagePullPolicy": "IfNotPresent",
    }
    if rng.random() < 0.5:
        doc["apply"]["patches"] = {"directory": "/etc/kubernetes/patches"}
    doc["node"] = {"certificateRenewal": True, "etcdUpgrade": rng.random() < 0.5}
    if rng.random() < 0.4:
        doc[Comment("Give slow control planes more time.")] = None
        doc["timeouts"] = {"controlPlaneComponentHealthCheck": "8m0s", "upgradeManifests": "10m0s"}
    return [doc]


def bootstrap_file(rng: random.Random, index: int) -> list[dict]:
    """The documents of one bootstrap file, init files most often."""
    make = rng.choices((init_file, join_file, reset_file, upgrade_file), (0.6, 0.28, 0.06, 0.06))[0]
    return make(rng, index)


def break_bootstrap(rng: random.Random, doc: dict) -> tuple[str, list[str]] | None:
    kind = doc["kind"]
    if kind == "InitConfiguration":
        if rng.random() < 0.5:
            doc["bootstrapTokens"][0]["token"] = doc["bootstrapTokens"][0]["token"].upper()
            return "bootstrap token in capitals", ["invalid-bootstrap-token"]
        doc["localAPIEndpoint"]["bindPort"] = rng.choice((-1, 65536, 70000))
        return f"bindPort {doc['localAPIEndpoint']['bindPort']}", ["invalid-bind-port"]
    if kind == "ClusterConfiguration":
        if rng.random() < 0.5:
            rename(doc["networking"], "serviceSubnet", "serviceSubNet")
            return "unknown field serviceSubNet (for serviceSubnet)", ["unknown-field"]
        doc["certificatesDir"] = "pki"
        return "relative certificatesDir", ["bootstrap-path-not-absolute"]
    if kind == "JoinConfiguration":
        hashes = doc["discovery"]["bootstrapToken"]["caCertHashes"]
        hashes[0] = hashes[0][:-2]
        return "caCertHash two digits short", ["invalid-ca-cert-hash"]
    if kind == "ResetConfiguration":
        doc["unmountFlags"] = ["MNT_LAZY"]
        return "unknown unmount flag MNT_LAZY", ["invalid-unmount-flag"]
    if kind == "UpgradeConfiguration":
        doc["node"]["imagePullPolicy"] = "Sometimes"
        return "image pull policy Sometimes", ["invalid-pull-policy"]
    return None  # the kubelet's and proxy's own kinds get their mistakes in their own folders
