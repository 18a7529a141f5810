"""Which files a run reads: folders walked for YAML and JSON, `exclude` patterns and git's ignore files applied.

Patterns are gitignore patterns, each relative to the folder it belongs to: the configuration
file's folder for its `exclude` and `per-file-ignores`, the working directory for `--exclude`, the
folder of each .gitignore. A path matches however it was given (absolute, relative, `./`-prefixed)
and from whatever working directory, in time linear in its length (globs.py). In a git work tree a
file git tracks is never left out by an ignore file, as git never ignores one (gitindex.py).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from .files import kind as file_kind

if TYPE_CHECKING:
    from .gitindex import Tracked
    from .globs import Rule

# globs and gitindex are imported where patterns are matched and indexes read: a run that names its
# files and excludes nothing (the pre-commit hook) needs neither.

CONFIG_NAMES = (".svcconf.yaml", ".svcconf.yml")  # svcconf's configuration files: never checked as documents
CONFIG_FILE = "svcconf's configuration file"  # why a walk leaves one out

YAML_SUFFIXES = (".yaml", ".yml", ".json")
STDIN = "-"
ALWAYS_SKIPPED = ("node_modules",)  # besides folders whose name starts with a dot


@lru_cache(maxsize=1024)
def _rules(lines: tuple[str, ...]) -> tuple[Rule, ...]:
    from .globs import compile_rule

    return tuple(rule for line in lines if (rule := compile_rule(line)) is not None)


def _under(path: str, base: str) -> str | None:
    """An absolute `path` relative to the absolute folder `base`, in `/` form ("" for base itself); None outside it."""
    if path == base:
        return ""
    prefix = base.rstrip(os.sep) + os.sep
    return path[len(prefix) :].replace(os.sep, "/") if path.startswith(prefix) else None


def _relative(path: str, base: str) -> str | None:
    """A path as given, relative to the resolved folder `base`; resolved through links only when needed."""
    relative = _under(os.path.abspath(path), base)
    return relative if relative is not None else _under(os.path.realpath(path), base)


class Patterns(NamedTuple):
    """Gitignore patterns relative to one folder, and where they were written (said when a path is skipped)."""

    base: str  # an absolute, resolved folder
    lines: tuple[str, ...]
    origin: str

    @classmethod
    def of(cls, lines: Iterable[str], base: str, origin: str) -> Patterns:
        base = os.path.realpath(base)
        return cls(base, tuple(_as_written(line, base) for line in lines), origin)

    def verdict(self, relative: str, is_dir: bool) -> tuple[bool | None, str]:
        """(True: matched, False: re-included by a `!` pattern, None: no pattern says; the deciding pattern)."""
        from .globs import ignored

        rules = _rules(self.lines)
        matched, index = ignored(rules, relative, is_dir)
        return matched, rules[index].pattern if index is not None else ""

    def reason(self, path: str, is_dir: bool = False) -> str | None:
        """Why `path` (as given) is excluded by these patterns; None when it is not."""
        relative = _relative(path, self.base)
        if not relative:
            return None
        matched, pattern = self.verdict(relative, is_dir)
        return f"excluded by {pattern!r} ({self.origin})" if matched else None


def _as_written(pattern: str, base: str) -> str:
    """A pattern as gitignore reads it: `./x` is `x`; an absolute path inside `base` is anchored at it."""
    if os.path.isabs(pattern) and pattern.startswith(base.rstrip(os.sep) + os.sep):
        return "/" + pattern[len(base.rstrip(os.sep)) + 1 :].replace(os.sep, "/")
    while pattern.startswith("./"):
        pattern = pattern[2:]
    return pattern


class Selection(NamedTuple):
    """What discovery leaves out: exclude patterns (explicit files included) and, in folders, what git ignores."""

    excludes: tuple[Patterns, ...] = ()
    respect_gitignore: bool = False

    @classmethod
    def of(cls, options) -> Selection:
        """From ValidateOptions or MigrateOptions: --exclude from the working directory, the config file's from its folder."""
        excludes = []
        if options.exclude:
            excludes.append(Patterns.of(options.exclude, os.getcwd(), "--exclude"))
        if options.config_exclude and options.config_file:
            folder = os.path.dirname(os.path.abspath(options.config_file))
            excludes.append(Patterns.of(options.config_exclude, folder, f"exclude in {options.config_file}"))
        return cls(tuple(excludes), options.respect_gitignore)

    def excluded(self, path: str, is_dir: bool = False) -> str | None:
        return next((why for patterns in self.excludes if (why := patterns.reason(path, is_dir))), None)


def per_file_ignored(name: str, table: dict, config_file: str | None) -> set[str]:
    """The rule ids `per-file-ignores` (pattern -> rule ids) turns off for one file: patterns relative to the config's folder."""
    base = os.path.realpath(os.path.dirname(os.path.abspath(config_file)) if config_file else os.getcwd())
    relative = _relative(name, base)
    if not relative:
        return set()
    from .globs import ignored

    turned_off: set[str] = set()
    for pattern, rules in table.items():
        if ignored(_rules((_as_written(pattern, base),)), relative, False)[0]:
            turned_off.update(rules)
    return turned_off


# --------------------------------------------------------------------------- git's ignore files


def _git_dir(work_tree: str) -> str | None:
    """The folder holding info/exclude for a work tree: .git, or the common dir of a linked work tree."""
    dot_git = os.path.join(work_tree, ".git")
    if os.path.isdir(dot_git):
        return dot_git
    try:
        with open(dot_git, encoding="utf-8") as handle:
            first = handle.readline()
    except (OSError, UnicodeDecodeError):
        return None
    if not first.startswith("gitdir:"):
        return None
    git_dir = os.path.join(work_tree, first[len("gitdir:") :].strip())
    try:
        with open(os.path.join(git_dir, "commondir"), encoding="utf-8") as handle:
            return os.path.join(git_dir, handle.read().strip())
    except (OSError, UnicodeDecodeError):
        return git_dir


def _work_tree(folder: str) -> str | None:
    """The work tree a folder lies in: the nearest folder upward holding `.git`; None outside one."""
    while True:
        if os.path.lexists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _read_patterns(path: str, base: str) -> Patterns | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = tuple(handle.read().splitlines())
    except OSError:
        return None
    return Patterns(base, lines, path) if any(line.strip() and not line.startswith("#") for line in lines) else None


class GitIgnores:
    """The ignore rules in force in each folder of a walk: .git/info/exclude, then each .gitignore from the work tree down.

    The deepest file that has a say decides, and the last matching pattern within it, as git
    reads them. A file the index tracks is never ignored, as git never ignores one: an ignored
    folder is entered only for what it tracks. A nested repository (a folder holding `.git`)
    starts again with its own files and index. The global excludes file (core.excludesFile) is
    not read.
    """

    def __init__(self, top: str) -> None:
        self._levels: dict[str, tuple[Patterns, ...]] = {}
        self._roots: dict[str, str] = {}  # folder -> the work tree it lies in
        self._tracked: dict[str, Tracked | None] = {}  # work tree -> what its index tracks (None: no index read)
        self._ignored: dict[str, str] = {}  # ignored folders entered for what they track -> why they are ignored
        real = os.path.realpath(top)
        root = _work_tree(real)
        self.active = root is not None
        if root is not None:
            levels = self._repository(root) + self._own(root, os.path.isfile(os.path.join(root, ".gitignore")))
            folder = root
            for part in os.path.relpath(real, root).split(os.sep) if real != root else []:
                folder = os.path.join(folder, part)
                levels += self._own(folder, os.path.isfile(os.path.join(folder, ".gitignore")))
            self._levels[real] = levels
            self._roots[real] = root

    def _repository(self, root: str) -> tuple[Patterns, ...]:
        git_dir = _git_dir(root)
        exclude = _read_patterns(os.path.join(git_dir, "info", "exclude"), root) if git_dir else None
        return (exclude,) if exclude else ()

    @staticmethod
    def _own(folder: str, has_gitignore: bool) -> tuple[Patterns, ...]:
        own = _read_patterns(os.path.join(folder, ".gitignore"), folder) if has_gitignore else None
        return (own,) if own else ()

    def enter(self, real_folder: str, entries: list[str]) -> None:
        """Note the rules of a folder the walk entered (its parent's, plus its own .gitignore)."""
        if real_folder in self._levels:
            return
        parent = os.path.dirname(real_folder)
        if ".git" in entries:
            levels = self._repository(real_folder)
            self._roots[real_folder] = real_folder
        else:
            levels = self._levels.get(parent, ())
            self._roots[real_folder] = self._roots.get(parent, real_folder)
            if parent in self._ignored:  # entered for what it tracks: what it does not track stays ignored
                self._ignored[real_folder] = self._ignored[parent]
        self._levels[real_folder] = levels + self._own(real_folder, ".gitignore" in entries)

    def _is_tracked(self, real_folder: str, name: str, is_dir: bool) -> bool:
        root = self._roots.get(real_folder)
        if root is None:
            return False
        if root not in self._tracked:
            from .gitindex import tracked

            self._tracked[root] = tracked(root)  # the index is read once per work tree
        index = self._tracked[root]
        relative = _under(os.path.join(real_folder, name), root)
        return index is not None and relative is not None and relative in (index.folders if is_dir else index.files)

    def reason(self, real_folder: str, name: str, is_dir: bool) -> str | None:
        """Why git ignores the entry `name` of a folder the walk entered; None when it does not (or tracks it)."""
        why = self._ignore_reason(real_folder, name, is_dir)
        if why is None or not self._is_tracked(real_folder, name, is_dir):
            return why
        if is_dir:  # entered for the tracked files it holds; the rest of it stays ignored
            self._ignored[os.path.join(real_folder, name)] = why
        return None

    def _ignore_reason(self, real_folder: str, name: str, is_dir: bool) -> str | None:
        if real_folder in self._ignored:
            return self._ignored[real_folder]
        path = os.path.join(real_folder, name)
        for patterns in reversed(self._levels.get(real_folder, ())):
            relative = _under(path, patterns.base)
            if not relative:
                continue
            matched, pattern = patterns.verdict(relative, is_dir)
            if matched is not None:
                return f"ignored by git ({pattern!r} in {patterns.origin})" if matched else None
        return None


# --------------------------------------------------------------------------- walking


def discover(
    paths: Iterable[str],
    selection: Selection | None = None,
    not_regular: list[str] | None = None,
    skipped: list[tuple[str, str]] | None = None,
) -> tuple[list[str], list[str]]:
    """Expand folders into their YAML and JSON files; return (files, paths that do not exist).

    Named pipes, devices and sockets found in folders are never opened (a pipe without a writer
    would block, a device may never end); they go to `not_regular`. Named on their own, a pipe is
    read (`<(command)` gives one) and a device or socket is refused unread (svcconf.load.files).
    Names are str, undecodable bytes kept as by os.fsdecode.
    Excluded files and folders go to `skipped` with the reason, for `validate -v`.
    """
    selection = selection or Selection()
    files: list[str] = []
    missing: list[str] = []
    for path in map(os.fsdecode, paths):
        if path == STDIN:
            files.append(STDIN)
        elif os.path.isdir(path):
            _walk(path, selection, files, not_regular, skipped)
        elif os.path.exists(path):
            why = selection.excluded(path)
            if why is None:
                files.append(path)
            elif skipped is not None:
                skipped.append((path, why))
        else:
            missing.append(path)
    return files, missing


def _walk(top: str, selection: Selection, files: list[str], not_regular: list[str] | None, skipped: list | None) -> None:
    ignores = GitIgnores(top) if selection.respect_gitignore else None
    if ignores is not None and not ignores.active:
        ignores = None
    for folder, dirs, names in os.walk(top):
        real = os.path.realpath(folder) if ignores is not None else ""
        if ignores is not None:
            ignores.enter(real, dirs + names)
        kept = []
        for name in sorted(dirs):
            if name.startswith(".") or name in ALWAYS_SKIPPED:
                continue
            full = os.path.normpath(os.path.join(folder, name))
            why = selection.excluded(full, is_dir=True) or (ignores.reason(real, name, True) if ignores is not None else None)
            if why is None:
                kept.append(name)
            elif skipped is not None:
                skipped.append((full, why))
        dirs[:] = kept
        for name in sorted(names):
            if not name.endswith(YAML_SUFFIXES):
                continue
            full = os.path.normpath(os.path.join(folder, name))
            if name in CONFIG_NAMES:  # svcconf's own settings, not a document of a component
                if skipped is not None:
                    skipped.append((full, CONFIG_FILE))
                continue
            why = selection.excluded(full) or (ignores.reason(real, name, False) if ignores is not None else None)
            if why is not None:
                if skipped is not None:
                    skipped.append((full, why))
            elif special(full) is None:
                files.append(full)
            elif not_regular is not None:
                not_regular.append(full)


def special(path: str) -> str | None:
    """What a path is when not a regular file (symbolic links followed); None for a file or when stat fails."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None  # reading it reports the error
    return file_kind(mode)
