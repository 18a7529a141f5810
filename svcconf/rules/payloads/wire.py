"""Wire payload rules: AdmissionReview responses, ExecCredential plugin output and ImageReview answers, as their receivers check them.

These documents are recorded payloads (test fixtures, captured responses). Key material in an
ExecCredential is never echoed.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator

from svcconf.model import Anchor, Finding, Severity

from .. import Context, advice, items, mapping, not_supported, required, rule, text

OPERATIONS = ("CREATE", "UPDATE", "DELETE", "CONNECT")
REQUEST_FIELDS = ("uid", "kind", "resource", "operation", "userInfo")
WARNING_LIMIT = 256  # longer warnings may be truncated by the server


@rule("AdmissionReview")
def check_request(doc: dict, ctx: Context) -> Iterator[Finding]:
    request = doc.get("request")
    if not isinstance(request, dict):
        return
    for field in REQUEST_FIELDS:
        if not request.get(field):
            yield required(("request", field))
    operation = request.get("operation")
    if isinstance(operation, str) and operation and operation not in OPERATIONS:
        yield not_supported(("request", "operation"), operation, OPERATIONS)


@rule("AdmissionReview")
def check_response(doc: dict, ctx: Context) -> Iterator[Finding]:
    response = doc.get("response")
    if not isinstance(response, dict):
        if "request" not in doc:
            yield Finding("admission-response-invalid", (), "webhook response was absent", Severity.ERROR, Anchor.PARENT)
        return
    base = ("response",)
    request_uid = text(mapping(doc.get("request")).get("uid"))
    uid = response.get("uid")
    if not uid:
        yield required(base + ("uid",), "copy request.uid")
    elif request_uid and isinstance(uid, str) and uid != request_uid:
        yield Finding("admission-response-invalid", base + ("uid",), f'expected response.uid="{request_uid}", got "{uid}"')
    if "allowed" not in response:
        yield advice("review-allowed-missing", base, "response.allowed is not set, so the request is denied")
    yield from _check_patch(base, response)
    for i, warning in items(response.get("warnings")):
        if isinstance(warning, str) and len(warning) > WARNING_LIMIT:
            yield advice(
                "long-admission-warning",
                base + ("warnings", i),
                f"warning is {len(warning)} characters; the server may truncate warnings over {WARNING_LIMIT} characters (keep them under 120)",
            )


def _check_patch(base: tuple, response: dict) -> Iterator[Finding]:
    patch = response.get("patch")
    patch_type = response.get("patchType")
    if patch and patch_type is None:
        yield Finding("admission-response-invalid", base + ("patch",), "webhook returned response.patch but not response.patchType")
    if isinstance(patch_type, str):
        if patch_type == "":
            yield Finding("admission-response-invalid", base + ("patchType",), 'webhook returned invalid response.patchType of ""')
        elif not patch:
            yield Finding("admission-response-invalid", base + ("patchType",), "webhook returned response.patchType but not response.patch")
        elif patch_type != "JSONPatch":
            yield Finding("admission-response-invalid", base + ("patchType",), f'unsupported patch type "{patch_type}"')
    if isinstance(patch, str) and patch and not _is_base64(patch):
        yield Finding(
            "admission-patch-not-base64",
            base + ("patch",),
            "response.patch must be the base64 encoding of a JSON Patch (it is bytes on the wire)",
        )


def _is_base64(value: str) -> bool:
    try:
        base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


@rule("ExecCredential")
def check_exec_status(doc: dict, ctx: Context) -> Iterator[Finding]:
    status = doc.get("status")
    if not isinstance(status, dict):
        if status is None:
            yield Finding("exec-credential-invalid", ("status",), "exec plugin didn't return a status field", Severity.ERROR, Anchor.PARENT)
        return
    token = status.get("token")
    cert = status.get("clientCertificateData")
    key = status.get("clientKeyData")
    if bool(cert) != bool(key):
        yield Finding("exec-credential-invalid", ("status",), "exec plugin returned only certificate or key, not both")
    elif not token and not cert:
        yield Finding("exec-credential-invalid", ("status",), "exec plugin didn't return a token or cert/key pair")
    if isinstance(cert, str) and cert and key and "-----BEGIN" not in cert:
        yield Finding(
            "exec-credential-invalid",
            ("status", "clientCertificateData"),
            "failed parsing client key/certificate: tls: failed to find any PEM data in certificate input",
        )
    elif isinstance(key, str) and key and cert and "-----BEGIN" not in key:
        yield Finding(
            "exec-credential-invalid",
            ("status", "clientKeyData"),
            "failed parsing client key/certificate: tls: failed to find any PEM data in key input",
        )


@rule("ImageReview")
def check_image_review(doc: dict, ctx: Context) -> Iterator[Finding]:
    status = doc.get("status")
    if isinstance(status, dict) and "allowed" not in status:
        yield advice("review-allowed-missing", ("status",), "status.allowed is not set, so the images are denied")
