"""What validate found: a file's result and the run's Report, the one thing report formats and explain read."""

from __future__ import annotations

from ..load.discovery import CONFIG_FILE
from ..model import Diagnostic, Severity
from ..settings.options import ValidateOptions

STDIN_NAME = "<stdin>"
BASELINE_FILE = "svcconf's baseline file"
OWN_FILES = (CONFIG_FILE, BASELINE_FILE)  # skipped as svcconf's own files, not left out by a setting
NOT_FOR_SVCCONF = "does not parse"  # a file skipped as no configuration (mentions.skip_reason), counted as a skipped document

# A skipped document as -v lists it: (file, document number, kind, apiVersion, why); kind and apiVersion as written, or None.
SkippedDocument = tuple[str, int, str | None, str | None, str]


class FileResult:
    __slots__ = ("diagnostics", "documents", "skip_reason", "skipped", "skipped_documents", "suppressed")

    def __init__(self, diagnostics: list[Diagnostic] | None = None) -> None:
        self.diagnostics: list[Diagnostic] = diagnostics or []
        self.suppressed: list[Diagnostic] = []  # findings an inline suppression accepted
        self.documents = 0
        self.skipped = 0
        self.skip_reason: str | None = None  # why the whole file was skipped (said with -v)
        self.skipped_documents: list[SkippedDocument] = []  # only when options.list_skipped


class Report:
    """What validate found: diagnostics in file order, the files checked and the counts of the summary line."""

    def __init__(self, files: int = 0, unreadable: list[str] | None = None, options: ValidateOptions | None = None) -> None:
        self.diagnostics: list[Diagnostic] = []
        self.files = files
        self.documents = 0
        self.skipped = 0
        self.unreadable: list[str] = unreadable or []  # paths that could not be read at all
        self.skipped_paths: list[tuple[str, str]] = []  # (path, why) of each file or folder left out, for -v
        self.skipped_documents: list[SkippedDocument] = []  # each document skipped, for -v (options.list_skipped)
        self.checked: list[str] = []  # the files checked, as diagnostics name them
        self.options = options or ValidateOptions()  # the settings of the run (fail_on, config_file, ...)
        self.failures: list[str] = []  # why the run failed (exit code 2), for the reports to say so
        # What changed the verdict, for every format to show: findings accepted inline and by the baseline.
        self.suppressed: list[Diagnostic] = []
        self.baselined: list[Diagnostic] = []
        self.baseline_file: str | None = None  # the baseline applied, as given

    @property
    def excluded(self) -> list[tuple[str, str]]:
        """(path, why) of each file or folder an ignore file, `exclude` or the size limit left unchecked."""
        left_out = [(path, why) for path, why in self.skipped_paths if why not in OWN_FILES and not why.startswith(NOT_FOR_SVCCONF)]
        return left_out + [(d.file, d.message) for d in self.diagnostics if d.rule == "file-too-large"]

    def count(self, severity: Severity) -> int:
        return sum(1 for d in self.diagnostics if d.severity == severity)

    @property
    def errors(self) -> int:
        return self.count(Severity.ERROR)

    @property
    def warnings(self) -> int:
        return self.count(Severity.WARNING)

    @property
    def infos(self) -> int:
        return self.count(Severity.INFO)
