"""GitLab Code Quality report: a JSON array of issues that merge requests show beside the changed lines.

The fields are those GitLab reads, a subset of the Code Climate spec
(https://docs.gitlab.com/ee/ci/testing/code_quality.html#implement-a-custom-tool): `description`,
`check_name`, `fingerprint`, `severity`, `location.path` (relative to the repository root) and
`location.lines.begin`. The file starts without a byte order mark, which GitLab's parser refuses.
"""

from __future__ import annotations

import os
from typing import TextIO

from ..escape import json_text
from ..lint.result import Report
from ..model import Severity
from .sarif_format import relative_path, source_root

# GitLab ranks issues info < minor < major < critical < blocker. An error is a file the server
# refuses or a setting that is certainly wrong: major, a finding to fix before merging. A warning
# (the server starts but likely misbehaves) is minor, advice is info. Critical and blocker stay
# free for what ranks above a wrong setting, such as an exploitable flaw from a security scanner,
# so that svcconf's findings do not drown those in a pipeline that runs both.
_SEVERITY = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}


def _location_path(file: str, root: str) -> str:
    """The file relative to the repository root in `/` form, as GitLab matches it to the diff; outside the root, as given."""
    relative = relative_path(file, root)
    return (relative if relative is not None else file).replace(os.sep, "/")


def issues(report: Report, root: str | None = None) -> list[dict]:
    """One Code Quality issue per diagnostic, each with a fingerprint of its own."""
    import hashlib

    root = root or source_root(os.getcwd())
    seen: dict[str, int] = {}
    found = []
    for d in report.diagnostics:
        path = _location_path(d.file, root)
        # No line or column: a finding keeps its fingerprint when lines are added above it, so GitLab
        # tells a new finding from one that moved. Identical findings in one file are counted apart.
        identity = f"{path}\0{d.rule}\0{d.path_text}\0{d.message}"
        seen[identity] = seen.get(identity, 0) + 1
        numbered = f"{identity}\0{seen[identity]}".encode("utf-8", "surrogatepass")  # pragma: no mutate - codec case
        fingerprint = hashlib.sha256(numbered).hexdigest()
        found.append(
            {
                "description": f"{d.path_text}: {d.message}" if d.path_text else d.message,
                "check_name": d.rule,
                "fingerprint": fingerprint,
                "severity": _SEVERITY[d.severity],
                "location": {"path": path, "lines": {"begin": d.line}},
            }
        )
    return found


def write(report: Report, stream: TextIO, *, color: bool = False) -> None:  # pragma: no mutate - colour is for text; render passes it
    # The format has no way to say that the run failed, and an empty array reads as "every issue
    # fixed" in a merge request. A run that failed (exit code 2) writes nothing instead: GitLab's
    # parser fails on an empty file ("JSON parsing failed") rather than showing a clean report,
    # and stderr says why the run failed.
    if report.failures:
        return
    stream.write(json_text(issues(report), item_lists=("",)) + "\n")
