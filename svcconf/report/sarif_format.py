"""SARIF 2.1.0: results with regions and the field path, and rule metadata from the rule docs."""

from __future__ import annotations

from typing import TextIO

from .. import __version__
from ..docs import rule_doc
from ..model import Severity
from ..pipeline import Report
from .escape import json_text, uri_reference

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def as_dict(report: Report) -> dict:
    rule_ids = sorted({d.rule for d in report.diagnostics})
    rules = []
    for rule_id in rule_ids:
        doc = rule_doc(rule_id)
        entry = {
            "id": rule_id,
            "name": rule_id,
            "shortDescription": {"text": doc.summary if doc else rule_id},
            "defaultConfiguration": {"level": _LEVEL[doc.severity if doc else Severity.ERROR]},
        }
        if doc:
            entry["fullDescription"] = {"text": doc.why or doc.summary}
            entry["help"] = {"text": doc.help_text(), "markdown": doc.help_markdown()}
            if doc.help_uri:
                entry["helpUri"] = doc.help_uri
        rules.append(entry)
    index = {rule_id: i for i, rule_id in enumerate(rule_ids)}
    results = []
    for d in report.diagnostics:
        location: dict = {
            "physicalLocation": {
                "artifactLocation": {"uri": uri_reference(d.file)},
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
        if d.document is not None:
            result["properties"] = {"document": d.document, "apiVersion": d.api_version, "kind": d.kind}
        if d.fix:
            result.setdefault("properties", {})["fix"] = d.fix
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "svcconf",
                        "version": __version__,
                        "informationUri": "https://pypi.org/project/svcconf/",
                        "rules": rules,
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }


def write(report: Report, stream: TextIO, *, color: bool = False) -> None:
    stream.write(json_text(as_dict(report)) + "\n")
