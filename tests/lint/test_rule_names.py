"""Rule names as users write them: a typo is an error wherever it is written, areas select their rules, suppressions go where people put them."""

from __future__ import annotations

import pytest

from svcconf.known.docs import all_rule_docs, area_rules, rule_areas
from svcconf.lint.check import check_text
from tests.cli.test_validate import ENCRYPTION, KEY_9_BYTES, POLICY_WARNING
from tests.helpers import run
from tests.test_linear_input import deadline

DOCS = all_rule_docs()
# An encryption error (invalid-key-length) and a schema error (unknown-field) in one file.
MIXED = ENCRYPTION + "bogus: 1\n"


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / "mixed.yaml").write_text(MIXED)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_area_of_every_rule_is_read_without_parsing_the_docs() -> None:
    assert rule_areas() == {rule_id: doc.area for rule_id, doc in DOCS.items()}


def test_an_area_name_is_never_a_rule_id() -> None:
    assert not set(area_rules()) & set(DOCS)


@pytest.mark.parametrize("flag", ("--select", "--ignore"))
def test_a_misspelt_rule_on_the_command_line_is_a_usage_error(project, flag: str) -> None:
    # Before: `--select invalid-key-lenght` ran no rule and passed a file with errors.
    result = run("validate", flag, "invalid-key-lenght", "mixed.yaml")
    assert result.code == 2
    assert result.out == ""
    assert result.err == (
        f"svcconf: {flag}: unknown rule id 'invalid-key-lenght'; did you mean 'invalid-key-length'? (`svcconf rules` lists them)\n"
    )


def test_a_name_close_to_nothing_has_no_suggestion(project) -> None:
    result = run("validate", "--select", "zzzzzz", "mixed.yaml")
    assert result.err == "svcconf: --select: unknown rule id 'zzzzzz' (`svcconf rules` lists them)\n"


@pytest.mark.parametrize(
    ("config", "line", "column", "where", "meant"),
    [
        ("select: [invalid-key-lenght]\n", 1, 10, "select[0]", "invalid-key-length"),
        ("ignore:\n  - encryptoin\n", 2, 5, "ignore[0]", "encryption"),
        ("severity:\n  invalid-key-lenght: warning\n", 2, 3, "severity.invalid-key-lenght", "invalid-key-length"),
        (
            'per-file-ignores:\n  "*.yaml": [unknown-field, invalid-key-lenght]\n',
            2,
            29,
            "per-file-ignores[*.yaml][1]",
            "invalid-key-length",
        ),
    ],
)
def test_a_misspelt_rule_in_the_configuration_file_is_an_error_at_its_position(project, config, line, column, where, meant) -> None:
    (project / ".svcconf.yaml").write_text(config)
    result = run("validate", "mixed.yaml")
    assert result.code == 2
    assert result.err.startswith(f"svcconf: .svcconf.yaml:{line}:{column}: invalid configuration: {where}: unknown rule id ")
    assert f"did you mean {meant!r}?" in result.err


def test_an_area_selects_all_its_rules_and_only_them(project) -> None:
    everything = {d["rule"] for d in run("validate", "-f", "json", "mixed.yaml").json()["diagnostics"]}
    assert everything == {"invalid-key-length", "unknown-field"}
    assert rule_areas()["invalid-key-length"] == "encryption" and rule_areas()["unknown-field"] == "core"
    selected = run("validate", "-f", "json", "--select", "encryption", "mixed.yaml")
    assert [d["rule"] for d in selected.json()["diagnostics"]] == ["invalid-key-length"]
    ignored = run("validate", "-f", "json", "--ignore", "encryption", "mixed.yaml")
    assert [d["rule"] for d in ignored.json()["diagnostics"]] == ["unknown-field"]


def test_areas_in_the_configuration_file(project) -> None:
    (project / ".svcconf.yaml").write_text('severity:\n  encryption: warning\nper-file-ignores:\n  "mixed.yaml": [core]\n')
    report = run("validate", "-f", "json", "mixed.yaml")
    assert [(d["rule"], d["severity"]) for d in report.json()["diagnostics"]] == [("invalid-key-length", "warning")]
    assert report.code == 0


def test_a_rule_named_in_severity_wins_over_its_area_in_any_order(project) -> None:
    for config in (
        "severity:\n  invalid-key-length: info\n  encryption: warning\n",
        "severity:\n  encryption: warning\n  invalid-key-length: info\n",
    ):
        (project / ".svcconf.yaml").write_text(config)
        report = run("validate", "-f", "json", "--select", "encryption", "mixed.yaml").json()
        assert [(d["rule"], d["severity"]) for d in report["diagnostics"]] == [("invalid-key-length", "info")]


def test_select_star_is_every_rule(project) -> None:
    (project / ".svcconf.yaml").write_text('select: ["*"]\n')
    assert len(run("validate", "-f", "json", "mixed.yaml").json()["diagnostics"]) == 2


# --------------------------------------------------------------------------- suppressions

PROVIDERS = f"""apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - kms:{{kms}}
          name: cloud-kms
          endpoint: unix:///var/run/kms-plugin.sock
{{above}}      - aesgcm:
          keys:
            - name: key1
              secret: {KEY_9_BYTES}
      - identity: {{{{}}}}
"""


def _rules(text: str, *flags: str) -> list[tuple[int, str]]:
    return sorted((d.line, d.rule) for d in check_text(text, _options(*flags)).diagnostics)


def _options(*flags: str):
    from tests.fixture_args import options_for

    return options_for("# fixture-args: " + " ".join(flags) + "\n")


def test_unsuppressed_providers_have_two_findings() -> None:
    assert _rules(PROVIDERS.format(kms="", above="")) == [(7, "kms-v1-disabled"), (12, "invalid-key-length")]


def test_a_suppression_on_a_key_covers_the_findings_inside_it() -> None:
    text = PROVIDERS.format(kms="  # svcconf: ignore[kms-v1-disabled]", above="")
    assert _rules(text) == [(12, "invalid-key-length")]


def test_a_suppression_on_a_parent_key_covers_the_whole_block() -> None:
    text = PROVIDERS.format(kms="", above="").replace("    providers:\n", "    providers:  # svcconf: ignore[encryption]\n")
    assert _rules(text) == []


def test_a_comment_line_covers_the_next_line_that_is_not_a_comment() -> None:
    above = "      # svcconf: ignore[invalid-key-length]\n      # the test key is short on purpose\n"
    assert _rules(PROVIDERS.format(kms="", above=above)) == [(7, "kms-v1-disabled")]


def test_a_comment_line_before_a_blank_line_covers_nothing() -> None:
    above = "      # svcconf: ignore[invalid-key-length]\n\n"
    found = _rules(PROVIDERS.format(kms="", above=above))
    assert found == [(7, "kms-v1-disabled"), (9, "unused-suppression"), (14, "invalid-key-length")]


def test_a_suppression_does_not_reach_a_sibling_block() -> None:
    text = PROVIDERS.format(kms="", above="").replace("      - identity: {}\n", "      - identity: {}  # svcconf: ignore[encryption]\n")
    assert _rules(text) == [(7, "kms-v1-disabled"), (12, "invalid-key-length"), (13, "unused-suppression")]


def test_an_unknown_id_in_a_suppression_is_unknown_rule_not_unused() -> None:
    text = PROVIDERS.format(kms="  # svcconf: ignore[kms-v1-disabeld]", above="")
    found = check_text(text).diagnostics
    assert sorted((d.line, d.column, d.rule) for d in found) == [
        (6, 33, "unknown-rule"),
        (7, 11, "kms-v1-disabled"),
        (12, 23, "invalid-key-length"),
    ]
    unknown = next(d for d in found if d.rule == "unknown-rule")
    assert "did you mean 'kms-v1-disabled'?" in unknown.message


def test_ignore_file_must_name_its_rules() -> None:
    found = _rules("# svcconf: ignore-file\n" + POLICY_WARNING)
    assert found == [(1, "unknown-rule"), (6, "unreachable-audit-rule")]
    assert _rules("# svcconf: ignore-file[unreachable-audit-rule]\n" + POLICY_WARNING) == []


def test_a_suppression_of_a_rule_left_out_by_select_is_not_unused() -> None:
    text = PROVIDERS.format(kms="  # svcconf: ignore[kms-v1-disabled]", above="")
    assert _rules(text, "--select", "invalid-key-length") == [(12, "invalid-key-length")]
    assert _rules(text, "--ignore", "kms-v1-disabled") == [(12, "invalid-key-length")]


def test_suppressions_on_the_keys_of_60000_findings_stay_linear() -> None:
    fields = "".join(f"    k{i}: 1\n" for i in range(60_000))
    text = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:  # svcconf: ignore[unknown-field]\n  - level: None\n" + fields
    with deadline():
        assert check_text(text).diagnostics == []


def test_suppression_text_inside_a_string_is_not_a_comment() -> None:
    # `#` in a quoted string or a block scalar is part of the value: it suppresses nothing.
    text = (
        "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n"
        '  - level: "Bogus # svcconf: ignore[invalid-value]"\n'
        "  - level: Other  # svcconf: ignore[invalid-value]\n"
        "  - level: |\n      x # svcconf: ignore[invalid-value]\n"
    )
    found = [(line, rule) for line, rule in _rules(text) if rule == "invalid-value"]
    assert found == [(4, "invalid-value"), (6, "invalid-value")]


def test_an_area_is_spelt_like_a_rule_id_and_the_underscore_spelling_still_selects_it(project) -> None:
    from tests.rules.test_controller_manager import KCM

    (project / "kcm.yaml").write_text(KCM + 'Generic:\n  Controllers: ["*", -grey-controller]\n')
    assert rule_areas()["unknown-controller"] == "controller-manager"
    listed = next(line.split() for line in run("rules").out.splitlines() if line.startswith("unknown-controller "))
    assert listed[:3] == ["unknown-controller", "error", "controller-manager"]
    for written in ("controller-manager", "controller_manager"):
        selected = run("validate", "-f", "json", "--select", written, "kcm.yaml", "mixed.yaml").json()["diagnostics"]
        assert "unknown-controller" in {d["rule"] for d in selected} and not {"invalid-key-length", "unknown-field"} & {
            d["rule"] for d in selected
        }, written
        (project / ".svcconf.yaml").write_text(f"ignore: [{written}]\n")
        ignored = run("validate", "-f", "json", "kcm.yaml").json()["diagnostics"]
        assert "unknown-controller" not in {d["rule"] for d in ignored}, written
        (project / ".svcconf.yaml").unlink()
