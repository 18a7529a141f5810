"""migrate checks what it hands back: every document it converted is validated at the --to release.

The converted file is read as validate reads it and checked at the target; the findings of error
severity in the converted documents are kept, at their positions in the converted file. A
conversion changes only versions and the fields it moves, so such an error was already in the
document: validate reports it on the file as written, marked "after migration", at the line it
comes from.
"""

from __future__ import annotations

import gc
from typing import NamedTuple

from ..model import Diagnostic, Severity
from ..settings.options import ValidateOptions
from .engine import FileOutcome


class Verified(NamedTuple):
    converted: int  # documents of the file the migration converted or added
    errors: list[Diagnostic]  # error findings in them, at positions in the converted file

    @property
    def clean(self) -> int:
        """The converted documents without an error."""
        return self.converted - len({d.document for d in self.errors})


def verify(outcome: FileOutcome, options: ValidateOptions) -> Verified:
    """The converted documents of a file and their errors at `options`' target (nothing when the file does not change)."""
    if not outcome.changed or outcome.output is None:
        return Verified(0, [])
    from ..lint.check import check_source
    from ..load.source import load_bytes

    converted = {edit.document: edit.target.split(" (", 1)[0] for edit in outcome.edits}
    collecting = gc.isenabled()
    gc.disable()  # as validate's check_file: a file's nodes form no reference cycles
    try:
        source = load_bytes(outcome.name, outcome.output, max_size=max(options.max_file_size, len(outcome.output)), keep_nodes=False)
        found = check_source(source, options).diagnostics
    finally:
        if collecting:
            gc.enable()
    errors = [
        d._replace(migrated=converted[d.document].split(" ", 1)[0])
        for d in found
        if d.severity == Severity.ERROR and d.document in converted and d.migrated is None  # not of a further migration
    ]
    return Verified(len(converted), errors)
