"""A long validate or migrate run shows files done of files found on a terminal's standard error, and nowhere else.

The runs here are short, so the delay before the bar is set to nothing; what is tested is where a
bar may appear: a pseudo-terminal (pty) gets one, a pipe, CI and -q get none, and rich is not even
imported then.
"""

from __future__ import annotations

import io
import os
import re
import sys

import pytest

from svcconf.cli import main
from svcconf.report import progress

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")

POLICY = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n"
OLD_POLICY = POLICY.replace("audit.k8s.io/v1\n", "audit.k8s.io/v1beta1\n")
FILES = 3


@pytest.fixture
def folder(tmp_path, monkeypatch):
    for number in range(FILES):
        (tmp_path / f"policy{number}.yaml").write_text(POLICY)
    monkeypatch.setattr(progress, "DELAY", 0.0)  # every run is long enough
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    return tmp_path


def _run_with_stderr(monkeypatch, stream, *args: str) -> int:
    monkeypatch.setattr(sys, "stderr", stream)
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    return main(list(args))


def _on_a_terminal(monkeypatch, *args: str) -> tuple[int, str]:
    """Exit code, and what a terminal showing standard error received."""
    main_end, terminal_end = os.openpty()
    with os.fdopen(terminal_end, "w", encoding="utf-8") as terminal:
        code = _run_with_stderr(monkeypatch, terminal, *args)
        monkeypatch.undo()  # sys.stderr back before the terminal closes
    received = b""
    while True:
        try:
            chunk = os.read(main_end, 65536)
        except OSError:  # the other end is closed: all is read
            break
        if not chunk:
            break
        received += chunk
    os.close(main_end)
    return code, received.decode("utf-8", errors="replace")


def test_validate_on_a_terminal_shows_files_done_of_files_found(folder, monkeypatch) -> None:
    code, shown = _on_a_terminal(monkeypatch, "validate", "--no-config", "-j", "1", str(folder))
    assert code == 0
    assert "checking" in shown and f"{FILES}/{FILES}" in shown and "files" in shown


def test_migrate_on_a_terminal_shows_it_too(folder, monkeypatch) -> None:
    for number in range(FILES):
        (folder / f"policy{number}.yaml").write_text(OLD_POLICY)
    code, shown = _on_a_terminal(monkeypatch, "migrate", "--no-config", "--check", str(folder))
    assert code == 1  # a conversion is due
    assert "migrating" in shown and f"/{FILES}" in shown


@pytest.mark.parametrize(("setting", "flag"), [(("CI", "true"), None), (None, "-q"), (("TERM", "dumb"), None)])
def test_no_bar_in_ci_with_quiet_or_on_a_dumb_terminal(folder, monkeypatch, setting, flag) -> None:
    if setting:
        monkeypatch.setenv(*setting)
    # rich cannot be imported during the run: svcconf decides there is no bar before it would load it.
    for name in [name for name in sys.modules if name == "rich" or name.startswith("rich.")] + ["rich"]:
        monkeypatch.setitem(sys.modules, name, None)
    code, shown = _on_a_terminal(monkeypatch, "validate", "--no-config", *([flag] if flag else []), str(folder))
    assert code == 0 and "checking" not in shown and "/3" not in shown


def test_no_bar_and_no_rich_in_a_pipe(folder, monkeypatch) -> None:
    # rich cannot be imported during the run: a run that tried would end in an internal error.
    for name in [name for name in sys.modules if name == "rich" or name.startswith("rich.")] + ["rich"]:
        monkeypatch.setitem(sys.modules, name, None)
    read_end, write_end = os.pipe()
    with os.fdopen(write_end, "w", encoding="utf-8") as pipe:
        code = _run_with_stderr(monkeypatch, pipe, "validate", "--no-config", str(folder))
        migrated = _run_with_stderr(monkeypatch, pipe, "migrate", "--no-config", "--check", str(folder))
    with os.fdopen(read_end, encoding="utf-8") as received:
        assert received.read() == ""
    assert (code, migrated) == (0, 0)


def test_a_short_run_shows_nothing(folder, monkeypatch) -> None:
    monkeypatch.setattr(progress, "DELAY", 3600.0)
    code, shown = _on_a_terminal(monkeypatch, "validate", "--no-config", str(folder))
    assert (code, shown) == (0, "")


def _bar_lines(shown: str) -> list[str]:
    """The states of the bar as a terminal draws them, without colours (each state starts at the line's start)."""
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown)
    return [state for state in re.split(r"[\r\n]+", plain) if state]


def test_the_bar_counts_files_and_is_erased_when_the_run_ends(folder, monkeypatch) -> None:
    code, shown = _on_a_terminal(monkeypatch, "validate", "--no-config", "-j", "1", str(folder))
    assert code == 0
    assert re.fullmatch(rf"checking ━+ {FILES}/{FILES} files \d+:\d\d:\d\d", _bar_lines(shown)[-1])
    assert shown.endswith("\x1b[2K")  # transient: the terminal's last act erases the bar's line


def test_two_files_are_enough_for_a_bar(folder, monkeypatch) -> None:
    (folder / "policy0.yaml").unlink()
    code, shown = _on_a_terminal(monkeypatch, "validate", "--no-config", "-j", "1", str(folder))
    assert code == 0 and "2/2 files" in _bar_lines(shown)[-1]


def test_no_bar_on_a_stream_without_a_descriptor_or_one_closed() -> None:
    closed = io.StringIO()
    closed.close()
    assert progress.progress_for("checking", stream=closed) is None  # isatty() raises ValueError
    assert progress.progress_for("checking", stream=object()) is None  # no isatty() at all


def test_a_bar_closed_twice_gives_the_terminal_back_once(monkeypatch) -> None:
    # close runs when the command ends and again at exit (atexit): the second call must find nothing to stop.
    main_end, terminal_end = os.openpty()
    with os.fdopen(terminal_end, "w", encoding="utf-8") as terminal:
        monkeypatch.setattr(progress, "DELAY", 0.0)
        bar = progress.Progress(terminal, "checking")
        bar(1, 2)
        bar.close()
        bar.close()
    os.close(main_end)
    assert bar._bar is None
