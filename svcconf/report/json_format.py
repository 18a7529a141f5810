"""JSON report: a stable contract for scripts (`schemaVersion`; changes are additive only)."""

from __future__ import annotations

from typing import TextIO

from ..escape import json_text
from ..lint.result import Report
from ..model import Diagnostic

SCHEMA_VERSION = 1


def summary_dict(report: Report) -> dict:
    """The counts of a run, as the JSON report and `--statistics -f json` give them."""
    return {
        "files": report.files,
        "documents": report.documents,
        "errors": report.errors,
        "warnings": report.warnings,
        "infos": report.infos,
        "skipped": report.skipped,
        "excluded": len(report.excluded),  # files and folders an ignore file, exclude or the size limit left unchecked
        "suppressed": len(report.suppressed),  # findings inline suppressions accepted
        "baselined": len(report.baselined),  # findings the baseline accepted
    }


def as_dict(report: Report) -> dict:
    document = {
        "version": SCHEMA_VERSION,
        "summary": summary_dict(report),
        "config": report.options.config_file,  # the configuration file applied, or null
        "baseline": report.baseline_file,  # the baseline applied, or null
        "diagnostics": [diagnostic_dict(d) for d in report.diagnostics],
        # What the verdict leaves out, and why: findings accepted inline or by the baseline, paths not checked.
        "accepted": [{**diagnostic_dict(d), "acceptedBy": "suppression"} for d in report.suppressed]
        + [{**diagnostic_dict(d), "acceptedBy": "baseline"} for d in report.baselined],
        "excluded": [{"file": path, "reason": why} for path, why in report.excluded],
    }
    if report.failures:  # the run failed (exit code 2): the diagnostics are not the whole answer
        document["error"] = "; ".join(report.failures)
    return document


def diagnostic_dict(d: Diagnostic) -> dict:
    """One diagnostic as the JSON contract spells it (validate and migrate share it)."""
    return {
        "file": d.file,
        "line": d.line,
        "column": d.column,
        "document": d.document,
        "apiVersion": d.api_version,
        "kind": d.kind,
        "path": d.path_text,
        "rule": d.rule,
        "severity": str(d.severity),
        "message": d.message,
        "fix": d.fix,
        "migrated": d.migrated,  # found checking the document as migrate would convert it: the apiVersion it becomes
    }


def write(report: Report, stream: TextIO, *, color: bool = False) -> None:  # pragma: no mutate - colour is for text; render passes it
    stream.write(json_text(as_dict(report), item_lists=("diagnostics", "accepted", "excluded")) + "\n")
