"""The bootstrap tool's `config print` documents, static defaults only.

The documents are what the tool prints (cmd/kubeadm/app/cmd/config.go: `kubeadm config print init-defaults | join-defaults`) with its placeholders: token
abcdef.0123456789abcdef, advertise address 1.2.3.4, node name `node`, API server kube-apiserver:6443.
Nothing is read from the machine: no host name, no address, no random token.
"""

from __future__ import annotations

import os

from ..known.naming import KEEP_KUBE_WORD

VERSIONS = ("v1beta3", "v1beta4")
COMPONENTS = ("KubeletConfiguration", "KubeProxyConfiguration")
COMPONENT_GROUPS = {"KubeletConfiguration": "kubelet.config.k8s.io", "KubeProxyConfiguration": "kubeproxy.config.k8s.io"}
TOKEN = "abcdef.0123456789abcdef"

_TIMEOUTS = """timeouts:
  controlPlaneComponentHealthCheck: 4m0s
  discovery: 5m0s
  etcdAPICall: 2m0s
  kubeletHealthCheck: 4m0s
  kubernetesAPICall: 1m0s
  tlsBootstrap: 5m0s
  upgradeManifests: 5m0s
"""

_NODE = """nodeRegistration:
  criSocket: unix:///var/run/containerd/containerd.sock
  imagePullPolicy: IfNotPresent
{serial}  name: node
  taints: null
"""

_INIT = (
    """apiVersion: {group}/{version}
bootstrapTokens:
- groups:
  - system:bootstrappers:kubeadm:default-node-token
  token: """
    + TOKEN
    + """
  ttl: 24h0m0s
  usages:
  - signing
  - authentication
kind: InitConfiguration
localAPIEndpoint:
  advertiseAddress: 1.2.3.4
  bindPort: 6443
"""
)

_CLUSTER_V1BETA3 = """apiServer:
  timeoutForControlPlane: 4m0s
apiVersion: {group}/v1beta3
certificatesDir: /etc/kubernetes/pki
clusterName: kubernetes
controllerManager: {{}}
dns: {{}}
etcd:
  local:
    dataDir: /var/lib/etcd
imageRepository: registry.k8s.io
kind: ClusterConfiguration
kubernetesVersion: {release}
networking:
  dnsDomain: cluster.local
  serviceSubnet: 10.96.0.0/12
scheduler: {{}}
"""

_CLUSTER_V1BETA4 = """apiServer: {{}}
apiVersion: {group}/v1beta4
caCertificateValidityPeriod: 87600h0m0s
certificateValidityPeriod: 8760h0m0s
certificatesDir: /etc/kubernetes/pki
clusterName: kubernetes
controllerManager: {{}}
dns: {{}}
encryptionAlgorithm: RSA-2048
etcd:
  local:
    dataDir: /var/lib/etcd
imageRepository: registry.k8s.io
kind: ClusterConfiguration
kubernetesVersion: {release}
networking:
  dnsDomain: cluster.local
  serviceSubnet: 10.96.0.0/12
proxy: {{}}
scheduler: {{}}
"""

_JOIN = (
    """apiVersion: {group}/{version}
caCertPath: /etc/kubernetes/pki/ca.crt
discovery:
  bootstrapToken:
    apiServerEndpoint: kube-apiserver:6443
    token: """
    + TOKEN
    + """
    unsafeSkipCAVerification: true
{timeout}  tlsBootstrapToken: """
    + TOKEN
    + """
kind: JoinConfiguration
"""
)


def _node(version: str) -> str:
    return _NODE.format(serial="  imagePullSerial: true\n" if version == "v1beta4" else "")


def init_documents(version: str, group: str, release: str) -> list[str]:
    init = _INIT.format(group=group, version=version) + _node(version) + (_TIMEOUTS if version == "v1beta4" else "")
    cluster = (_CLUSTER_V1BETA4 if version == "v1beta4" else _CLUSTER_V1BETA3).format(group=group, release=release)
    return [init, cluster]


def join_documents(version: str, group: str) -> list[str]:
    timeout = "  timeout: 5m0s\n" if version == "v1beta3" else ""
    join = _JOIN.format(group=group, version=version, timeout=timeout) + _node(version) + (_TIMEOUTS if version == "v1beta4" else "")
    return [join]


def component_document(kind: str, naming, spelling: str) -> str | None:
    """A component document as the tool prints it, in the requested spelling; None when absent.

    The tool prints the component's zero values with only its own settings (cmd/kubeadm/app/cmd/config.go),
    which differ from the component's own defaults: svcconf/data/kubeadm holds that print where it
    differs, svcconf/data/defaults the component documents shared with other print targets.
    """
    data = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
    candidates = [os.path.join(data, folder, f"{kind}.yaml") for folder in ("kubeadm", "defaults")]
    path = next((p for p in candidates if os.path.exists(p)), None)
    if path is None:
        return None
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    upstream = COMPONENT_GROUPS[kind]
    word = "kube" if kind in KEEP_KUBE_WORD else spelling
    lines = []
    for line in text.splitlines(keepends=True):
        if line.startswith(f"apiVersion: {upstream}/"):
            line = line.replace(upstream, naming.spell_group(upstream, word), 1)
        elif line == f"kind: {kind}\n":
            line = f"kind: {naming.spell_kind(kind, word)}\n"
        lines.append(line)
    return "".join(lines)
