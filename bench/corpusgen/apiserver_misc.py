"""Generators of the API server's smaller kinds: egress selector, tracing, events, and the wire payloads svcconf checks."""

from __future__ import annotations

import base64
import random

from .writer import Quoted, header, pick, rename

# --------------------------------------------------------------------------- egress selector


def _connection(rng: random.Random, name: str) -> dict:
    if name == "etcd" or rng.random() < 0.15:
        return {"proxyProtocol": "Direct"}
    protocol = rng.choice(("GRPC", "HTTPConnect", "HTTPConnect"))
    if protocol == "GRPC" or rng.random() < 0.5:
        transport: dict = {"uds": {"udsName": "/etc/kubernetes/konnectivity-server/konnectivity-server.socket"}}
    else:
        transport = {
            "tcp": {
                "url": f"https://konnectivity.kube-system.svc:{rng.choice((8131, 8132))}",
                "tlsConfig": {
                    "caBundle": "/etc/kubernetes/pki/konnectivity/ca.crt",
                    "clientCert": "/etc/kubernetes/pki/konnectivity/client.crt",
                    "clientKey": "/etc/kubernetes/pki/konnectivity/client.key",
                },
            }
        }
    return {"proxyProtocol": protocol, "transport": transport}


def egress_selector(rng: random.Random, index: int) -> dict:
    doc = header(
        rng,
        ("Konnectivity egress (--egress-selector-config-file)",),
        "apiserver.k8s.io/v1beta1",
        "EgressSelectorConfiguration",
        kind_first=0.2,
    )
    doc["egressSelections"] = [
        {"name": name, "connection": _connection(rng, name)} for name in pick(rng, ("cluster", "controlplane", "etcd"), 1, 3)
    ]
    return doc


def break_egress(rng: random.Random, doc: dict) -> tuple[str, list[str]] | None:
    selection = rng.choice(doc["egressSelections"])
    if rng.random() < 0.5:
        selection["name"] = rng.choice(("nodes", "konnectivity", "apiserver"))
        return f"egress selection named {selection['name']}", ["invalid-egress-selection-name"]
    selection["connection"]["proxyProtocol"] = rng.choice(("HTTP", "grpc", "Socks5"))
    return f"proxyProtocol {selection['connection']['proxyProtocol']}", ["invalid-egress-protocol"]


# --------------------------------------------------------------------------- tracing

ENDPOINTS = ("localhost:4317", "otel-collector.monitoring.svc:4317", "dns://otel-collector.observability:4317", "unix:///var/run/otel.sock")


def tracing_configuration(rng: random.Random, index: int) -> dict:
    doc = header(rng, ("API server tracing (--tracing-config-file)",), "apiserver.config.k8s.io/v1", "TracingConfiguration", kind_first=0.2)
    doc["endpoint"] = rng.choice(ENDPOINTS)
    doc["samplingRatePerMillion"] = rng.choice((100, 1000, 10000, 1000000))
    return doc


def break_tracing(rng: random.Random, doc: dict) -> tuple[str, list[str]] | None:
    if rng.random() < 0.5:
        doc["samplingRatePerMillion"] = rng.choice((-1, 1000001, 2000000))
        return f"samplingRatePerMillion {doc['samplingRatePerMillion']}", ["invalid-sampling-rate"]
    rename(doc, "endpoint", "endPoint")
    return "unknown field endPoint (for endpoint)", ["unknown-field"]


# --------------------------------------------------------------------------- events

REASONS = (
    ("Scheduled", "Binding", "Normal"),
    ("Pulled", "Pulling", "Normal"),
    ("BackOff", "Restarting", "Warning"),
    ("FailedMount", "Mounting", "Warning"),
)


def event(rng: random.Random, index: int) -> dict:
    doc = header(rng, ("recorded event",), "events.k8s.io/v1", "Event", kind_first=0.1)
    pod = f"web-{index}"
    reason, action, event_type = rng.choice(REASONS)
    doc["metadata"] = {"name": f"{pod}.{index:016x}", "namespace": "default"}
    doc["eventTime"] = Quoted(f"2024-05-{rng.randint(1, 28):02d}T10:00:00.000000Z")
    doc["type"] = event_type
    doc["reason"] = reason
    doc["action"] = action
    doc["note"] = f"{reason} for pod {pod}"
    doc["reportingController"] = rng.choice(("default-scheduler", "kubelet"))
    doc["reportingInstance"] = f"{doc['reportingController']}-node-{rng.randint(1, 9)}"
    doc["regarding"] = {"kind": "Pod", "namespace": "default", "name": pod}
    if event_type == "Warning" and rng.random() < 0.5:
        doc["series"] = {"count": rng.randint(2, 40), "lastObservedTime": Quoted("2024-05-01T10:05:00.000000Z")}
    return doc


def break_event(rng: random.Random, doc: dict) -> tuple[str, list[str]] | None:
    doc["type"] = rng.choice(("Error", "Info", "normal"))
    return f"event type {doc['type']}", ["invalid-event-type"]


# --------------------------------------------------------------------------- wire payloads


def _uid(rng: random.Random) -> str:
    hexes = "".join(rng.choices("0123456789abcdef", k=32))
    return f"{hexes[:8]}-{hexes[8:12]}-{hexes[12:16]}-{hexes[16:20]}-{hexes[20:]}"


def admission_review(rng: random.Random, index: int) -> dict:
    doc = header(rng, ("recorded admission review",), "admission.k8s.io/v1", "AdmissionReview", kind_first=0.1)
    uid = _uid(rng)
    doc["request"] = {
        "uid": uid,
        "kind": {"group": "apps", "version": "v1", "kind": "Deployment"},
        "resource": {"group": "apps", "version": "v1", "resource": "deployments"},
        "operation": rng.choice(("CREATE", "UPDATE")),
        "userInfo": {"username": rng.choice(("admin", "system:serviceaccount:argocd:argocd-application-controller"))},
        "namespace": rng.choice(("default", "payments")),
    }
    if rng.random() < 0.6:
        response: dict = {"uid": uid, "allowed": True}
        if rng.random() < 0.5:
            response["patchType"] = "JSONPatch"
            response["patch"] = base64.b64encode(b'[{"op":"add","path":"/spec/replicas","value":3}]').decode("ascii")
        doc["response"] = response
    return doc


def exec_credential(rng: random.Random, index: int) -> dict:
    doc = header(rng, ("recorded exec credential",), "client.authentication.k8s.io/v1", "ExecCredential", kind_first=0.1)
    doc["spec"] = {"interactive": False}
    doc["status"] = {"token": f"token-{index}", "expirationTimestamp": Quoted("2024-05-01T10:00:00Z")}
    return doc


def image_review(rng: random.Random, index: int) -> dict:
    doc = header(rng, ("recorded image review",), "imagepolicy.k8s.io/v1alpha1", "ImageReview", kind_first=0.1)
    digest = "".join(rng.choices("0123456789abcdef", k=64))
    doc["spec"] = {"containers": [{"image": f"registry.example.com/app@sha256:{digest}"}], "namespace": "default"}
    doc["status"] = {"allowed": rng.random() < 0.8}
    return doc


def wire_payload(rng: random.Random, index: int) -> dict:
    return rng.choice((admission_review, admission_review, exec_credential, image_review))(rng, index)


def _audit_record(rng: random.Random, index: int) -> dict:
    stamp = Quoted(f"2024-05-01T10:{index % 60:02d}:00.000000Z")
    verb, code = rng.choice((("get", 200), ("list", 200), ("create", 201), ("delete", 200), ("get", 404)))
    return {
        "level": "Metadata",
        "auditID": _uid(rng),
        "stage": "ResponseComplete",
        "requestURI": f"/api/v1/namespaces/default/pods/web-{index}" if verb != "list" else "/api/v1/namespaces/default/pods",
        "verb": verb,
        "user": {
            "username": "system:serviceaccount:kube-system:replicaset-controller",
            "groups": ["system:serviceaccounts", "system:authenticated"],
        },
        "sourceIPs": [f"10.0.{index % 250}.{rng.randint(2, 250)}"],
        "userAgent": "kube-controller-manager/v1.36.0",
        "objectRef": {"resource": "pods", "namespace": "default", "apiVersion": "v1"},
        "responseStatus": {"metadata": {}, "code": code},
        "requestReceivedTimestamp": stamp,
        "stageTimestamp": stamp,
    }


def audit_event(rng: random.Random, index: int) -> dict:
    """An audit log record as YAML, alone or a few in an EventList."""
    if rng.random() < 0.2:
        return {
            "apiVersion": "audit.k8s.io/v1",
            "kind": "EventList",
            "items": [{"apiVersion": "audit.k8s.io/v1", "kind": "Event", **_audit_record(rng, index + i)} for i in range(3)],
        }
    doc = header(rng, ("audit log record",), "audit.k8s.io/v1", "Event", kind_first=0.1)
    doc.update(_audit_record(rng, index))
    return doc


def events_file(rng: random.Random, index: int) -> list[dict]:
    """A recorded event, audit record or wire payload: the kinds svcconf checks that nobody writes by hand."""
    make = rng.choices((event, audit_event, wire_payload), (0.4, 0.2, 0.4))[0]
    return [make(rng, index)]


def break_payload(rng: random.Random, doc: dict) -> tuple[str, list[str]] | None:
    if doc["kind"] == "Event":
        return break_event(rng, doc) if doc["apiVersion"] == "events.k8s.io/v1" else None
    if doc["kind"] == "EventList":
        return None
    if doc["kind"] == "AdmissionReview":
        if "response" not in doc:
            return None
        doc["response"]["uid"] = _uid(rng)
        return "response uid differs from request uid", ["admission-response-invalid"]
    rename(doc, "spec", "specs")
    return "unknown field specs (for spec)", ["unknown-field"]
