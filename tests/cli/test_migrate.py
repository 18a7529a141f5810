"""svcconf migrate as a user runs it: --check, --diff, --write, stdin/stdout, JSON, encodings, atomic writes, real files."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from svcconf.lint.check import check_text
from svcconf.load.source import parse
from svcconf.migrate import MigrateOptions, migrate_bytes
from svcconf.migrate.ops import leaves
from svcconf.model import Diagnostic, Severity
from svcconf.settings.options import ValidateOptions
from tests.conftest import CORPUS, ROOT
from tests.helpers import run
from tests.migrate.test_conversions import CASES
from tests.upstream_flags import with_upstream_flag_changes
from tests.upstream_versions import NEWEST, due, table, targets, versions_in

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
    out = migrate_bytes("f.yaml", data, MigrateOptions(target=(1, 27))).output
    assert out == b"apiVersion: flowcontrol.apiserver.k8s.io/v1beta3\nkind: FlowSchema\n"


# --------------------------------------------------------------------------- properties over real files

AREAS = ("removed-apis", "mixed", "scheduler", "audit", "bootstrap")


def _property_cases() -> list:
    """Every migrate fixture and the corpus areas with old versions; an absent area is a skipped case."""
    cases = [pytest.param(p, id=p.name) for p in CASES]
    for area in AREAS:
        folder = CORPUS / area
        if folder.is_dir():
            cases += [pytest.param(p, id=p.name) for p in sorted(folder.iterdir()) if p.is_file()]
        else:
            cases.append(pytest.param(None, id=f"corpus-{area}", marks=pytest.mark.skip(reason=f"{folder} is not present")))
    return cases


def _spans(text: str) -> list[str]:
    source = parse("x", text)
    return [text[d.root.start_mark.index : d.root.end_mark.index] for d in source.documents]


# How migrate is run on every file: plain (removed versions only), with --deprecated, and for an upgrade 1.28 -> 1.29;
# each with the releases whose served versions a converted document must use.
MODES = {
    "removed": (MigrateOptions(), (NEWEST,)),
    "deprecated": (MigrateOptions(deprecated=True), (NEWEST,)),
    "upgrade-1.28-1.29": (MigrateOptions(from_version=(1, 28), target=(1, 29), deprecated=True), ((1, 29),)),
}


def _due(data, releases: tuple, deprecated: bool) -> bool | None:
    """Must the document move (upstream-versions.tsv): True, False, or None where the sources give no date."""
    states = [due(table()[found], releases[-1], deprecated) for found in versions_in(data) if found in table()]
    return True if True in states else (None if None in states else False)


def _moved_to(old, new, releases: tuple, deprecated: bool, explained: bool) -> None:
    """Each version a converted document named moved to one upstream serves, down its replacements (a due one,
    unless the document is explained); an apiVersion-only move changed nothing else."""
    before, after = versions_in(old), versions_in(new)
    assert len(before) == len(after), f"{before} -> {after}"
    for was, now in zip(before, after):
        row = table().get(was)
        if was == now:
            assert explained or not (row and due(row, releases[-1], deprecated)), f"{was} is due, yet left ({row and row.source})"
            continue
        assert row is not None and now in targets(row, releases), f"{was} -> {now}, not one of {row and targets(row, releases)}"
        if row.shape == "T" and len(before) == 1:
            assert {**new, "apiVersion": old["apiVersion"], "kind": old["kind"]} == old, f"{row.source}: the same shape, yet fields changed"


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("path", _property_cases())
def test_properties_on_real_files(path: Path, mode: str) -> None:
    """Migrate does what upstream's versions ask of each document, and nothing else.

    A file with nothing due (tests/data/upstream-versions.tsv) comes back unchanged; in one that has,
    every due document is converted to a version upstream serves, or its reason is given, and the
    other documents keep their bytes; a conversion loses no value, and a second run changes nothing.
    """
    data = path.read_bytes()
    base, releases = MODES[mode]
    options = base._replace(unsafe=b"--unsafe" in data[:200])
    outcome = migrate_bytes(str(path), data, options)
    text = data.decode("utf-8-sig", errors="replace")
    unreadable = [d for d in outcome.diagnostics if d.document is None]
    if unreadable:  # a file migrate cannot read is left unchanged, with the reason validate gives too
        assert outcome.output is None and outcome.edits == []
        check = ValidateOptions(target=options.target)
        assert {d.rule for d in unreadable} <= {d.rule for d in check_text(text, check, name=str(path)).diagnostics}
        return
    old_docs = parse("a", text).documents
    states = [_due(d.data, releases, options.deprecated) for d in old_docs]
    converted = {e.document for e in outcome.edits if e.mode != "append"}
    explained = {d.document for d in outcome.diagnostics if d.rule == "migration-needs-review"}
    # What upstream's flag changes ask of each document (tests/data/upstream-flag-changes.tsv), apart from its apiVersion.
    expected = [with_upstream_flag_changes(d.data, releases[-1], options.unsafe) for d in old_docs]
    flagged = {n for n, (d, wanted) in enumerate(zip(old_docs, expected), 1) if wanted != d.data}
    if not any(state is not False for state in states) and not flagged:
        assert outcome.output is None and converted == set(), "nothing is due in this file, yet migrate changed it"
        return
    assert [n for n, state in enumerate(states, 1) if state and n not in converted | explained] == [], (
        "due, yet neither converted nor explained"
    )
    assert [n for n in converted if states[n - 1] is False and n not in flagged] == [], (
        "converted, yet upstream serves its version at the target and renamed none of its flags"
    )
    if outcome.output is None:
        assert converted == set() and explained
        return
    new_text = outcome.output.decode("utf-8-sig")
    before, after = _spans(text), _spans(new_text)
    assert len(after) == len(before) + sum(1 for e in outcome.edits if e.mode == "append")  # only appended documents are new
    for index, (old, new) in enumerate(zip(before, after), start=1):
        if index not in converted:
            assert old == new  # unchanged documents are byte-identical
    new_docs = parse("b", new_text).documents
    for index in converted:
        if states[index - 1] is False:  # converted for its flags alone: exactly upstream's renames (and removals)
            assert new_docs[index - 1].data == expected[index - 1], f"document {index}: not upstream's flag changes"
            continue
        _moved_to(expected[index - 1], new_docs[index - 1].data, releases, options.deprecated, index in explained)
    again = migrate_bytes(str(path), outcome.output, options)
    assert again.output is None or again.output == outcome.output  # idempotent
    named = " ".join(d.message for d in outcome.diagnostics)
    moved = {str(v) for document in new_docs[len(old_docs) :] for v in leaves(document.data)}
    for index in converted:
        kept = {str(v) for v in leaves(new_docs[index - 1].data)} | moved
        lost = [v for v in leaves(old_docs[index - 1].data) if str(v) not in kept and str(v) not in named]
        assert lost == [], f"document {index} lost {lost}"


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("path", _property_cases())
def test_converted_documents_validate_or_migrate_says_why(path: Path, mode: str) -> None:
    """Every converted document validates without errors at the --to release, or migrate's check names each error;
    and validate, checking the file as written through the conversion, reported each of them already."""
    from svcconf.load.source import load_bytes
    from svcconf.migrate.verify import verify

    data = path.read_bytes()
    base, _due_rules = MODES[mode]
    options = base._replace(unsafe=b"--unsafe" in data[:200])
    check = ValidateOptions(target=options.target)
    outcome = migrate_bytes(str(path), data, options)
    if not outcome.changed:
        assert outcome.output in (None, data)  # nothing converted: nothing to verify
        return
    verified = verify(outcome, check)
    converted = {e.document for e in outcome.edits if e.mode != "append"} | {e.document for e in outcome.edits}
    assert verified.converted == len(converted)
    after = load_bytes(str(path), outcome.output or b"", max_size=len(outcome.output or b"") + 1)
    from svcconf.lint.check import check_source

    errors = [
        d for d in check_source(after, check).diagnostics if d.document in converted and d.severity == Severity.ERROR and not d.migrated
    ]
    said = [d._replace(migrated=None) for d in verified.errors]
    assert sorted(errors, key=Diagnostic.sort_key) == sorted(said, key=Diagnostic.sort_key), (
        "converted documents with errors migrate did not name"
    )
    if options.from_version is not None:
        return  # validate predicts the conversion to the newest version, not to one both releases serve
    as_written = check_text(data.decode("utf-8-sig", errors="replace"), check, name=str(path)).diagnostics
    predicted = {(d.document, d.rule, d.message.removesuffix(f" (after migration to {d.migrated})")) for d in as_written}
    originals = {e.document for e in outcome.edits if e.mode != "append"}
    unforeseen = [d for d in errors if d.document in originals and (d.document, d.rule, d.message) not in predicted]
    assert unforeseen == [], "errors after the conversion that validate did not report on the file as written"


def test_the_default_target_is_the_newest_release_of_the_upstream_table() -> None:
    from svcconf.known.catalog import lifecycle

    assert lifecycle().newest == NEWEST  # else the properties above judge migrate at another release than it targets


# --------------------------------------------------------------------------- the table's contract


def _removed_rows():
    from svcconf.known.catalog import lifecycle

    return [row for row in lifecycle().rows.values() if row.removed and row.scope != "payload"]


@pytest.mark.parametrize("row", _removed_rows(), ids=lambda r: f"{r.group or 'core'}/{r.version}/{r.kind}")
def test_every_removed_version_converts_or_asks_for_review(row) -> None:
    api_version = f"{row.group}/{row.version}" if row.group else row.version
    data = f"apiVersion: {api_version}\nkind: {row.kind}\nmetadata: {{name: x}}\n".encode()
    outcome = migrate_bytes("x.yaml", data, MigrateOptions(target=row.removed))
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


def test_migrate_reads_the_releases_from_the_configuration_file(tmp_path, monkeypatch) -> None:
    # batch/v1beta1 CronJob is deprecated in 1.21 and removed in 1.25; batch/v1 is first served in 1.21.
    (tmp_path / "cron.yaml").write_text("apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: c\n")
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".svcconf.yaml").write_text('target-version: "1.24"\n')
    assert run("migrate", "--check", "cron.yaml").code == 0  # still served: plain migrate leaves it
    (tmp_path / ".svcconf.yaml").write_text('target-version: "1.25"\n')
    assert run("migrate", "--check", "cron.yaml").code == 1
    # From 1.20 no version is served before and after: the document must wait for the upgrade.
    (tmp_path / ".svcconf.yaml").write_text('target-version: "1.25"\nfrom-version: "1.20"\n')
    result = run("migrate", "--format", "json", "cron.yaml")
    assert result.code == 1 and result.json()["edits"] == []
    assert [(d["rule"], d["severity"]) for d in result.json()["diagnostics"]] == [("migration-needs-review", "warning")]
    assert result.json()["summary"]["from-version"] == "1.20" and result.json()["summary"]["to-version"] == "1.25"


def test_migrate_honours_config_and_no_config(tmp_path, monkeypatch) -> None:
    (tmp_path / "cron.yaml").write_text("apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: c\n")
    (tmp_path / ".svcconf.yaml").write_text('target-version: "1.24"\n')
    (tmp_path / "later.yaml").write_text('target-version: "1.25"\n')
    monkeypatch.chdir(tmp_path)
    assert run("migrate", "--check", "cron.yaml").code == 0  # the file found upward: 1.24 still serves it
    assert run("migrate", "--no-config", "--check", "cron.yaml").code == 1  # the newest release does not
    assert run("migrate", "--config", "later.yaml", "--check", "cron.yaml").code == 1


@pytest.mark.parametrize(
    "config,where",
    [
        ('target-version: "1.25"\nfrom-version: "1.26"\n', ":2:15: invalid configuration: from-version: from-version 1.26 is after"),
        ('target-version: "1.25"\nfrom-version: 1.2x\n', ":2:15: invalid configuration: from-version:"),
        ("target-version: [\n", ":2:1: invalid configuration: "),
    ],
)
def test_a_broken_configuration_file_exits_2_with_its_position(tmp_path, monkeypatch, config: str, where: str) -> None:
    (tmp_path / "cron.yaml").write_text("apiVersion: batch/v1beta1\nkind: CronJob\n")
    (tmp_path / ".svcconf.yaml").write_text(config)
    monkeypatch.chdir(tmp_path)
    result = run("migrate", "--write", "cron.yaml")
    assert result.code == 2
    assert f"svcconf: .svcconf.yaml{where}" in result.err  # the file found upward, named from the working directory
    assert (tmp_path / "cron.yaml").read_text() == "apiVersion: batch/v1beta1\nkind: CronJob\n"


def test_from_version_after_to_version_is_a_usage_error(tmp_path) -> None:
    path = tmp_path / "cron.yaml"
    path.write_text("apiVersion: batch/v1beta1\nkind: CronJob\n")
    result = run("migrate", "--from-version", "1.30", "--to-version", "1.29", str(path))
    assert result.code == 2 and "--from-version 1.30 is after the target release 1.29" in result.err


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


# --------------------------------------------------------------------------- symbolic links and safe writes


@pytest.fixture
def linked(tmp_path: Path) -> Path:
    """repo/ with a real file, a link to it, and a link to a file outside the repository."""
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    (repo / "sub").mkdir(parents=True)
    outside.mkdir()
    (repo / "sub" / "real.yaml").write_bytes(OLD)
    (outside / "private.yaml").write_bytes(OLD)
    (repo / "inner.yaml").symlink_to(Path("sub") / "real.yaml")
    (repo / "escape.yaml").symlink_to(outside / "private.yaml")
    return tmp_path


def test_write_leaves_symbolic_links_and_their_targets_alone(linked: Path) -> None:
    repo = linked / "repo"
    result = run("migrate", "--write", str(repo / "inner.yaml"), str(repo / "escape.yaml"))
    assert result.code == 1
    assert (repo / "inner.yaml").is_symlink() and (repo / "escape.yaml").is_symlink()
    assert (repo / "sub" / "real.yaml").read_bytes() == OLD and (linked / "outside" / "private.yaml").read_bytes() == OLD
    assert f"svcconf: warning: {repo / 'escape.yaml'}: a symbolic link; not written" in result.err
    assert result.out.splitlines()[0] == "0 documents in 0 of 2 files rewritten"


def test_follow_symlinks_writes_a_target_inside_the_given_paths_only(linked: Path) -> None:
    repo = linked / "repo"
    result = run("migrate", "--write", "--follow-symlinks", str(repo))
    assert (repo / "inner.yaml").is_symlink() and (repo / "escape.yaml").is_symlink()
    assert (repo / "sub" / "real.yaml").read_bytes() == NEW  # through inner.yaml (real.yaml then needs nothing)
    assert (linked / "outside" / "private.yaml").read_bytes() == OLD
    assert f"{repo / 'escape.yaml'}: a symbolic link to a file outside the given paths; not written" in result.err
    assert result.code == 1
    assert sorted(p.name for p in (repo / "sub").iterdir()) == ["real.yaml"]


def test_follow_symlinks_does_not_resolve_a_link_given_by_name(linked: Path) -> None:
    # Given alone, a link's target is not inside the given paths even when it is in the same repository.
    link = linked / "repo" / "inner.yaml"
    result = run("migrate", "--write", "--follow-symlinks", str(link))
    assert result.code == 1 and "outside the given paths" in result.err
    assert (linked / "repo" / "sub" / "real.yaml").read_bytes() == OLD


def test_write_atomic_refuses_a_symbolic_link(linked: Path) -> None:
    from svcconf.migrate import write_atomic

    link = linked / "repo" / "escape.yaml"
    with pytest.raises(OSError, match="symbolic link"):
        write_atomic(str(link), NEW)
    assert link.is_symlink() and (linked / "outside" / "private.yaml").read_bytes() == OLD


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file to another owner needs root")
def test_write_keeps_owner_group_and_mode(tmp_path: Path) -> None:
    path = tmp_path / "cron.yaml"
    path.write_bytes(OLD)
    os.chown(path, 1234, 5678)
    os.chmod(path, 0o640)
    assert run("migrate", "--write", str(path)).code == 0
    info = os.stat(path)
    assert path.read_bytes() == NEW
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (1234, 5678, 0o640)


@pytest.mark.parametrize("signum", ["SIGTERM", "SIGINT"])
def test_a_signal_during_the_write_leaves_the_original_and_no_temporary_file(tmp_path: Path, signum: str) -> None:
    import signal
    import subprocess
    import sys

    path = tmp_path / "cron.yaml"
    path.write_bytes(OLD)
    # The child writes to a slow disk: fsync announces itself and takes a second, time for the signal to come.
    child = (
        # A shell starts a background job with SIGINT ignored and Python keeps it so: take Python's usual handler back.
        "import os, signal, sys, time\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "from svcconf.migrate import write_atomic\n"
        "real_fsync = os.fsync\n"
        "def slow_fsync(fd):\n"
        "    sys.stdout.write('syncing\\n'); sys.stdout.flush(); time.sleep(1); real_fsync(fd)\n"
        "os.fsync = slow_fsync\n"
        f"write_atomic({str(path)!r}, {NEW!r})\n"
    )
    process = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        assert process.stdout is not None and process.stdout.readline() == b"syncing\n"
        process.send_signal(getattr(signal, signum))
        process.wait(timeout=20)
    finally:
        process.kill()
    assert process.returncode == -getattr(signal, signum)
    assert path.read_bytes() == OLD
    assert [p.name for p in tmp_path.iterdir()] == ["cron.yaml"]


def test_write_leaves_a_file_in_a_symlinked_folder_alone(tmp_path: Path) -> None:
    # A pull request can add `repo/linked -> /somewhere`: a file named through it is not rewritten.
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "private.yaml").write_bytes(OLD)
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "linked").symlink_to(tmp_path / "outside", target_is_directory=True)
    named = tmp_path / "repo" / "linked" / "private.yaml"
    result = run("migrate", "--no-config", "--write", str(named))
    assert result.code == 1
    assert f"{named}: in {tmp_path / 'repo' / 'linked'}, a symbolic link to a folder; not written" in result.err
    assert (tmp_path / "outside" / "private.yaml").read_bytes() == OLD
    assert sorted(p.name for p in (tmp_path / "outside").iterdir()) == ["private.yaml"]


def test_write_atomic_refuses_a_path_through_a_symlinked_folder(linked: Path) -> None:
    from svcconf.migrate import write_atomic

    (linked / "repo" / "up").symlink_to(linked / "outside", target_is_directory=True)
    with pytest.raises(OSError, match="a folder of its path is a symbolic link"):
        write_atomic(str(linked / "repo" / "up" / "private.yaml"), NEW)
    assert (linked / "outside" / "private.yaml").read_bytes() == OLD


@pytest.mark.parametrize("flags", [("--write", "--diff"), ("--write",), ("--write", "-f", "json")])
def test_stdin_is_never_written_to_a_file_named_dash(tmp_path: Path, monkeypatch, flags: tuple[str, ...]) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("migrate", "--no-config", *flags, "-", stdin=OLD)
    assert result.code == (1 if "--diff" in flags else 0), result.err  # --diff fails when it shows a change, as ruff's
    assert list(tmp_path.iterdir()) == []
    if "--diff" in flags:
        assert "+apiVersion: batch/v1   # old\n" in result.out
    else:
        assert result.out == NEW.decode()


def test_diff_escapes_the_commands_ci_runners_find_anywhere_in_a_line(tmp_path: Path, monkeypatch) -> None:
    # A diff line is file content; Azure Pipelines runs `##vso[...]` wherever it stands in a log line, and
    # outside GitHub Actions (which stops commands around the diff) nothing stops it.
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    path = tmp_path / "cron.yaml"
    path.write_bytes(
        OLD.replace(b"kind: CronJob\n", b"kind: CronJob\n# ##vso[task.setvariable variable=PATH]/tmp/evil\n# ##[error]forged\n")
    )
    result = run("migrate", "--no-config", "--diff", str(path))
    assert result.code == 1  # a diff that shows a change fails, as ruff's
    assert "##vso[" not in result.out and "##[" not in result.out
    assert " # \\x23#vso[task.setvariable variable=PATH]/tmp/evil\n" in result.out
    assert " # \\x23#[error]forged\n" in result.out


# --------------------------------------------------------------------------- temporary files of killed writes


def _writer_stopped_in_fsync(path: Path):
    """A child process writing `path` atomically, stopped inside fsync with its temporary file locked."""
    import subprocess
    import sys

    child = (
        "import os, sys, time\n"
        "from svcconf.migrate import write_atomic\n"
        "def stuck(fd):\n"
        "    sys.stdout.write('syncing\\n'); sys.stdout.flush(); time.sleep(60)\n"
        "os.fsync = stuck\n"
        f"write_atomic({str(path)!r}, {NEW!r})\n"
    )
    process = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, cwd=ROOT)
    assert process.stdout is not None and process.stdout.readline() == b"syncing\n"
    return process


def _temporary_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".svcconf-tmp"))


def test_the_temporary_file_of_a_killed_write_is_removed_by_the_next_write(tmp_path: Path) -> None:
    path = tmp_path / "cron.yaml"
    path.write_bytes(OLD)
    writer = _writer_stopped_in_fsync(path)
    writer.kill()
    writer.wait(timeout=20)
    [left] = _temporary_files(tmp_path)
    assert left.startswith(".cron.yaml.") and path.read_bytes() == OLD
    assert run("validate", "--no-config", "-f", "json", str(tmp_path)).json()["summary"]["files"] == 1  # no walk reads it
    assert run("migrate", "--no-config", "--write", str(path)).code == 0
    assert path.read_bytes() == NEW
    assert [p.name for p in tmp_path.iterdir()] == ["cron.yaml"]


def test_a_running_write_and_lookalike_files_are_left_alone(tmp_path: Path) -> None:
    (tmp_path / "outside.txt").write_text("keep me\n")
    (tmp_path / ".cron.yaml.link.svcconf-tmp").symlink_to(tmp_path / "outside.txt")
    os.mkfifo(tmp_path / ".cron.yaml.pipe.svcconf-tmp")
    (tmp_path / ".cron.yaml.notes").write_text("not svcconf's\n")
    (tmp_path / "other.yaml").write_bytes(OLD)
    writer = _writer_stopped_in_fsync(tmp_path / "other.yaml")
    try:
        running = [name for name in _temporary_files(tmp_path) if name.startswith(".other.yaml.")]
        (tmp_path / "cron.yaml").write_bytes(OLD)
        assert run("migrate", "--no-config", "--write", str(tmp_path / "cron.yaml")).code == 0
        assert (tmp_path / "cron.yaml").read_bytes() == NEW
        assert [name for name in _temporary_files(tmp_path) if name.startswith(".other.yaml.")] == running != []
    finally:
        writer.kill()
        writer.wait(timeout=20)
    assert (tmp_path / ".cron.yaml.link.svcconf-tmp").is_symlink() and (tmp_path / "outside.txt").read_text() == "keep me\n"
    assert stat.S_ISFIFO(os.lstat(tmp_path / ".cron.yaml.pipe.svcconf-tmp").st_mode)
    assert (tmp_path / ".cron.yaml.notes").read_text() == "not svcconf's\n"


# --------------------------------------------------------------------------- --diff never shows a secret

KUBEADM = (
    "apiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration\nbootstrapTokens:\n- token: abcdef.0123456789abcdef\n  ttl: 24h\n"
    'nodeRegistration:\n  kubeletExtraArgs:\n    v: "4"\ncertificateKey: "e6a2eb8581237ab72a4f494f30285ec12a9694d750b9785706a83bfcbbbd2204"\n'
)


def test_diff_masks_secret_values_on_context_lines(tmp_path: Path) -> None:
    path = tmp_path / "init.yaml"
    path.write_text(KUBEADM)
    result = run("migrate", "--deprecated", "--diff", str(path))
    assert "abcdef" not in result.out + result.err and "e6a2eb" not in result.out + result.err
    # The hunk needs the masked lines as context: it is shown after the reason, as comment lines no patch tool applies.
    assert result.out.startswith(
        f"# svcconf: this change to {str(path).lstrip('/')} is not in the patch: line 4 holds a secret value, shown as REDACTED"
    )
    assert "#  - token: REDACTED\n" in result.out
    assert "#  certificateKey: REDACTED\n" in result.out
    assert '# +  - name: v\n# +    value: "4"\n' in result.out  # the change itself is shown
    assert result.code == 1 and "\n--- a/" not in result.out


def test_diff_masks_secret_values_on_changed_lines(tmp_path: Path) -> None:
    path = tmp_path / "web.json"
    path.write_text(
        '{"apiVersion": "extensions/v1beta1", "kind": "Deployment", "metadata": {"name": "web", "annotations": '
        '{"token": "s3cr3t", "note": "x"}}, "spec": {"template": {"metadata": {"labels": {"app": "web"}}}}}\n'
    )
    result = run("migrate", "--diff", str(path))
    assert "s3cr3t" not in result.out + result.err
    assert (
        '# -{"apiVersion": "extensions/v1beta1", "kind": "Deployment", "metadata": {"name": "web", "annotations": {"token": REDACTED,'
        in result.out
    )
    assert '# +      "token": REDACTED,\n# +      "note": "x"\n' in result.out
    assert "is not in the patch: line 1 holds a secret value" in result.out


def test_diff_masks_every_line_of_a_multi_line_secret(tmp_path: Path) -> None:
    path = tmp_path / "cron.yaml"
    path.write_text("apiVersion: batch/v1beta1\npassword: |\n  line-one\n  line-two\nkind: CronJob\n")
    result = run("migrate", "--diff", str(path))
    assert "line-one" not in result.out and "line-two" not in result.out
    assert "# +apiVersion: batch/v1\n#  password: REDACTED\n#    REDACTED\n#    REDACTED\n" in result.out


def _has_secret_field(data: bytes) -> bool:
    from svcconf.known.secrets import SECRET_FIELDS

    return any(f"{name}:".encode() in data or f'"{name}"'.encode() in data for name in SECRET_FIELDS)


def test_diffs_of_files_without_secrets_apply_with_git(tmp_path: Path, monkeypatch) -> None:
    import shutil
    import subprocess

    from svcconf.known.catalog import format_release
    from tests.migrate.test_conversions import CASES, options_for

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    monkeypatch.chdir(tmp_path)
    checked = 0
    for case in CASES:
        original, expected = case.read_bytes(), case.with_name(case.name[: -len(".yaml")] + ".migrated.yaml").read_bytes()
        if expected == original or _has_secret_field(original):
            continue
        (tmp_path / "case.yaml").write_bytes(original)
        options = options_for(case)
        args = [
            *(["--to-version", format_release(options.target)] if options.target else []),
            *(["--from-version", format_release(options.from_version)] if options.from_version else []),
            *(["--unsafe"] if options.unsafe else []),
            *(["--deprecated"] if options.deprecated else []),
        ]
        patch = run("migrate", "--diff", *args, "case.yaml").out
        applied = subprocess.run(["git", "apply", "-"], input=patch.encode(), cwd=tmp_path, capture_output=True, check=False)
        assert applied.returncode == 0, f"{case.name}: {applied.stderr.decode()}"
        assert (tmp_path / "case.yaml").read_bytes() == expected, case.name
        checked += 1
    assert checked >= 20


def test_diff_of_a_file_without_a_final_newline_applies(tmp_path: Path, monkeypatch) -> None:
    import shutil
    import subprocess

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cron.yaml").write_bytes(b"apiVersion: batch/v1beta1\nkind: CronJob")
    patch = run("migrate", "--diff", "cron.yaml").out
    assert patch.endswith(" kind: CronJob\n\\ No newline at end of file\n")
    subprocess.run(["git", "apply", "-"], input=patch.encode(), cwd=tmp_path, check=True, capture_output=True)
    assert (tmp_path / "cron.yaml").read_bytes() == b"apiVersion: batch/v1\nkind: CronJob"


def test_the_independent_flag_table_renames_every_form_and_drops_removed_flags_only_under_unsafe() -> None:
    """The property test's own reading of upstream's flag changes (tests/data/upstream-flag-changes.tsv)."""
    document = {
        "apiServer": {"extraArgs": {"insecure-port": "0", "v": "2"}},
        "controllerManager": {"extraArgs": [{"name": "experimental-cluster-signing-duration", "value": "8760h"}]},
        "command": ["etcd", "--experimental-memory-mlock", "--experimental-corrupt-check-time=1m", "--name=cp"],
    }
    assert with_upstream_flag_changes(document, (1, 36), unsafe=False) == {
        "apiServer": {"extraArgs": {"insecure-port": "0", "v": "2"}},
        "controllerManager": {"extraArgs": [{"name": "cluster-signing-duration", "value": "8760h"}]},
        "command": ["etcd", "--memory-mlock", "--corrupt-check-time=1m", "--name=cp"],
    }
    at_1_29 = with_upstream_flag_changes(document, (1, 29), unsafe=True)  # etcd 3.6 comes with kubeadm 1.34
    assert at_1_29["command"] == document["command"] and at_1_29["apiServer"] == {"extraArgs": {"v": "2"}}
