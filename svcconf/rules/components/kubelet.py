"""KubeletConfiguration rules: the kubelet's own range checks (what it keeps consistent in a bootstrap file: rules/bootstrap/kubelet.py)."""

from __future__ import annotations

from collections.abc import Iterator

from svcconf.model import Finding

from .. import Context, integer, rule

KIND = "KubeletConfiguration"


# field, flag, low, high, shape: the kubelet's ValidateKubeletConfiguration, for values written in the file
# (an unset field takes a default that passes); for ports 0 is the zero value (default or switched off).
RANGES = (
    ("healthzPort", "healthz-port", 1, 65535, "port"),
    ("port", "port", 1, 65535, "port"),
    ("readOnlyPort", "read-only-port", 0, 65535, "port"),
    ("imageGCHighThresholdPercent", "image-gc-high-threshold", 0, 100, "range"),
    ("imageGCLowThresholdPercent", "image-gc-low-threshold", 0, 100, "range"),
    ("iptablesDropBit", "iptables-drop-bit", 0, 31, "range"),
    ("iptablesMasqueradeBit", "iptables-masquerade-bit", 0, 31, "range"),
    ("oomScoreAdj", "oom-score-adj", -1000, 1000, "range"),
)
NON_NEGATIVE = (
    ("eventBurst", "event-burst"),
    ("eventRecordQPS", "event-qps"),
    ("kubeAPIBurst", "kube-api-burst"),
    ("kubeAPIQPS", "kube-api-qps"),
    ("maxOpenFiles", "max-open-files"),
    ("maxPods", "max-pods"),
    ("podsPerCore", "pods-per-core"),
    ("registryBurst", "registry-burst"),
    ("registryPullQPS", "registry-qps"),
)
GC_DEFAULTS = {"imageGCHighThresholdPercent": 85, "imageGCLowThresholdPercent": 80}


@rule(KIND)
def check_ranges(doc: dict, ctx: Context) -> Iterator[Finding]:
    for field, flag, low, high, shape in RANGES:
        value = integer(doc.get(field))
        if value is None or (shape == "port" and value == 0):
            continue  # 0 is the zero value: the default port, or the feature switched off
        if not low <= value <= high:
            yield Finding(
                "kubelet-value-out-of-range",
                (field,),
                f"invalid configuration: {field} (--{flag}) {value} must be between {low} and {high}, inclusive",
            )
    for field, flag in NON_NEGATIVE:
        value = integer(doc.get(field))
        if value is not None and value < 0:
            yield Finding(
                "kubelet-value-out-of-range", (field,), f"invalid configuration: {field} (--{flag}) {value} must not be a negative number"
            )
    images = integer(doc.get("nodeStatusMaxImages"))
    if images is not None and images < -1:
        yield Finding(
            "kubelet-value-out-of-range",
            ("nodeStatusMaxImages",),
            "invalid configuration: nodeStatusMaxImages (--node-status-max-images) must be -1 or greater",
        )
    lease = integer(doc.get("nodeLeaseDurationSeconds"))
    if lease is not None and lease < 0:
        yield Finding(
            "kubelet-value-out-of-range",
            ("nodeLeaseDurationSeconds",),
            "invalid configuration: nodeLeaseDurationSeconds must be greater than 0",
        )
    yield from _image_gc(doc)


def _image_gc(doc: dict) -> Iterator[Finding]:
    written = {f: integer(doc.get(f)) for f in GC_DEFAULTS}
    if all(v is None for v in written.values()):
        return
    high = (
        written["imageGCHighThresholdPercent"]
        if written["imageGCHighThresholdPercent"] is not None
        else GC_DEFAULTS["imageGCHighThresholdPercent"]
    )
    low = (
        written["imageGCLowThresholdPercent"]
        if written["imageGCLowThresholdPercent"] is not None
        else GC_DEFAULTS["imageGCLowThresholdPercent"]
    )
    if low >= high:
        field = "imageGCLowThresholdPercent" if written["imageGCLowThresholdPercent"] is not None else "imageGCHighThresholdPercent"
        yield Finding(
            "kubelet-value-out-of-range",
            (field,),
            f"invalid configuration: imageGCLowThresholdPercent (--image-gc-low-threshold) {low} must be less than "
            f"imageGCHighThresholdPercent (--image-gc-high-threshold) {high}",
        )
