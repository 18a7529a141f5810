"""JUnit XML: a test case per file; errors are failures, warnings go to system-out."""

from __future__ import annotations

from typing import TextIO
from xml.etree import ElementTree as ET

from ..model import Severity
from ..pipeline import Report
from .escape import file_name, printable


def _line(d) -> str:
    # Escaped text holds only characters XML 1.0 allows, and no line of it starts a CI command.
    where = f" {d.path_text}:" if d.path_text else ""
    return f"{file_name(d.file)}:{d.line}:{d.column}: {d.severity} [{d.rule}]" + printable(f"{where} {d.message}")


def write(report: Report, stream: TextIO, *, color: bool = False) -> None:
    by_file: dict[str, list] = {}
    for d in report.diagnostics:
        by_file.setdefault(d.file, []).append(d)
    suites = ET.Element("testsuites", name="svcconf")
    suite = ET.SubElement(
        suites,
        "testsuite",
        name="svcconf validate",
        tests=str(max(len(by_file), 1)),
        failures=str(sum(1 for ds in by_file.values() if any(d.severity == Severity.ERROR for d in ds))),
        errors="0",
        skipped="0",
    )
    if not by_file:
        ET.SubElement(suite, "testcase", classname="svcconf", name=f"{report.files} files")
    for file, diagnostics in by_file.items():
        case = ET.SubElement(suite, "testcase", classname="svcconf", name=printable(file))
        errors = [d for d in diagnostics if d.severity == Severity.ERROR]
        others = [d for d in diagnostics if d.severity != Severity.ERROR]
        if errors:
            failure = ET.SubElement(case, "failure", message=f"{len(errors)} error(s): {errors[0].rule}", type=errors[0].rule)
            failure.text = "\n".join(_line(d) for d in errors)
        if others:
            ET.SubElement(case, "system-out").text = "\n".join(_line(d) for d in others)
    ET.indent(suites)
    stream.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    stream.write(ET.tostring(suites, encoding="unicode"))
    stream.write("\n")
