"""svcconf migrate as a user runs it: --check, --diff, --write, stdin/stdout, JSON, encodings, atomic writes, real files."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from svcconf.migrate import Options, migrate_bytes
from svcconf.migrate.ops import leaves
from svcconf.pipeline import check_text
from svcconf.source import parse

from .conftest import CORPUS, FIXTURES, params_or_skip
from .helpers import run

OLD = b"# batch jobs\napiVersion: batch/v1beta1   # old\nkind: CronJob\nmetadata: {name: nightly}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name:   keep   # odd spacing kept\n"
NEW = OLD.replace(b"batch/v1beta1", b"batch/v1")


def test_check_exits_1_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "cron.yaml"
    path.write_bytes(OLD)
    result = run("migrate", "--check", str(path))
    assert result.code == 1
    assert path.read_bytes() == OLD
    assert "batch/v1beta1 CronJob -> batch/v1 CronJob" in result.out


def test_check_passes_on_current_files(tmp_path: Path) -> None:
    path = tmp_path / "cron.yaml"
    path.write_bytes(NEW)
    assert run("migrate", "--check", str(path)).code == 0


def test_diff_is_unified(tmp_path: Path) -> None:
    path = tmp_path / "cron.yaml"
    path.write_bytes(OLD)
    result = run("migrate", "--diff", str(path))
    assert "-apiVersion: batch/v1beta1   # old\n+apiVersion: batch/v1   # old\n" in result.out
    assert path.read_bytes() == OLD


def test_write_in_place_keeps_mode_and_untouched_documents(tmp_path: Path) -> None:
    path = tmp_path / "cron.yaml"
    path.write_bytes(OLD)
    os.chmod(path, 0o640)
    assert run("migrate", "--write", str(path)).code == 0
    assert path.read_bytes() == NEW
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["cron.yaml"]


def test_stdin_to_stdout() -> None:
    result = run("migrate", "-", stdin=OLD)
    assert result.out == NEW.decode()
    assert "CronJob" in result.err


def test_json_report_has_validate_contract_and_edits(tmp_path: Path) -> None:
    path = tmp_path / "cron.yaml"
    path.write_bytes(OLD)
    report = run("migrate", "--format", "json", str(path)).json()
    assert report["version"] == 1
    assert {"files", "documents", "errors", "warnings"} <= set(report["summary"])
    assert report["edits"] == [
        {
            "file": str(path),
            "document": 1,
            "line": 2,
            "from": "batch/v1beta1 CronJob",
            "to": "batch/v1 CronJob",
            "mode": "splice",
            "notes": [],
        }
    ]
    assert report["diagnostics"][0]["rule"] == "migrated"


def test_crlf_and_bom_are_kept() -> None:
    data = (
        b"\xef\xbb\xbf"
        + b"apiVersion: extensions/v1beta1\r\nkind: DaemonSet\r\nspec:\r\n  template:\r\n    metadata:\r\n      labels: {app: x}\r\n"
    )
    out = migrate_bytes("ds.yaml", data).output
    assert out is not None and out.startswith(b"\xef\xbb\xbfapiVersion: apps/v1\r\n")
    assert b"\n" not in out.replace(b"\r\n", b"")
    assert b"  selector:\r\n    matchLabels: {app: x}\r\n" in out


def test_utf16_file_is_written_back_as_utf16() -> None:
    data = "apiVersion: batch/v1beta1\nkind: CronJob\n".encode("utf-16")
    out = migrate_bytes("c.yaml", data).output
    assert out is not None and out.decode("utf-16") == "apiVersion: batch/v1\nkind: CronJob\n"


@pytest.mark.parametrize("data,rule", [(b"apiVersion: batch/v1beta1\nkind: [\n", "yaml-syntax"), (b"apiVersion: \xff\n", "encoding-error")])
def test_unreadable_files_are_left_untouched(tmp_path: Path, data: bytes, rule: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_bytes(data)
    result = run("migrate", "--write", "--format", "json", str(path))
    assert path.read_bytes() == data
    assert [d["rule"] for d in result.json()["diagnostics"]] == [rule]
    assert result.code == 1


def test_a_write_killed_before_the_rename_leaves_the_original(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "cron.yaml"
    path.write_bytes(OLD)

    def killed(*_args):
        raise OSError(5, "simulated crash")

    monkeypatch.setattr(os, "replace", killed)
    result = run("migrate", "--write", str(path))
    assert result.code == 2
    assert path.read_bytes() == OLD
    assert [p.name for p in tmp_path.iterdir()] == ["cron.yaml"]


def test_needs_review_exits_1_and_unsafe_converts(tmp_path: Path) -> None:
    path = tmp_path / "pdb.yaml"
    path.write_bytes(b"apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nspec:\n  selector: {}\n")
    assert run("migrate", "--write", str(path)).code == 1
    assert b"v1beta1" in path.read_bytes()
    assert run("migrate", "--write", "--unsafe", str(path)).code == 0
    assert b"policy/v1\n" in path.read_bytes()


def test_to_version_stops_at_a_served_version() -> None:
    data = b"apiVersion: flowcontrol.apiserver.k8s.io/v1beta1\nkind: FlowSchema\n"
    out = migrate_bytes("f.yaml", data, Options(target=(1, 27))).output
    assert out == b"apiVersion: flowcontrol.apiserver.k8s.io/v1beta3\nkind: FlowSchema\n"


# --------------------------------------------------------------------------- properties over real files

AREAS = ("removed-apis", "mixed", "scheduler", "audit", "bootstrap")
FIXTURES_MIGRATE = FIXTURES / "migrate"
REAL_FILES = [pytest.param(p, id=p.name) for p in sorted(FIXTURES_MIGRATE.glob("*.yaml")) if not p.name.endswith(".migrated.yaml")]
for _area in AREAS:
    REAL_FILES += params_or_skip(
        sorted(p for p in (CORPUS / _area).iterdir() if p.is_file()) if (CORPUS / _area).is_dir() else [],
        f"../shared/corpus/{_area} is not present",
        ids=lambda p: p.name,
    )


def _spans(text: str) -> list[str]:
    source = parse("x", text)
    return [text[d.root.start_mark.index : d.root.end_mark.index] for d in source.documents]


@pytest.mark.parametrize("path", REAL_FILES)
def test_properties_on_real_files(path: Path) -> None:
    data = path.read_bytes()
    unsafe = b"--unsafe" in data[:200]
    outcome = migrate_bytes(str(path), data, Options(unsafe=unsafe))
    # What migrate leaves with a removed version, it flags for review (an unchanged file included).
    reviewed = {d.document for d in outcome.diagnostics if d.rule == "migration-needs-review"}
    result = check_text((outcome.output or data).decode("utf-8-sig"), name=str(path))
    assert [d for d in result.diagnostics if d.rule == "removed-api-version" and d.document not in reviewed] == []
    if outcome.output is None:
        return
    changed = {e.document for e in outcome.edits}
    before, after = _spans(data.decode("utf-8-sig")), _spans(outcome.output.decode("utf-8-sig"))
    assert len(before) == len(after)
    for index, (old, new) in enumerate(zip(before, after), start=1):
        if index not in changed:
            assert old == new  # unchanged documents are byte-identical
    again = migrate_bytes(str(path), outcome.output, Options(unsafe=unsafe))
    assert again.output is None or again.output == outcome.output  # idempotent
    named = " ".join(d.message for d in outcome.diagnostics) + " " + " ".join(str(v) for v in _dropped(outcome))
    old_docs, new_docs = parse("a", data.decode("utf-8-sig")).documents, parse("b", outcome.output.decode("utf-8-sig")).documents
    for index in changed:
        kept = {str(v) for v in leaves(new_docs[index - 1].data)}
        lost = [v for v in leaves(old_docs[index - 1].data) if str(v) not in kept and str(v) not in named]
        assert lost == [], f"document {index} lost {lost}"


def _dropped(outcome) -> list:
    return [d.message for d in outcome.diagnostics if d.rule == "migration-dropped-field"]


# --------------------------------------------------------------------------- the table's contract


def _removed_rows():
    from svcconf.registry import lifecycle

    return [row for row in lifecycle().rows.values() if row.removed and row.scope != "payload"]


@pytest.mark.parametrize("row", _removed_rows(), ids=lambda r: f"{r.group or 'core'}/{r.version}/{r.kind}")
def test_every_removed_version_converts_or_asks_for_review(row) -> None:
    api_version = f"{row.group}/{row.version}" if row.group else row.version
    data = f"apiVersion: {api_version}\nkind: {row.kind}\nmetadata: {{name: x}}\n".encode()
    outcome = migrate_bytes("x.yaml", data, Options(target=row.removed))
    rules = {d.rule for d in outcome.diagnostics}
    assert outcome.changed or "migration-needs-review" in rules, rules


def test_files_without_old_versions_never_import_ruamel(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "current.yaml"
    path.write_bytes(NEW)
    code = (
        "import sys; from svcconf.cli import main; "
        f"rc = main(['migrate', '--check', {str(path)!r}]); "
        "sys.exit(10 if any(m.startswith('ruamel') for m in sys.modules) else rc)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False, capture_output=True).returncode == 0


def test_migrate_reads_the_target_release_from_the_configuration_file(tmp_path, monkeypatch) -> None:
    # batch/v1 CronJob is first served in 1.21: a 1.20 target keeps v1beta1, a 1.21 target converts it.
    (tmp_path / "cron.yaml").write_text("apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: c\n")
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".svcconf.yaml").write_text('target-version: "1.20"\n')
    assert run("migrate", "--check", "cron.yaml").code == 0
    (tmp_path / ".svcconf.yaml").write_text('target-version: "1.21"\n')
    assert run("migrate", "--check", "cron.yaml").code == 1


def test_a_failing_conversion_leaves_the_file_unchanged(tmp_path, monkeypatch) -> None:
    from svcconf.migrate import engine

    def broken(*_args, **_kwargs):
        raise KeyError("boom")

    monkeypatch.setattr(engine, "migrate_text", broken)
    path = tmp_path / "audit.yaml"
    original = "apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules:\n  - level: Metadata\n"
    path.write_text(original)
    result = run("migrate", "--write", str(path))
    assert result.code == 1
    assert path.read_text() == original
    assert "internal-error" in result.out and "file left unchanged" in result.out
