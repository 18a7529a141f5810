"""Egress, tracing, events and wire payloads: the server's exact messages and secrets kept out of them."""

from __future__ import annotations

from tests.helpers import run


def messages(text: str, *args: str) -> list[tuple[str, str]]:
    result = run("validate", "-f", "json", *args, "-", stdin=text.encode())
    return [(d["path"], d["message"]) for d in result.json()["diagnostics"]]


EGRESS = """apiVersion: apiserver.k8s.io/v1beta1
kind: EgressSelectorConfiguration
egressSelections:
  - name: cluster
    connection:
      proxyProtocol: HTTPConnect
      transport:
        tcp:
          url: https://konnectivity:8131
          tlsConfig: {}
  - name: Cluster
    connection:
      proxyProtocol: Direct
  - name: nodes
    connection:
      proxyProtocol: Bogus
"""


def test_egress_messages_keep_upstream_wording_with_real_paths() -> None:
    assert messages(EGRESS) == [
        ("egressSelections[0].connection.transport.tcp.tlsConfig.clientCert", 'Invalid value: "nil": Using TLS requires clientCert'),
        ("egressSelections[0].connection.transport.tcp.tlsConfig.clientKey", 'Invalid value: "nil": Using TLS requires requires clientKey'),
        ("egressSelections[1].name", 'Duplicate value: "cluster"'),
        ("egressSelections[2].name", 'Unsupported value: "nodes": supported values: "cluster", "controlplane", "etcd"'),
        (
            "egressSelections[2].connection.proxyProtocol",
            'Unsupported value: "Bogus": supported values: "Direct", "HTTPConnect", "GRPC"',
        ),
    ]


def test_tracing_messages() -> None:
    head = "apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\n"
    assert messages(head + "endpoint: http://localhost:4317\n") == [
        (
            "endpoint",
            (
                'Invalid value: "http://localhost:4317": unsupported scheme: http.  Options are none, dns, unix, or unix-abstract.  '
                "See https://github.com/grpc/grpc/blob/master/doc/naming.md"
            ),
        )
    ]
    assert messages(head + "samplingRatePerMillion: 1000001\n") == [
        ("samplingRatePerMillion", "Invalid value: 1000001: sampling rate per million must be less than or equal to one million")
    ]
    assert messages(head + "endpoint: dn%2s://localhost:4317\n") == [
        (
            "endpoint",
            'Invalid value: "dn%2s://localhost:4317": parse "dn%2s://localhost:4317": first path segment in URL cannot contain colon',
        )
    ]


def test_event_messages_use_upstream_wording() -> None:
    text = """apiVersion: events.k8s.io/v1
kind: Event
metadata: {name: e1, namespace: default}
eventTime: "2024-05-01T10:00:00.000000Z"
type: typeValue
reason: R
action: A
reportingController: kubelet
reportingInstance: node-1
deprecatedCount: 2
series: {count: 1, lastObservedTime: "2024-05-01T10:00:00.000000Z"}
"""
    assert messages(text) == [
        ("type", 'Invalid value: "": has invalid value: typeValue'),
        ("deprecatedCount", 'Invalid value: "": needs to be unset'),
        ("series.count", 'Invalid value: "": should be at least 2'),
    ]


def test_core_v1_event_is_not_checked() -> None:
    text = "apiVersion: v1\nkind: Event\nmetadata: {name: e1}\ntype: Whatever\n"
    assert messages(text) == []


def test_exec_credential_never_shows_key_material() -> None:
    secret = "c2VjcmV0LWtleS1tYXRlcmlhbA=="
    text = f"""apiVersion: client.authentication.k8s.io/v1
kind: ExecCredential
status:
  clientCertificateData: "-----BEGIN CERTIFICATE-----"
  clientKeyData: {secret}
  tokne: x
"""
    result = run("validate", "-f", "json", "-", stdin=text.encode())
    assert result.code == 1
    assert secret not in result.out
    assert ("status.clientKeyData", "failed parsing client key/certificate: tls: failed to find any PEM data in key input") in [
        (d["path"], d["message"]) for d in result.json()["diagnostics"]
    ]


def test_admission_review_uid_mismatch_message() -> None:
    text = """apiVersion: admission.k8s.io/v1
kind: AdmissionReview
request: {uid: "123", kind: {group: "", version: v1, kind: Pod}, resource: {group: "", version: v1, resource: pods},
          operation: CREATE, userInfo: {username: u}}
response: {uid: "456", allowed: false}
"""
    assert messages(text) == [("response.uid", 'expected response.uid="123", got "456"')]
