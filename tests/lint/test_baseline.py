"""Day two: a baseline accepts today's findings so that only new ones fail, and --add-suppressions writes them into the files."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from svcconf.lint import baseline as baseline_module
from svcconf.lint.add_suppressions import add_suppressions
from svcconf.model import Diagnostic, Severity
from tests.cli.test_validate import ENCRYPTION, KEY_9_BYTES
from tests.helpers import run

# rules[1].level is not a level the server knows (invalid-value); omitStages is unrelated to it.
POLICY = """apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: Metadata
    verbs: [get]
  - level: Bogus
"""
CLEAN = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n"
PLANTED = KEY_9_BYTES  # a key of the wrong length (invalid-key-length)
# Also a finding whose value holds a secret: an unknown field with a `secret` inside.
SECRETS = ENCRYPTION.replace("      - identity: {}\n", f"          unknownHere: {{secret: {PLANTED}}}\n      - identity: {{}}\n")


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    (tmp_path / "policy.yaml").write_text(POLICY)
    (tmp_path / "clean.yaml").write_text(CLEAN)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def validate(*args: str):
    return run("validate", "--no-config", "-f", "json", *args)


def found(result) -> list[tuple[str, str, str]]:
    return [(d["file"], d["rule"], d["path"]) for d in result.json()["diagnostics"]]


def entries(path: Path) -> list[dict]:
    """The entries of a baseline file, one per line between its first and last line."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line.rstrip(",")) for line in lines[1:-1]]


def write_baseline(*paths: str, name: str = "baseline.json"):
    result = validate("--write-baseline", name, *paths)
    assert result.code == 0, result.err
    return result


# --------------------------------------------------------------------------- writing


def test_write_baseline_records_todays_findings_one_entry_per_line_and_exits_0(project) -> None:
    assert validate("policy.yaml").code == 1
    result = write_baseline("policy.yaml", "clean.yaml")
    assert result.json()["diagnostics"] == []
    assert result.err == "svcconf: wrote 1 baseline entry (1 findings) to baseline.json\n"
    [entry] = entries(project / "baseline.json")
    assert (entry["file"], entry["rule"], entry["path"], entry["count"]) == ("policy.yaml", "invalid-value", "rules[1].level", 1)
    assert (entry["apiVersion"], entry["kind"]) == ("audit.k8s.io/v1", "Policy")
    assert "Bogus" not in (project / "baseline.json").read_text()  # no message, no value: a hash of it
    assert json.loads((project / "baseline.json").read_text())["entries"] == [entry]
    assert stat.S_IMODE(os.stat(project / "baseline.json").st_mode) == 0o644


def test_the_baseline_is_the_same_bytes_from_one_process_or_several(project) -> None:
    for number in range(4):
        (project / f"more{number}.yaml").write_text(POLICY.replace("Bogus", f"Bogus{number % 2}"))
    write_baseline("-j", "1", ".")
    first = (project / "baseline.json").read_bytes()
    os.chmod(project / "baseline.json", 0o600)
    write_baseline("-j", "2", ".")  # -j forces workers, even for small files
    assert (project / "baseline.json").read_bytes() == first
    assert stat.S_IMODE(os.stat(project / "baseline.json").st_mode) == 0o600  # an existing file keeps its mode
    keys = [(e["file"], e["rule"], e["path"], e["fingerprint"]) for e in entries(project / "baseline.json")]
    assert keys == sorted(keys) and len(keys) == 5


def test_a_run_that_fails_writes_no_baseline(project) -> None:
    result = validate("--write-baseline", "baseline.json", "policy.yaml", "missing.yaml")
    assert result.code == 2
    assert not (project / "baseline.json").exists()


def test_the_baseline_is_never_written_through_a_symlink(project, tmp_path_factory) -> None:
    target = tmp_path_factory.mktemp("elsewhere") / "target.json"
    target.write_text("keep")
    (project / "baseline.json").symlink_to(target)
    result = validate("--write-baseline", "baseline.json", "policy.yaml")
    assert result.code == 2
    assert "baseline.json: cannot write the baseline" in result.err
    assert target.read_text() == "keep" and (project / "baseline.json").is_symlink()


@pytest.mark.parametrize("name", ["linked/baseline.json", "linked/new/baseline.json"])
def test_the_baseline_is_never_written_through_a_symlinked_folder(project, tmp_path_factory, name: str) -> None:
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (project / "linked").symlink_to(elsewhere, target_is_directory=True)
    result = validate("--write-baseline", name, "policy.yaml")
    assert result.code == 2
    assert f"{name}: cannot write the baseline: a folder of its path is a symbolic link" in result.err
    assert list(elsewhere.iterdir()) == []


def test_a_planted_secret_never_reaches_the_baseline_and_a_changed_secret_is_no_new_finding(project) -> None:
    (project / "enc.yaml").write_text(SECRETS)
    before = found(validate("enc.yaml"))
    assert ("enc.yaml", "invalid-key-length", "resources[0].providers[0].aesgcm.keys[0].secret") in before
    assert ("enc.yaml", "unknown-field", "resources[0].providers[0].aesgcm.unknownHere") in before
    write_baseline("enc.yaml")
    text = (project / "baseline.json").read_text()
    assert PLANTED not in text and PLANTED[:8] not in text
    (project / "enc.yaml").write_text(SECRETS.replace(PLANTED, "b3RoZXItc2VjcmV0LXZhbHVl"))
    assert validate("--baseline", "baseline.json", "enc.yaml").code == 0


# --------------------------------------------------------------------------- matching


def test_a_baseline_survives_lines_inserted_above_and_an_unrelated_key_renamed(project) -> None:
    write_baseline("policy.yaml")
    edited = POLICY.replace("kind: Policy\n", "kind: Policy\n# a note\n\nomitManagedFields: true\n").replace(
        "omitStages: [RequestReceived]\n", "omitStages: [ResponseStarted]\n"
    )
    (project / "policy.yaml").write_text(edited)
    result = validate("--baseline", "baseline.json", "policy.yaml")
    assert (result.code, found(result)) == (0, [])


def test_a_changed_value_at_the_path_is_a_new_finding(project) -> None:
    write_baseline("policy.yaml")
    (project / "policy.yaml").write_text(POLICY.replace("Bogus", "Bogus2"))
    result = validate("--baseline", "baseline.json", "policy.yaml")
    assert result.code == 1
    assert found(result) == [
        ("baseline.json", "baseline-stale", ""),
        ("policy.yaml", "invalid-value", "rules[1].level"),
    ]


def test_a_new_finding_fails_while_the_baselined_ones_do_not(project) -> None:
    write_baseline("policy.yaml")
    assert validate("--baseline", "baseline.json", "policy.yaml").code == 0
    (project / "policy.yaml").write_text(POLICY + "    typo: 1\n")
    result = validate("--baseline", "baseline.json", "policy.yaml")
    assert (result.code, found(result)) == (1, [("policy.yaml", "unknown-field", "rules[1].typo")])
    text = run("validate", "--no-config", "--baseline", "baseline.json", "policy.yaml").out
    assert "Bogus" not in text and "rules[1].typo" in text  # every report renders only what counts


def test_a_fixed_finding_is_reported_stale_at_its_line_in_the_baseline(project) -> None:
    (project / "other.yaml").write_text(POLICY.replace("level: Bogus", "level: Bad\n    nope: 1"))
    write_baseline("policy.yaml", "other.yaml")
    (project / "other.yaml").write_text(POLICY.replace("level: Bogus", "level: Bad"))  # nope: fixed
    result = validate("--baseline", "baseline.json", "policy.yaml", "other.yaml")
    assert result.code == 0  # info
    [stale] = result.json()["diagnostics"]
    lines = (project / "baseline.json").read_text().splitlines()
    line = next(number for number, text in enumerate(lines, 1) if '"rules[1].nope"' in text)
    assert (stale["file"], stale["line"], stale["rule"], stale["severity"]) == ("baseline.json", line, "baseline-stale", "info")
    assert stale["message"].startswith("other.yaml: unknown-field at rules[1].nope is fixed")
    assert "--write-baseline baseline.json" in stale["message"]
    write_baseline("policy.yaml", "other.yaml")
    assert len(entries(project / "baseline.json")) == 2
    assert found(validate("--baseline", "baseline.json", "policy.yaml", "other.yaml")) == []


def test_entries_of_files_not_checked_are_not_stale(project) -> None:
    (project / "other.yaml").write_text(POLICY)
    write_baseline("policy.yaml", "other.yaml")
    result = validate("--baseline", "baseline.json", "other.yaml")
    assert (result.code, found(result)) == (0, [])


def test_entries_of_rules_left_out_by_select_are_not_stale(project) -> None:
    (project / "policy.yaml").write_text(POLICY + "    typo: 1\n")
    write_baseline("policy.yaml")
    result = validate("--baseline", "baseline.json", "--select", "unknown-field", "policy.yaml")
    assert (result.code, found(result)) == (0, [])


@pytest.mark.parametrize("written", ["policy.yaml", "./policy.yaml", "ABSOLUTE"])
@pytest.mark.parametrize("checked", ["policy.yaml", "./policy.yaml", "ABSOLUTE", "FROM-SUBFOLDER"])
def test_relative_absolute_and_dot_paths_and_another_working_directory_match(project, monkeypatch, written, checked) -> None:
    absolute = str(project / "policy.yaml")
    write_baseline(absolute if written == "ABSOLUTE" else written)
    name = "baseline.json"
    if checked == "FROM-SUBFOLDER":
        (project / "sub").mkdir()
        monkeypatch.chdir(project / "sub")
        checked, name = "../policy.yaml", "../baseline.json"
    result = validate("--baseline", name, absolute if checked == "ABSOLUTE" else checked)
    assert (result.code, found(result)) == (0, [])


def test_the_configuration_files_baseline_is_relative_to_its_folder(project, monkeypatch) -> None:
    (project / "ci").mkdir()
    write_baseline("policy.yaml", name="ci/baseline.json")
    assert entries(project / "ci" / "baseline.json")[0]["file"] == "../policy.yaml"
    (project / ".svcconf.yaml").write_text("baseline: ci/baseline.json\n")
    (project / "sub").mkdir()
    monkeypatch.chdir(project / "sub")
    result = run("validate", "-f", "json", "../policy.yaml")
    assert (result.code, found(result)) == (0, [])


def test_identical_findings_are_counted(project) -> None:
    document = POLICY
    (project / "policy.yaml").write_text(document + "---\n" + document)
    write_baseline("policy.yaml")
    [entry] = entries(project / "baseline.json")
    assert entry["count"] == 2
    (project / "policy.yaml").write_text("---\n".join([document] * 3))
    result = validate("--baseline", "baseline.json", "policy.yaml")
    assert (result.code, found(result)) == (1, [("policy.yaml", "invalid-value", "rules[1].level")])
    (project / "policy.yaml").write_text(document)
    [stale] = validate("--baseline", "baseline.json", "policy.yaml").json()["diagnostics"]
    assert stale["rule"] == "baseline-stale" and "is fixed in 1 of its 2 places" in stale["message"]


# --------------------------------------------------------------------------- a baseline that cannot be used

ENTRY = '{"file": "a.yaml", "rule": "invalid-value", "apiVersion": null, "kind": null, "path": "x", "value": null, "count": 1}'


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"svcconf-baseline": 1, "entries": [\n' + ENTRY + ",\n]}\n", "baseline.json:3:1: not a baseline: "),
        ("[]", 'baseline.json:1:1: not an svcconf baseline: expected {"svcconf-baseline": 2, "entries": [...]}'),
        ('{"svcconf-baseline": 3, "entries": []}', "baseline version 3 is not one svcconf reads (it reads 1 or 2)"),
        ('{"svcconf-baseline": true, "entries": []}', "baseline version True is not one svcconf reads"),
        (
            '{"svcconf-baseline": 1, "entries": [\n' + ENTRY + ",\n" + ENTRY.replace('"count": 1', '"count": 0') + "\n]}\n",
            "baseline.json:3: invalid baseline entry: count must be 1 or more",
        ),
        (
            '{"entries": [\n' + ENTRY + ",\n\n  " + ENTRY.replace('"rule"', '"rules"') + '], "svcconf-baseline": 1}',
            "baseline.json:4: invalid baseline entry: missing rule; unknown field 'rules'",
        ),
        ("[" * 100_000, "not a baseline: nested too deeply"),
        ('{"svcconf-baseline": 1' + "0" * 5000 + "}", "not a baseline: a number has too many digits"),
        (b"\xff\xfe{}", "not a baseline: not UTF-8"),
    ],
)
def test_a_broken_baseline_is_a_usage_error_with_its_position(project, text, says) -> None:
    path = project / "baseline.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    result = validate("--baseline", "baseline.json", "policy.yaml")
    assert result.code == 2
    assert says in result.err
    assert result.json()["error"]


def test_a_missing_or_too_large_baseline_is_a_usage_error(project, monkeypatch) -> None:
    result = validate("--baseline", "missing.json", "policy.yaml")
    assert result.code == 2
    assert "missing.json: no such baseline; write one with `svcconf validate --write-baseline missing.json`" in result.err
    write_baseline("policy.yaml")
    monkeypatch.setattr(baseline_module, "MAX_BASELINE_SIZE", 100)
    result = validate("--baseline", "baseline.json", "policy.yaml")
    assert result.code == 2 and "over the 100-byte limit" in result.err


def test_the_options_are_in_the_help() -> None:
    out = run("validate", "--help").out
    assert "--baseline FILE" in out and "--write-baseline FILE" in out and "--add-suppressions" in out


# --------------------------------------------------------------------------- --add-suppressions


def test_add_suppressions_then_validate_passes_and_other_bytes_stay(project) -> None:
    (project / "policy.yaml").write_text(POLICY + "    typo: 1\n")
    before = (project / "policy.yaml").read_text().splitlines(keepends=True)
    clean = (project / "clean.yaml").read_bytes()
    result = validate("--add-suppressions", ".")
    assert (result.code, found(result)) == (0, [])
    assert result.err == "svcconf: added 2 suppressions to 1 file\n"
    after = (project / "policy.yaml").read_text().splitlines(keepends=True)
    changed = {number: line for number, (old, line) in enumerate(zip(before, after), 1) if old != line}
    assert changed == {7: "  - level: Bogus  # svcconf: ignore[invalid-value]\n", 8: "    typo: 1  # svcconf: ignore[unknown-field]\n"}
    assert len(after) == len(before) and (project / "clean.yaml").read_bytes() == clean
    assert (validate(".").code, found(validate("."))) == (0, [])


def test_add_suppressions_merges_into_a_comment_on_the_line(project) -> None:
    (project / "policy.yaml").write_text(POLICY.replace("level: Bogus", "level: Bogus  # svcconf: ignore[unknown-field]\n    typo: 1"))
    assert validate("--add-suppressions", "policy.yaml").code == 0
    assert "  - level: Bogus  # svcconf: ignore[unknown-field, invalid-value]\n" in (project / "policy.yaml").read_text()


def test_add_suppressions_keeps_crlf_line_endings_the_bom_and_the_mode(project) -> None:
    data = b"\xef\xbb\xbf" + POLICY.replace("\n", "\r\n").encode()
    (project / "policy.yaml").write_bytes(data)
    os.chmod(project / "policy.yaml", 0o640)
    assert validate("--add-suppressions", "policy.yaml").code == 0
    written = (project / "policy.yaml").read_bytes()
    assert written == data.replace(b"level: Bogus\r\n", b"level: Bogus  # svcconf: ignore[invalid-value]\r\n")
    assert stat.S_IMODE(os.stat(project / "policy.yaml").st_mode) == 0o640


def test_a_finding_inside_a_multiline_string_is_not_suppressed_and_the_data_stays(project) -> None:
    text = (
        "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n"
        '  - level: "Meta\n      data"\n    verbs: [get]\n'
        "  - level: Plain\n      words\n    verbs: [list]\n"
        "  - level: >-\n      Folded\n    verbs: [watch]\n"
    )
    (project / "policy.yaml").write_text(text)
    assert [rule for _file, rule, _path in found(validate("policy.yaml"))] == ["invalid-value"] * 3
    result = validate("--add-suppressions", "policy.yaml")
    assert result.code == 1
    assert found(result) == [("policy.yaml", "invalid-value", "rules[0].level"), ("policy.yaml", "invalid-value", "rules[1].level")]
    assert "policy.yaml:4: [invalid-value] not suppressed: the line is inside a multi-line string" in result.err
    assert "policy.yaml:7: [invalid-value] not suppressed" in result.err
    # The block scalar's indicator line takes the comment; its content is untouched.
    assert (project / "policy.yaml").read_text() == text.replace("level: >-\n", "level: >-  # svcconf: ignore[invalid-value]\n")


def test_a_line_inside_a_block_scalar_is_left_alone(tmp_path) -> None:
    """A finding placed on a block scalar's content (say, by an embedded document) gets no comment there."""
    path = tmp_path / "policy.yaml"
    text = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: |\n      Metadata\n"
    path.write_text(text)
    inside = Diagnostic(str(path), 5, 7, "invalid-value", Severity.ERROR, "m", ("rules", 0, "level"), 1)
    outcome = add_suppressions([inside], 1 << 20, "<stdin>")
    assert (outcome.added, outcome.suppressed, path.read_text()) == (0, set(), text)
    assert outcome.notes == [f"{path}:5: [invalid-value] not suppressed: the line is inside a multi-line string, where a comment is text"]


def test_json_files_are_left_alone(project) -> None:
    data = json.dumps({"apiVersion": "audit.k8s.io/v1", "kind": "Policy", "rules": [{"level": "Bogus"}]}).encode()
    (project / "policy.json").write_bytes(data)
    result = validate("--add-suppressions", "policy.json")
    assert result.code == 1 and found(result) == [("policy.json", "invalid-value", "rules[0].level")]
    assert (
        result.err
        == "svcconf: policy.json: 1 finding not suppressed: JSON files cannot hold comments\nsvcconf: added 0 suppressions to 0 files\n"
    )
    assert (project / "policy.json").read_bytes() == data


def test_a_symlinked_file_is_not_written_through(project, tmp_path_factory) -> None:
    target = tmp_path_factory.mktemp("elsewhere") / "target.yaml"
    target.write_text(POLICY)
    (project / "link.yaml").symlink_to(target)
    result = validate("--add-suppressions", "link.yaml")
    assert result.code == 1 and "link.yaml: 1 finding not suppressed: it is a symlink" in result.err
    assert target.read_text() == POLICY and (project / "link.yaml").is_symlink()


def test_syntax_errors_have_no_line_to_suppress(project) -> None:
    (project / "broken.yaml").write_text("apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [\n")
    result = validate("--add-suppressions", "broken.yaml")
    assert result.code == 1 and [rule for _file, rule, _path in found(result)] == ["yaml-syntax"]
    assert (project / "broken.yaml").read_text().endswith("rules: [\n")


def test_add_suppressions_after_a_baseline_only_suppresses_the_new_findings(project) -> None:
    write_baseline("policy.yaml")
    (project / "policy.yaml").write_text(POLICY + "    typo: 1\n")
    result = validate("--baseline", "baseline.json", "--add-suppressions", "policy.yaml")
    assert (result.code, found(result)) == (0, [])
    text = (project / "policy.yaml").read_text()
    assert "typo: 1  # svcconf: ignore[unknown-field]" in text and "ignore[invalid-value]" not in text


def test_findings_read_from_stdin_are_not_written_into_the_file_it_is_named_after(project) -> None:
    result = run(
        "validate", "--no-config", "-f", "json", "--add-suppressions", "--stdin-filename", "policy.yaml", "-", stdin=POLICY.encode()
    )
    assert result.code == 1 and found(result) == [("policy.yaml", "invalid-value", "rules[1].level")]
    assert (project / "policy.yaml").read_text() == POLICY


def test_the_baseline_is_never_checked_as_a_document(project) -> None:
    # A walk of the folder finds it and the pre-commit hook names it: it is svcconf's file, not configuration.
    write_baseline(".")
    for paths, files in ((["."], 2), (["policy.yaml", "baseline.json"], 1)):
        result = validate("-v", "--baseline", "baseline.json", *paths)
        assert result.code == 0
        assert result.json()["summary"]["files"] == files
        assert "baseline.json: skipped: svcconf's baseline file" in result.err
    again = validate("-v", "--write-baseline", "baseline.json", ".")
    assert again.json()["summary"]["files"] == 2  # policy.yaml and clean.yaml
    assert "baseline.json: skipped: svcconf's baseline file" in again.err


def test_add_suppressions_puts_the_comment_on_the_key_that_holds_a_mapping(project) -> None:
    """aescbc-discouraged concerns the `- aescbc:` item; its mapping starts a line below, at `keys:`."""
    text = (
        "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n"
        "    providers:\n      - aescbc:\n          keys:\n            - name: k1\n"
        "              secret: MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=\n      - identity: {}\n"
    )
    (project / "enc.yaml").write_text(text)
    assert found(validate("enc.yaml")) == [("enc.yaml", "aescbc-discouraged", "resources[0].providers[0].aescbc")]
    result = validate("--add-suppressions", "enc.yaml")
    assert (result.code, found(result)) == (0, [])
    assert (project / "enc.yaml").read_text() == text.replace(
        "      - aescbc:\n", "      - aescbc:  # svcconf: ignore[aescbc-discouraged]\n"
    )
    assert (validate("enc.yaml").code, found(validate("enc.yaml"))) == (0, [])


def test_the_safety_net_refuses_an_edit_that_changes_the_data(tmp_path, monkeypatch) -> None:
    """With the multi-line string guard planted away, the check of the edited file's data still keeps the file as it was."""
    from svcconf.lint import add_suppressions as module

    path = tmp_path / "policy.yaml"
    text = 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: "Meta\n      data"\n'
    path.write_text(text)
    inside = Diagnostic(str(path), 4, 12, "invalid-value", Severity.ERROR, "m", ("rules", 0, "level"), 1)
    monkeypatch.setattr(module, "_multiline_strings", lambda _text: [])  # the planted bug: no line is inside a string
    outcome = add_suppressions([inside], 1 << 20, "<stdin>")
    assert (outcome.added, outcome.files, outcome.suppressed, path.read_text()) == (0, 0, set(), text)
    assert outcome.notes == [f"{path}: 1 finding not suppressed: a comment would change the file's data"]


def test_the_same_value_at_another_path_is_a_new_finding(project) -> None:
    write_baseline("policy.yaml")
    (project / "policy.yaml").write_text(POLICY.replace("level: Bogus", "level: Metadata\n    verbs: [list]\n  - level: Bogus"))
    result = validate("--baseline", "baseline.json", "policy.yaml")
    assert (result.code, found(result)) == (
        1,
        [("baseline.json", "baseline-stale", ""), ("policy.yaml", "invalid-value", "rules[2].level")],
    )


def test_the_same_finding_in_another_file_is_new(project) -> None:
    write_baseline("policy.yaml")
    (project / "policy.yaml").rename(project / "moved.yaml")
    result = validate("--baseline", "baseline.json", "moved.yaml")
    assert (result.code, found(result)) == (1, [("moved.yaml", "invalid-value", "rules[1].level")])


def _without(part: int):
    """A key (file, rule, apiVersion, kind, name, path, subject) with one part blanked: the planted bug."""
    return lambda key: (*key[:part], "", *key[part + 1 :])


@pytest.mark.parametrize(
    "planted,catches",
    [
        (_without(6), test_a_changed_value_at_the_path_is_a_new_finding),
        (_without(5), test_the_same_value_at_another_path_is_a_new_finding),
        (_without(0), test_the_same_finding_in_another_file_is_new),
    ],
    ids=["value", "path", "file"],
)
def test_the_matcher_tests_catch_a_key_missing_a_part(project, monkeypatch, planted, catches) -> None:
    """The planted bug: findings and entries are matched without one part of their key."""
    real = baseline_module.Baseline.key
    monkeypatch.setattr(baseline_module.Baseline, "key", lambda self, diagnostic: planted(real(self, diagnostic)))
    with pytest.raises(AssertionError):
        catches(project)


def test_the_matcher_tests_catch_an_entry_that_matches_without_counting(project, monkeypatch) -> None:
    real = baseline_module.load

    def uncounted(name):  # the planted bug: an entry takes any number of findings
        loaded = real(name)
        loaded.entries = {key: (10**6, line) for key, (_count, line) in loaded.entries.items()}
        return loaded

    monkeypatch.setattr(baseline_module, "load", uncounted)
    with pytest.raises(AssertionError):
        test_identical_findings_are_counted(project)


def _entries(*entries: str) -> str:
    return '{"svcconf-baseline": 1, "entries": [\n' + ",\n".join(entries) + "\n]}\n"


@pytest.mark.parametrize(
    ("entry", "why"),
    [
        ("1", "an entry is an object of file, rule, apiVersion, kind, path, value, count"),
        (ENTRY.replace(', "value": null', ""), "missing value"),
        (ENTRY.replace('"count": 1', '"count": 1, "note": "x"'), "unknown field 'note'"),
        (ENTRY.replace(', "kind": null', "").replace(', "value": null', ""), "missing kind, value"),
        (ENTRY.replace('"count": 1', '"count": 1, "note": "x", "by": "y"'), "unknown field 'note', 'by'"),
        (ENTRY.replace('"file": "a.yaml"', '"file": 1'), "file must be a string"),
        (ENTRY.replace('"apiVersion": null', '"apiVersion": 1'), "apiVersion must be a string or null"),
        (ENTRY.replace('"count": 1', '"count": "1"'), "count must be a whole number"),
        (ENTRY.replace('"count": 1', '"count": true'), "count must be a whole number"),
    ],
)
def test_each_invalid_entry_is_named_with_its_line_and_why(project, entry: str, why: str) -> None:
    (project / "baseline.json").write_text(_entries(ENTRY, entry), encoding="utf-8")
    with pytest.raises(baseline_module.BaselineError) as refused:
        baseline_module.load("baseline.json")
    assert refused.value.problems == [f"baseline.json:3: invalid baseline entry: {why}"]


def test_every_invalid_entry_is_named_up_to_ten(project) -> None:
    bad = ENTRY.replace('"count": 1', '"count": 0')
    for count, more in ((10, []), (11, ["baseline.json: and 1 more invalid entries"])):
        (project / "baseline.json").write_text(_entries(*[bad] * count), encoding="utf-8")
        with pytest.raises(baseline_module.BaselineError) as refused:
            baseline_module.load("baseline.json")
        lines = [f"baseline.json:{line}: invalid baseline entry: count must be 1 or more" for line in range(2, 12)]
        assert refused.value.problems == lines + more


def test_entries_with_the_same_key_add_up(project) -> None:
    (project / "baseline.json").write_text(_entries(ENTRY, ENTRY.replace('"count": 1', '"count": 2')), encoding="utf-8")
    loaded = baseline_module.load("baseline.json")
    assert list(loaded.entries.values()) == [(3, 2)]  # three findings, reported stale at the first entry's line


def test_a_folder_is_no_baseline(project) -> None:
    (project / "folder.json").mkdir()
    result = validate("--baseline", "folder.json", "policy.yaml")
    assert result.code == 2 and "folder.json: the baseline is not a regular file" in result.err


def test_a_baseline_of_exactly_the_limit_is_read(project, monkeypatch) -> None:
    text = _entries(ENTRY)
    (project / "baseline.json").write_text(text, encoding="utf-8")
    monkeypatch.setattr(baseline_module, "MAX_BASELINE_SIZE", len(text))
    assert len(baseline_module.load("baseline.json").entries) == 1
    monkeypatch.setattr(baseline_module, "MAX_BASELINE_SIZE", len(text) - 1)
    with pytest.raises(baseline_module.BaselineError) as refused:
        baseline_module.load("baseline.json")
    assert refused.value.problems == [f"baseline.json: the baseline is over the {len(text) - 1:,}-byte limit; not read"]


def test_entries_are_written_sorted_by_file_then_rule_with_nulls_last(project) -> None:
    (project / "b.yaml").write_text(POLICY)
    (project / "a.yaml").write_text(POLICY + "---\nkind: [\n")
    write_baseline("b.yaml", "a.yaml")
    keys = [(e["file"], e["rule"], e["apiVersion"]) for e in entries(project / "baseline.json")]
    assert keys == [
        ("a.yaml", "invalid-value", "audit.k8s.io/v1"),
        ("a.yaml", "yaml-syntax", None),
        ("b.yaml", "invalid-value", "audit.k8s.io/v1"),
    ]


# --------------------------------------------------------------------------- stale entries in detail


def _stale(result) -> list[tuple[int, int, str]]:
    return [(d["line"], d["column"], d["message"]) for d in result.json()["diagnostics"] if d["rule"] == "baseline-stale"]


def test_a_stale_entry_says_whether_it_is_fixed_in_whole_or_in_part(project) -> None:
    twice = POLICY.replace("level: Bogus", "level: Bad\n    nope: 1")
    (project / "twice.yaml").write_text(twice + "---\n" + twice)  # two findings of one key: an entry that counts 2
    (project / "broken.yaml").write_text("apiVersion: audit.k8s.io/v1\nkind: [\n")  # a finding without a field path
    write_baseline("twice.yaml", "broken.yaml")
    (project / "twice.yaml").write_text(twice + "---\n" + POLICY.replace("level: Bogus", "level: Bad"))
    (project / "broken.yaml").write_text(CLEAN)
    result = validate("--baseline", "baseline.json", "twice.yaml", "broken.yaml")
    lines = (project / "baseline.json").read_text().splitlines()
    at = {rule: next(n for n, text in enumerate(lines, 1) if f'"{rule}"' in text) for rule in ("yaml-syntax", "unknown-field")}
    remove = "`svcconf validate --write-baseline baseline.json` removes it from the baseline"
    assert result.code == 0 and _stale(result) == sorted(
        [
            (at["yaml-syntax"], 1, f"broken.yaml: yaml-syntax is fixed; {remove}"),
            (at["unknown-field"], 1, f"twice.yaml: unknown-field at rules[1].nope is fixed in 1 of its 2 places; {remove}"),
        ]
    )


def test_an_entry_of_a_selected_rule_is_stale_after_one_left_out_by_select(project) -> None:
    (project / "policy.yaml").write_text(POLICY + "    typo: 1\n")  # invalid-value, then unknown-field
    write_baseline("policy.yaml")
    (project / "policy.yaml").write_text(POLICY)
    result = validate("--baseline", "baseline.json", "--select", "unknown-field,baseline-stale", "policy.yaml")
    assert [message.split(";")[0] for _line, _column, message in _stale(result)] == ["policy.yaml: unknown-field at rules[1].typo is fixed"]


@pytest.mark.parametrize(
    "ignores,stale",
    [({"policy.yaml": ["unknown-field"]}, 0), ({"other.yaml": ["unknown-field"]}, 1), ({"baseline.json": ["baseline-stale"]}, 0)],
)
def test_per_file_ignores_decide_which_entries_can_be_stale(project, ignores: dict, stale: int) -> None:
    (project / "policy.yaml").write_text(POLICY + "    typo: 1\n")
    write_baseline("policy.yaml")
    (project / "policy.yaml").write_text(POLICY)
    (project / ".svcconf.yaml").write_text(json.dumps({"per-file-ignores": ignores}))
    result = run("validate", "-f", "json", "--baseline", "baseline.json", "policy.yaml")
    assert result.code == 0 and len(_stale(result)) == stale


def test_an_empty_baseline_is_the_format_line_and_an_empty_list(project) -> None:
    write_baseline("clean.yaml")
    assert (project / "baseline.json").read_text() == '{"svcconf-baseline": 2, "entries": [\n]}\n'
    assert validate("--baseline", "baseline.json", "clean.yaml").code == 0


def test_entries_without_an_api_version_come_after_those_with_one(project) -> None:
    from types import SimpleNamespace

    from svcconf.model import Diagnostic, Severity

    found = [
        Diagnostic("policy.yaml", 1, 1, "unknown-field", Severity.ERROR, "x", ("a",)),
        Diagnostic("policy.yaml", 2, 1, "unknown-field", Severity.ERROR, "x", ("a",), api_version="v1", kind="Policy"),
    ]
    baseline_module.write("baseline.json", SimpleNamespace(diagnostics=found))
    assert [e["apiVersion"] for e in entries(project / "baseline.json")] == ["v1", None]


def test_a_baseline_that_cannot_be_written_leaves_no_file_and_says_why(project, monkeypatch) -> None:
    from svcconf.load import atomic

    def refused(name, _data):
        if not os.path.exists(name):
            raise FileNotFoundError(name)
        raise OSError("planted: the disk is full")

    monkeypatch.setattr(atomic, "write_atomic", refused)
    result = validate("--write-baseline", "baseline.json", "policy.yaml")
    assert result.code == 2 and "baseline.json: cannot write the baseline: planted: the disk is full" in result.err
    assert not (project / "baseline.json").exists()


def test_an_invalid_entry_is_placed_in_a_baseline_of_any_layout(project) -> None:
    compact = '\n{"entries":[' + ENTRY.replace(" ", "") + ",\n\n" + ENTRY.replace('"count": 1', '"count": 0') + '],"svcconf-baseline":1}'
    (project / "baseline.json").write_text(compact, encoding="utf-8")
    with pytest.raises(baseline_module.BaselineError) as refused:
        baseline_module.load("baseline.json")
    assert refused.value.problems == ["baseline.json:4: invalid baseline entry: count must be 1 or more"]


def test_a_new_baseline_is_never_created_through_a_dangling_symlink(project, tmp_path_factory) -> None:
    target = tmp_path_factory.mktemp("elsewhere") / "target.json"
    (project / "baseline.json").symlink_to(target)
    result = validate("--write-baseline", "baseline.json", "policy.yaml")
    assert result.code == 2 and "baseline.json: cannot write the baseline" in result.err
    assert not target.exists() and (project / "baseline.json").is_symlink()


def test_a_stale_entry_is_the_baselines_own_test_case_in_junit(project) -> None:
    import xml.etree.ElementTree as ET

    (project / "policy.yaml").write_text(POLICY + "    typo: 1\n")
    write_baseline("policy.yaml")
    (project / "policy.yaml").write_text(POLICY)
    out = run("validate", "--no-config", "-f", "junit", "--fail-on", "info", "--baseline", "baseline.json", "policy.yaml").out
    cases = {case.get("name"): case for case in ET.fromstring(out.split("\n", 1)[1]).iter("testcase")}
    assert set(cases) == {"policy.yaml", "baseline.json"}
    assert cases["baseline.json"].find("failure").get("type") == "baseline-stale"


def test_a_baseline_name_holding_a_nul_character_is_a_usage_error(project) -> None:
    result = validate("--baseline", "base\0line.json", "policy.yaml")
    assert result.code == 2
    assert "cannot read the baseline: its name holds a NUL character" in result.err
    assert result.json()["error"]


def test_a_baseline_that_cannot_be_opened_is_a_usage_error_saying_why(project) -> None:
    # A file named as if it were a folder: the message gives the system's reason.
    result = validate("--baseline", "policy.yaml/baseline.json", "policy.yaml")
    assert result.code == 2
    assert "policy.yaml/baseline.json: cannot read the baseline: not a directory" in result.err


def test_findings_read_from_stdin_are_recorded_under_the_stdin_name_and_accepted(project) -> None:
    written = run("validate", "--no-config", "-f", "json", "--write-baseline", "baseline.json", "-", stdin=POLICY.encode())
    assert written.code == 0, written.err
    [entry] = entries(project / "baseline.json")
    assert (entry["file"], entry["rule"], entry["path"]) == ("<stdin>", "invalid-value", "rules[1].level")
    result = run("validate", "--no-config", "-f", "json", "--baseline", "baseline.json", "-", stdin=POLICY.encode())
    assert (result.code, found(result), len(result.json()["accepted"])) == (0, [], 1)


def test_a_baseline_leaves_the_order_of_the_findings_it_does_not_accept_unchanged(project) -> None:
    # Eleven findings at one place (each list item is an alias of the first): ordered by their path as written,
    # rules[10] before rules[2], with or without a baseline that accepts none of them.
    items = "  - &rule {level: Bogus, verbs: [get]}\n" + "  - *rule\n" * 10
    (project / "alias.yaml").write_text("apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n" + items)
    (project / "empty.json").write_text('{"svcconf-baseline": 2, "entries": []}\n')
    plain, baselined = validate("alias.yaml"), validate("--baseline", "empty.json", "alias.yaml")
    assert len(found(plain)) == 11 and found(baselined) == found(plain)
    assert [d["path"] for d in baselined.json()["diagnostics"]][:3] == ["rules[0].level", "rules[10].level", "rules[1].level"]
