"""Parse the optional first-line arguments of a fixture: `# fixture-args: --target-version 1.28`."""

from __future__ import annotations

import shlex

from svcconf.cli import build_parser
from svcconf.pipeline import Options

PREFIX = "# fixture-args:"


def options_for(text: str) -> Options:
    first = text.split("\n", 1)[0]
    words = shlex.split(first[len(PREFIX) :]) if first.startswith(PREFIX) else []
    args = build_parser().parse_args(["validate", *words])
    options = Options(field_validation=args.field_validation or "Strict", jobs=1)
    if args.target_version:
        options.target = args.target_version
    if args.api_domain:
        options.api_domain = args.api_domain
    options.bootstrap = args.bootstrap
    options.fs_checks = args.fs_checks
    options.service_account_issuers = args.service_account_issuer
    return options
