"""Every rule doc stays true: its example triggers the rule, its fix does not, and its references can be opened."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

import svcconf
from svcconf.known.docs import UPSTREAM_RELEASE, UPSTREAM_REPO, all_rule_docs, in_words
from tests.conftest import ROOT
from tests.helpers import run

DOCS = all_rule_docs()

# Rules whose trigger is not the text of a file; their examples describe the situation in words.
NOT_A_FILE = {
    "unreadable-file": "a permission or I/O error (tests/load/test_bad_input.py)",
    "file-too-large": "a file over --max-file-size (tests/load/test_bad_input.py)",
    "not-a-regular-file": "a named pipe or device in a folder (tests/load/test_bad_input.py)",
    "internal-error": "a bug in a rule; no document is meant to trigger one (tests/test_robustness.py)",
    "invalid-config": "the example is an .svcconf.yaml, which svcconf reads as its settings (tests/cli/test_validate.py)",
    "empty-file": "a file of zero bytes has no text to show (tests/load/test_bad_input.py)",
    "encoding-error": "the example is a byte that UTF-8 text cannot hold (tests/load/test_bad_input.py)",
    "binary-file": "the example is a NUL byte in a binary file (tests/load/test_bad_input.py)",
    "cel-not-checked": "a machine without the CEL runtime (tests/cel/test_optional.py)",
    "baseline-stale": "a baseline entry and a later fix (tests/lint/test_baseline.py)",
    "flag-file-wrong-kind": "a second file of the repository, named by a flag (tests/rules/test_flags.py)",
}
# Rules whose fix is outside the file: a file deployed on the node, or flags instead of a file.
FIX_OUTSIDE_THE_FILE = {
    "baseline-stale": "the baseline file is written again",
    "controller-manager-flags-only": "the controller managers read no file: the fix is to pass flags",
    "authorizer-kubeconfig-missing": "deploy the kubeconfig the file names (checked with --fs-checks)",
    "admission-file-unreadable": "deploy the kubeconfig or folder the file names (checked with --fs-checks)",
    "egress-tls-file-missing": "deploy the certificate files the file names (checked with --fs-checks)",
    "target-not-released": "the target is a flag or a setting of the configuration file, not of the checked file",
}
CHECKED = sorted(rule_id for rule_id in DOCS if rule_id not in NOT_A_FILE)
CATALOGUE_ID = re.compile(r"\b[A-Z]{2,}(?:-[A-Z]+)*-\d")
UPSTREAM_DIRS = ("staging/src/k8s.io/", "pkg/", "cmd/", "plugin/")
PAGES = ("https://kubernetes.io/docs/", "https://github.com/kubernetes/", "https://github.com/kubernetes-sigs/", "https://pkg.go.dev/")


def report(doc, fragment: str, tmp_path: Path) -> dict:
    """The JSON report of the command the rule belongs to, run on the whole file the fragment stands for."""
    path = tmp_path / "example.yaml"
    path.write_text(doc.document(fragment), encoding="utf-8")
    result = run(doc.command, "-f", "json", *(("--no-config",) if doc.command == "validate" else ()), *doc.args, str(path))
    assert result.err == "" and result.code in (0, 1), result.err
    return result.json()


def rules_of(report: dict) -> list[str]:
    return [d["rule"] for d in report["diagnostics"]]


@pytest.mark.parametrize("rule_id", CHECKED)
def test_example_triggers_its_rule(rule_id: str, tmp_path) -> None:
    doc = DOCS[rule_id]
    found = rules_of(report(doc, doc.example, tmp_path))
    assert rule_id in found, found


@pytest.mark.parametrize("rule_id", [rule_id for rule_id in CHECKED if rule_id not in FIX_OUTSIDE_THE_FILE])
def test_fix_does_not_trigger_its_rule(rule_id: str, tmp_path) -> None:
    doc = DOCS[rule_id]
    result = report(doc, doc.fix, tmp_path)
    found = rules_of(result)
    assert rule_id not in found, found
    # The fix is a configuration the check reads: well-formed, of a kind svcconf knows, no unknown fields.
    assert not {"yaml-syntax", "unknown-kind", "unknown-field", "wrong-type"} & set(found), found
    assert result["summary"].get("skipped", 0) == 0, "the fix is not a document svcconf checks"


def test_what_no_file_can_show_is_said_in_words() -> None:
    for rule_id in NOT_A_FILE.keys() - {"invalid-config"}:  # an .svcconf.yaml, shown as the file it is
        assert in_words(DOCS[rule_id].example), rule_id
    for rule_id in FIX_OUTSIDE_THE_FILE:
        assert in_words(DOCS[rule_id].fix) and "apiVersion" not in run("rules", rule_id).out.partition("Write instead:")[2]
    assert not in_words(DOCS["yaml-syntax"].example)  # broken on purpose, still a file


@pytest.mark.parametrize("rule_id", sorted(DOCS))
def test_upstream_is_a_reference_a_user_can_open(rule_id: str) -> None:
    doc = DOCS[rule_id]
    assert doc.own or doc.upstream, "a rule the component enforces names where upstream does so"
    for text in doc.upstream:
        assert not CATALOGUE_ID.search(text), text
        place, _, where = text.partition(": ")
        assert where == "" or re.fullmatch(r"[A-Za-z_][\w.]*(, [A-Za-z_][\w.]*)*", where), text
        if place.startswith("https://"):
            assert place.startswith(PAGES) and " " not in place, text
            continue
        path, _, release = place.partition("@")
        assert path.startswith(UPSTREAM_DIRS) and path.endswith(".go") and " " not in path, text
        assert release == "" or re.fullmatch(r"v1\.\d+\.\d+", release), text


def test_rules_id_prints_the_reporting_module_and_the_upstream_reference() -> None:
    result = run("rules", "duplicate-resource")
    assert result.code == 0
    lines = result.out.splitlines()
    assert lines[0] == "duplicate-resource (error, encryption)"
    module = next(line for line in lines if line.startswith("Reported by: ")).removeprefix("Reported by: ")
    # The module path is the installed package's ("svcconf/..."), wherever the tests run from.
    tree = ast.parse((Path(svcconf.__file__).parent.parent / module).read_text(encoding="utf-8"))
    assert "duplicate-resource" in {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)}
    source = f"https://github.com/{UPSTREAM_REPO}/blob/{UPSTREAM_RELEASE}/staging/src/k8s.io/apiserver/"
    assert any(line.strip().startswith(source) for line in lines)
    assert "Fails:" in lines and "Write instead:" in lines
    assert "kind: EncryptionConfiguration" in lines  # the example is shown as a whole file


def test_own_checks_say_so() -> None:
    own = next(doc for doc in DOCS.values() if doc.own)
    assert "svcconf's own check" in run("rules", own.id).out


def test_an_example_that_needs_flags_names_them() -> None:
    out = run("rules", "too-many-authenticators").out
    assert "Fails (`svcconf validate --target-version 1.29`):" in out.splitlines()


def test_rules_list_is_one_line_per_rule() -> None:
    lines = run("rules").out.splitlines()
    assert len(lines) == len(DOCS)
    assert sorted(line.split()[0] for line in lines) == sorted(DOCS)


def test_sarif_rule_metadata_links_upstream(tmp_path) -> None:
    import jsonschema

    doc = DOCS["duplicate-resource"]
    path = tmp_path / "enc.yaml"
    path.write_text(doc.document(doc.example), encoding="utf-8")
    log = run("validate", "--no-config", "-f", "sarif", str(path)).json()
    schema = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(log)) == []
    rule = next(r for r in log["runs"][0]["tool"]["driver"]["rules"] if r["id"] == "duplicate-resource")
    assert rule["helpUri"] == doc.references[0].url and rule["helpUri"].startswith("https://")
