"""The baseline file: today's findings recorded so that a repository with findings can fail only on new ones.

An entry names a finding by what survives unrelated edits: the file (relative to the baseline's
folder), the rule, the document's apiVersion, kind and name, the field path and a fingerprint of
what the finding concerns (fingerprint.py), never a line number or a document's position. The
file is JSON with one entry per line, sorted, so that its diffs read well and a stale entry can
be reported at its line.

Version 1 entries (no name; a hash of the whole value at the path) are still read and match as
they did: a finding whose whole value is unchanged. `--write-baseline` writes version 2.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections import Counter
from typing import TYPE_CHECKING, Any

from ..load.files import TooLarge, read_limited
from ..model import Diagnostic, Fingerprint, Severity
from ..settings.options import OptionsError

if TYPE_CHECKING:
    from .result import Report

FORMAT_KEY = "svcconf-baseline"
FORMAT_VERSION = 2
# A baseline holds a line of about 200 bytes per finding: this is some 80,000 of them. A larger
# file (or one planted in a pull request) is refused, never read whole.
MAX_BASELINE_SIZE = 16 * 1024 * 1024
STALE = "baseline-stale"
# An entry's fields in each format version and the types each may hold (None: JSON null); a key is the fields but count.
_TEXT, _OPTIONAL = (str,), (str, type(None))
FIELDS: dict[int, dict[str, tuple]] = {
    1: {"file": _TEXT, "rule": _TEXT, "apiVersion": _OPTIONAL, "kind": _OPTIONAL, "path": _TEXT, "value": _OPTIONAL, "count": (int,)},
    2: {
        "file": _TEXT,
        "rule": _TEXT,
        "apiVersion": _OPTIONAL,
        "kind": _OPTIONAL,
        "name": _OPTIONAL,
        "path": _TEXT,
        "fingerprint": _OPTIONAL,
        "count": (int,),
    },
}
MAX_PROBLEMS_SHOWN = 10
_JSON_SPACE = re.compile(r"[ \t\r\n]*")


class BaselineError(OptionsError):
    """A baseline that cannot be read or written: a usage error (exit code 2); one message per problem."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))  # pragma: no mutate - what is shown is `problems`, one line each
        self.problems = problems


Key = tuple  # what a finding and its baseline entry have in common: the entry's fields but count, in order


def _sort_key(key: Key) -> tuple:
    return tuple((part is None, part or "") for part in key)


class Baseline:
    """The entries of a baseline file: key -> (count, line of the entry), and how to key a finding of this run."""

    def __init__(self, name: str, version: int = FORMAT_VERSION) -> None:
        self.name = name  # as messages name it
        self.version = version
        self.folder = os.path.realpath(os.path.dirname(os.path.abspath(name)))
        self.entries: dict[Key, tuple[int, int]] = {}
        self._files: dict[str, str] = {}
        self._path_at = list(FIELDS[version]).index("path")

    def file_key(self, name: str) -> str:
        """A checked file's name as entries spell it: relative to the baseline's folder, with `/`, however it was given."""
        key = self._files.get(name)  # pragma: no mutate - a cache: a miss computes the same key again
        if key is None:
            key = name
            if os.path.exists(name):
                # The folder is resolved, the file's own name kept: a symlinked file stays itself.
                absolute = os.path.join(os.path.realpath(os.path.dirname(os.path.abspath(name))), os.path.basename(name))
                try:
                    key = os.path.relpath(absolute, self.folder)
                except ValueError:  # another drive
                    key = absolute  # pragma: no mutate - Windows only
                key = key.replace(os.sep, "/")
            self._files[name] = key  # pragma: no mutate - the cache
        return key

    def key(self, d: Diagnostic) -> Key:
        """A finding's key in this baseline's format (a finding with no document, such as a syntax error, has no fingerprint)."""
        found = d.fingerprint or Fingerprint(d.api_version, d.kind, None, d.path_text, None)
        if self.version == 1:
            return (self.file_key(d.file), d.rule, d.api_version, d.kind, d.path_text, found.legacy)
        return (self.file_key(d.file), d.rule, found.api_version, found.kind, found.name, found.path, found.subject)

    def path_of(self, key: Key) -> str:
        return key[self._path_at]


# --------------------------------------------------------------------------- choosing, reading, writing


def read_bytes(name: str) -> bytes:
    """A baseline file's bytes, never more than the size limit (a larger file is refused, never read whole)."""
    if "\0" in name:
        raise BaselineError([f"{name}: cannot read the baseline: its name holds a NUL character"])
    try:
        info = os.stat(name)
        if not stat.S_ISREG(info.st_mode):
            raise BaselineError([f"{name}: the baseline is not a regular file"])
        data = read_limited(name, MAX_BASELINE_SIZE)
    except TooLarge:
        raise BaselineError([f"{name}: the baseline is over the {MAX_BASELINE_SIZE:,}-byte limit; not read"]) from None
    except FileNotFoundError:
        raise BaselineError([f"{name}: no such baseline; write one with `svcconf validate --write-baseline {name}`"]) from None
    except OSError as err:
        reason = err.strerror or str(err)  # pragma: no mutate - os.stat, os.open and NotAFile all give a strerror
        raise BaselineError([f"{name}: cannot read the baseline: {reason.lower()}"]) from None
    return data


def load(name: str) -> Baseline:
    """Read and check a baseline file; BaselineError (with positions) for one that cannot be used."""
    data = read_bytes(name)
    try:
        text = data.decode("utf-8-sig")  # pragma: no mutate - codec names ignore case
    except UnicodeDecodeError as err:
        raise BaselineError([f"{name}: not a baseline: not UTF-8 (byte offset {err.start})"]) from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as err:
        raise BaselineError([f"{name}:{err.lineno}:{err.colno}: not a baseline: {err.msg}"]) from None
    except RecursionError:
        raise BaselineError([f"{name}: not a baseline: nested too deeply"]) from None
    except ValueError:  # a number of more digits than Python converts
        raise BaselineError([f"{name}: not a baseline: a number has too many digits"]) from None
    expected = f'{{"{FORMAT_KEY}": {FORMAT_VERSION}, "entries": [...]}}'
    if not (isinstance(document, dict) and document.keys() == {FORMAT_KEY, "entries"} and isinstance(document["entries"], list)):
        raise BaselineError([f"{name}:1:1: not an svcconf baseline: expected {expected}"])
    version = document[FORMAT_KEY]
    if not (isinstance(version, int) and not isinstance(version, bool) and version in FIELDS):
        readable = " or ".join(map(str, FIELDS))
        raise BaselineError([f"{name}:1:1: baseline version {version!r} is not one svcconf reads (it reads {readable})"])
    baseline = Baseline(name, version)
    fields = FIELDS[version]
    problems = []
    for entry, line in zip(document["entries"], _entry_lines(text)):
        why = _invalid(entry, fields)
        if why:
            problems.append(f"{name}:{line}: invalid baseline entry: {why}")
            continue
        key = tuple(entry[field] for field in fields if field != "count")
        count, first = baseline.entries.get(key, (0, line))
        baseline.entries[key] = (count + entry["count"], first)
    if problems:
        more = len(problems) - MAX_PROBLEMS_SHOWN
        raise BaselineError(problems[:MAX_PROBLEMS_SHOWN] + ([f"{name}: and {more} more invalid entries"] if more > 0 else []))
    return baseline


def _invalid(entry: Any, fields: dict[str, tuple]) -> str | None:
    """Why an entry cannot be used, or None."""
    if not isinstance(entry, dict):
        return "an entry is an object of " + ", ".join(fields)
    missing = [field for field in fields if field not in entry]
    unknown = [field for field in entry if field not in fields]
    if missing or unknown:
        return "; ".join(
            part
            for part in (missing and f"missing {', '.join(missing)}", unknown and f"unknown field {', '.join(map(repr, unknown))}")
            if part
        )
    for field, types in fields.items():
        if not isinstance(entry[field], types) or isinstance(entry[field], bool):
            return f"{field} must be {'a string' if types[0] is str else 'a whole number'}{' or null' if len(types) > 1 else ''}"
    if entry["count"] < 1:
        return "count must be 1 or more"
    return None


def _entry_lines(text: str) -> list[int]:
    """The 1-based line where each entry of a valid baseline text starts, whatever its layout (walked once, not parsed again)."""
    decoder = json.JSONDecoder()
    offsets: list[int] = []
    at = _JSON_SPACE.match(text).end() + 1  # type: ignore[union-attr] - past the top-level `{`
    while True:
        at = _JSON_SPACE.match(text, at).end()  # type: ignore[union-attr]
        if text[at] == "}":
            break
        name, at = decoder.raw_decode(text, at)
        at = _JSON_SPACE.match(text, at).end() + 1  # type: ignore[union-attr] - past `:`
        at = _JSON_SPACE.match(text, at).end()  # type: ignore[union-attr]
        if name == "entries":
            offsets, at = [], at + 1  # the last `entries` wins, as in json.loads
            while (at := _JSON_SPACE.match(text, at).end()) < len(text) and text[at] != "]":  # type: ignore[union-attr]
                offsets.append(at)
                _, at = decoder.raw_decode(text, at)
                at = _JSON_SPACE.match(text, at).end()  # type: ignore[union-attr]
                at += text[at] == ","
            at += 1
        else:
            _, at = decoder.raw_decode(text, at)
        at = _JSON_SPACE.match(text, at).end()  # type: ignore[union-attr]
        at += text[at] == ","
    lines, line, counted = [], 1, 0
    for offset in offsets:
        line += text.count("\n", counted, offset)
        counted = offset
        lines.append(line)
    return lines


def write(name: str, report: Report) -> Baseline:
    """Record the report's findings in the baseline file `name` (atomically, never through a symlink); the baseline written."""
    baseline = Baseline(name)
    counts = Counter(baseline.key(d) for d in report.diagnostics)
    keys = sorted(counts, key=_sort_key)
    lines = [json.dumps(dict(zip(FIELDS[FORMAT_VERSION], (*key, counts[key])))) for key in keys]
    text = f'{{"{FORMAT_KEY}": {FORMAT_VERSION}, "entries": [\n' + ",\n".join(lines) + ("\n" if lines else "") + "]}\n"
    # Each entry's line, as load gives it (no entry of a baseline just written is stale, so no message shows it).
    baseline.entries = {key: (counts[key], number) for number, key in enumerate(keys, 2)}  # pragma: no mutate
    try:
        _write_file(name, text.encode("utf-8"))  # pragma: no mutate - codec names ignore case
    except OSError as err:
        raise BaselineError([f"{name}: cannot write the baseline: {(err.strerror or str(err)).lower()}"]) from None
    return baseline


def _write_file(name: str, data: bytes) -> None:
    """migrate's atomic writer (which keeps an existing file's mode); a new file is created first, mode 0o644."""
    from ..load.atomic import write_atomic

    try:
        write_atomic(name, data)
        return
    except FileNotFoundError:
        pass
    # write_atomic has refused a symbolic link already; O_EXCL and follow_symlinks=False hold against one put there
    # meanwhile (O_EXCL opens no name that exists, a dangling link too). Only such a race tells these flags apart.
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL  # pragma: no mutate
    os.close(os.open(name, flags, 0o644))  # pragma: no mutate - chmod sets the mode next
    try:
        os.chmod(name, 0o644, follow_symlinks=False)  # pragma: no mutate - whatever the umask
        write_atomic(name, data)
    except BaseException:
        os.unlink(name)
        raise


# --------------------------------------------------------------------------- applying


def apply(report: Report, baseline: Baseline) -> None:
    """Drop the report's findings that the baseline holds (as many as each entry counts); report stale entries.

    An entry is stale when its file was checked in this run, its rule could have been reported
    there, and fewer findings matched it than it counts.
    """
    from .check import configure

    left = {key: count for key, (count, _line) in baseline.entries.items()}
    kept = []
    report.baseline_file = baseline.name
    for diagnostic in report.diagnostics:
        key = baseline.key(diagnostic)
        if left.get(key, 0) > 0:
            left[key] -= 1
            report.baselined.append(diagnostic)
        else:
            kept.append(diagnostic)
    checked = {baseline.file_key(name): name for name in report.checked}
    stale = []
    for key, (count, line) in baseline.entries.items():
        name = checked.get(key[0])
        if not left[key] or name is None:
            continue
        # A rule that --select, ignore or per-file-ignores leaves out could not have matched.
        stand_in = Diagnostic(name, 1, 1, key[1], Severity.INFO, "")  # pragma: no mutate - configure reads its rule alone
        if not configure([stand_in], name, report.options):
            continue
        fixed = "is fixed" if left[key] == count else f"is fixed in {left[key]} of its {count} places"
        path = baseline.path_of(key)
        where = f" at {path}" if path else ""
        message = f"{key[0]}: {key[1]}{where} {fixed}; `svcconf validate --write-baseline {baseline.name}` removes it from the baseline"
        stale.append(Diagnostic(baseline.name, line, 1, STALE, Severity.INFO, message))
    report.diagnostics = kept + configure(stale, baseline.name, report.options)
    report.diagnostics.sort(key=Diagnostic.sort_key)
