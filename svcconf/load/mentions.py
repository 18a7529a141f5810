"""Whether a file that does not parse was meant for svcconf: the API groups its raw `apiVersion` lines name.

pre-commit hands svcconf every YAML and JSON file of a repository, Helm templates (`{{ ... }}`)
and JSON with comments (tsconfig.json) among them. Such a file is skipped, not reported, unless
its text names a group svcconf checks: a configuration group, a group it has schemas for, or a
group/version that is gone or going (`policy/v1beta1`), in either spelling and with the
configured domain. The text is read in one pass with str.find and a bounded look-ahead at each
`apiVersion`: linear in its length whatever it holds.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from ..known.naming import Naming

KEY = "apiVersion"
QUOTES = "\"'"
BLANKS = " \t"
_VALUE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-/")
MAX_VALUE = 253 + 1 + 63  # a DNS subdomain, a slash and a version label: anything longer is not an apiVersion


def _past_blanks(text: str, at: int) -> int:
    while at < len(text) and text[at] in BLANKS:
        at += 1
    return at


def _past_line_breaks(text: str, at: int) -> int:
    """Past a comment and line breaks to a value written on a later line (`apiVersion:` then an indented value).

    A value on the next line must be indented (else the next line is a key of its own); blank and
    comment lines between are passed. Each character is passed once.
    """
    while at < len(text) and text[at] in "#\r\n":
        if text[at] == "#":
            end = text.find("\n", at)
            at = len(text) if end < 0 else end
            continue
        while at < len(text) and text[at] in "\r\n":
            at += 1
        indented = _past_blanks(text, at)
        if indented == at:
            return at  # not indented: no value follows
        at = indented
    return at


def api_versions(text: str) -> Iterator[str]:
    """Each value written after an `apiVersion` key: `apiVersion: v`, `"apiVersion": "v"`, quoted or not, in flow or block style."""
    start = 0
    while (found := text.find(KEY, start)) >= 0:
        at = start = found + len(KEY)
        if at < len(text) and text[at] in QUOTES:
            at += 1
        at = _past_blanks(text, at)
        if at >= len(text) or text[at] != ":":
            continue
        at = _past_blanks(text, at + 1)
        at = _past_line_breaks(text, at)
        if at < len(text) and text[at] in QUOTES:
            at += 1
        end, limit = at, min(len(text), at + MAX_VALUE + 1)
        while end < limit and text[end] in _VALUE:
            end += 1
        if at < end <= at + MAX_VALUE:
            yield text[at:end]
        start = max(start, end)  # the value is read once: the next search starts after it


@cache
def _checked() -> tuple[frozenset[str], frozenset[tuple[str, str]]]:
    """(groups svcconf checks every document of, group/versions every kind of which is removed or deprecated)."""
    from ..known.catalog import lifecycle, schema_index

    table = lifecycle()
    groups = {group for group, scope in table.group_scope.items() if scope == "config"}
    groups |= {group for group, _version, _kind in schema_index() if group}  # the core group holds ordinary kinds too
    kinds: dict[tuple[str, str], list[bool]] = {}
    for row in table.rows.values():
        kinds.setdefault((row.group, row.version), []).append(bool(row.removed or row.deprecated))
    return frozenset(groups), frozenset(gv for gv, gone in kinds.items() if all(gone))


def checked_api_version(text: str, naming: Naming) -> str | None:
    """The first apiVersion written in `text` whose documents svcconf would check; None when there is none."""
    groups, versions = _checked()
    for written in api_versions(text):
        gv = naming.api_version(written)
        if gv is not None and (gv.group in groups or (gv.group, gv.version) in versions):
            return written
    return None


def skip_reason(problems: list, text: str, naming: Naming) -> str | None:
    """Why a file whose YAML does not parse is skipped rather than reported; None when it must be reported.

    Only a syntax error counts: a file that cannot be decoded, or is too large, is always reported.
    """
    syntax = next((problem for problem in problems if problem.rule == "yaml-syntax"), None)
    if syntax is None or checked_api_version(text, naming) is not None:
        return None
    return f"does not parse (line {syntax.line}: {syntax.message}) and names no API group svcconf checks"
