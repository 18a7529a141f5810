"""What svcconf prints cannot be turned into CI workflow commands, terminal escapes or broken reports by its input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from svcconf.commands.validate import FORMATS
from svcconf.escape import file_name, printable
from tests.conftest import ROOT
from tests.helpers import run

SCHEDULER = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
# A double-quoted YAML key may hold any character as an escape: here a newline that starts a
# workflow command, a terminal colour sequence, a bidi override and a C0 control XML cannot hold,
# then the commands GitHub's runner (legacy syntax) and Azure Pipelines find anywhere in a line.
HOSTILE_KEY = SCHEDULER + '"a\\n::error file=x::pwned\\e[31m\\u202e\\x01 ##[add-mask]b ##vso[task.setvariable variable=c]d": 1\n'
SHOWN_KEY = "a\\n::error file=x::pwned\\x1b[31m\\u202e\\x01 \\x23#[add-mask]b \\x23#vso[task.setvariable variable=c]d"
KEY = "a\n::error file=x::pwned\x1b[31m\u202e\x01 ##[add-mask]b ##vso[task.setvariable variable=c]d"


def _lines(result) -> list[str]:
    return (result.out + result.err).splitlines()


def _commands(result) -> list[str]:
    """Lines a CI runner would take as commands: "::" after leading spaces, or "##[" / "##vso[" anywhere."""
    return [line for line in _lines(result) if line.lstrip().startswith("::") or "##[" in line or "##vso[" in line]


def _github_commands_are_ours(line: str) -> bool:
    return line.startswith(("::error file=", "::warning file=", "::notice file="))


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_hostile_key_starts_no_workflow_command_and_no_terminal_escape(tmp_path, fmt: str) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(HOSTILE_KEY, encoding="utf-8")
    result = run("validate", "--no-config", "-f", fmt, str(path))
    assert result.code == 1
    lines = _lines(result)
    if fmt == "github":
        # The one annotation is the only command; the key's newline is inside its data, escaped.
        assert _commands(result) == lines[:1] and len(lines) == 2  # then the summary, a plain line
        assert _github_commands_are_ours(lines[0]) and "::error file=x" in lines[0]
        assert "##[" not in lines[0] and "##vso[" not in lines[0]
    else:
        assert _commands(result) == []
    output = result.out + result.err
    assert "\x1b" not in output and "\u202e" not in output and "\x01" not in output
    if fmt in ("text", "github", "junit"):
        assert SHOWN_KEY in output


@pytest.mark.parametrize("fmt", ("json", "sarif"))
def test_json_formats_keep_the_key_as_data(tmp_path, fmt: str) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(HOSTILE_KEY, encoding="utf-8")
    report = run("validate", "--no-config", "-f", fmt, str(path)).json()
    if fmt == "json":
        assert report["diagnostics"][0]["path"] == f"[{KEY}]"
    else:
        assert report["runs"][0]["results"][0]["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == f"[{KEY}]"


def test_rich_markup_in_input_is_shown_not_interpreted(tmp_path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(SCHEDULER + '"[bold red]x[/bold red] :warning:": 1\n', encoding="utf-8")
    result = run("validate", "--no-config", "--color", "always", str(path))
    assert "[bold red]x[/bold red] :warning:" in result.out
    assert "\u26a0" not in result.out


def _hostile_folder(tmp_path) -> os.PathLike:
    folder = tmp_path / "repo"
    folder.mkdir()
    for name in ("::add-mask::x.yaml", "a\n::error file=y::pwned.yaml", "b\x1b[2J.yaml", "  ::warning::z.yaml"):
        try:
            (folder / name).write_text(SCHEDULER + "bogus: 1\n", encoding="utf-8")
        except OSError:
            pytest.skip("the file system does not take such names")
    return folder


@pytest.mark.parametrize("fmt", FORMATS)
def test_file_names_found_in_a_folder_are_escaped(tmp_path, monkeypatch, fmt: str) -> None:
    monkeypatch.chdir(_hostile_folder(tmp_path))
    result = run("validate", "--no-config", "-f", fmt, ".")
    assert result.code == 1
    lines = _lines(result)
    if fmt == "github":
        assert _commands(result) == lines[:4] and len(lines) == 5  # then the summary, a plain line
        assert all(_github_commands_are_ours(line) for line in lines[:4])
        assert "file=%3A%3Aadd-mask%3A%3Ax.yaml," in result.out
    else:
        assert _commands(result) == []
    assert "\x1b" not in result.out
    if fmt == "text":
        assert "./::add-mask::x.yaml:3:1: error [unknown-field]" in result.out
        assert "./  ::warning::z.yaml:3:1: error [unknown-field]" in result.out
        assert "a\\n::error file=y::pwned.yaml:3:1: error" in result.out
        assert "b\\x1b[2J.yaml:3:1: error" in result.out
    if fmt == "junit":
        assert '<failure message="1 error(s): unknown-field" type="unknown-field">./::add-mask::x.yaml:3:1: error' in result.out


def test_junit_is_well_formed_xml_with_control_characters(tmp_path) -> None:
    path = tmp_path / "c\x02.yaml"
    path.write_text(SCHEDULER + '"k\\x01\\x0b\\x1f\\uFFFE": 1\n', encoding="utf-8")
    result = run("validate", "--no-config", "-f", "junit", str(path))
    root = ET.fromstring(result.out.split("\n", 1)[1])
    case = root.find("testsuite").find("testcase")
    assert case.get("name").endswith("c\\x02.yaml")
    assert "[k\\x01\\v\\x1f\\ufffe]" in case.find("failure").text


def _non_utf8_file(tmp_path) -> str:
    folder = tmp_path / "repo"
    folder.mkdir()
    try:
        with open(os.path.join(os.fsencode(folder), b"caf\xe9.yaml"), "w", encoding="utf-8") as handle:
            handle.write(SCHEDULER + "bogus: 1\n")
    except (OSError, UnicodeError):
        pytest.skip("the file system does not take names that are not UTF-8")
    return str(folder)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_file_name_that_is_not_utf8_is_escaped_in_every_format(tmp_path, fmt: str) -> None:
    folder = _non_utf8_file(tmp_path)
    result = run("validate", "--no-config", "-f", fmt, folder)
    assert result.code == 1
    result.out.encode("utf-8")  # raises on a lone surrogate
    if fmt == "json":
        assert result.json()["diagnostics"][0]["file"] == folder + "/caf\\xe9.yaml"
    elif fmt == "gitlab":
        assert result.json()[0]["location"]["path"] == folder + "/caf\\xe9.yaml"  # outside the repository: as given
    elif fmt == "sarif":
        assert result.json()["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith(
            "/caf%E9.yaml"
        )
    else:
        assert "caf\\xe9.yaml" in result.out


def test_a_real_process_prints_a_file_name_that_is_not_utf8(tmp_path) -> None:
    folder = _non_utf8_file(tmp_path)
    for fmt in ("text", "json"):
        process = subprocess.run(
            [sys.executable, "-m", "svcconf", "validate", "--no-config", "-f", fmt, folder, os.fsdecode(b"gone\xff")],
            capture_output=True,
            check=False,
            cwd=ROOT,
            timeout=60,
        )
        assert process.returncode == 2, process.stderr  # the missing path, not a crash
        process.stdout.decode("utf-8")
        assert process.stderr == b"svcconf: gone\\xff: no such file or folder\n"
        if fmt == "json":
            assert json.loads(process.stdout)["diagnostics"][0]["file"].endswith("caf\\xe9.yaml")


def test_sarif_uri_keeps_a_backslash_as_part_of_the_name(tmp_path, monkeypatch) -> None:
    import jsonschema

    (tmp_path / "a\\b.yaml").write_text(SCHEDULER + "bogus: 1\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    log = run("validate", "--no-config", "-f", "sarif", "a\\b.yaml").json()
    assert log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "a%5Cb.yaml"
    schema = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(log)) == []


def test_github_properties_escape_percent_colon_and_comma(tmp_path, monkeypatch) -> None:
    # GitHub's toolkit: data escapes % CR LF; properties also : and ,
    (tmp_path / "50%,a:b.yaml").write_text(SCHEDULER + "bogus: 1\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = run("validate", "--no-config", "-f", "github", "50%,a:b.yaml").out
    assert out.startswith("::error file=50%25%2Ca%3Ab.yaml,line=3,col=1,title=svcconf unknown-field::[unknown-field] bogus: ")


def test_error_lines_on_stderr_escape_paths() -> None:
    result = run("validate", "--no-config", "missing\n::error file=x::pwned\x1b[0m")
    assert result.code == 2
    assert result.err == "svcconf: missing\\n::error file=x::pwned\\x1b[0m: no such file or folder\n"


def test_usage_errors_escape_the_arguments_they_quote() -> None:
    result = run("validate", "--no-config", "--bogus\n::stop-commands::x")
    assert result.code == 2
    assert _commands(result) == []
    assert "--bogus\\n::stop-commands::x" in result.err


def test_explain_claims_escapes_what_the_config_says(tmp_path) -> None:
    pytest.importorskip("cel_expr_python")
    config = tmp_path / "auth.yaml"
    config.write_text(
        "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\njwt:\n"
        "  - issuer: {url: https://issuer.example.com, audiences: [k]}\n"
        "    claimValidationRules:\n"
        '      - {expression: "false", message: "no\\n::error::pwned"}\n'
        "    claimMappings:\n      username: {claim: sub, prefix: ''}\n",
        encoding="utf-8",
    )
    claims = tmp_path / "claims.json"
    claims.write_text(json.dumps({"iss": "https://issuer.example.com", "aud": "k", "exp": 4102444800, "sub": "x\u202e"}))
    result = run("explain-claims", str(config), "--claims", str(claims), "--now", "1800000000")
    assert result.code == 1, result.err
    assert "  [0] false: fail (no\\n::error::pwned)\n" in result.out
    assert _commands(result) == []


# --------------------------------------------------------------------------- the escape itself


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        # Go's strconv.Quote spells these the same way (between its quotes).
        ("plain ascii", "plain ascii"),
        ("é ü 日本 🙂", "é ü 日本 🙂"),
        ("a\nb\tc\rd", "a\\nb\\tc\\rd"),
        ("\a\b\f\v", "\\a\\b\\f\\v"),
        ("\x1b[31m", "\\x1b[31m"),
        ("\x7f", "\\x7f"),
        ("\x85\u00a0", "\\u0085\\u00a0"),
        ("\x80", "\\u0080"),  # the first character past ASCII, a control
        ("\udc7f\udd00", "\\udc7f\\udd00"),  # lone surrogates just outside the undecodable bytes (from a JSON escape)
        ("\u202e\u2028\ufeff", "\\u202e\\u2028\\ufeff"),
        ("\U000e0041", "\\U000e0041"),
        # An undecodable byte of a file name is shown as that byte.
        (os.fsdecode(b"caf\xe9"), "caf\\xe9"),
        # Commands a CI runner reads anywhere in a line lose their first "#".
        ("x ##[add-mask]y ###[z ##vso[task.complete]", "x \\x23#[add-mask]y #\\x23#[z \\x23#vso[task.complete]"),
        ("# comment ## heading", "# comment ## heading"),
    ],
)
def test_printable(text: str, shown: str) -> None:
    assert printable(text) == shown


def test_a_file_name_never_begins_a_workflow_command() -> None:
    assert file_name("::warning::x.yaml") == "./::warning::x.yaml"
    assert file_name("  ::warning::x.yaml") == "./  ::warning::x.yaml"
    assert file_name(":x.yaml") == ":x.yaml"
    assert file_name("dir/::x.yaml") == "dir/::x.yaml"


JSON_SHAPES = [
    {},
    [],
    {"a": [], "b": {}, "c": None, "d": [1, "x", True], "e": {"f": {"g": [{"h": 1.5}]}}},
    {"diagnostics": [], "summary": {"files": 1}},
    {"diagnostics": [{"file": "a\nb", "path": "[\x1b]", "fix": None}, {"file": "é", "notes": ["x", {"y": []}]}]},
    {"runs": [{"results": [{"ruleId": "x", "locations": [{"region": {"startLine": 1}}]}], "tool": {"rules": [{"id": "x"}]}}]},
]


@pytest.mark.parametrize("data", JSON_SHAPES)
def test_json_text_with_item_lists_is_the_same_json(data: object) -> None:
    from svcconf.escape import json_text

    indented = json_text(data)
    assert indented == json.dumps(data, indent=2, ensure_ascii=False).replace("\x1b", "\\u001b")
    assert json_text(data, item_lists=("no-such-key",)) == indented  # nothing named: laid out the same
    for names in (("diagnostics",), ("results", "notes"), ("",)):
        assert json.loads(json_text(data, item_lists=names)) == data


def test_json_reports_write_one_finding_per_line(tmp_path) -> None:
    # A line per finding keeps a report of many findings fast to write and easy to grep and diff.
    path = tmp_path / "lists.yaml"
    path.write_text("---\n- a\n" * 3, encoding="utf-8")
    for fmt, key in (("json", "diagnostics"), ("sarif", "results"), ("gitlab", None)):
        result = run("validate", "--no-config", "-f", fmt, str(path))
        report = result.json()
        findings = report if key is None else report[key] if fmt == "json" else report["runs"][0][key]
        assert len(findings) == 3
        lines = result.out.splitlines()
        one_line = [
            json.loads(line.strip().rstrip(",")) for line in lines if line.strip().startswith("{") and line.rstrip(",").endswith("}")
        ]
        assert one_line == findings
