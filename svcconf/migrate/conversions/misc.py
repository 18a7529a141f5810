"""Smaller conversions: reviews, RuntimeClass, CronJob, CSR, Event, admission policies, leases, egress, kubeconfig exec.

Source: https://kubernetes.io/docs/reference/using-api/deprecation-guide/ and each group's conversions under pkg/apis/.
"""

from __future__ import annotations

from ..ops import Context, Review, get, insert, insert_after, move, new_map, new_seq, pop, walk
from ..steps import Custom, Remove, Rename, step

# --------------------------------------------------------------------------- authorization reviews (2.19)
for _kind in ("SubjectAccessReview", "LocalSubjectAccessReview"):
    step("authorization.k8s.io/v1beta1", _kind, "authorization.k8s.io/v1", Rename(("spec",), "group", "groups"))


# --------------------------------------------------------------------------- RuntimeClass v1alpha1 (2.19)
def _runtime_class(doc: dict, ctx: Context) -> None:
    spec = doc.get("spec")
    if not isinstance(spec, dict):
        return
    position = list(doc).index("spec")
    for old, new in (("runtimeHandler", "handler"), ("overhead", "overhead"), ("scheduling", "scheduling")):
        if old in spec:
            move(spec, old, doc, new, ctx, position=position + 1)
            position += 1
    if not spec:
        pop(doc, "spec")


step("node.k8s.io/v1alpha1", "RuntimeClass", "node.k8s.io/v1", Custom(_runtime_class))


# --------------------------------------------------------------------------- CronJob v2alpha1 (2.11)
def _history_limits(doc: dict, ctx: Context) -> None:
    spec = doc.get("spec")
    for key, now in (("successfulJobsHistoryLimit", 3), ("failedJobsHistoryLimit", 1)):
        if isinstance(spec, dict) and key not in spec:
            ctx.note(("spec", key), f"{key} was unlimited in batch/v2alpha1; batch/v1 keeps {now} unless you set it", warn=True)


step("batch/v2alpha1", "CronJob", "batch/v1", Custom(_history_limits))

# --------------------------------------------------------------------------- CertificateSigningRequest (2.9)
USAGES = ("digital signature", "key encipherment")


def _csr_review(doc: dict, ctx: Context) -> list[Review]:
    if get(doc, "spec", "signerName"):
        return []
    return [
        Review(
            ("spec", "signerName"),
            "certificates.k8s.io/v1 requires spec.signerName; v1beta1 derived it from the request, and anything but a kubelet "
            "client or serving request became kubernetes.io/legacy-unknown, which v1 refuses",
            "set spec.signerName: kubernetes.io/kube-apiserver-client-kubelet, kubernetes.io/kubelet-serving, "
            "kubernetes.io/kube-apiserver-client or your own signer",
        )
    ]


def _csr(doc: dict, ctx: Context) -> None:
    spec = doc.get("spec")
    if isinstance(spec, dict) and "usages" not in spec:
        insert(spec, len(spec), "usages", new_seq(spec, list(USAGES)))
        ctx.note(("spec", "usages"), "usages [digital signature, key encipherment] written: the v1beta1 default (v1 requires it)")


step("certificates.k8s.io/v1beta1", "CertificateSigningRequest", "certificates.k8s.io/v1", Custom(_csr, _csr_review))

# --------------------------------------------------------------------------- events.k8s.io Event (2.13)
EVENT_REQUIRED = ("eventTime", "reportingController", "reportingInstance", "action", "reason")


def _event(doc: dict, ctx: Context) -> None:
    source = doc.get("deprecatedSource")
    if isinstance(source, dict):
        for old, new in (("component", "reportingController"), ("host", "reportingInstance")):
            if old in source and new not in doc:
                move(source, old, doc, new, ctx, position=list(doc).index("deprecatedSource"))
        if not source:
            pop(doc, "deprecatedSource")
    if "deprecatedFirstTimestamp" in doc and "eventTime" not in doc:
        original = doc["deprecatedFirstTimestamp"]
        first = _same_style(original, _micro_time(original))
        move(doc, "deprecatedFirstTimestamp", doc, "eventTime", ctx, position=list(doc).index("deprecatedFirstTimestamp"))
        doc["eventTime"] = first
        ctx.note(("eventTime",), f"deprecatedFirstTimestamp {original} written as eventTime {first} (MicroTime)")
    count = doc.get("deprecatedCount")
    if isinstance(count, int) and count >= 2 and "deprecatedLastTimestamp" in doc and "series" not in doc:
        last = doc["deprecatedLastTimestamp"]
        series = new_map(doc, [("count", count), ("lastObservedTime", _same_style(last, _micro_time(last)))])
        insert_after(doc, "deprecatedCount", "series", series)
        pop(doc, "deprecatedCount")
        pop(doc, "deprecatedLastTimestamp")
        ctx.note(("series",), f"deprecatedCount {count} and deprecatedLastTimestamp {last} written as series")
    for key in ("deprecatedFirstTimestamp", "deprecatedLastTimestamp", "deprecatedCount", "deprecatedSource"):
        if key in doc:
            value, _comment = pop(doc, key)
            ctx.note(
                (key,),
                f"{key} dropped: events.k8s.io/v1 refuses it on create",
                (value,) if not isinstance(value, dict) else tuple(value.values()),
            )


def _same_style(old, text: str):
    """A new string written with the quotes of the value it replaces (round-trip strings keep their style)."""
    return type(old)(text) if isinstance(old, str) and type(old) is not str else text


def _micro_time(value) -> str:
    """MicroTime text (2006-01-02T15:04:05.000000Z) of a timestamp the loader may have turned into a datetime."""
    import datetime

    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.UTC).replace(tzinfo=None)
        return value.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    text = str(value)
    return text[:-1] + ".000000Z" if text.endswith("Z") and "." not in text else text


def _event_review(doc: dict, ctx: Context) -> list[Review]:
    source = doc.get("deprecatedSource") if isinstance(doc.get("deprecatedSource"), dict) else {}
    derived = {
        "reportingController": "component" in source,
        "reportingInstance": "host" in source,
        "eventTime": "deprecatedFirstTimestamp" in doc,
    }
    missing = [key for key in EVENT_REQUIRED if not doc.get(key) and not derived.get(key)]
    if not missing:
        return []
    return [
        Review((missing[0],), "events.k8s.io/v1 requires " + ", ".join(missing) + " on create and they cannot be derived", "write them")
    ]


step("events.k8s.io/v1beta1", "Event", "events.k8s.io/v1", Custom(_event, _event_review))


# --------------------------------------------------------------------------- ValidatingAdmissionPolicyBinding (2.17)
def _binding(doc: dict, ctx: Context) -> None:
    spec = doc.get("spec")
    if not isinstance(spec, dict):
        return
    if "validationActions" not in spec:
        insert(spec, len(spec), "validationActions", new_seq(spec, ["Deny"], flow=True))
        ctx.note(("spec", "validationActions"), "validationActions [Deny] written: the old behaviour (v1 requires it)")
    param_ref = spec.get("paramRef")
    if isinstance(param_ref, dict) and "parameterNotFoundAction" not in param_ref:
        insert(param_ref, len(param_ref), "parameterNotFoundAction", "Deny")
        ctx.note(
            ("spec", "paramRef", "parameterNotFoundAction"), "parameterNotFoundAction Deny written: the old behaviour (v1 requires it)"
        )


for _version in ("v1alpha1", "v1beta1"):
    step(
        f"admissionregistration.k8s.io/{_version}", "ValidatingAdmissionPolicyBinding", "admissionregistration.k8s.io/v1", Custom(_binding)
    )


# --------------------------------------------------------------------------- LeaseCandidate, StorageVersionMigration (2.19)
def _strategy(doc: dict, ctx: Context) -> None:
    spec = doc.get("spec")
    strategies = get(spec, "preferredStrategies")
    if not isinstance(strategies, list) or "strategy" in spec:
        return
    position = list(spec).index("preferredStrategies")
    value, _comment = pop(spec, "preferredStrategies")
    if value:
        insert(spec, position, "strategy", value[0])
    if len(value) > 1:
        ctx.note(
            ("spec", "preferredStrategies"),
            "only the first preferred strategy is kept: v1beta1 has a single strategy",
            tuple(value[1:]),
            warn=True,
        )


step("coordination.k8s.io/v1alpha1", "LeaseCandidate", "coordination.k8s.io/v1beta1", Custom(_strategy))
step(
    "storagemigration.k8s.io/v1alpha1",
    "StorageVersionMigration",
    "storagemigration.k8s.io/v1beta1",
    Remove(("spec", "resource"), "version", "spec.resource.version dropped: v1beta1 names a group and resource only"),
    Remove(("spec",), "continueToken", "spec.continueToken dropped: v1beta1 has no such field"),
)

# --------------------------------------------------------------------------- ExecCredential and kubeconfig exec (4.7, 4.8)
step(
    "client.authentication.k8s.io/v1alpha1",
    "ExecCredential",
    "client.authentication.k8s.io/v1beta1",
    Remove(("spec",), "response", "spec.response dropped: v1beta1 has no such field"),
)


def _exec_version(doc: dict, ctx: Context) -> None:
    for path, exec_config in walk(doc, ("users", "*", "user", "exec")):
        version = exec_config.get("apiVersion") if isinstance(exec_config, dict) else None
        if isinstance(version, str) and version.endswith("/v1alpha1") and "client.authentication." in version:
            exec_config["apiVersion"] = version[: -len("v1alpha1")] + "v1beta1"
            ctx.note(
                (*path, "apiVersion"),
                f"exec plugin apiVersion {version} written as v1beta1: same semantics (v1alpha1 stopped working in 1.24)",
            )


step("v1", "Config", "v1", Custom(_exec_version))


# --------------------------------------------------------------------------- EgressSelectorConfiguration (4.4)
def _egress(doc: dict, ctx: Context) -> None:
    for path, selection in walk(doc, ("egressSelections", "*")):
        if not isinstance(selection, dict):
            continue
        if selection.get("name") == "master":
            selection["name"] = "controlplane"
            ctx.note((*path, "name"), "egress selection master written as controlplane (master is refused from 1.23)")
        connection = selection.get("connection")
        if not isinstance(connection, dict):
            continue
        if "type" in connection and "proxyProtocol" not in connection:
            from ..ops import rename

            rename(connection, "type", "proxyProtocol", ctx)
        http = connection.get("httpConnect")
        if isinstance(http, dict):
            tcp = new_map(connection)
            transport = new_map(connection, [("tcp", tcp)])
            insert_after(connection, "httpConnect", "transport", transport)
            if "url" in http:
                move(http, "url", tcp, "url", ctx)
            if http:
                tls = new_map(connection)
                tcp["tlsConfig"] = tls
                for key in list(http):
                    move(http, key, tls, key, ctx)
            pop(connection, "httpConnect")


step("apiserver.k8s.io/v1alpha1", "EgressSelectorConfiguration", "apiserver.k8s.io/v1beta1", Custom(_egress))
