"""Options of a fixture from its optional first line: `# fixture-args: --target-version 1.28`.

The words are validate's flags, turned into options by the same code as the command line's.
"""

from __future__ import annotations

import shlex

from svcconf.cli import build_parser
from svcconf.settings.config import Config
from svcconf.settings.options import ValidateOptions, validate_options

PREFIX = "# fixture-args:"


def options_for(text: str) -> ValidateOptions:
    first = text.split("\n", 1)[0]
    words = shlex.split(first[len(PREFIX) :]) if first.startswith(PREFIX) else []
    args = build_parser().parse_args(["validate", "--no-config", *words])
    return validate_options(args, Config())._replace(jobs=1)
