"""`svcconf print init-defaults | join-defaults`: the bootstrap tool's `config print` documents, static defaults only.

The documents are what the tool prints (reference/kubeadm.md 7.1-7.6) with its placeholders: token
abcdef.0123456789abcdef, advertise address 1.2.3.4, node name `node`, API server kube-apiserver:6443.
Nothing is read from the machine: no host name, no address, no random token.
"""

from __future__ import annotations

import os

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

    The tool prints the component's zero values with only its own settings (reference/kubeadm.md 7.5,
    7.6), which differ from the component's own defaults: svcconf/data/kubeadm holds that print where
    it differs, svcconf/data/defaults the component documents shared with other print targets.
    """
    data = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
    candidates = [os.path.join(data, folder, f"{kind}.yaml") for folder in ("kubeadm", "defaults")]
    path = next((p for p in candidates if os.path.exists(p)), None)
    if path is None:
        return None
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    upstream = COMPONENT_GROUPS[kind]
    # The node agent keeps its name in both spellings (the spec writes it KubeletConfiguration).
    word = "kube" if kind == "KubeletConfiguration" else spelling
    lines = []
    for line in text.splitlines(keepends=True):
        if line.startswith(f"apiVersion: {upstream}/"):
            line = line.replace(upstream, naming.spell_group(upstream, word), 1)
        elif line == f"kind: {kind}\n":
            line = f"kind: {naming.spell_kind(kind, word)}\n"
        lines.append(line)
    return "".join(lines)


def _components(text: str) -> list[str]:
    import argparse

    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names or any(n not in COMPONENTS for n in names):
        raise argparse.ArgumentTypeError(f"--component-configs needs to contain some of [{' '.join(COMPONENTS)}]")
    return names


def add_parsers(targets) -> None:
    from ..settings.options import add_domain_argument, add_target_argument

    for name, what in (("init-defaults", "kubeadm init"), ("join-defaults", "kubeadm join")):
        parser = targets.add_parser(
            name,
            help=f"defaults of the bootstrap tool's {what.split()[1]} configuration",
            description=f"Print the static defaults of the bootstrap tool's {what.split()[1]} configuration, as its "
            "'config print' does. Sensitive values such as the bootstrap token are placeholders.",
        )
        parser.add_argument("--api-version", choices=VERSIONS, default=VERSIONS[-1], help="bootstrap tool API version (default: v1beta4)")
        parser.add_argument(
            "--component-configs",
            type=_components,
            default=[],
            metavar="KINDS",
            help="also print these component configurations (comma list of KubeletConfiguration, KubeProxyConfiguration)",
        )
        parser.add_argument("--naming", choices=("kube", "svc"), default="kube", help="group spelling: kubeadm (kube) or svcadm (svc)")
        add_domain_argument(parser)
        add_target_argument(parser, help="release whose kubernetesVersion is printed (default: the newest release svcconf knows)")
        parser.set_defaults(run=run, action=name)


def run(args) -> int:
    import sys

    from ..commands import EXIT_OK, EXIT_USAGE, error
    from ..known.catalog import format_release, lifecycle
    from ..known.naming import Naming
    from ..settings.options import OptionsError, api_domain

    try:
        naming = Naming(api_domain(args))
    except OptionsError as err:
        error(str(err))
        return EXIT_USAGE
    group = naming.spell_group("kubeadm.k8s.io", args.naming)
    target = args.target_version or lifecycle().newest
    if args.action == "init-defaults":
        documents = init_documents(args.api_version, group, f"{format_release(target)}.0")
    else:
        documents = join_documents(args.api_version, group)
    for kind in args.component_configs:
        document = component_document(kind, naming, args.naming)
        if document is None:
            error(f"no printed defaults for {kind} are installed")
            return EXIT_USAGE
        documents.append(document)
    sys.stdout.write("---\n".join(documents))
    return EXIT_OK
