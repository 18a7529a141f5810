"""SARIF 2.1.0 as GitHub code scanning takes it: results with regions, paths relative to the repository root, rule help.

Artifact URIs are relative to `%SRCROOT%`, the git work tree that holds the working directory
(found by its `.git`, without running git) or else the working directory, so that the same
files give the same URIs from any folder of a checkout; a file outside it keeps an absolute
`file:` URI. A run that failed says so: `executionSuccessful: false` and the reasons as tool
execution notifications, which code scanning takes as a failed analysis, not as "nothing found".
"""

from __future__ import annotations

import os
from typing import TextIO

from .. import __version__
from ..escape import file_uri, json_text, uri_reference
from ..known.docs import rule_doc
from ..lint.result import STDIN_NAME, Report
from ..model import Severity
from ..settings.target import COMMAND_LINE

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SOURCE_ROOT = "%SRCROOT%"


def source_root(start: str) -> str:
    """The closest folder from `start` upward that holds `.git` (a folder, or a file in a linked work tree), else `start`."""
    folder = start
    while not os.path.lexists(os.path.join(folder, ".git")):
        parent = os.path.dirname(folder)
        if parent == folder:
            return start
        folder = parent
    return folder


def relative_path(file: str, root: str) -> str | None:
    """A file's path relative to the root (as the OS spells it), or None for a file outside it."""
    relative = os.path.relpath(os.path.abspath(file), root)
    return None if relative == os.pardir or relative.startswith(os.pardir + os.sep) else relative


def artifact_location(file: str, root: str) -> dict:
    """A file as SARIF locates it: relative to %SRCROOT% inside the root, an absolute file URI outside it."""
    if file in (STDIN_NAME, COMMAND_LINE):
        return {"uri": uri_reference(file)}
    relative = relative_path(file, root)
    if relative is None:
        return {"uri": file_uri(os.path.abspath(file))}
    return {"uri": uri_reference(relative), "uriBaseId": SOURCE_ROOT}


def rule_name(rule_id: str) -> str:
    """The PascalCase name SARIF viewers show beside the id: `invalid-key-length` -> `InvalidKeyLength`."""
    return "".join(word[:1].upper() + word[1:] for word in rule_id.split("-"))


def _rules(rule_ids: list[str]) -> list[dict]:
    rules = []
    for rule_id in rule_ids:
        doc = rule_doc(rule_id)
        entry = {
            "id": rule_id,
            "name": rule_name(rule_id),
            "shortDescription": {"text": doc.summary if doc else rule_id},
            "defaultConfiguration": {"level": _LEVEL[doc.severity if doc else Severity.ERROR]},
        }
        if doc:
            entry["fullDescription"] = {"text": doc.why or doc.summary}
            entry["help"] = {"text": doc.help_text(), "markdown": doc.help_markdown()}
            if doc.help_uri:
                entry["helpUri"] = doc.help_uri
        rules.append(entry)
    return rules


def _result(d, index: dict[str, int], location_of) -> dict:
    location: dict = {
        "physicalLocation": {
            "artifactLocation": location_of(d.file),
            "region": {"startLine": d.line, "startColumn": d.column},
        }
    }
    if d.path_text:
        location["logicalLocations"] = [{"fullyQualifiedName": d.path_text, "kind": "member"}]
    result = {
        "ruleId": d.rule,
        "ruleIndex": index[d.rule],
        "level": _LEVEL[d.severity],
        "message": {"text": f"{d.path_text}: {d.message}" if d.path_text else d.message},
        "locations": [location],
    }
    properties = {"document": d.document, "apiVersion": d.api_version, "kind": d.kind} if d.document is not None else {}
    properties.update((name, value) for name, value in (("fix", d.fix), ("migrated", d.migrated)) if value)
    if properties:
        result["properties"] = properties
    return result


def _invocation(report: Report, location_of) -> dict:
    """Whether the run did its job, and each path it left unchecked (a note, so that nothing is left out unseen)."""
    invocation: dict = {"executionSuccessful": not report.failures}
    notes = [{"level": "error", "message": {"text": failure}} for failure in report.failures]
    notes += [
        {
            "level": "note",
            "message": {"text": f"{path}: not checked: {why}"},
            "locations": [{"physicalLocation": {"artifactLocation": location_of(path)}}],
        }
        for path, why in report.excluded
    ]
    if notes:
        invocation["toolExecutionNotifications"] = notes
    return invocation


def as_dict(report: Report, root: str | None = None) -> dict:
    root = root or source_root(os.getcwd())
    rule_ids = sorted({d.rule for d in (*report.diagnostics, *report.suppressed, *report.baselined)})
    index = {rule_id: i for i, rule_id in enumerate(rule_ids)}
    artifacts: dict[str, dict] = {}  # per file: a path is made relative once, not once per finding

    def location_of(file: str) -> dict:
        if file not in artifacts:
            artifacts[file] = artifact_location(file, root)
        return artifacts[file]

    results = [_result(d, index, location_of) for d in report.diagnostics]
    # Accepted findings stay in the log, marked as suppressed: code scanning shows them as such, never as fixed.
    for d in report.suppressed:
        results.append({**_result(d, index, location_of), "suppressions": [{"kind": "inSource", "status": "accepted"}]})
    for d in report.baselined:
        justification = f"recorded in the baseline {report.baseline_file}"
        results.append({**_result(d, index, location_of), "suppressions": [{"kind": "external", "justification": justification}]})
    run: dict = {
        "tool": {
            "driver": {
                "name": "svcconf",
                "version": __version__,
                "informationUri": "https://pypi.org/project/svcconf/",
                "rules": _rules(rule_ids),
            }
        },
        "invocations": [_invocation(report, location_of)],
        "originalUriBaseIds": {SOURCE_ROOT: {"uri": file_uri(os.path.join(root, ""))}},  # a folder's URI ends with "/"
        "columnKind": "unicodeCodePoints",
        "results": results,
        "properties": {
            "config": report.options.config_file,
            "baseline": report.baseline_file,
            "suppressed": len(report.suppressed),
            "baselined": len(report.baselined),
            "excluded": len(report.excluded),
        },
    }
    # The settings applied: a repository's file that ignores rules or accepts findings is never unseen.
    settings = [name for name in (report.options.config_file, report.baseline_file) if name]
    if settings:
        run["artifacts"] = [{"location": artifact_location(name, root), "roles": ["userSpecifiedConfiguration"]} for name in settings]
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def write(report: Report, stream: TextIO, *, color: bool = False) -> None:  # pragma: no mutate - colour is for text; render passes it
    stream.write(json_text(as_dict(report), item_lists=("results",)) + "\n")
