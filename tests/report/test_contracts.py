"""Report details that readers and parsers rely on: escapes, migrate's summary counts and its exit reason."""

from __future__ import annotations

import json
from pathlib import Path

from svcconf.escape import github_data, json_text
from tests.conftest import ROOT
from tests.helpers import run

CRONJOB = "apiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {name: c}\n"
PDB = "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nspec:\n  selector: {}\n"  # needs review: {} flips meaning in policy/v1
BROKEN = "apiVersion: batch/v1beta1\nkind: [\n"


def test_workflow_command_data_escapes_percent_and_shows_line_breaks() -> None:
    # actions/toolkit packages/core/src/command.ts, escapeData: % -> %25 (a line break is shown as \r\n before that).
    assert github_data("50% done\r\nnext") == "50%25 done\\r\\nnext"


def test_json_escapes_an_invisible_character_beyond_the_bmp_as_its_surrogate_pair() -> None:
    # RFC 8259 section 7: U+E0001 is D B40 DC01 in UTF-16, U+1D173 is D834 DD73.
    text = json_text({"m": "a\U000e0001b\U0001d173"})
    assert '"a\\udb40\\udc01b\\ud834\\udd73"' in text
    assert json.loads(text) == {"m": "a\U000e0001b\U0001d173"}


def test_json_writes_an_undecodable_file_name_byte_as_the_text_xnn() -> None:
    # A file name's byte that is no UTF-8 reaches the report as a lone surrogate (surrogateescape).
    assert json.loads(json_text({"file": "a\udcffb\udc80"})) == {"file": "a\\xffb\\x80"}


def test_json_shows_any_lone_surrogate_as_text_and_keeps_private_use_characters() -> None:
    # A JSON input's "\\ud800" escape gives a lone surrogate, which no UTF-8 output can carry: it is shown as text, first
    # and last of the range alike; U+E000, just past it, is a character and stays one.
    text = json_text({"m": "\ud800 \udfff \ue000"})
    text.encode("utf-8")  # strict: no lone surrogate written
    assert json.loads(text) == {"m": "\\ud800 \\udfff \ue000"}


def _three_files(folder: Path) -> list[str]:
    (folder / "cron.yaml").write_text(CRONJOB)
    (folder / "pdb.yaml").write_text(PDB + "---\n" + PDB)
    (folder / "bad.yaml").write_text(BROKEN)
    return [str(folder / name) for name in ("cron.yaml", "pdb.yaml", "bad.yaml")]


def test_the_migrate_json_summary_counts_changed_files_and_each_severity(tmp_path) -> None:
    files = _three_files(tmp_path)
    (tmp_path / "pdb.yaml").write_text("---\n".join([PDB] * 3))  # more warnings than findings of other severities
    result = run("migrate", "--no-config", "--format", "json", *files)
    summary = result.json()["summary"]
    assert (summary["files"], summary["documents"], summary["changed"]) == (3, 4, 1)
    assert (summary["errors"], summary["warnings"], summary["infos"]) == (1, 3, 1)
    # One line per finding and per edit, for grep and diff.
    assert [line.lstrip()[:9] for line in result.out.splitlines() if line.startswith('    {"file"')] == ['{"file": '] * 6


def test_migrate_says_why_it_exits_1(tmp_path) -> None:
    cron, pdb, bad = _three_files(tmp_path)
    result = run("migrate", "--no-config", "--check", pdb, bad)
    assert result.code == 1
    assert "exit code 1: 2 documents need review (migration-needs-review), 1 file could not be migrated (errors above)\n" in result.out
    (tmp_path / "pdb.yaml").write_text(PDB)
    result = run("migrate", "--no-config", "--check", pdb)
    assert result.code == 1 and result.out.endswith("exit code 1: 1 document needs review (migration-needs-review)\n")
    result = run("migrate", "--no-config", "--check", cron)
    assert result.code == 1 and "exit code 1" not in result.out + result.err  # a file that would change says so itself


POLICY = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Bogus\n    typo: 1\n"  # an error and an error at a path
SYNTAX = "apiVersion: audit.k8s.io/v1\nkind: [\n"  # an error without a path


def test_junit_has_a_case_per_file_failed_by_its_errors_with_counts(tmp_path, monkeypatch) -> None:
    import xml.etree.ElementTree as ET

    monkeypatch.chdir(tmp_path)
    (tmp_path / "policy.yaml").write_text(POLICY)
    (tmp_path / "broken.yaml").write_text(SYNTAX)
    (tmp_path / "clean.yaml").write_text("apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n")
    root = ET.fromstring(run("validate", "--no-config", "-f", "junit", "policy.yaml", "broken.yaml", "clean.yaml").out.split("\n", 1)[1])
    assert (root.tag, root.get("name")) == ("testsuites", "svcconf")
    [suite] = root
    assert dict(suite.attrib) == {"name": "svcconf validate", "tests": "3", "failures": "2", "errors": "0", "skipped": "0"}
    properties = {p.get("name"): p.get("value") for p in suite.find("properties")}
    assert properties == {"config": "", "baseline": "", "baselined": "0", "suppressed": "0", "excluded": "0"}
    cases = {case.get("name"): case for case in suite.findall("testcase")}
    assert {case.get("classname") for case in cases.values()} == {"svcconf"} and set(cases) == {"policy.yaml", "broken.yaml", "clean.yaml"}
    assert list(cases["clean.yaml"]) == []
    failure = cases["policy.yaml"].find("failure")
    assert failure.get("message") == "2 error(s): invalid-value" and failure.get("type") == "invalid-value"
    assert failure.text.splitlines() == [
        'policy.yaml:4:12: error [invalid-value] rules[0].level: Unsupported value: "Bogus": supported values: "None", "Metadata", "Request", "RequestResponse"',
        'policy.yaml:5:5: error [unknown-field] rules[0].typo: unknown field "rules[0].typo"',
    ]
    assert cases["broken.yaml"].find("failure").text.startswith("broken.yaml:3:1: error [yaml-syntax] while parsing")


def test_junit_puts_findings_below_fail_on_in_system_out_and_orders_counts_by_severity(tmp_path, monkeypatch) -> None:
    import xml.etree.ElementTree as ET

    monkeypatch.chdir(tmp_path)
    (tmp_path / "policy.yaml").write_text(POLICY)
    out = run("validate", "--no-config", "-f", "junit", "--fail-on", "info", "--field-validation", "Warn", "policy.yaml").out
    [case] = ET.fromstring(out.split("\n", 1)[1])[0].findall("testcase")
    assert case.find("failure").get("message") == "1 error(s), 1 warning(s): invalid-value"
    out = run("validate", "--no-config", "-f", "junit", "--fail-on", "error", "--field-validation", "Warn", "policy.yaml").out
    [case] = ET.fromstring(out.split("\n", 1)[1])[0].findall("testcase")
    assert case.find("system-out").text == 'policy.yaml:5:5: warning [unknown-field] rules[0].typo: unknown field "rules[0].typo"'


def test_junit_of_a_run_without_files_has_one_passed_case(tmp_path, monkeypatch) -> None:
    import xml.etree.ElementTree as ET

    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("x\n")
    [suite] = ET.fromstring(run("validate", "--no-config", "-f", "junit", ".").out.split("\n", 1)[1])
    cases = [(c.get("classname"), c.get("name"), list(c)) for c in suite.findall("testcase")]
    assert suite.get("tests") == "1" and cases == [("svcconf", "0 files", [])]


def test_gitlab_fingerprints_name_the_finding_without_its_line_and_count_repeats(tmp_path, monkeypatch) -> None:
    import hashlib

    monkeypatch.chdir(tmp_path)
    (tmp_path / "policy.yaml").write_text(POLICY + "---\n" + POLICY)
    (tmp_path / "broken.yaml").write_text(SYNTAX)
    found = json.loads(run("validate", "--no-config", "-f", "gitlab", "policy.yaml", "broken.yaml").out)

    def fingerprint(issue: dict, path: str, repeat: int) -> str:
        identity = f"{issue['location']['path']}\0{issue['check_name']}\0{path}\0{issue['description'].removeprefix(path + ': ')}"
        return hashlib.sha256(f"{identity}\0{repeat}".encode()).hexdigest()

    syntax, level, typo, level_again, typo_again = sorted(found, key=lambda i: (i["location"]["path"], i["location"]["lines"]["begin"]))
    assert level["fingerprint"] == fingerprint(level, "rules[0].level", 1)
    assert level_again["fingerprint"] == fingerprint(level_again, "rules[0].level", 2)  # the same finding, counted apart
    assert (typo["fingerprint"], typo_again["fingerprint"]) == (
        fingerprint(typo, "rules[0].typo", 1),
        fingerprint(typo_again, "rules[0].typo", 2),
    )
    assert syntax["description"].startswith("while parsing") and syntax["fingerprint"] == fingerprint(syntax, "", 1)


def test_json_statistics_hold_the_version_the_summary_the_configuration_and_the_failure(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "policy.yaml").write_text(POLICY + "---\n" + POLICY.replace("typo", "other"))
    (tmp_path / ".svcconf.yaml").write_text("fail-on: error\n")
    report = run("validate", "-f", "json", "--statistics", "policy.yaml", "missing.yaml", "gone.yaml").json()
    reasons = "missing.yaml: no such file or folder; gone.yaml: no such file or folder"
    assert (report["version"], report["config"], report["baseline"], report["error"]) == (1, ".svcconf.yaml", None, reasons)
    assert report["summary"]["files"] == 1
    # Most frequent first, then by rule id; a rule at two severities has a row each, the more severe first.
    assert [(s["rule"], s["severity"], s["count"]) for s in report["statistics"]] == [
        ("invalid-value", "error", 2),
        ("unknown-field", "error", 2),
    ]
    report = run("validate", "-f", "json", "--statistics", "--field-validation", "Warn", "policy.yaml").json()
    assert "error" not in report
    assert run("validate", "--write-baseline", "baseline.json", "policy.yaml").code == 0
    assert run("validate", "-f", "json", "--statistics", "--baseline", "baseline.json", "policy.yaml").json()["baseline"] == "baseline.json"


def test_sarif_results_carry_the_field_path_the_document_and_the_fix(tmp_path, monkeypatch) -> None:
    from svcconf.known.docs import rule_doc

    monkeypatch.chdir(tmp_path)
    (tmp_path / "cron.yaml").write_text(CRONJOB)
    (tmp_path / "syntax.yaml").write_text(SYNTAX)
    run_log = run("validate", "--no-config", "-f", "sarif", "cron.yaml", "syntax.yaml").json()["runs"][0]
    removed, syntax = run_log["results"]
    assert removed["message"]["text"].startswith("apiVersion: batch/v1beta1 CronJob is no longer served")
    assert removed["locations"][0]["logicalLocations"] == [{"fullyQualifiedName": "apiVersion", "kind": "member"}]
    fix = removed["properties"].pop("fix")
    assert removed["properties"] == {"document": 1, "apiVersion": "batch/v1beta1", "kind": "CronJob"} and "migrate" in fix
    # A finding outside any document (the file does not parse) has no field path and no document.
    assert "logicalLocations" not in syntax["locations"][0] and "properties" not in syntax
    assert not syntax["message"]["text"].startswith(":")
    driver = run_log["tool"]["driver"]
    assert driver["name"] == "svcconf"
    for rule in driver["rules"]:
        doc = rule_doc(rule["id"])
        assert rule["shortDescription"] == {"text": doc.summary} and rule["fullDescription"] == {"text": doc.why or doc.summary}


# ECMA-48 select graphic rendition: 1 bold, 2 faint, 31 red, 32 green, 33 yellow, 0 reset.
BOLD, FAINT, BOLD_RED, GREEN, YELLOW, RESET = "\x1b[1m", "\x1b[2m", "\x1b[1;31m", "\x1b[32m", "\x1b[33m", "\x1b[0m"


def test_coloured_text_marks_the_place_the_severity_the_rule_and_the_verdict(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "policy.yaml").write_text(POLICY)
    (tmp_path / "warn.yaml").write_text(POLICY.replace("Bogus", "Metadata"))
    (tmp_path / "clean.yaml").write_text(POLICY.replace("Bogus", "Metadata").replace("    typo: 1\n", ""))
    lines = run("validate", "--no-config", "--color", "always", "--field-validation", "Warn", "policy.yaml").out.splitlines()
    assert lines[0].startswith(f"{BOLD}policy.yaml:4:12:{RESET} {BOLD_RED}error{RESET}{FAINT} [invalid-value] {RESET}rules[0].level: ")
    assert (
        lines[1]
        == f'{BOLD}policy.yaml:5:5:{RESET} {YELLOW}warning{RESET}{FAINT} [unknown-field] {RESET}rules[0].typo: unknown field "rules[0].typo"'
    )
    assert lines[2] == f"{BOLD_RED}1 error, 1 warning in 1 file (1 document checked, 0 skipped){RESET}"
    warned = run("validate", "--no-config", "--color", "always", "--field-validation", "Warn", "warn.yaml").out.splitlines()
    assert warned[-1] == f"{YELLOW}0 errors, 1 warning in 1 file (1 document checked, 0 skipped){RESET}"
    clean = run("validate", "--no-config", "--color", "always", "clean.yaml").out
    assert clean == f"{GREEN}0 errors, 0 warnings in 1 file (1 document checked, 0 skipped){RESET}\n"


def test_color_always_colours_a_report_file_even_where_no_color_is_set(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")  # the environment's default; the flag asks otherwise
    (tmp_path / "policy.yaml").write_text(POLICY)
    result = run("validate", "--no-config", "--color", "always", "-o", "report.txt", "policy.yaml")
    assert result.out == "" and (tmp_path / "report.txt").read_text().startswith(f"{BOLD}policy.yaml:4:12:{RESET} {BOLD_RED}error")
    quiet = run("validate", "--no-config", "--color", "always", "-q", "policy.yaml").out  # no summary: no blank line for it
    assert quiet.count("\n") == 2 and quiet.endswith(f'{RESET}rules[0].typo: unknown field "rules[0].typo"\n')


def test_the_migrate_text_report_lists_edits_then_findings_then_counts(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cron.yaml").write_text(CRONJOB)
    (tmp_path / "cron2.yaml").write_text(CRONJOB)
    (tmp_path / "pdb.yaml").write_text(PDB)
    (tmp_path / "bad.yaml").write_text(BROKEN)
    (tmp_path / "list.yaml").write_text("apiVersion: v1\nkind: List\nitems:\n- " + CRONJOB.replace("\n", "\n  ").rstrip(" "))
    lines = run("migrate", "--no-config", "--check", "cron.yaml", "cron2.yaml", "pdb.yaml", "bad.yaml", "list.yaml").out.splitlines()
    assert lines[:2] == [
        "cron.yaml: document 1 (line 1): batch/v1beta1 CronJob -> batch/v1 CronJob [splice]",
        "cron2.yaml: document 1 (line 1): batch/v1beta1 CronJob -> batch/v1 CronJob [splice]",
    ]
    assert lines[2].startswith("pdb.yaml:4:3: warning [migration-needs-review] spec.selector: selector {} selected no pods")
    assert lines[3].startswith("bad.yaml:3:1: error [yaml-syntax] while parsing") and lines[3].endswith("; file left unchanged")
    assert lines[4:6] == [
        "list.yaml: document 1 items[0] (line 4): batch/v1beta1 CronJob -> batch/v1 CronJob [splice]",
        "3 documents in 3 of 5 files would change; 3 of 3 converted documents clean at 1.36",
    ]


SUPPRESSIONS = """apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["# svcconf: ignore[invalid-value]", "# svcconf: ignore[invalid-value]"]
rules:
  - level: Bogus  # svcconf: ignore[invalid-value, , nope-rule, invalid-value]
  - level: |
      # svcconf: ignore[invalid-value]
  - level: Bad  # svcconf: ignore[invalid-value]
"""


def test_suppressions_are_comments_only_and_each_name_is_placed(tmp_path, monkeypatch) -> None:
    """Text that looks like a suppression inside strings suppresses nothing; a comment after them does; a
    name is checked at its own column, an empty or repeated name is no finding."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "policy.yaml").write_text(SUPPRESSIONS)
    found = [
        (d["line"], d["column"], d["rule"], d["path"])
        for d in run("validate", "--no-config", "-f", "json", "policy.yaml").json()["diagnostics"]
    ]
    assert found == [
        (3, 14, "invalid-value", "omitStages[0]"),
        (3, 50, "invalid-value", "omitStages[1]"),
        (5, SUPPRESSIONS.splitlines()[4].index("nope-rule") + 1, "unknown-rule", ""),
        (6, 5, "unreachable-audit-rule", "rules[1]"),
        (6, 12, "invalid-value", "rules[1].level"),
    ]


def test_junit_counts_agree_with_its_cases_for_a_failed_run_with_an_excluded_file(tmp_path, monkeypatch) -> None:
    """CI readers (Jenkins, GitLab) count test cases by element: the suite's totals must match them."""
    import xml.etree.ElementTree as ET

    monkeypatch.chdir(tmp_path)
    (tmp_path / "policy.yaml").write_text(POLICY.replace("typo: 1", "typo: 1\n    other: 2"))
    (tmp_path / "skip.yaml").write_text(POLICY)
    args = ("validate", "--no-config", "--exclude", "skip.yaml", "--fail-on", "error", "--field-validation", "Warn")
    result = run(*args, "-f", "junit", "policy.yaml", "skip.yaml", "missing.yaml", "gone.yaml")
    assert result.code == 2
    header, xml = result.out.split("\n", 1)
    assert header == '<?xml version="1.0" encoding="UTF-8"?>'
    [suite] = ET.fromstring(xml)
    cases = {case.get("name"): case for case in suite.findall("testcase")}
    assert set(cases) == {"policy.yaml", "skip.yaml", "svcconf run"} and {c.get("classname") for c in cases.values()} == {"svcconf"}
    assert suite.get("tests") == "3"
    assert suite.get("failures") == str(len(list(suite.iter("failure")))) == "1"
    assert suite.get("errors") == str(len(list(suite.iter("error")))) == "1"
    assert suite.get("skipped") == str(len(list(suite.iter("skipped")))) == "1"
    assert cases["skip.yaml"].find("skipped").get("message") == "excluded by 'skip.yaml' (--exclude)"
    reasons = ["missing.yaml: no such file or folder", "gone.yaml: no such file or folder"]
    error = cases["svcconf run"].find("error")
    assert (error.get("type"), error.get("message"), error.text) == ("svcconf-failed", "; ".join(reasons), "\n".join(reasons))
    # Below --fail-on: the two warnings are the file's output, one per line, not a failure.
    below = cases["policy.yaml"].find("system-out").text.split("\n")
    assert len(below) == 2 and all(line.startswith("policy.yaml:") for line in below)  # one finding a line
    assert [line.split(" [", 1)[1].split("]")[0] for line in below] == ["unknown-field", "unknown-field"]
    properties = {p.get("name"): p.get("value") for p in suite.find("properties").iter("property")}
    assert properties["excluded"] == "1"
    summary = run(*args, "policy.yaml", "skip.yaml").out.splitlines()[
        -1
    ]  # the same run without the missing files: the text report's summary
    assert suite.find("system-out").text == summary


def test_statistics_written_to_a_file_say_why_the_run_failed(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "policy.yaml").write_text(POLICY)
    result = run("validate", "--no-config", "--statistics", "-o", "stats.txt", "policy.yaml", "missing.yaml")
    assert result.code == 2
    assert (tmp_path / "stats.txt").read_text().splitlines()[-1] == "svcconf: missing.yaml: no such file or folder"


def test_json_never_holds_a_raw_delete_character() -> None:
    text = json_text({"m": "a\x7fb"})
    assert "\x7f" not in text and json.loads(text) == {"m": "a\x7fb"}


def test_json_accepted_and_excluded_entries_are_one_line_each(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "policy.yaml").write_text(POLICY.replace("typo: 1", "typo: 1  # svcconf: ignore[unknown-field]"))
    (tmp_path / "skip.yaml").write_text(POLICY)
    result = run("validate", "--no-config", "-f", "json", "--exclude", "skip.yaml", "policy.yaml", "skip.yaml")
    report = result.json()
    assert (len(report["accepted"]), len(report["excluded"])) == (1, 1)
    one_line = [json.loads(line.strip().rstrip(",")) for line in result.out.splitlines() if line.startswith("    {")]
    assert report["accepted"][0] in one_line and report["excluded"][0] in one_line


def test_the_json_error_of_a_failed_run_holds_each_failure_stderr_names(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "policy.yaml").write_text(POLICY)
    result = run("validate", "--no-config", "-f", "json", "policy.yaml", "missing.yaml", "gone.yaml")
    failures = [line.removeprefix("svcconf: ") for line in result.err.splitlines()]
    assert result.code == 2 and len(failures) == 2
    assert result.json()["error"].split("; ") == failures


def test_a_coloured_report_is_the_plain_report_in_colour_failures_included(tmp_path, monkeypatch) -> None:
    import re

    monkeypatch.chdir(tmp_path)
    (tmp_path / "policy.yaml").write_text(POLICY)
    for color in ("always", "never"):
        run("validate", "--no-config", "--color", color, "-o", f"{color}.txt", "policy.yaml", "missing.yaml", "gone.yaml")
    plain = (tmp_path / "never.txt").read_text()
    assert plain.count("\nsvcconf: ") == 2  # each failure on a line of its own
    assert re.sub(r"\x1b\[[0-9;]*m", "", (tmp_path / "always.txt").read_text()) == plain


def test_statistics_on_the_terminal_leave_the_failures_to_stderr(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "policy.yaml").write_text(POLICY)
    result = run("validate", "--no-config", "--statistics", "policy.yaml", "missing.yaml")
    assert result.code == 2
    assert result.err == "svcconf: missing.yaml: no such file or folder\n" and "missing.yaml" not in result.out


def test_statistics_give_a_rule_at_two_severities_a_row_each_the_more_severe_first(tmp_path, monkeypatch) -> None:
    # An unknown controller is an error for kube-controller-manager (its list is fixed) and a warning for
    # cloud-controller-manager (a cloud provider adds controllers): one of each, so equal counts.
    monkeypatch.chdir(tmp_path)
    kcm = (ROOT / "fixtures/controller-manager/kcm-unknown-controller.yaml").read_text()
    ccm = (ROOT / "fixtures/controller-manager/ccm-unknown-controller.yaml").read_text()
    (tmp_path / "managers.yaml").write_text(ccm + "---\n" + kcm)
    rows = run("validate", "--no-config", "-f", "json", "--statistics", "managers.yaml").json()["statistics"]
    assert [(s["severity"], s["count"]) for s in rows if s["rule"] == "unknown-controller"] == [("error", 1), ("warning", 1)]


def test_a_converted_version_is_said_once_and_the_findings_after_it_still_show(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "two.yaml").write_text(CRONJOB + "---\n" + PDB)
    lines = run("migrate", "--no-config", "--check", "two.yaml").out.splitlines()
    assert lines[0] == "two.yaml: document 1 (line 1): batch/v1beta1 CronJob -> batch/v1 CronJob [splice]"
    assert [line.split(" [")[1].split("]")[0] for line in lines[1:] if line.startswith("two.yaml:")] == ["migration-needs-review"]


def test_migrate_lists_the_errors_of_converted_documents_as_validate_lists_them_once_written(tmp_path, monkeypatch) -> None:
    # Eleven errors at one place (each rule an alias of the first): in validate's order, rules[10] before rules[2].
    monkeypatch.chdir(tmp_path)
    items = "  - &rule {level: Bogus, verbs: [get]}\n" + "  - *rule\n" * 10
    (tmp_path / "policy.yaml").write_text("apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules:\n" + items)
    checked = run("migrate", "--no-config", "--check", "policy.yaml").out.splitlines()
    header = next(i for i, line in enumerate(checked) if line.startswith("the converted documents checked at "))
    assert run("migrate", "--no-config", "--write", "policy.yaml").code == 1
    validated = run("validate", "--no-config", "policy.yaml").out.splitlines()[:-1]
    assert len(validated) == 11 and checked[header + 1 : header + 12] == validated


def test_sarif_names_the_tools_page_on_pypi_as_its_information_uri(tmp_path, monkeypatch) -> None:
    from importlib.metadata import metadata

    monkeypatch.chdir(tmp_path)
    (tmp_path / "policy.yaml").write_text(POLICY)
    driver = run("validate", "--no-config", "-f", "sarif", "policy.yaml").json()["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == f"https://pypi.org/project/{metadata('svcconf')['Name']}/"


def test_sarif_properties_hold_what_a_finding_has_and_no_more(tmp_path) -> None:
    from svcconf.lint.result import Report
    from svcconf.model import Diagnostic, Severity
    from svcconf.report.sarif_format import as_dict

    report = Report()
    report.diagnostics = [
        Diagnostic("a.yaml", 1, 1, "invalid-value", Severity.ERROR, "m", migrated="batch/v1"),
        Diagnostic("a.yaml", 2, 1, "invalid-value", Severity.ERROR, "m", fix="write x", migrated="batch/v1"),
        Diagnostic("a.yaml", 3, 1, "invalid-value", Severity.ERROR, "m", document=1, api_version="v1", kind="K", fix="write x"),
        Diagnostic("a.yaml", 4, 1, "invalid-value", Severity.ERROR, "m"),
    ]
    results = as_dict(report, str(tmp_path))["runs"][0]["results"]
    assert [result.get("properties") for result in results] == [
        {"migrated": "batch/v1"},
        {"fix": "write x", "migrated": "batch/v1"},
        {"document": 1, "apiVersion": "v1", "kind": "K", "fix": "write x"},
        None,
    ]
