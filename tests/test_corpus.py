"""Real-world files from ../shared/corpus agree with the verdicts in SOURCES.tsv.

`clean` files give no error (warnings allowed), `error` files give at least one, `unsure` files
are not asserted.
"""

from __future__ import annotations

import csv
import os

import pytest

from svcconf.model import Severity
from svcconf.options import ValidateOptions
from svcconf.pipeline import check_file
from tests.conftest import CORPUS, params_or_skip

# Every area of the corpus; SVCCONF_CORPUS_AREAS=authn,authz narrows the run while a kind is written.
AREAS = tuple(a for a in os.environ.get("SVCCONF_CORPUS_AREAS", "").split(",") if a)


def _cases():
    sources = CORPUS / "SOURCES.tsv"
    if not sources.exists():
        return []
    with open(sources, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    rows = [dict(r, expect=RELABELLED.get(r["local_path"], r["expect"])) for r in rows]
    return [r for r in rows if (not AREAS or r["local_path"].split("/", 1)[0] in AREAS) and r["expect"] in ("clean", "error")]


# Labelled clean before svcconf read command lines: the component refuses what the file passes it.
# minikube's test data gives kube-apiserver --fail-no-swap (a kubelet-style option, not an apiserver
# flag: "unknown flag: --fail-no-swap") and --feature-gates=a=b ("invalid value of a=b, err:
# strconv.ParseBool: parsing \"b\": invalid syntax", component-base featuregate.Set).
RELABELLED = {
    "bootstrap/kubernetes__minikube__pkg__minikube__bootstrapper__bsutil__testdata__v1.36__crio-options-gates.yaml": "error",
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
        assert errors, f"expected an error: {row['why']}"


@pytest.mark.skipif(not CASES, reason=ABSENT)
def test_corpus_covers_both_labels() -> None:
    labels = {r["expect"] for r in CASES}
    assert labels == {"clean", "error"}
