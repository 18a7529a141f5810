"""Static Pod manifests of the control plane (/etc/kubernetes/manifests): the command lines kubeadm writes."""

from __future__ import annotations

import random

from .writer import header

PKI = "/etc/kubernetes/pki"
IMAGES = ("registry.k8s.io", "registry.example.com/k8s")


def _apiserver_flags(rng: random.Random, address: str) -> dict[str, str]:
    flags = {
        "advertise-address": address,
        "allow-privileged": "true",
        "authorization-mode": "Node,RBAC",
        "client-ca-file": f"{PKI}/ca.crt",
        "enable-admission-plugins": rng.choice(("NodeRestriction", "NodeRestriction,PodSecurity", "NodeRestriction,AlwaysPullImages")),
        "enable-bootstrap-token-auth": "true",
        "etcd-cafile": f"{PKI}/etcd/ca.crt",
        "etcd-certfile": f"{PKI}/apiserver-etcd-client.crt",
        "etcd-keyfile": f"{PKI}/apiserver-etcd-client.key",
        "etcd-servers": "https://127.0.0.1:2379",
        "kubelet-client-certificate": f"{PKI}/apiserver-kubelet-client.crt",
        "kubelet-client-key": f"{PKI}/apiserver-kubelet-client.key",
        "kubelet-preferred-address-types": "InternalIP,ExternalIP,Hostname",
        "proxy-client-cert-file": f"{PKI}/front-proxy-client.crt",
        "proxy-client-key-file": f"{PKI}/front-proxy-client.key",
        "requestheader-allowed-names": "front-proxy-client",
        "requestheader-client-ca-file": f"{PKI}/front-proxy-ca.crt",
        "requestheader-extra-headers-prefix": "X-Remote-Extra-",
        "requestheader-group-headers": "X-Remote-Group",
        "requestheader-username-headers": "X-Remote-User",
        "secure-port": "6443",
        "service-account-issuer": "https://kubernetes.default.svc.cluster.local",
        "service-account-key-file": f"{PKI}/sa.pub",
        "service-account-signing-key-file": f"{PKI}/sa.key",
        "service-cluster-ip-range": rng.choice(("10.96.0.0/12", "10.96.0.0/16,fd00:10:96::/112")),
        "tls-cert-file": f"{PKI}/apiserver.crt",
        "tls-private-key-file": f"{PKI}/apiserver.key",
    }
    if rng.random() < 0.4:
        flags["tls-min-version"] = "VersionTLS12"
        flags["tls-cipher-suites"] = "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"
    if rng.random() < 0.3:
        flags["audit-log-path"] = "/var/log/kubernetes/audit.log"
        flags["audit-log-maxage"] = str(rng.choice((7, 30)))
    return flags


def _controller_manager_flags(rng: random.Random) -> dict[str, str]:
    return {
        "allocate-node-cidrs": "true",
        "authentication-kubeconfig": "/etc/kubernetes/controller-manager.conf",
        "authorization-kubeconfig": "/etc/kubernetes/controller-manager.conf",
        "bind-address": "127.0.0.1",
        "client-ca-file": f"{PKI}/ca.crt",
        "cluster-cidr": rng.choice(("10.244.0.0/16", "192.168.0.0/16")),
        "cluster-name": "kubernetes",
        "cluster-signing-cert-file": f"{PKI}/ca.crt",
        "cluster-signing-key-file": f"{PKI}/ca.key",
        "controllers": "*,bootstrapsigner,tokencleaner",
        "kubeconfig": "/etc/kubernetes/controller-manager.conf",
        "leader-elect": "true",
        "requestheader-client-ca-file": f"{PKI}/front-proxy-ca.crt",
        "root-ca-file": f"{PKI}/ca.crt",
        "service-account-private-key-file": f"{PKI}/sa.key",
        "use-service-account-credentials": "true",
    }


def _scheduler_flags(rng: random.Random) -> dict[str, str]:
    return {
        "authentication-kubeconfig": "/etc/kubernetes/scheduler.conf",
        "authorization-kubeconfig": "/etc/kubernetes/scheduler.conf",
        "bind-address": "127.0.0.1",
        "kubeconfig": "/etc/kubernetes/scheduler.conf",
        "leader-elect": rng.choice(("true", "false")),
    }


def _etcd_flags(rng: random.Random, address: str, name: str) -> dict[str, str]:
    return {
        "advertise-client-urls": f"https://{address}:2379",
        "cert-file": f"{PKI}/etcd/server.crt",
        "client-cert-auth": "true",
        "data-dir": "/var/lib/etcd",
        "feature-gates": "InitialCorruptCheck=true",
        "initial-advertise-peer-urls": f"https://{address}:2380",
        "initial-cluster": f"{name}=https://{address}:2380",
        "key-file": f"{PKI}/etcd/server.key",
        "listen-client-urls": f"https://127.0.0.1:2379,https://{address}:2379",
        "listen-metrics-urls": "http://127.0.0.1:2381",
        "listen-peer-urls": f"https://{address}:2380",
        "name": name,
        "peer-cert-file": f"{PKI}/etcd/peer.crt",
        "peer-client-cert-auth": "true",
        "peer-key-file": f"{PKI}/etcd/peer.key",
        "peer-trusted-ca-file": f"{PKI}/etcd/ca.crt",
        "trusted-ca-file": f"{PKI}/etcd/ca.crt",
        "watch-progress-notify-interval": "5s",
    }


def _command(rng: random.Random, binary: str, flags: dict[str, str]) -> list[str]:
    """kubeadm's `--name=value` words; some hand-written manifests split a flag and its value in two words."""
    words = [rng.choice((binary, f"/usr/local/bin/{binary}"))]
    for name, value in flags.items():
        if value != "true" and rng.random() < 0.15:
            words += [f"--{name}", value]
        else:
            words.append(f"--{name}={value}")
    return words


def static_pod(rng: random.Random, index: int) -> dict:
    address = f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
    name = f"cp-{index}"
    component, flags = rng.choice(
        (
            ("kube-apiserver", _apiserver_flags(rng, address)),
            ("kube-apiserver", _apiserver_flags(rng, address)),
            ("kube-controller-manager", _controller_manager_flags(rng)),
            ("kube-scheduler", _scheduler_flags(rng)),
            ("etcd", _etcd_flags(rng, address, name)),
        )
    )
    version = rng.choice(("v1.34.2", "v1.35.0", "v1.36.0"))
    image = f"{rng.choice(IMAGES)}/{component}:{version if component != 'etcd' else '3.6.5-0'}"
    container = {
        "name": component,
        "image": image,
        "imagePullPolicy": "IfNotPresent",
        "command": _command(rng, component, flags),
        "volumeMounts": [{"name": "k8s-certs", "mountPath": PKI, "readOnly": True}],
        "resources": {"requests": {"cpu": rng.choice(("100m", "200m", "250m"))}},
    }
    doc = header(rng, ("kubeadm-managed static Pod",), "v1", "Pod", kind_first=0.1)
    doc["metadata"] = {"name": component, "namespace": "kube-system", "labels": {"component": component, "tier": "control-plane"}}
    doc["spec"] = {
        "containers": [container],
        "hostNetwork": True,
        "priorityClassName": "system-node-critical",
        "volumes": [{"name": "k8s-certs", "hostPath": {"path": PKI, "type": "DirectoryOrCreate"}}],
    }
    return doc


def break_static_pod(rng: random.Random, doc: dict) -> tuple[str, list[str]] | None:
    command = doc["spec"]["containers"][0]["command"]
    if not command[0].endswith("kube-apiserver"):
        return None
    if rng.random() < 0.5:
        command.append("--insecure-port=0")
        return "--insecure-port, removed in 1.24", ["removed-flag"]
    command.append("--authorization-mode=Node,RBAC,Bogus")
    return "authorization mode Bogus", ["invalid-flag-value"]
