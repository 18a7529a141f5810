"""`svcconf print TARGET`: print generated configuration, such as a component's defaults.

Targets come from the modules of `svcconf/defaults/`: each has `add_parsers(targets)`, which adds
one sub-command per target with its own flags and a `run(args) -> int` default.
"""

from __future__ import annotations

import importlib
import os

from . import usage


def add_parser(commands) -> None:
    parser = commands.add_parser("print", help="print default configuration", description="Print generated configuration documents.")
    targets = parser.add_subparsers(dest="target", metavar="TARGET")
    folder = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "defaults")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".py") and not name.startswith("_"):
            importlib.import_module(f"svcconf.defaults.{name[:-3]}").add_parsers(targets)
    parser.set_defaults(run=lambda args: usage(parser))
