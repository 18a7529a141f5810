"""`svcconf server`: the language server, over stdin and stdout, for editors (pip install 'svcconf[server]')."""

from __future__ import annotations

import argparse

from . import EXIT_OK, EXIT_USAGE, error
from .validate import add_settings_arguments

HELP = "language server for editors, over stdio (needs svcconf[server])"
UNUSED = ("jobs", "fail_on")  # validate's settings that mean nothing to an editor: accepted, not listed


def add_parser(commands) -> None:
    parser = commands.add_parser(
        "server",
        help=HELP,
        description="Run the Language Server Protocol server over stdin and stdout: validate's findings as you type, "
        "hover for fields, API versions and rules, completion, and fixes. The settings below apply to every file, "
        "with each file's configuration file (found from its folder, re-read when it changes) as validate reads it.",
    )
    parser.add_argument("--stdio", action="store_true", help="accepted for editors that pass it; stdio is the only transport")
    add_settings_arguments(parser)
    for action in parser._actions:
        if action.dest in UNUSED:
            action.help = argparse.SUPPRESS
    parser.set_defaults(run=run)


def run(args) -> int:
    try:
        from ..server.main import serve
    except ImportError as err:
        # Only pygls and lsprotocol are optional here; any other missing module is a bug.
        if (err.name or "").split(".")[0] not in ("pygls", "lsprotocol", "cattrs", "attrs"):
            raise
        error(f"the language server needs the server extra: pip install 'svcconf[server]' ({err.name} is missing)")
        return EXIT_USAGE
    serve(args)
    return EXIT_OK
