"""An open file checked document by document: after a change only the documents whose text changed are parsed and checked again.

The text is cut at document markers (`---` or `...` at the start of a line, where libyaml ends a
document whatever it is inside); each piece is parsed on its own and placed at its first line.
A document's findings are remembered with its nodes; a document whose rules looked at the other
documents (bootstrap files, kube-proxy beside a kubelet) is checked again after every change.
Text the pieces could read otherwise than the whole file (directives, aliases, line breaks other
than `\\n` and `\\r\\n`, a syntax error, a large file) is checked whole, exactly as validate does.
The diagnostics are validate's either way (`tests/server/test_incremental.py` holds them to it).
"""

from __future__ import annotations

import gc
import itertools
from collections.abc import Iterator

from ..lint.check import check_bytes, check_source
from ..lint.document import DocumentChecker
from ..load.positions import Locator
from ..load.source import KEEP_NODES_UP_TO, Document, SourceFile, parse
from ..model import Diagnostic
from ..rules import Siblings
from ..settings.options import ValidateOptions

MARKERS = ("\n---", "\n...")
_MARKER_ENDS = frozenset((" ", "\t", "\n", "\r", ""))
# Directives, and line breaks libyaml counts and "\n" does not.
_READ_WHOLE = ("\n%", "\x85", "\u2028", "\u2029")
# Larger texts are checked whole, keeping no nodes, as validate checks them: nodes take ~40 bytes per byte.
MAX_PIECEWISE = 4 * KEEP_NODES_UP_TO


def pieces(text: str) -> list[tuple[int, str]] | None:
    """(0-based first line, text) of each piece of `text` cut before a document marker; None when it must be read whole."""
    if text.startswith("%") or any(mark in text for mark in _READ_WHOLE) or "\ufeff" in text[1:]:
        return None
    if may_hold_alias(text):  # aliases expand under one budget for the whole file
        return None
    if "\r" in text and text.count("\r") != text.count("\r\n"):
        return None
    cuts = [0]
    for marker in MARKERS:
        at = text.find(marker)
        while at >= 0:
            if text[at + 4 : at + 5] in _MARKER_ENDS:
                cuts.append(at + 1)
            at = text.find(marker, at + 1)
    cuts.sort()
    cuts.append(len(text))
    out = []
    line = 0
    for start, end in itertools.pairwise(cuts):
        out.append((line, text[start:end]))
        line += text.count("\n", start, end)
    return out


def may_hold_alias(text: str) -> bool:
    """Whether a `*` stands where an alias may start: a line's start, after `[`, `{` or `,`, or after `- `, `: ` or `? `.

    Also true for such a `*` inside a scalar (a bullet in a block scalar): the text is then merely read whole.
    Each `*` looks back over the blanks before it only, so the scan is linear.
    """
    line_start = previous = 0
    at = text.find("*")
    while at >= 0:
        newline = text.rfind("\n", previous, at)
        if newline >= 0:
            line_start = newline + 1
        previous = before = at
        while before > line_start and text[before - 1] in " \t":
            before -= 1
        if before == line_start:
            return True
        mark = text[before - 1]
        if mark in "[{," or (mark in "-:?" and before < at):
            return True
        at = text.find("*", at + 1)
    return False


class Watched(Siblings):
    """The documents of a file, noting whether a rule looked at them (then its document is checked again after any change)."""

    __slots__ = ("read",)

    def __init__(self, documents) -> None:
        super().__init__(documents)
        self.read = False

    def __len__(self) -> int:
        self.read = True
        return super().__len__()

    def __iter__(self) -> Iterator:
        self.read = True
        return super().__iter__()

    def __getitem__(self, index):
        self.read = True
        return super().__getitem__(index)

    def derived(self, key, build):
        self.read = True
        return super().derived(key, build)


class RememberingChecker(DocumentChecker):
    """Checks documents, answering from memory for one whose nodes (so whose text) it has checked before."""

    def __init__(self, options: ValidateOptions, name: str, memory: dict[int, tuple]) -> None:
        super().__init__(options, name)
        self.memory = memory  # id(root) -> (root, findings, why skipped)
        self.kept: dict[int, tuple] = {}  # what the next check may remember
        self.checked = 0  # documents checked, not remembered
        self.cross: set[int] = set()  # the numbers of the documents whose rules looked at the others
        self._siblings: tuple[object, Watched] | None = None

    def _watched(self, siblings: list) -> Watched:
        """The file's documents, watched for the next document's rules: one copy per file, so the views
        cross-document rules derive are built once for the file, as in validate, not once per document."""
        if self._siblings is None or self._siblings[0] is not siblings:
            self._siblings = (siblings, Watched(siblings))
        watched = self._siblings[1]
        watched.read = False
        return watched

    def check(self, document: Document, siblings: list) -> tuple[list, str | None]:
        key = id(document.root)
        known = self.memory.get(key)
        if known is not None and known[0] is document.root:  # the same nodes: the same text, parsed once
            self.kept[key] = known
            return known[1], known[2]
        watched = self._watched(siblings)
        findings, skipped = super().check(document, watched)
        self.checked += 1
        if watched.read:
            self.cross.add(document.index + 1)
        else:
            self.kept[key] = (document.root, findings, skipped)
        return findings, skipped


class Stitched(SourceFile):
    """A file's documents parsed piece by piece, each placed at the line its piece starts on."""

    __slots__ = ("offsets",)

    def __init__(self, name: str, text: str) -> None:
        super().__init__(name, text)
        self.offsets: list[int] = []

    def locator(self, position: int) -> Locator:
        return Locator(self.documents[position].root, self.offsets[position])


class OpenFile:
    """One file open in the editor: its last text as checked, and what the next check can reuse."""

    def __init__(self, name: str, options: ValidateOptions) -> None:
        self.name = name
        self.options = options
        self.source: Stitched | None = None  # the last text, parsed (None: it was checked whole)
        self.checked = 0  # documents checked (not remembered) by the last check
        self.cross: set[int] = set()  # the numbers of the documents whose findings may concern the others
        self._parsed: dict[str, SourceFile] = {}  # piece text -> its parse
        self._found: dict[int, tuple] = {}

    def check(self, text: str) -> list[Diagnostic]:
        """validate's diagnostics for `text`, reusing what the last check found in unchanged documents."""
        cut = pieces(text) if len(text) <= MAX_PIECEWISE else None
        try:
            size = len(text.encode("utf-8"))
        except UnicodeEncodeError:  # a lone surrogate: no file holds one; validate's decoding says so
            cut, size = None, 0
        stitched = self._stitch(text, cut) if cut is not None and size <= min(self.options.max_file_size, MAX_PIECEWISE) else None
        if stitched is None:
            return self._whole(text)
        checker = RememberingChecker(self.options, self.name, self._found)
        collecting = gc.isenabled()
        gc.disable()  # as validate: a file's nodes form no cycles
        try:
            diagnostics = check_source(stitched, self.options, checker).diagnostics
        except Exception:  # noqa: BLE001 - validate's own wording for a bug, whole
            return self._whole(text)
        finally:
            if collecting:
                gc.enable()
        self.source, self._found, self.checked, self.cross = stitched, checker.kept, checker.checked, checker.cross
        return diagnostics

    def _stitch(self, text: str, cut: list[tuple[int, str]]) -> Stitched | None:
        stitched = Stitched(self.name, text)
        parsed: dict[str, SourceFile] = {}
        json_like = self.name.endswith(".json")
        used: set[int] = set()
        for line, piece in cut:
            source = parsed.get(piece) or self._parsed.get(piece)
            if source is None or id(source) in used:
                # A piece repeated in the file is parsed again: rules tell documents apart by identity, as in validate.
                source = parse(self.name, piece, json_like=json_like)
            if source.problems:
                return None  # what libyaml keeps of a broken file, and how validate words it, is the whole file's
            used.add(id(source))
            parsed.setdefault(piece, source)
            for document in source.documents:
                problems = [p._replace(line=p.line + line) for p in document.problems]
                stitched.documents.append(document._replace(index=len(stitched.documents), problems=problems))
                stitched.offsets.append(line)
        self._parsed = parsed
        return stitched

    def _whole(self, text: str) -> list[Diagnostic]:
        self.source, self._parsed, self._found, self.checked, self.cross = None, {}, {}, -1, set()
        return check_bytes(self.name, text.encode("utf-8", "surrogatepass"), self.options).diagnostics
