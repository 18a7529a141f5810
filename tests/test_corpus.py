"""Real-world files from ../shared/corpus agree with the verdicts in SOURCES.tsv.

`clean` files give no error (warnings allowed), `error` files give the error their label names
(its rule, and its path where the label gives one: tests/corpus_labels.py reads the label), `unsure`
files are not asserted.
"""

from __future__ import annotations

import csv
import os

import pytest

from svcconf.lint.check import check_file
from svcconf.model import Severity
from svcconf.settings.options import ValidateOptions
from tests.conftest import CORPUS, params_or_skip
from tests.corpus_labels import Expect, expectations, unmet

# Every area of the corpus; SVCCONF_CORPUS_AREAS=authn,authz narrows the run while a kind is written.
AREAS = tuple(a for a in os.environ.get("SVCCONF_CORPUS_AREAS", "").split(",") if a)


def _cases():
    sources = CORPUS / "SOURCES.tsv"
    if not sources.exists():
        return []
    with open(sources, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    rows = [dict(r, **RELABELLED.get(r["local_path"], {})) for r in rows]
    return [r for r in rows if (not AREAS or r["local_path"].split("/", 1)[0] in AREAS) and r["expect"] in ("clean", "error")]


# Labelled clean before svcconf read command lines: the component refuses what the file passes it.
# minikube's test data gives kube-apiserver --fail-no-swap (a kubelet-style option, not an apiserver
# flag: "unknown flag: --fail-no-swap"), kube-scheduler --scheduler-name (a field of its configuration
# file, no flag) and --feature-gates=a=b ("invalid value of a=b, err: strconv.ParseBool: parsing \"b\":
# invalid syntax", component-base featuregate.Set). Each label is written in a form corpus_labels reads.
RELABELLED = {
    "bootstrap/kubernetes__minikube__pkg__minikube__bootstrapper__bsutil__testdata__v1.36__crio-options-gates.yaml": {
        "expect": "error",
        "why": "apiServer.extraArgs[2].value is not a valid feature gate list (a=b); --fail-no-swap, --scheduler-name are no flags",
    },
}


CASES = _cases()
ABSENT = "../shared/corpus is not present" if not (CORPUS / "SOURCES.tsv").exists() else "no corpus file in SVCCONF_CORPUS_AREAS"
# Labelled `error` for its syntax error, and it names no API group: svcconf now skips such a file
# (pre-commit passes Helm templates and JSON with comments too), counts it and lists it with -v.
NOT_CONFIGURATION = {"mixed/stackrox__kube-linter__pkg__command__lint__testdata__invalid.yaml"}


@pytest.mark.parametrize("row", params_or_skip(CASES, ABSENT, ids=lambda r: r["local_path"]))
def test_corpus_file_matches_its_label(row) -> None:
    result = check_file(str(CORPUS / row["local_path"]), ValidateOptions(jobs=1))
    errors = [f"{d.line}:{d.column} {d.rule} {d.path_text}: {d.message}" for d in result.diagnostics if d.severity == Severity.ERROR]
    if row["local_path"] in NOT_CONFIGURATION:
        assert (errors, result.skipped) == ([], 1) and result.skip_reason, result.skip_reason
    elif row["expect"] == "clean":
        assert errors == [], row["why"]
    else:
        expected = expectations(row["why"])
        assert expected, f"the label names no finding this test can read (see tests/corpus_labels.py): {row['why']}"
        missing = unmet(expected, [d for d in result.diagnostics if d.severity == Severity.ERROR])
        assert missing == [], f"{row['why']}\nnot reported: {missing}\nerrors: {errors}"


@pytest.mark.skipif(not CASES, reason=ABSENT)
def test_corpus_covers_both_labels() -> None:
    labels = {r["expect"] for r in CASES}
    assert labels == {"clean", "error"}


# The label reader and the matcher, on labels of the corpus's forms: these run without ../shared.
LABELS = [
    ("removed: batch/v1beta1 CronJob (1.25)", [Expect("removed-api-version", "apiVersion", "batch/v1beta1")]),
    (
        "removed: apps/v1beta1 Deployment (1.16) and extensions/v1beta1 Ingress (1.22)",
        [Expect("removed-api-version", "apiVersion", "apps/v1beta1"), Expect("removed-api-version", "apiVersion", "extensions/v1beta1")],
    ),
    (
        "removed: items[0] extensions/v1beta1 Deployment (1.16) inside a v1 List",
        [Expect("removed-api-version", "items[0].apiVersion", "extensions/v1beta1")],
    ),
    (
        "duplicate key 'containers' under spec.template.spec (even in a skipped kind)",
        [Expect("duplicate-field", "spec.template.spec.containers")],
    ),
    (
        "duplicate keys apiVersion and kind in one document; kubeadm v1alpha2 is removed",
        [Expect("duplicate-field", "apiVersion"), Expect("duplicate-field", "kind")],
    ),
    ("unknown field rules[2].resources[4].resource (a typo for resources)", [Expect("unknown-field", "rules[2].resources[4].resource")]),
    (
        "resources[0].providers[0].kms.timeout 0s must be positive (ENC-022); the kms also defaults to v1 (ENC-041)",
        [Expect("kms-timeout-not-positive", "resources[0].providers[0].kms.timeout")],
    ),
    (
        "providers[1].kms 'bar' defaults to apiVersion v1; KMSv1 gate is off by default since 1.29 (ENC-041)",
        [Expect("kms-v1-disabled", "providers[1].kms")],
    ),
    ("resources is null: at least one resources entry is required (ENC-001)", [Expect("missing-field", "resources")]),
    ("both kms providers default to apiVersion v1; KMSv1 gate is off (ENC-041)", [Expect("kms-v1-disabled")]),
    ("events.k8s.io/v1 rules fail: type '36' is not Normal or Warning", [Expect("invalid-event-type", "type")]),
    ("malformed YAML: the '...' elisions", [Expect("yaml-syntax")]),
    ("the file is wrong in some way", []),
]


@pytest.mark.parametrize("why,expected", LABELS, ids=[why[:40] for why, _e in LABELS])
def test_a_label_names_its_findings(why: str, expected: list) -> None:
    assert expectations(why) == expected


def test_a_label_is_met_only_by_the_finding_it_names() -> None:
    from svcconf.model import Diagnostic

    def error(rule: str, path: tuple, api_version: str | None = "apiserver.config.k8s.io/v1", message: str = "m") -> Diagnostic:
        return Diagnostic("f.yaml", 1, 1, rule, Severity.ERROR, message, path, 1, api_version)

    kms = expectations("providers[1].kms 'bar' defaults to apiVersion v1 (ENC-041)")
    assert unmet(kms, [error("kms-v1-disabled", ("resources", 0, "providers", 1, "kms"))]) == []
    assert unmet(kms, [error("kms-v1-disabled", ("resources", 0, "providers", 0, "kms"))]) == kms  # the wrong provider
    assert unmet(kms, [error("unknown-field", ("resources", 0, "providers", 1, "kms"))]) == kms  # the wrong rule
    assert unmet(kms, [error("kms-v1-disabled", ("resources", 0, "myproviders", 1, "kms"))]) == kms  # a path that only ends alike
    removed = expectations("removed: batch/v1beta1 CronJob (1.25)")
    assert unmet(removed, [error("removed-api-version", ("apiVersion",), "batch/v1beta1")]) == []
    assert unmet(removed, [error("removed-api-version", ("apiVersion",), "batch/v2alpha1")]) == removed
    listed = expectations("removed: items[0] extensions/v1beta1 Deployment (1.16) inside a v1 List")
    item = error("removed-api-version", ("items", 0, "apiVersion"), "v1", "extensions/v1beta1 Deployment is no longer served")
    assert unmet(listed, [item]) == []
