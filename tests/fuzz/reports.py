"""Is a rendered report well formed, and does it show a planted secret? One function per question.

Each check returns problems as (cause, detail): the cause names what is wrong in a way that stays
the same for every input with that fault, the detail quotes this input's offending line.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from xml.etree import ElementTree

SARIF_SCHEMA = Path(__file__).resolve().parents[1] / "data" / "sarif-schema-2.1.0.json"

# C0 controls but the line feed, DEL, C1 controls: a terminal or a CI log acts on them.
CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")
# A workflow command: `::name key=value,key=value::data`; properties escape `%`, CR, LF, `:` and `,`.
_ESCAPED = r"(?:[^%\r\n:,]|%25|%0D|%0A|%3A|%2C)*"
GITHUB_LINE = re.compile(rf"::(error|warning|notice) file={_ESCAPED},line=\d+,col=\d+,title={_ESCAPED}::(?:[^%\r\n]|%25|%0D|%0A)*")

Problems = list[tuple[str, str]]


def _clip(text: str, limit: int = 160) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


@functools.lru_cache(maxsize=1)
def _sarif_validator():
    import jsonschema

    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    return jsonschema.validators.validator_for(schema)(schema)


def _controls(fmt: str, output: str) -> Problems:
    for line in output.split("\n"):
        found = CONTROL.search(line)
        if found:
            return [(f"{fmt}: raw control character in output", f"{found.group()!r} in {_clip(line)}")]
    return []


def check_text(output: str) -> Problems:
    problems = _controls("text", output)
    for line in output.split("\n"):
        if line.lstrip().startswith("::"):  # runners ignore leading spaces before a command (any other blank is flagged too)
            problems.append(("text: a line starts a workflow command", _clip(line)))
            break
    return problems


def check_github(output: str) -> Problems:
    """Escaped workflow commands, then plain lines (the summary, a note) that start none."""
    problems = _controls("github", output)
    commands = True
    for line in output.removesuffix("\n").split("\n") if output else []:
        if commands and GITHUB_LINE.fullmatch(line):
            continue
        commands = False
        if line.lstrip().startswith("::"):
            problems.append(("github: line is not one escaped workflow command", _clip(line)))
            break
    if output and not output.endswith("\n"):
        problems.append(("github: output does not end with a line break", _clip(output[-80:])))
    return problems


def check_json(output: str) -> Problems:
    try:
        document = json.loads(output)
    except ValueError as err:
        return [("json: does not parse", str(err))]
    if not isinstance(document, dict) or not {"version", "summary", "diagnostics"} <= document.keys():
        return [("json: not the report contract", _clip(output))]
    for item in document["diagnostics"]:
        if not isinstance(item.get("line"), int) or not isinstance(item.get("rule"), str):
            return [("json: diagnostic without line or rule", _clip(json.dumps(item)))]
    return []


SARIF_SAMPLE = 300  # results checked against the schema: the pure-Python validator takes ~0.5 ms a result


def check_sarif(output: str) -> Problems:
    try:
        document = json.loads(output)
    except ValueError as err:
        return [("sarif: does not parse", str(err))]
    for run in document.get("runs", []) if isinstance(document, dict) else []:
        results = run.get("results")
        if isinstance(results, list) and len(results) > SARIF_SAMPLE:  # the first ones and the last ones
            run["results"] = results[: SARIF_SAMPLE // 2] + results[-SARIF_SAMPLE // 2 :]
    error = next(iter(_sarif_validator().iter_errors(document)), None)
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path)
        return [(f"sarif: schema: {error.validator} at {re.sub(r'/[0-9]+', '/N', where)}", error.message[:200])]
    return []


def check_junit(output: str) -> Problems:
    try:
        root = ElementTree.fromstring(output.encode("utf-8"))  # pragma: no mutate - codec names ignore case
    except ElementTree.ParseError as err:
        return [("junit: XML does not parse", str(err))]
    if root.tag != "testsuites":
        return [("junit: root is not testsuites", root.tag)]
    return []


def check_gitlab(output: str) -> Problems:
    if not output:
        return []  # a run that failed writes nothing
    try:
        issues = json.loads(output)
    except ValueError as err:
        return [("gitlab: does not parse", str(err))]
    if not isinstance(issues, list):
        return [("gitlab: not an array of issues", _clip(output))]
    for issue in issues:
        location = issue.get("location", {})
        if not isinstance(location.get("path"), str) or not isinstance(location.get("lines", {}).get("begin"), int):
            return [("gitlab: issue without path or line", _clip(json.dumps(issue)))]
    if len({issue.get("fingerprint") for issue in issues}) != len(issues):
        return [("gitlab: fingerprints are not unique", _clip(output))]
    return []


CHECKS = {
    "text": check_text,
    "github": check_github,
    "json": check_json,
    "sarif": check_sarif,
    "junit": check_junit,
    "gitlab": check_gitlab,
}


# A secret shown in part (its first characters, its last ones, a slice) shows at least this many in a
# row; no output of svcconf holds 8 characters of a marker by chance (`SVCCONF-`, base64 text).
FRAGMENT = 8


@functools.lru_cache(maxsize=64)
def _fragments(markers: tuple[str, ...]) -> tuple[str, ...]:
    """Every run of FRAGMENT characters of the markers (a shorter marker whole)."""
    runs = {marker[at : at + FRAGMENT] for marker in markers for at in range(max(1, len(marker) - FRAGMENT + 1))}
    return tuple(sorted(runs))


def shows_secret(text: str, markers: tuple[str, ...]) -> bool:
    """Does the text show a planted secret, in whole or in part?"""
    return any(fragment in text for fragment in _fragments(markers))


def secrets_shown(output: str, markers: tuple[str, ...]) -> list[str]:
    """The lines of an output that show a planted secret, in whole or in part."""
    if not shows_secret(output, markers):
        return []
    return [line for line in output.split("\n") if shows_secret(line, markers)]
