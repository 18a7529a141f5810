"""Bad input gets one clear diagnostic with a position and a documented exit code, never a traceback."""

from __future__ import annotations

import codecs
import os
import sys

import pytest

from svcconf.lint import check as one_file
from svcconf.lint.check import check_file
from svcconf.lint.pipeline import validate
from svcconf.settings.options import ValidateOptions
from tests.helpers import Run, run, run_contained

POLICY = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n"


def check(tmp_path, name: str, data: bytes, *extra: str):
    path = tmp_path / name
    path.write_bytes(data)
    result = run("validate", "--no-config", "-f", "json", *extra, str(path))
    assert "Traceback" not in result.out + result.err
    return result


def test_malformed_yaml(tmp_path) -> None:
    result = check(tmp_path, "bad.yaml", b"apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [\n  - level: None\n")
    assert result.code == 1
    assert [(r[0], r[2], r[3]) for r in result.rules()] == [(4, "error", "yaml-syntax")]


def test_tab_indentation(tmp_path) -> None:
    result = check(tmp_path, "tabs.yaml", b"apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n\t- level: None\n")
    diagnostics = result.json()["diagnostics"]
    assert [(d["line"], d["column"], d["rule"]) for d in diagnostics] == [(4, 1, "yaml-syntax")]
    assert "tab" in diagnostics[0]["message"]


def test_duplicate_key(tmp_path) -> None:
    result = check(tmp_path, "dup.yaml", (POLICY + "    level: None\n").encode())
    assert result.code == 1
    assert result.rules() == [(5, 5, "error", "duplicate-field", "rules[0].level")]


def test_alias_bomb(tmp_path) -> None:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 10):
        prev = f"*a{i - 1}"
        lines.append(f"a{i}: &a{i} [{', '.join([prev] * 9)}]")
    result = check(tmp_path, "bomb.yaml", ("apiVersion: v1\nkind: ConfigMap\n" + "\n".join(lines) + "\n").encode())
    assert result.code == 1
    assert [(r[2], r[3]) for r in result.rules()] == [("error", "alias-expansion-limit")]


def test_ten_megabyte_scalar_is_skipped_with_a_warning(tmp_path) -> None:
    result = check(tmp_path, "big.yaml", b"apiVersion: v1\nkind: ConfigMap\ndata:\n  x: " + b"a" * (10 * 1024 * 1024) + b"\n")
    assert result.code == 0
    assert [(r[2], r[3]) for r in result.rules()] == [("warning", "file-too-large")]
    # The limit is the user's to raise.
    raised = check(tmp_path, "big.yaml", (tmp_path / "big.yaml").read_bytes(), "--max-file-size", "20M")
    assert raised.rules() == []


def test_binary_file(tmp_path) -> None:
    result = check(tmp_path, "blob.yaml", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR")
    assert result.code == 1
    assert [(r[2], r[3]) for r in result.rules()] == [("error", "binary-file")]


def test_non_utf8(tmp_path) -> None:
    result = check(tmp_path, "latin1.yaml", "apiVersion: v1\nkind: ConfigMap\ndata:\n  name: caf\xe9\n".encode("latin-1"))
    assert result.code == 1
    assert result.rules() == [(4, 12, "error", "encoding-error", "")]


def test_utf16_file_is_validated(tmp_path) -> None:
    data = codecs.BOM_UTF16_LE + (POLICY.replace("Metadata", "Everything")).encode("utf-16-le")
    result = check(tmp_path, "utf16.yaml", data)
    assert result.rules() == [(4, 12, "error", "invalid-value", "rules[0].level")]


def test_empty_file(tmp_path) -> None:
    result = check(tmp_path, "empty.yaml", b"")
    assert result.code == 0
    assert [(r[2], r[3]) for r in result.rules()] == [("info", "empty-file")]


@pytest.mark.parametrize("body,shape", [(b"- a\n- b\n", "a list"), (b"just text\n", "a single value")])
def test_document_that_is_not_an_object(tmp_path, body: bytes, shape: str) -> None:
    result = check(tmp_path, "odd.yaml", body)
    assert result.code == 0
    [diagnostic] = result.json()["diagnostics"]
    assert (diagnostic["rule"], diagnostic["severity"]) == ("not-an-object", "info")
    assert shape in diagnostic["message"]


@pytest.mark.parametrize("empty", [b"---\n", b"--- # only a comment\n", b"--- null\n", b"--- ~\n"])
def test_empty_documents_are_skipped_quietly(tmp_path, empty: bytes) -> None:
    # A trailing `---` is everywhere (generated manifests): the API server's readers drop empty
    # documents, and a report line for each would let a small file print megabytes.
    body = b"apiVersion: v1\nkind: ConfigMap\n" + empty * 3 + b"---\napiVersion: v1\nkind: ConfigMap\n" + empty
    result = check(tmp_path, "empty-docs.yaml", body)
    assert result.code == 0
    assert result.rules() == []
    assert result.json()["summary"]["skipped"] == 6
    # A file of nothing else is an empty file, said once.
    result = check(tmp_path, "empty-docs.yaml", empty * 1000)
    assert [(r[2], r[3]) for r in result.rules()] == [("info", "empty-file")]


def test_deep_nesting(tmp_path) -> None:
    result = check(tmp_path, "deep.yaml", b"a: " + b"[" * 20000 + b"]" * 20000 + b"\n")
    assert result.code in (0, 1)


def test_unknown_kind_in_a_known_group(tmp_path) -> None:
    result = check(tmp_path, "k.yaml", b"apiVersion: audit.k8s.io/v1\nkind: Polcy\nrules: []\n")
    assert result.rules() == [(2, 7, "error", "unknown-kind", "kind")]


def test_unknown_version_of_a_config_group(tmp_path) -> None:
    result = check(tmp_path, "v.yaml", b"apiVersion: audit.k8s.io/v2\nkind: Policy\n")
    assert result.rules() == [(1, 13, "error", "unknown-api-version", "apiVersion")]


def test_unreadable_file(tmp_path, monkeypatch) -> None:
    path = tmp_path / "secret.yaml"
    path.write_text(POLICY)

    def refuse(_path, _limit):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("svcconf.lint.check.read_limited", refuse)
    result = run("validate", "--no-config", "-f", "json", str(path))
    assert result.code == 2
    [diagnostic] = result.json()["diagnostics"]
    assert (diagnostic["rule"], diagnostic["severity"]) == ("unreadable-file", "error")
    assert "Permission denied" in diagnostic["message"]


def test_missing_path_is_a_usage_error(tmp_path) -> None:
    result = run("validate", "--no-config", str(tmp_path / "nope.yaml"))
    assert result.code == 2
    assert "nope.yaml" in result.err


def diagnostics(result: Run) -> list[tuple[str, int, int, str, str]]:
    return [(d["file"], d["line"], d["column"], d["severity"], d["rule"]) for d in result.json()["diagnostics"]]


def test_aliases_are_limited_per_file_not_per_document(tmp_path) -> None:
    # Each document expands to about 274,000 nodes, under the limit alone; together they are far over it.
    levels = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    levels += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 5)]
    levels.append("a5: [*a4, *a4, *a4]")
    document = "\n".join(levels) + "\n"
    result = check(tmp_path, "bombs.yaml", ("---\n" + document).encode() * 40)
    assert result.code == 1
    second = 2 + len(levels) + 1  # the first line of the second document, after its `---`
    assert result.rules() == [(second, 1, "error", "alias-expansion-limit", "")]


def test_a_fat_string_aliased_ten_thousand_times_is_refused_at_its_anchor(tmp_path) -> None:
    # 1 MB of text, 10 GB of copies, and only 10,000 nodes: the node budget never sees it. In a
    # field the schema refuses, every alias became a copy in the schema check and the process aborted.
    fat = "x" * 1_000_000
    data = f"{POLICY}    users: [&fat {fat}]\nbogus: [{', '.join(['*fat'] * 10_000)}]\n"
    (tmp_path / "fat.yaml").write_text(data)
    result = run_contained("validate", "--no-config", "-f", "json", str(tmp_path / "fat.yaml"))
    assert result.code == 1, result.err
    assert diagnostics(result) == [(str(tmp_path / "fat.yaml"), 5, 13, "error", "alias-expansion-too-large")]
    assert "the aliases of &fat copy its 1,000,001 bytes past the 8,388,608 bytes" in result.json()["diagnostics"][0]["message"]


def test_an_anchor_holding_an_alias_of_itself_is_refused(tmp_path) -> None:
    result = check(tmp_path, "loop.yaml", (POLICY + "    users: &loop [a, *loop]\n").encode())
    assert result.rules() == [(5, 12, "error", "alias-expansion-too-large", "")]
    assert "&loop holds an alias of itself" in result.json()["diagnostics"][0]["message"]


def test_alias_bytes_are_limited_per_file_not_per_document(tmp_path) -> None:
    # Each document copies 5 MB through its aliases, under the 8 MiB budget alone; the second passes it.
    document = f"---\n{POLICY}    users: [&u {'u' * 500_000}]\n    userGroups: [{', '.join(['*u'] * 10)}]\n"
    result = check(tmp_path, "two.yaml", (document * 2).encode())
    second_anchor = document.count("\n") + 6  # the `users` line of the second document
    assert result.rules() == [(second_anchor, 13, "error", "alias-expansion-too-large", "")]


def test_migrate_leaves_a_file_of_fat_aliases_unchanged(tmp_path) -> None:
    path = tmp_path / "ingress.yaml"
    original = f"apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: &n {'n' * 1_000_000}\n  labels: {{{', '.join(f'k{i}: *n' for i in range(20))}}}\n"
    path.write_text(original)
    result = run("migrate", "--no-config", "--write", str(path))
    assert result.code == 1
    assert "[alias-expansion-too-large]" in result.out and "file left unchanged" in result.out
    assert path.read_text() == original


def test_large_document_with_an_ampersand_is_not_an_alias_bomb(tmp_path) -> None:
    # Over 500,000 nodes without a single alias: the limit counts only what aliases add.
    data = b'apiVersion: v1\nkind: ConfigMap\nnote: "a & b"\nitems: [' + b"1," * 510_000 + b"]\n"
    result = check(tmp_path, "large.yaml", data)
    assert result.rules() == []


HUGE_NUMBERS = ["0x" + "f" * 5000, "-0x" + "F" * 5000, "0o" + "7" * 6000, "0" + "7" * 6000, "0b" + "1" * 20000, "9" * 5000]


@pytest.mark.parametrize("number", HUGE_NUMBERS, ids=["hex", "negative-hex", "octal", "legacy-octal", "binary", "decimal"])
def test_huge_numbers_are_numbers_no_field_can_hold(tmp_path, number: str) -> None:
    # The server reads them as JSON numbers; an integer field cannot hold one.
    scheduler = tmp_path / "scheduler.yaml"
    scheduler.write_text(f"apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nparallelism: {number}\n")
    (tmp_path / "data.yaml").write_text(f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: n\nbinaryData:\n  n: {number}\n")
    (tmp_path / "policy.yaml").write_text(POLICY.replace("Metadata", "Everything"))
    result = run("validate", "--no-config", "-f", "json", str(tmp_path))
    assert result.code == 1
    assert [(d[0], *d[1:3], d[4]) for d in diagnostics(result)] == [
        (str(tmp_path / "policy.yaml"), 4, 12, "invalid-value"),
        (str(scheduler), 3, 14, "wrong-type"),
    ]
    message = next(d["message"] for d in result.json()["diagnostics"] if d["rule"] == "wrong-type")
    assert message == "cannot unmarshal number into a field of type integer"  # a number, as the server says, not null


# --------------------------------------------------------------------------- what is read, and how much


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_named_pipe_in_a_folder_is_reported_without_opening_it(tmp_path) -> None:
    (tmp_path / "policy.yaml").write_text(POLICY)
    os.mkfifo(tmp_path / "pipe.yaml")  # no writer: opening it would wait for ever
    result = run_contained("validate", "--no-config", "-f", "json", str(tmp_path))
    assert result.code == 0
    assert diagnostics(result) == [(str(tmp_path / "pipe.yaml"), 1, 1, "warning", "not-a-regular-file")]
    assert "named pipe" in result.json()["diagnostics"][0]["message"]
    assert result.json()["summary"]["files"] == 2


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_link_to_a_device_in_a_folder_is_reported_without_reading_it(tmp_path) -> None:
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    result = run_contained("validate", "--no-config", "-f", "json", str(tmp_path))
    assert result.code == 0
    assert diagnostics(result) == [(str(tmp_path / "zero.yaml"), 1, 1, "warning", "not-a-regular-file")]
    assert "character device" in result.json()["diagnostics"][0]["message"]


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_device_named_on_the_command_line_is_reported_without_reading_it() -> None:
    result = run_contained("validate", "--no-config", "-f", "json", "/dev/zero")
    assert result.code == 0
    assert diagnostics(result) == [("/dev/zero", 1, 1, "warning", "not-a-regular-file")]
    assert "character device" in result.json()["diagnostics"][0]["message"]


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_stdin_is_read_only_up_to_the_limit() -> None:
    with open("/dev/zero", "rb") as endless:
        result = run_contained("validate", "--no-config", "-f", "json", "-", stdin=endless)
    assert result.code == 0
    assert diagnostics(result) == [("<stdin>", 1, 1, "warning", "file-too-large")]


@pytest.mark.skipif(not os.path.isdir("/dev/fd"), reason="no /dev/fd here")
def test_pipe_named_on_the_command_line_is_read() -> None:
    # What `svcconf validate <(command)` passes: /dev/fd/N, the read end of a pipe.
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, POLICY.replace("Metadata", "Everything").encode())
        os.close(write_end)
        result = run("validate", "--no-config", "-f", "json", f"/dev/fd/{read_end}")
    finally:
        os.close(read_end)
    assert result.code == 1
    assert result.rules() == [(4, 12, "error", "invalid-value", "rules[0].level")]


def test_size_is_checked_before_reading(tmp_path) -> None:
    path = tmp_path / "huge.yaml"
    with open(path, "wb") as handle:
        handle.truncate(16 << 30)  # 16 GiB of nothing: a sparse file
    if os.stat(path).st_blocks * 512 > 1 << 20:
        pytest.skip("this file system has no sparse files")
    result = run_contained("validate", "--no-config", "-f", "json", str(path))
    assert result.code == 0
    assert diagnostics(result) == [(str(path), 1, 1, "warning", "file-too-large")]
    assert "file is 17,179,869,184 bytes, over the 8,388,608-byte limit" in result.json()["diagnostics"][0]["message"]


@pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="the file system refuses names that are not UTF-8")
def test_file_names_that_are_not_utf8_are_carried_through(tmp_path) -> None:
    folder = os.fsencode(tmp_path)
    raw = os.path.join(folder, b"caf\xe9.yaml")
    with open(raw, "wb") as handle:
        handle.write(POLICY.replace("Metadata", "Everything").encode())
    name = os.fsdecode(raw)
    expected = [(name, 4, 12, "invalid-value")]
    for path in (folder, str(tmp_path)):
        report = validate([path], ValidateOptions(jobs=1))
        assert [(d.file, d.line, d.column, d.rule) for d in report.diagnostics] == expected
    assert [(d.file, d.rule) for d in check_file(raw, ValidateOptions()).diagnostics] == [(name, "invalid-value")]


def test_a_failure_in_one_file_is_its_diagnostic_and_the_others_are_checked(tmp_path, monkeypatch) -> None:
    (tmp_path / "a.yaml").write_text(POLICY)
    (tmp_path / "b.yaml").write_text(POLICY.replace("Metadata", "Everything"))
    real = one_file.load_bytes

    def fail_on_a(name: str, data: bytes, **options):
        if name.endswith("a.yaml"):
            raise RecursionError("maximum recursion depth exceeded")
        return real(name, data, **options)

    monkeypatch.setattr(one_file, "load_bytes", fail_on_a)
    result = run("validate", "--no-config", "-f", "json", str(tmp_path))
    assert result.code == 1
    assert diagnostics(result) == [
        (str(tmp_path / "a.yaml"), 1, 1, "error", "internal-error"),
        (str(tmp_path / "b.yaml"), 4, 12, "error", "invalid-value"),
    ]
    assert "RecursionError" in result.json()["diagnostics"][0]["message"]
