"""Values built to hang or crash a parser get their ordinary diagnostic at once, never `internal-error`.

Each case once took seconds to days (a regular expression that backtracks) or ended a rule with an
exception (a digit of another script that str.isdigit() accepts and int() refuses). The alarm is a
generous guard against a hang, not a speed target.
"""

from __future__ import annotations

import signal
from contextlib import contextmanager

import pytest

from svcconf.lint.check import check_text

HANG_GUARD = 10  # seconds


@contextmanager
def no_hang():
    def stop(signum, frame):
        raise AssertionError(f"no result within {HANG_GUARD} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(HANG_GUARD)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def findings(text: str) -> list[tuple[str, str]]:
    with no_hang():
        result = check_text(text)
    return sorted((d.rule, d.path_text) for d in result.diagnostics)


def cluster(repository: str) -> str:
    return f"apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\nimageRepository: {repository}\n"


def kms(timeout: str) -> str:
    return (
        "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n"
        f'    providers:\n      - kms: {{apiVersion: v2, name: k, endpoint: "unix:///tmp/k.sock", timeout: "{timeout}"}}\n'
    )


@pytest.mark.parametrize("letters", [26, 40, 10_000])
def test_image_repository_that_once_backtracked(letters: int) -> None:
    # 26 letters and "!" took 6 s; every further letter doubled it.
    assert findings(cluster("a" * letters + "!")) == [("invalid-image-repository", "imageRepository")]


@pytest.mark.parametrize("repeats", [15, 25, 2_500])
def test_kms_timeout_that_once_backtracked(repeats: int) -> None:
    # "000s" * 15 + "!" (61 characters) took 3 s: every run of digits could be split several ways.
    assert findings(kms("000s" * repeats + "!")) == [("kms-timeout-not-positive", "resources[0].providers[0].kms.timeout")]


@pytest.mark.parametrize("address", ["1.2.3.²", "١.2.3.4", "１.2.3.4"])
def test_other_scripts_digits_are_not_an_address(address: str) -> None:
    # "1.2.3.²" ended the rule with a ValueError; "١.2.3.4" was accepted. Go reads ASCII digits only.
    init = f'apiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\nlocalAPIEndpoint:\n  advertiseAddress: "{address}"\n'
    assert findings(init) == [("invalid-advertise-address", "localAPIEndpoint.advertiseAddress")]
    proxy = (
        "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\n"
        f'bindAddress: "{address}"\nhealthzBindAddress: "{address}:10256"\nnodePortAddresses: ["{address}/24"]\n'
    )
    assert findings(proxy) == [
        ("proxy-invalid-bind-address", "bindAddress"),
        ("proxy-invalid-host-port", "healthzBindAddress"),
        ("proxy-invalid-node-port-address", "nodePortAddresses[0]"),
    ]


def test_certificate_authority_of_begin_lines_only() -> None:
    # Every BEGIN line once scanned the rest of the text for its END line.
    bundle = "-----BEGIN CERTIFICATE-----\\n" * 30_000
    authn = (
        "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\njwt:\n  - issuer:\n"
        f'      url: https://issuer.example\n      audiences: [a]\n      certificateAuthority: "{bundle}"\n'
        '    claimMappings:\n      username: {claim: sub, prefix: ""}\n'
    )
    assert ("invalid-certificate-authority", "jwt[0].issuer.certificateAuthority") in findings(authn)


@pytest.mark.parametrize("duration", ["١m", "1²m", "１m"])
def test_other_scripts_digits_are_not_a_duration(duration: str) -> None:
    # Schema patterns run in jsonschema-rs, whose \d is ASCII like Go's.
    kubelet = f'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nsyncFrequency: "{duration}"\n'
    assert findings(kubelet) == [("invalid-value", "syncFrequency")]
    assert findings(kms(duration)) == [("kms-timeout-not-positive", "resources[0].providers[0].kms.timeout")]


@pytest.mark.parametrize("level", ["[Metadata]", "{RequestResponse: 1}"])
def test_an_audit_level_that_is_no_string_is_a_wrong_type_not_a_crash(level: str) -> None:
    # audit-logs-secrets looked the level up in a table; a list or mapping cannot be a key (fuzz seed 20261122).
    policy = f"apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: {level}\n    resources: [{{resources: [secrets]}}]\n"
    assert ("wrong-type", "rules[0].level") in findings(policy)
    assert not any(rule == "internal-error" for rule, _path in findings(policy))
