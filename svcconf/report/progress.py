"""A progress bar on standard error for a long validate or migrate run, where someone is watching it.

Only on a terminal, never in CI (the `CI` variable every CI service sets), in a pipe or with -q;
and only once a run has gone on past DELAY seconds, so that the runs a pre-commit hook makes never
show one. rich is imported then and not before: a short run pays nothing. The bar is transient:
it leaves nothing behind in the terminal once the run ends.
"""

from __future__ import annotations

import os
import sys
import time
from typing import TextIO

DELAY = 1.0  # seconds a run goes on before a bar is worth showing
FEWEST_FILES = 2  # one file has no "done of found" to show


def watched(stream: TextIO, quiet: bool) -> bool:
    """Whether a bar may be shown on `stream`: a terminal, outside CI, without -q (and not on a dumb terminal)."""
    if quiet or os.environ.get("CI") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a stream without a descriptor, or one already closed
        return False


class Progress:
    """Files done of files found: call it as files are done; a bar appears once the run has gone on past DELAY seconds."""

    def __init__(self, stream: TextIO, what: str) -> None:
        self.stream = stream
        self.what = what  # "checking" or "migrating"
        self.started = time.monotonic()
        self._bar = None
        self._task = None  # pragma: no mutate - set by _show before its first use

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            if total < FEWEST_FILES or time.monotonic() - self.started < DELAY:
                return
            self._show(total)
        self._bar.update(self._task, completed=done)  # type: ignore[attr-defined] - the files are all found before the first is done

    def _show(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        console = Console(file=self.stream)
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("files"), TimeElapsedColumn())
        # Not redirecting stdout: a report or a diff written there meanwhile must reach it byte for byte.
        self._bar = Progress(*columns, console=console, transient=True, redirect_stdout=False)
        self._task = self._bar.add_task(self.what, total=total)
        self._bar.start()
        import atexit

        atexit.register(self.close)  # a run that ends in an error still gives the terminal its cursor back

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def progress_for(what: str, quiet: bool = False, stream: TextIO | None = None) -> Progress | None:
    """A Progress for a run on `stream` (stderr), or None where no bar may be shown."""
    stream = stream or sys.stderr
    return Progress(stream, what) if watched(stream, quiet) else None
