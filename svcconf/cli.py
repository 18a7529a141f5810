"""Command line: find the commands, parse flags, run one, turn failures into exit codes.

Each command lives in `svcconf/commands/<name>.py` with `add_parser(subparsers)`, which sets a
`run(args) -> int` default; adding a command adds a file. Command modules import their heavy
dependencies inside `run`, so building the parser stays cheap.

argparse rather than typer: a pre-commit hook starts svcconf on every commit, and typer 0.29
adds ~200 ms to every start (it imports pydantic) where argparse adds ~20 ms.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from . import __version__
from .commands import EXIT_OK, EXIT_USAGE, error

# The order commands are listed in --help; any other module in svcconf/commands follows.
PREFERRED_ORDER = ("validate", "migrate", "print", "explain", "explain-claims", "rules", "kinds")


def _command_modules() -> list[str]:
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "commands")
    names = sorted(name[:-3] for name in os.listdir(folder) if name.endswith(".py") and not name.startswith("_"))
    rank = {name.replace("-", "_"): i for i, name in enumerate(PREFERRED_ORDER)}
    return sorted(names, key=lambda name: (rank.get(name, len(rank)), name))


class Parser(argparse.ArgumentParser):
    """argparse, with its error line escaped (it quotes unknown arguments raw, and a file name can
    hold a newline) and its help sized to the terminal without shutil."""

    def error(self, message: str):
        from .escape import printable

        super().error(printable(message))

    def _get_formatter(self) -> argparse.HelpFormatter:
        # argparse makes a formatter for every argument added and sizes it with shutil, whose import
        # (with the compression modules it loads) costs each run of a pre-commit hook ~4 ms.
        return self.formatter_class(prog=self.prog, width=_terminal_width())


def _terminal_width() -> int:
    """shutil.get_terminal_size().columns - 2, as argparse sizes its help: $COLUMNS, the terminal, or 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return (columns or 80) - 2


class CommandParser(Parser):
    """A command's parser: it refuses unknown arguments itself, so the error shows the command's usage, not svcconf's."""

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}{self._suggestion(extras)}")
        return namespace, extras

    def _suggestion(self, extras: list[str]) -> str:
        import difflib

        options = [option for action in self._actions for option in action.option_strings]
        for extra in extras:
            close = difflib.get_close_matches(extra.partition("=")[0], options, n=1) if extra.startswith("--") else []
            if close:
                return f" (did you mean {close[0]}?)"
        return ""


EPILOG = """\
exit codes: 0 nothing at or above --fail-on (or validate --exit-zero); 1 findings (migrate --check:
  a change is due; explain --expect: not met); 2 usage error, invalid configuration file or
  unreadable path (validate's report says the run failed)
environment: NO_COLOR (no colour), FORCE_COLOR (colour even when not on a terminal; --color wins
  over both), SVCCONF_API_DOMAIN (default --api-domain), SVCCONF_DEBUG (tracebacks)
rules: --select/--ignore and suppressions take rule ids or areas (`svcconf rules` lists them);
  `svcconf COMMAND --help` shows a command's options
"""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command or, given the name of one, of that command alone.

    A run of one command (the pre-commit hook's `svcconf validate`) need not import the other
    commands and build their parsers; --help, a mistyped command and --version need them all.
    """
    parser = Parser(
        prog="svcconf",
        description="Lint and migrate control-plane configuration files.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"svcconf {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CommandParser)
    names = _command_modules()
    module = (command or "").replace("-", "_")
    for name in [module] if module in names else names:
        importlib.import_module(f".commands.{name}", __package__).add_parser(commands)
    return parser


def as_paths(argv: Sequence[str]) -> list[str]:
    """Arguments that name existing files stay file names, even when they start with `-`.

    pre-commit passes staged file names after the hook's own arguments, so a file named
    `-oreport.yaml` in a pull request would otherwise be read as `-o report.yaml` and make svcconf
    write where the file's author chose. Such an argument becomes `./-oreport.yaml`.
    """
    return [f"./{arg}" if arg.startswith("-") and arg != "-" and os.path.lexists(arg) else arg for arg in argv]


def main(argv: Sequence[str] | None = None) -> int:
    argv = as_paths(sys.argv[1:] if argv is None else list(argv))
    parser = build_parser(argv[0] if argv and not argv[0].startswith("-") else None)
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return EXIT_USAGE
    try:
        return args.run(args)
    except BrokenPipeError:
        sys.stderr.close()
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except Exception as err:  # a bug: one line for the user, the traceback on request
        if os.environ.get("SVCCONF_DEBUG"):
            raise
        if isinstance(err, ImportError) and (err.name or "").startswith("cel_expr_python"):
            # Not a bug: the CEL runtime has no wheel for some platforms (musl libc); validate runs without it.
            error(f"this command evaluates CEL expressions and needs cel-expr-python, which cannot be imported here: {err}")
            return EXIT_USAGE
        error(f"internal error: {type(err).__name__}: {err} (set SVCCONF_DEBUG=1 for the traceback; please report it)")
        return EXIT_USAGE
