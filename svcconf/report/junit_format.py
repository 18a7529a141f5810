"""JUnit XML: a test case per checked file, failed by the diagnostics at or above --fail-on; a failed run is an `<error>`."""

from __future__ import annotations

from typing import TextIO
from xml.etree import ElementTree as ET

from ..escape import file_name, printable
from ..lint.result import Report
from ..model import Severity
from .text_format import summary


def _line(d) -> str:
    # Escaped text holds only characters XML 1.0 allows, and no line of it starts a CI command.
    where = f" {d.path_text}:" if d.path_text else ""
    return f"{file_name(d.file)}:{d.line}:{d.column}: {d.severity} [{d.rule}]" + printable(f"{where} {d.message}")


def _failure_message(failing: list) -> str:
    counts = [
        f"{n} {severity}(s)" for severity in sorted(Severity, reverse=True) if (n := sum(1 for d in failing if d.severity == severity))
    ]
    return f"{', '.join(counts)}: {failing[0].rule}"


def _properties(suite: ET.Element, report: Report) -> None:
    """The settings that changed the verdict, and what they accepted: the configuration file, the baseline, suppressions."""
    properties = ET.SubElement(suite, "properties")
    for name, value in (
        ("config", report.options.config_file or ""),
        ("baseline", report.baseline_file or ""),
        ("baselined", str(len(report.baselined))),
        ("suppressed", str(len(report.suppressed))),
        ("excluded", str(len(report.excluded))),
    ):
        ET.SubElement(properties, "property", name=name, value=printable(value))
    ET.SubElement(suite, "system-out").text = summary(report)


def write(report: Report, stream: TextIO, *, color: bool = False) -> None:  # pragma: no mutate - colour is for text; render passes it
    fail_on = Severity.parse(report.options.fail_on)
    by_file: dict[str, list] = {name: [] for name in report.checked}  # clean files are passed test cases
    for d in report.diagnostics:
        by_file.setdefault(d.file, []).append(d)
    failing = {file: [d for d in diagnostics if d.severity >= fail_on] for file, diagnostics in by_file.items()}
    suites = ET.Element("testsuites", name="svcconf")
    suite = ET.SubElement(
        suites,
        "testsuite",
        name="svcconf validate",
        tests=str(max(len(by_file) + len(report.excluded) + (1 if report.failures else 0), 1)),
        failures=str(sum(1 for ds in failing.values() if ds)),
        errors="1" if report.failures else "0",
        skipped=str(len(report.excluded)),
    )
    _properties(suite, report)
    if not by_file and not report.failures:
        ET.SubElement(suite, "testcase", classname="svcconf", name=f"{report.files} files")
    for file, diagnostics in by_file.items():
        case = ET.SubElement(suite, "testcase", classname="svcconf", name=printable(file))
        if failing[file]:
            failure = ET.SubElement(case, "failure", message=_failure_message(failing[file]), type=failing[file][0].rule)
            failure.text = "\n".join(_line(d) for d in failing[file])
        others = [d for d in diagnostics if d.severity < fail_on]
        if others:
            ET.SubElement(case, "system-out").text = "\n".join(_line(d) for d in others)
    for path, why in report.excluded:  # left out by a setting: shown as skipped, never as passed
        case = ET.SubElement(suite, "testcase", classname="svcconf", name=printable(path))
        ET.SubElement(case, "skipped", message=printable(why))
    if report.failures:
        case = ET.SubElement(suite, "testcase", classname="svcconf", name="svcconf run")
        message = printable("; ".join(report.failures))
        ET.SubElement(case, "error", message=message, type="svcconf-failed").text = "\n".join(map(printable, report.failures))
    ET.indent(suites)
    stream.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    stream.write(ET.tostring(suites, encoding="unicode"))
    stream.write("\n")
