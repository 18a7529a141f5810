"""Versions whose shape is identical to their successor: only apiVersion (and sometimes kind) changes."""

from __future__ import annotations

from ..steps import same_shape, step

# Served-by-default APIs (https://kubernetes.io/docs/reference/using-api/deprecation-guide/).
same_shape("apps/v1beta2", "ControllerRevision Deployment DaemonSet ReplicaSet StatefulSet", "apps/v1")
same_shape("apps/v1beta1", "ControllerRevision", "apps/v1")
same_shape("extensions/v1beta1", "NetworkPolicy", "networking.k8s.io/v1")
same_shape("extensions/v1beta1", "PodSecurityPolicy", "policy/v1beta1")
same_shape("networking.k8s.io/v1beta1", "IngressClass IPAddress ServiceCIDR", "networking.k8s.io/v1")
same_shape("networking.k8s.io/v1alpha1", "IPAddress ServiceCIDR", "networking.k8s.io/v1")
same_shape("apiregistration.k8s.io/v1beta1", "APIService", "apiregistration.k8s.io/v1")
same_shape("authentication.k8s.io/v1beta1", "TokenReview SelfSubjectReview", "authentication.k8s.io/v1")
same_shape("authentication.k8s.io/v1alpha1", "SelfSubjectReview", "authentication.k8s.io/v1")
same_shape("authorization.k8s.io/v1beta1", "SelfSubjectAccessReview SelfSubjectRulesReview", "authorization.k8s.io/v1")
same_shape("coordination.k8s.io/v1beta1", "Lease", "coordination.k8s.io/v1")
same_shape("coordination.k8s.io/v1alpha2", "LeaseCandidate", "coordination.k8s.io/v1beta1")
same_shape("rbac.authorization.k8s.io/v1beta1", "ClusterRole ClusterRoleBinding Role RoleBinding", "rbac.authorization.k8s.io/v1")
same_shape("scheduling.k8s.io/v1beta1", "PriorityClass", "scheduling.k8s.io/v1")
same_shape("scheduling.k8s.io/v1alpha1", "PriorityClass", "scheduling.k8s.io/v1")
same_shape(
    "storage.k8s.io/v1beta1",
    "CSIDriver CSINode StorageClass VolumeAttachment CSIStorageCapacity VolumeAttributesClass",
    "storage.k8s.io/v1",
)
same_shape("storage.k8s.io/v1alpha1", "VolumeAttachment CSIStorageCapacity VolumeAttributesClass", "storage.k8s.io/v1")
same_shape("batch/v1beta1", "CronJob", "batch/v1")
same_shape("node.k8s.io/v1beta1", "RuntimeClass", "node.k8s.io/v1")
same_shape("autoscaling/v2beta2", "HorizontalPodAutoscaler", "autoscaling/v2")
same_shape("flowcontrol.apiserver.k8s.io/v1beta1", "FlowSchema", "flowcontrol.apiserver.k8s.io/v1beta2")
same_shape("flowcontrol.apiserver.k8s.io/v1beta2", "FlowSchema", "flowcontrol.apiserver.k8s.io/v1beta3")
same_shape("flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema", "flowcontrol.apiserver.k8s.io/v1")
same_shape(
    "admissionregistration.k8s.io/v1beta1", "MutatingAdmissionPolicy MutatingAdmissionPolicyBinding", "admissionregistration.k8s.io/v1"
)
same_shape(
    "admissionregistration.k8s.io/v1alpha1", "MutatingAdmissionPolicy MutatingAdmissionPolicyBinding", "admissionregistration.k8s.io/v1"
)
same_shape("admissionregistration.k8s.io/v1beta1", "ValidatingAdmissionPolicy", "admissionregistration.k8s.io/v1")
same_shape("admissionregistration.k8s.io/v1alpha1", "ValidatingAdmissionPolicy", "admissionregistration.k8s.io/v1")
same_shape("resource.k8s.io/v1beta2", "DeviceClass ResourceClaim ResourceClaimTemplate ResourceSlice DeviceTaintRule", "resource.k8s.io/v1")
same_shape("resource.k8s.io/v1beta1", "DeviceClass", "resource.k8s.io/v1")
same_shape("resource.k8s.io/v1alpha3", "DeviceClass ResourceClaim ResourceClaimTemplate", "resource.k8s.io/v1beta1")
same_shape("certificates.k8s.io/v1beta1", "ClusterTrustBundle PodCertificateRequest", "certificates.k8s.io/v1")
same_shape("certificates.k8s.io/v1alpha1", "ClusterTrustBundle PodCertificateRequest", "certificates.k8s.io/v1beta1")
same_shape("storagemigration.k8s.io/v1beta1", "StorageVersionMigration", "storagemigration.k8s.io/v1")

# Config groups whose versions differ only in apiVersion (the conversion functions generated for each group).
same_shape("audit.k8s.io/v1alpha1", "Policy PolicyList", "audit.k8s.io/v1")
same_shape("audit.k8s.io/v1beta1", "Policy PolicyList", "audit.k8s.io/v1")
step("v1", "EncryptionConfig", "apiserver.config.k8s.io/v1", to_kind="EncryptionConfiguration")
step("apiserver.k8s.io/v1alpha1", "AdmissionConfiguration", "apiserver.config.k8s.io/v1")
step("apiserver.config.k8s.io/v1alpha1", "WebhookAdmission", "apiserver.config.k8s.io/v1", to_kind="WebhookAdmissionConfiguration")
step("resourcequota.admission.k8s.io/v1alpha1", "Configuration", "apiserver.config.k8s.io/v1", to_kind="ResourceQuotaConfiguration")
step("resourcequota.admission.k8s.io/v1beta1", "Configuration", "apiserver.config.k8s.io/v1", to_kind="ResourceQuotaConfiguration")
same_shape(
    "apiserver.config.k8s.io/v1alpha1",
    "AuthenticationConfiguration AuthorizationConfiguration TracingConfiguration",
    "apiserver.config.k8s.io/v1beta1",
)
same_shape(
    "apiserver.config.k8s.io/v1beta1",
    "AuthenticationConfiguration AuthorizationConfiguration TracingConfiguration",
    "apiserver.config.k8s.io/v1",
)
same_shape("pod-security.admission.config.k8s.io/v1alpha1", "PodSecurityConfiguration", "pod-security.admission.config.k8s.io/v1beta1")
same_shape("pod-security.admission.config.k8s.io/v1beta1", "PodSecurityConfiguration", "pod-security.admission.config.k8s.io/v1")
same_shape("client.authentication.k8s.io/v1beta1", "ExecCredential", "client.authentication.k8s.io/v1")
same_shape("controllermanager.config.k8s.io/v1alpha1", "LeaderMigrationConfiguration", "controllermanager.config.k8s.io/v1")
same_shape("controllermanager.config.k8s.io/v1beta1", "LeaderMigrationConfiguration", "controllermanager.config.k8s.io/v1")
