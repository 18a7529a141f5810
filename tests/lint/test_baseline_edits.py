"""A baseline entry follows its finding through edits: a sibling edited, the document moved, the value fixed or changed.

An entry is keyed by file, rule, the document's apiVersion, kind and name, the field path and a
fingerprint of what the finding concerns, so it goes stale only when its finding is gone.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tests.lint.test_baseline import entries, found, validate

# no-server-event-limit (info) reads only the limits' types; signature is an unknown block; level Bogus is invalid.
LIMITS = """apiVersion: eventratelimit.admission.k8s.io/v1alpha1
kind: Configuration
limits:
  - type: Namespace
    qps: 50
    burst: 100
  - type: User
    qps: 10
    burst: 50
"""
POLICY = """apiVersion: audit.k8s.io/v1
kind: Policy
metadata:
  name: main-policy
signature:
  alg: none
omitStages: [RequestReceived]
rules:
  - level: Bogus
    verbs: [get]
"""
ACCEPTED = [
    ("invalid-value", "Policy", "main-policy", "rules[0].level"),
    ("no-server-event-limit", "Configuration", None, "limits"),
    ("unknown-field", "Policy", "main-policy", "signature"),
]


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def against_baseline(project: Path, text: str):
    (project / "config.yaml").write_text(text)
    return validate("--baseline", "baseline.json", "config.yaml")


def test_entries_name_the_document_and_fingerprint_only_what_the_finding_concerns(project) -> None:
    (project / "config.yaml").write_text(LIMITS + "---\n" + POLICY)
    assert validate("--write-baseline", "baseline.json", "config.yaml").code == 0
    written = entries(project / "baseline.json")
    assert [(e["rule"], e["kind"], e["name"], e["path"]) for e in written] == ACCEPTED
    assert json.loads((project / "baseline.json").read_text())["svcconf-baseline"] == 2
    by_rule = {e["rule"]: e for e in written}
    assert by_rule["unknown-field"]["fingerprint"] is None  # the key names it, whatever the block holds
    assert by_rule["invalid-value"]["fingerprint"] and by_rule["no-server-event-limit"]["fingerprint"]


def test_a_sequence_of_edits_keeps_each_entry_until_its_finding_is_gone(project) -> None:
    (project / "config.yaml").write_text(LIMITS + "---\n" + POLICY)
    assert validate("--write-baseline", "baseline.json", "config.yaml").code == 0

    # Sibling edits: qps of limits[0] (the no-server-event-limit case), a key added under the
    # unknown signature block (its unknown-field case), another field of the policy, the rule's verbs.
    siblings = (
        LIMITS.replace("qps: 50", "qps: 60")
        + "---\n"
        + POLICY.replace("  alg: none\n", "  alg: none\n  keyid: k1\n")
        .replace("[RequestReceived]", "[ResponseStarted]")
        .replace("verbs: [get]", "verbs: [get, list]")
    )
    result = against_baseline(project, siblings)
    assert (result.code, found(result)) == (0, [])
    assert result.json()["summary"]["baselined"] == 3

    # The documents moved: the policy first, a comment and an empty document between them.
    moved = POLICY + "---\n# limits below\n---\n" + LIMITS
    result = against_baseline(project, moved)
    assert (result.code, found(result)) == (0, [])

    # The value fixed: its entry, and only its, is stale.
    fixed = POLICY.replace("level: Bogus", "level: Metadata") + "---\n" + LIMITS
    result = against_baseline(project, fixed)
    assert (result.code, found(result)) == (0, [("baseline.json", "baseline-stale", "")])
    [stale] = result.json()["diagnostics"]
    assert stale["message"].startswith("config.yaml: invalid-value at rules[0].level is fixed")

    # The value changed: a new finding, and the entry of the old one is stale.
    changed = POLICY.replace("level: Bogus", "level: Bogus2") + "---\n" + LIMITS
    result = against_baseline(project, changed)
    assert (result.code, found(result)) == (
        1,
        [("baseline.json", "baseline-stale", ""), ("config.yaml", "invalid-value", "rules[0].level")],
    )

    # Writing the baseline again on the fixed file keeps the two entries whose findings remain.
    (project / "config.yaml").write_text(fixed)
    assert validate("--write-baseline", "baseline.json", "config.yaml").code == 0
    assert [(e["rule"], e["path"]) for e in entries(project / "baseline.json")] == [
        ("no-server-event-limit", "limits"),
        ("unknown-field", "signature"),
    ]


def test_a_container_finding_changes_with_the_members_its_rule_read(project) -> None:
    """no-server-event-limit reads the types: another type set is a new finding, their order is not."""
    (project / "config.yaml").write_text(LIMITS)
    assert validate("--write-baseline", "baseline.json", "config.yaml").code == 0
    reordered = LIMITS.replace("type: Namespace", "type: TEMP").replace("type: User", "type: Namespace").replace("type: TEMP", "type: User")
    assert found(against_baseline(project, reordered)) == []
    retyped = LIMITS.replace("type: User", "type: SourceAndObject")
    assert found(against_baseline(project, retyped)) == [
        ("baseline.json", "baseline-stale", ""),
        ("config.yaml", "no-server-event-limit", "limits"),
    ]


def test_documents_of_one_kind_are_told_apart_by_name(project) -> None:
    """Two items of a List, each at a removed version: moving them keeps both entries, fixing one leaves the other."""

    def item(name: str, api_version: str) -> str:
        return f"  - apiVersion: {api_version}\n    kind: Deployment\n    metadata:\n      name: {name}\n"

    old = "extensions/v1beta1"
    (project / "list.yaml").write_text("apiVersion: v1\nkind: List\nitems:\n" + item("a", old) + item("b", old))
    assert validate("--write-baseline", "baseline.json", "list.yaml").code == 0
    assert [(e["kind"], e["name"], e["path"]) for e in entries(project / "baseline.json")] == [
        ("Deployment", "a", "apiVersion"),
        ("Deployment", "b", "apiVersion"),
    ]
    (project / "list.yaml").write_text("apiVersion: v1\nkind: List\nitems:\n" + item("b", old) + item("a", old))
    assert found(validate("--baseline", "baseline.json", "list.yaml")) == []
    (project / "list.yaml").write_text("apiVersion: v1\nkind: List\nitems:\n" + item("b", "apps/v1") + item("a", old))
    [stale] = validate("--baseline", "baseline.json", "list.yaml").json()["diagnostics"]
    assert stale["rule"] == "baseline-stale"
    lines = (project / "baseline.json").read_text().splitlines()
    assert '"name": "b"' in lines[stale["line"] - 1]


def _version_one_hash(value) -> str:
    """Version 1's documented key: sha256 of the value at the path as sorted, compact JSON, 12 hex digits."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def test_a_version_1_baseline_is_read_and_matches_as_it_did(project) -> None:
    (project / "config.yaml").write_text(POLICY)
    old = [
        ("invalid-value", "rules[0].level", _version_one_hash("Bogus")),
        ("unknown-field", "signature", _version_one_hash({"alg": "none"})),
    ]
    lines = [
        json.dumps(
            {
                "file": "config.yaml",
                "rule": rule,
                "apiVersion": "audit.k8s.io/v1",
                "kind": "Policy",
                "path": path,
                "value": value,
                "count": 1,
            }
        )
        for rule, path, value in old
    ]
    (project / "baseline.json").write_text('{"svcconf-baseline": 1, "entries": [\n' + ",\n".join(lines) + "\n]}\n")
    result = validate("--baseline", "baseline.json", "config.yaml")
    assert (result.code, found(result)) == (0, [])
    # As in version 1, the whole value at the path is the key: a key added under signature is a new finding.
    result = against_baseline(project, POLICY.replace("  alg: none\n", "  alg: none\n  keyid: k1\n"))
    assert found(result) == [("baseline.json", "baseline-stale", ""), ("config.yaml", "unknown-field", "signature")]
    # Writing it again writes version 2, whose entries survive that edit.
    assert validate("--write-baseline", "baseline.json", "config.yaml").code == 0
    assert json.loads((project / "baseline.json").read_text())["svcconf-baseline"] == 2
    assert found(against_baseline(project, POLICY.replace("  alg: none\n", "  alg: none\n  keyid: k2\n"))) == []


def test_a_secret_is_a_marker_in_a_version_2_baseline(project) -> None:
    key = "c2VjcmV0LWtleS1vZi1ub3Qtb2s="  # 20 bytes: invalid-key-length, a finding about a secret
    text = (
        "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n"
        f"    providers:\n      - aesgcm:\n          keys:\n            - name: k1\n              secret: {key}\n"
    )
    (project / "enc.yaml").write_text(text)
    assert validate("--write-baseline", "baseline.json", "enc.yaml").code == 0
    written = (project / "baseline.json").read_text()
    assert key not in written and key[:8] not in written
    assert [e["fingerprint"] for e in entries(project / "baseline.json") if e["rule"] == "invalid-key-length"] == ["secret"]
