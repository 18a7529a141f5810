"""`svcconf schema export DIR`: write the bundled JSON Schemas for editors (yaml-language-server) and other tools."""

from __future__ import annotations

import sys

from ..settings.options import add_domain_argument, add_target_argument
from . import EXIT_OK, EXIT_USAGE, error, usage


def add_parser(commands) -> None:
    parser = commands.add_parser("schema", help="export the JSON Schemas for editors", description="Work with svcconf's JSON Schemas.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    export = actions.add_parser(
        "export",
        help="write one JSON Schema per apiVersion/kind, index.json and all.json",
        description="Write one draft-07 JSON Schema per apiVersion/kind (DIR/<group>/<version>/<Kind>.json), index.json "
        "(apiVersion -> kind -> file) and all.json (every kind, chosen by apiVersion and kind) for yaml-language-server "
        "(VS Code, Neovim) and other JSON Schema tools. DIR is created if missing; files already there are overwritten.",
    )
    export.add_argument("directory", metavar="DIR", help="folder to write the schemas to")
    export.add_argument("--naming", choices=("kube", "svc"), default="kube", help="spelling of groups and kinds (default: kube)")
    add_domain_argument(export)
    add_target_argument(export, help="release the schemas describe: kinds and fields it does not serve yet are left out (default: newest)")
    export.set_defaults(run=run_export)
    parser.set_defaults(run=lambda args: usage(parser))


def run_export(args) -> int:
    from ..known.export import exported_files
    from ..settings.options import OptionsError, api_domain

    try:
        written = exported_files(api_domain(args), args.naming, args.target_version)
        for relative, data in written.items():
            _write(args.directory, relative, data)
    except OptionsError as err:
        error(str(err))
        return EXIT_USAGE
    except OSError as err:
        error(f"{err.filename or args.directory}: cannot write the schemas: {(err.strerror or str(err)).lower()}")
        return EXIT_USAGE
    sys.stdout.write(f"wrote {len(written) - 2} schemas, index.json and all.json to {args.directory}\n")
    return EXIT_OK


def _write(directory: str, relative: str, data: bytes) -> None:
    """Write one file below `directory`, creating folders; never through a symbolic link, at any level of its path."""
    import os

    from ..load.files import refuse_linked_folder

    path = os.path.join(directory, *relative.split("/"))
    refuse_linked_folder(path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    with open(os.open(path, flags, 0o666), "wb") as handle:
        handle.write(data)
