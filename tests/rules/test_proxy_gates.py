"""kube-proxy featureGates (KP-1): upstream wording, and the gate table read by release."""

from __future__ import annotations

from svcconf.known.feature_gates import SPECIAL, gate_table, spec_at
from tests.helpers import run

HEADER = "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\n"


def _diagnostics(body: str, target: str) -> list[tuple[str, str, str, str]]:
    result = run("validate", "--format", "json", "--target-version", target, "-", stdin=(HEADER + body).encode())
    return [(d["severity"], d["rule"], d["path"], d["message"]) for d in result.json()["diagnostics"]]


def test_unknown_gate_uses_the_setfrommap_wording() -> None:
    found = _diagnostics("featureGates:\n  UnknownFeature: true\n", "1.35")
    assert found == [
        (
            "error",
            "unknown-feature-gate",
            "featureGates",
            'Invalid value: {"UnknownFeature":true}: unrecognized feature gate: UnknownFeature',
        )
    ]


def test_locked_gate_uses_the_setfrommap_wording() -> None:
    found = _diagnostics("featureGates:\n  NFTablesProxyMode: false\n", "1.35")
    assert found == [
        (
            "error",
            "locked-feature-gate",
            "featureGates",
            'Invalid value: {"NFTablesProxyMode":false}: cannot set feature gate NFTablesProxyMode to false, feature is locked to true',
        )
    ]


def test_the_same_gate_is_free_before_it_is_locked() -> None:
    assert _diagnostics("featureGates:\n  NFTablesProxyMode: false\n", "1.32") == []
    assert _diagnostics("featureGates:\n  NFTablesProxyMode: true\n", "1.30") == []


def test_map_values_are_shown_sorted_as_go_marshals_them() -> None:
    (finding,) = _diagnostics("featureGates:\n  Zeta: true\n  Alpha: false\n  AllBeta: true\n", "1.35")[:1]
    assert finding[3].startswith('Invalid value: {"AllBeta":true,"Alpha":false,"Zeta":true}: unrecognized feature gate: ')


def test_all_alpha_and_all_beta_are_accepted() -> None:
    assert _diagnostics("featureGates:\n  AllAlpha: false\n  AllBeta: true\n", "1.35") == []


def test_non_boolean_value_is_a_type_error_not_a_gate_error() -> None:
    found = _diagnostics('featureGates:\n  ContextualLogging: "yes"\n', "1.35")
    assert [f[1] for f in found] == ["wrong-type"]


def test_table_specs_by_release() -> None:
    assert spec_at("NFTablesProxyMode", (1, 28)) is None
    assert spec_at("NFTablesProxyMode", (1, 29)).stage == "alpha"
    assert spec_at("NFTablesProxyMode", (1, 31)).default is True
    locked = spec_at("NFTablesProxyMode", (1, 36))
    assert (locked.stage, locked.default, locked.locked) == ("ga", True, True)
    assert spec_at("DRADeviceBindingConditions", (1, 35)).default is False
    assert spec_at("DRADeviceBindingConditions", (1, 36)).default is True


def test_table_is_well_formed() -> None:
    table = gate_table()
    assert len(table.gates) > 200
    assert {(1, 35), (1, 36)} <= table.complete_for
    for name, specs in table.gates.items():
        assert name not in SPECIAL
        assert all(spec.stage in ("alpha", "beta", "ga", "deprecated", "removed") for spec in specs), name
        assert [s.since for s in specs] == sorted(s.since for s in specs), name


def test_gate_dropped_after_1_33_is_known_until_1_34_only() -> None:
    assert spec_at("PodIndexLabel", (1, 33)).locked is True
    assert spec_at("PodIndexLabel", (1, 34)) is not None
    assert spec_at("PodIndexLabel", (1, 35)) is None


def test_unknown_gate_is_an_error_at_the_newest_release() -> None:
    # SetFromMap refuses any name the gate set lacks; the table is complete for 1.36.
    found = _diagnostics("featureGates:\n  UnknownFeature: true\n", "1.36")
    assert [(f[0], f[1]) for f in found] == [("error", "unknown-feature-gate")]


def test_gate_introduced_in_1_36_is_unknown_before_it() -> None:
    # ShardedListAndWatch: alpha, off, from 1.36.
    assert _diagnostics("featureGates:\n  ShardedListAndWatch: true\n", "1.36") == []
    found = _diagnostics("featureGates:\n  ShardedListAndWatch: true\n", "1.35")
    assert found[0][3].endswith("unrecognized feature gate: ShardedListAndWatch")


def test_gate_locked_at_1_36_refuses_the_opposite_value() -> None:
    # UserNamespacesSupport went GA and locked to true in 1.36; it was an unlocked beta in 1.35.
    assert _diagnostics("featureGates:\n  UserNamespacesSupport: false\n", "1.35") == []
    found = _diagnostics("featureGates:\n  UserNamespacesSupport: false\n", "1.36")
    assert found == [
        (
            "error",
            "locked-feature-gate",
            "featureGates",
            'Invalid value: {"UserNamespacesSupport":false}: cannot set feature gate UserNamespacesSupport to false, feature is locked to true',
        )
    ]


def test_gate_removed_in_1_36_is_refused_from_then_on() -> None:
    # TopologyAwareHints (GA, locked since 1.33) is gone from the 1.36 gate set.
    assert spec_at("TopologyAwareHints", (1, 35)).locked is True
    assert spec_at("TopologyAwareHints", (1, 36)) is None
    found = _diagnostics("featureGates:\n  TopologyAwareHints: true\n", "1.36")
    assert [(f[0], f[1]) for f in found] == [("error", "unknown-feature-gate")]


def test_client_go_gates_of_1_36_are_known() -> None:
    # k8s.io/client-go features/known_features.go at v0.36.0: AtomicFIFO, ClientsAllowCARotation,
    # ClientsAllowTLSCacheGC and UnlockWhileProcessingFIFO are beta, on, from 1.36.
    for name in ("AtomicFIFO", "ClientsAllowCARotation", "ClientsAllowTLSCacheGC", "UnlockWhileProcessingFIFO"):
        assert _diagnostics(f"featureGates:\n  {name}: false\n", "1.36") == [], name
        found = _diagnostics(f"featureGates:\n  {name}: false\n", "1.35")
        assert found[0][3].endswith(f"unrecognized feature gate: {name}"), name


def test_in_order_informers_is_locked_from_1_36() -> None:
    # client-go v0.36.0 known_features.go: InOrderInformers {1.36, GA, LockToDefault: true}.
    assert _diagnostics("featureGates:\n  InOrderInformers: false\n", "1.35") == []
    found = _diagnostics("featureGates:\n  InOrderInformers: false\n", "1.36")
    assert [(f[1], f[3].rsplit(": ", 1)[1]) for f in found] == [
        ("locked-feature-gate", "cannot set feature gate InOrderInformers to false, feature is locked to true")
    ]


def test_gates_are_named_as_the_registry_spells_them() -> None:
    # kube_features.go: RuntimeClassInImageCriAPI featuregate.Feature = "RuntimeClassInImageCriApi";
    # the 1.36 registry knows WorkloadWithJob (kube-scheduler --feature-gates list), no EnableWorkloadWithJob.
    assert _diagnostics("featureGates:\n  RuntimeClassInImageCriApi: true\n", "1.35") == []
    assert _diagnostics("featureGates:\n  WorkloadWithJob: true\n", "1.36") == []
    for name in ("RuntimeClassInImageCriAPI", "EnableWorkloadWithJob"):
        found = _diagnostics(f"featureGates:\n  {name}: true\n", "1.36")
        assert [f[1] for f in found] == ["unknown-feature-gate"], name


def test_defaults_that_changed_in_1_36() -> None:
    # MaxUnavailableStatefulSet: beta, on in 1.35.0, off from 1.36 (kubernetes#137904).
    assert spec_at("MaxUnavailableStatefulSet", (1, 35)).default is True
    assert spec_at("MaxUnavailableStatefulSet", (1, 36)).default is False
    # DRAResourceClaimDeviceStatus stays an unlocked beta in 1.36 (GA only in 1.37).
    assert (spec_at("DRAResourceClaimDeviceStatus", (1, 36)).stage, spec_at("DRAResourceClaimDeviceStatus", (1, 36)).locked) == (
        "beta",
        False,
    )
