"""The bootstrap tool's printed defaults, its secrets kept out of messages, and its cross-document behaviour."""

from __future__ import annotations

import pytest

from tests.conftest import FIXTURES
from tests.helpers import run

PRINTS = FIXTURES / "bootstrap" / "print"

# expected file (written from reference/kubeadm.md 7.1-7.5) -> print arguments
CASES = {
    "init-defaults-v1beta3.out": ["init-defaults", "--api-version", "v1beta3", "--target-version", "1.29"],
    "init-defaults-v1beta4.out": ["init-defaults", "--target-version", "1.31"],
    "join-defaults-v1beta3.out": ["join-defaults", "--api-version", "v1beta3"],
    "join-defaults-v1beta4.out": ["join-defaults", "--api-version", "v1beta4"],
    "init-defaults-v1beta4-kubelet.out": ["init-defaults", "--target-version", "1.31", "--component-configs", "KubeletConfiguration"],
    "init-defaults-v1beta4-svc.out": ["init-defaults", "--target-version", "1.31", "--naming", "svc", "--api-domain", "example.com"],
}


@pytest.mark.parametrize("expected,args", CASES.items(), ids=list(CASES))
def test_print_matches_the_catalogue_byte_for_byte(expected: str, args: list[str]) -> None:
    result = run("print", *args)
    assert result.code == 0, result.err
    assert result.out == (PRINTS / expected).read_text(encoding="utf-8")


@pytest.mark.parametrize("expected,args", CASES.items(), ids=list(CASES))
def test_printed_defaults_validate_without_errors(expected: str, args: list[str]) -> None:
    printed = run("print", *args).out
    domain = ["--api-domain", "example.com"] if "example.com" in args else []
    # The kubernetesVersion printed is the target's, which kubeadm of that release deploys (checked at it).
    target = ["--target-version", args[args.index("--target-version") + 1]] if "--target-version" in args else []
    result = run("validate", "--no-config", "--format", "json", *domain, *target, "-", stdin=printed.encode())
    assert result.code == 0, result.out
    assert result.json()["summary"]["errors"] == 0
    documents = printed.count("---\n") + 1
    assert result.json()["summary"]["documents"] == documents


def test_print_default_version_is_the_newest_and_never_host_values() -> None:
    out = run("print", "init-defaults").out
    assert out.startswith("apiVersion: kubeadm.k8s.io/v1beta4\n")
    assert "token: abcdef.0123456789abcdef" in out
    assert "advertiseAddress: 1.2.3.4" in out
    assert "  name: node\n" in out
    join = run("print", "join-defaults").out
    assert "  name: node\n" in join and "apiServerEndpoint: kube-apiserver:6443" in join


def test_print_init_and_join_defaults_are_deterministic() -> None:
    assert run("print", "init-defaults").out == run("print", "init-defaults").out
    assert run("print", "join-defaults").out == run("print", "join-defaults").out


def test_component_configs_needs_known_kinds() -> None:
    result = run("print", "init-defaults", "--component-configs", "KubeletConfiguration,Foo")
    assert result.code == 2
    assert "--component-configs needs to contain some of [KubeletConfiguration KubeProxyConfiguration]" in result.err


def test_print_with_both_component_configs_in_the_order_given() -> None:
    result = run("print", "init-defaults", "--component-configs", "KubeProxyConfiguration,KubeletConfiguration")
    assert result.code == 0
    documents = result.out.split("---\n")
    assert len(documents) == 4
    # The catalogue's printed proxy document (reference/kubeadm.md 7.6).
    assert documents[2] == (PRINTS / "component-KubeProxyConfiguration.out").read_text(encoding="utf-8")
    assert "kind: KubeletConfiguration\n" in documents[3]
    checked = run("validate", "--no-config", "--format", "json", "-", stdin=result.out.encode())
    assert checked.json()["summary"]["errors"] == 0, checked.out


def test_svc_naming_keeps_the_node_agent_group() -> None:
    out = run("print", "init-defaults", "--naming", "svc", "--component-configs", "KubeletConfiguration").out
    assert out.startswith("apiVersion: svcadm.k8s.io/v1beta4\n")
    assert "apiVersion: kubelet.config.k8s.io/v1beta1\n" in out
    assert "kind: KubeletConfiguration\n" in out


# --------------------------------------------------------------------------- secrets

SECRET = "6b6baab1d4a0a171"
KEY = "z6a2eb8581237ab72a4f494f30285ec12a9694d750b9785706a83bfcbbbd2204"


def test_token_secrets_and_certificate_keys_never_appear() -> None:
    text = f"""apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
bootstrapTokens:
- token: 772ef5.{SECRET}x
- token: 772ef5{SECRET}
certificateKey: {KEY}
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: JoinConfiguration
discovery:
  bootstrapToken:
    token: 772ef5.{SECRET}@
    apiServerEndpoint: cp:6443
    unsafeSkipCAVerification: true
  tlsBootstrapToken: 772ef5.{SECRET[:-1]}
"""
    for output in ("json", "text", "sarif", "github", "junit"):
        result = run("validate", "--no-config", "--format", output, "-", stdin=text.encode())
        assert SECRET[:-1] not in result.out and KEY[2:] not in result.out
    messages = [d["message"] for d in run("validate", "--no-config", "--format", "json", "-", stdin=text.encode()).json()["diagnostics"]]
    assert 'Invalid value: "772ef5.REDACTED": the bootstrap token is invalid' in messages
    assert 'Invalid value: "REDACTED": the bootstrap token is invalid' in messages
    assert 'Invalid value: "REDACTED": certificate key decoding error: encoding/hex: invalid byte' in messages


# --------------------------------------------------------------------------- upstream wording and intent

INIT = "apiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\n"
JOIN = (
    "apiVersion: kubeadm.k8s.io/v1beta4\nkind: JoinConfiguration\ndiscovery:\n  bootstrapToken:\n"
    "    token: abcdef.0123456789abcdef\n    apiServerEndpoint: cp:6443\n"
    "    caCertHashes: [sha256:7173b809ca12ec5dee4506cd86be934c4596dd234ee82c0662eac04a8c2c71dc]\n"
)
KUBELET = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"


def _rules(text: str, *flags: str) -> list[tuple]:
    return [(r[3], r[0]) for r in run("validate", "--no-config", "--format", "json", *flags, "-", stdin=text.encode()).rules()]


def test_intent_is_inferred_from_the_kinds_present() -> None:
    assert _rules(INIT + "---\n" + KUBELET) == []
    assert _rules(JOIN + "---\n" + KUBELET) == [("ignored-bootstrap-document", 10)]
    # Both kinds and no --bootstrap: the file is validated as a whole, nothing is ignored.
    assert _rules(INIT + "---\n" + JOIN) == []


def test_bootstrap_flag_states_the_intent() -> None:
    assert sorted(_rules(INIT + "---\n" + JOIN, "--bootstrap", "join")) == [("ignored-bootstrap-document", 2)]
    assert sorted(_rules(INIT + "---\n" + JOIN, "--bootstrap", "init")) == [("ignored-bootstrap-document", 5)]
    assert _rules(KUBELET, "--bootstrap", "init") == [("missing-bootstrap-document", 2)]
    # A kubelet file of its own, without --bootstrap, is no bootstrap file.
    assert _rules(KUBELET + "clusterDNS: [1.1.1.1]\n") == []


def test_messages_use_the_tool_wording() -> None:
    text = INIT + "---\n" + INIT
    messages = [d["message"] for d in run("validate", "--no-config", "--format", "json", "-", stdin=text.encode()).json()["diagnostics"]]
    assert messages == ['invalid configuration: kind "InitConfiguration" is specified twice in YAML file']
    join = "apiVersion: kubeadm.k8s.io/v1beta4\nkind: JoinConfiguration\ndiscovery:\n  bootstrapToken:\n    token: abcdef.0123456789abcdef\n    apiServerEndpoint: 192.168.122.100\n    unsafeSkipCAVerification: true\n"
    messages = {
        d["rule"]: d["message"] for d in run("validate", "--no-config", "--format", "json", "-", stdin=join.encode()).json()["diagnostics"]
    }
    assert messages["invalid-discovery-endpoint"] == 'Invalid value: "192.168.122.100": address 192.168.122.100: missing port in address'


def test_api_domain_and_svc_spelling_reach_the_cross_document_rules() -> None:
    text = (
        "apiVersion: svcadm.example.com/v1beta4\nkind: ClusterConfiguration\nnetworking:\n  serviceSubnet: 10.100.0.0/16\n"
        "---\napiVersion: kubelet.config.example.com/v1beta1\nkind: KubeletConfiguration\nclusterDNS: [10.96.0.10]\n"
    )
    assert _rules(text, "--api-domain", "example.com") == [("cluster-dns-mismatch", 8)]


def test_svc_naming_spells_the_proxy_document_and_validates() -> None:
    out = run("print", "init-defaults", "--naming", "svc", "--component-configs", "KubeProxyConfiguration").out
    proxy = out.split("---\n")[2]
    assert proxy.startswith("apiVersion: svcproxy.config.k8s.io/v1alpha1\n")
    assert "\nkind: SvcProxyConfiguration\n" in proxy
    result = run("validate", "--no-config", "--format", "json", "-", stdin=out.encode())
    assert result.json()["summary"]["errors"] == 0, result.out
