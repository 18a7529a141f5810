"""What the API server is, as data: the names and orders its configuration files use.

Rules (`svcconf/rules/apiserver/`), `explain` and the language server's completions read the same
facts from here, so a rule module is never imported for its tables.
"""

from __future__ import annotations

# --------------------------------------------------------------------------- admission
# Admission plugins registered in kube-apiserver (plugin/pkg/admission and the generic server).
KNOWN_PLUGINS = frozenset(
    {
        "AlwaysAdmit", "AlwaysDeny", "AlwaysPullImages", "CertificateApproval", "CertificateSigning",
        "CertificateSubjectRestriction", "ClusterTrustBundleAttest", "DefaultIngressClass", "DefaultStorageClass",
        "DefaultTolerationSeconds", "DenyServiceExternalIPs", "EventRateLimit", "ExtendedResourceToleration",
        "ImagePolicyWebhook", "LimitPodHardAntiAffinityTopology", "LimitRanger", "MutatingAdmissionPolicy",
        "MutatingAdmissionWebhook", "NamespaceAutoProvision", "NamespaceExists", "NamespaceLifecycle",
        "NodeRestriction", "OwnerReferencesPermissionEnforcement", "PersistentVolumeClaimResize",
        "PodNodeSelector", "PodSecurity", "PodTolerationRestriction", "PodTopologyLabels", "Priority",
        "ResourceQuota", "RuntimeClass", "ServiceAccount", "StorageObjectInUseProtection",
        "TaintNodesByCondition", "ValidatingAdmissionPolicy", "ValidatingAdmissionWebhook",
    }
)  # fmt: skip

# --------------------------------------------------------------------------- audit
# Stages in the order a request passes them (staging/src/k8s.io/apiserver/pkg/apis/audit/types.go).
STAGES = ("RequestReceived", "ResponseStarted", "ResponseComplete", "Panic")

# --------------------------------------------------------------------------- authorization
KNOWN_TYPES = ("ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook")  # sorted, as the message lists them

# --------------------------------------------------------------------------- encryption at rest
PROVIDER_ORDER = ("kms", "aesgcm", "aescbc", "secretbox", "identity")  # the server's priority order


def parse_group_resource(entry: str) -> tuple[str, str]:
    """Split at the first dot, as the server does: `secrets` and `secrets.` are the core group."""
    resource, _, group = entry.partition(".")
    return resource, group


def display(resource: str, group: str) -> str:
    """A group resource as the config writes it: `secrets.` for the core group."""
    return f"{resource}." if group == "" else f"{resource}.{group}"


def covers(wildcard: tuple[str, str], resource: str, group: str) -> bool:
    """Whether an entry written as a wildcard (`*.group` or `*.*`) takes every request for resource.group."""
    wild_resource, wild_group = wildcard
    return wild_resource == "*" and wild_group in ("*", group)
