"""Controller-manager and leader-migration findings quote upstream's option errors (rules-components 5-8)."""

from __future__ import annotations

import pytest

from tests.helpers import run

KCM = "apiVersion: kubecontrollermanager.config.k8s.io/v1alpha1\nkind: KubeControllerManagerConfiguration\n"
CCM = "apiVersion: cloudcontrollermanager.config.k8s.io/v1alpha1\nkind: CloudControllerManagerConfiguration\n"
LM = "apiVersion: controllermanager.config.k8s.io/v1beta1\nkind: LeaderMigrationConfiguration\n"

CASES = [
    (
        KCM + "AttachDetachController:\n  ReconcilerSyncLoopPeriod: 500ms\n",
        "AttachDetachController.ReconcilerSyncLoopPeriod",
        'Invalid value: "500ms": duration time must be greater than one second',
    ),
    (
        KCM + "CSRSigningController:\n  KubeletClientSignerConfiguration:\n    KeyFile: /k\n",
        "CSRSigningController.KubeletClientSignerConfiguration.KeyFile",
        'Invalid value: "/k": "cluster-signing-kube-apiserver-client": cannot specify key without cert',
    ),
    (
        KCM + "EndpointSliceController:\n  ConcurrentServiceEndpointSyncs: 51\n",
        "EndpointSliceController.ConcurrentServiceEndpointSyncs",
        "Invalid value: 51: concurrent-service-endpoint-syncs must not be more than 50, but got 51",
    ),
    (
        KCM + "EndpointSliceMirroringController:\n  MirroringMaxEndpointsPerSubset: 0\n",
        "EndpointSliceMirroringController.MirroringMaxEndpointsPerSubset",
        "Invalid value: 0: mirroring-max-endpoints-per-subset must not be less than 1, but got 0",
    ),
    (
        KCM + "ResourceClaimController:\n  ConcurrentSyncs: 0\n",
        "ResourceClaimController.ConcurrentSyncs",
        "Invalid value: 0: concurrent-resourceclaim-syncs must be larger than 0, got 0",
    ),
    (
        KCM + "Generic:\n  LeaderElection:\n    resourceLock: configmapsleases\n",
        "Generic.LeaderElection.resourceLock",
        'Invalid value: "configmapsleases": resourceLock value must be "leases"',
    ),
    (CCM, "KubeCloudShared.CloudProvider.Name", "Required value: --cloud-provider cannot be empty"),
    (
        CCM + "KubeCloudShared:\n  CloudProvider: {Name: external}\nNodeController:\n  ConcurrentNodeStatusUpdates: -1\n",
        "NodeController.ConcurrentNodeStatusUpdates",
        "Invalid value: -1: concurrent-node-status-updates cannot be a negative number",
    ),
    (LM + 'leaderName: ""\n', "leaderName", "Required value: leaderName must be set for LeaderMigrationConfiguration"),
    (
        LM + "leaderName: m\nresourceLock: invalid\n",
        "resourceLock",
        "Invalid value: \"invalid\": resource Lock must be one of 'leases' or 'endpoints'",
    ),
]


@pytest.mark.parametrize("text,path,message", CASES, ids=[c[1] for c in CASES])
def test_upstream_wording(text: str, path: str, message: str) -> None:
    result = run("validate", "--format", "json", "-", stdin=text.encode())
    errors = [(d["path"], d["message"]) for d in result.json()["diagnostics"] if d["severity"] == "error"]
    assert (path, message) in errors, errors
    assert result.code == 1


def test_unknown_controller_stops_kube_controller_manager() -> None:
    # Its controller list is fixed: generic.go Validate refuses the name, without the "-".
    text = KCM + 'Generic:\n  Controllers: ["*", -grey-controller]\n'
    result = run("validate", "--format", "json", "-", stdin=text.encode())
    assert result.code == 1
    errors = [(d["path"], d["message"]) for d in result.json()["diagnostics"] if d["severity"] == "error"]
    assert errors == [("Generic.Controllers[1]", '"grey-controller" is not in the list of known controllers')]


def test_unknown_controller_is_a_warning_for_the_cloud_controller_manager() -> None:
    # A cloud provider adds controllers svcconf cannot know.
    text = CCM + 'KubeCloudShared:\n  CloudProvider: {Name: external}\nGeneric:\n  Controllers: ["*", provider-routes]\n'
    result = run("validate", "--format", "json", "-", stdin=text.encode())
    assert result.code == 0
    warnings = [(d["path"], d["message"]) for d in result.json()["diagnostics"] if d["severity"] == "warning"]
    assert ("Generic.Controllers[1]", '"provider-routes" is not in the list of known controllers') in warnings


def test_svc_spelling_of_the_controller_manager_kind() -> None:
    text = "apiVersion: svccontrollermanager.config.k8s.io/v1alpha1\nkind: SvcControllerManagerConfiguration\n"
    result = run("validate", "--format", "json", "-", stdin=text.encode())
    assert result.code == 0
    diagnostics = result.json()["diagnostics"]
    assert [d["rule"] for d in diagnostics] == ["controller-manager-flags-only"]
    assert diagnostics[0]["kind"] == "SvcControllerManagerConfiguration"
