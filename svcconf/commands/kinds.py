"""`svcconf kinds`: the supported apiVersion/kind pairs and their lifecycle."""

from __future__ import annotations

import sys

from . import EXIT_OK


def add_parser(commands) -> None:
    parser = commands.add_parser("kinds", help="list supported apiVersion/kind pairs and their lifecycle")
    parser.add_argument("--all", action="store_true", help="also list the API groups tracked only for removals")
    parser.set_defaults(run=run)


def run(args) -> int:
    from ..known.catalog import format_release, lifecycle, schema_index

    table = lifecycle()
    schemas = schema_index()
    rows = {}
    for key, row in table.rows.items():
        if args.all or row.scope == "config" or key in schemas:
            rows[key] = row
    for key in schemas:
        rows.setdefault(key, None)

    def cell(release) -> str:
        return format_release(release) if release else "-"

    header = ("apiVersion", "kind", "schema", "introduced", "deprecated", "removed", "replacement")
    lines = [header]
    for group, version, kind in sorted(rows, key=lambda k: (k[0], k[2], k[1])):
        row = rows[(group, version, kind)]
        api_version = f"{group}/{version}" if group else version
        lines.append(
            (
                api_version,
                kind,
                "yes" if (group, version, kind) in schemas else "-",
                cell(row.introduced) if row else "-",
                cell(row.deprecated) if row else "-",
                cell(row.removed) if row else "-",
                (row.replacement or "-") if row else "-",
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for line in lines:
        sys.stdout.write("  ".join(value.ljust(widths[i]) for i, value in enumerate(line)).rstrip() + "\n")
    sys.stdout.write(f"\ntarget release by default: {format_release(table.newest)}\n")
    return EXIT_OK
