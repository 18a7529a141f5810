"""The data tables in svcconf/data: tab-separated, `# key: value` comment lines, a header row naming the columns."""

from __future__ import annotations

import os

DATA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")


def read_table(*parts: str) -> tuple[dict[str, str], list[dict[str, str]]]:
    """(metadata from `# key: value` comments, rows as column -> stripped cell; missing cells are "")."""
    meta: dict[str, str] = {}
    rows: list[dict[str, str]] = []
    header: list[str] | None = None
    with open(os.path.join(DATA_DIR, *parts), encoding="utf-8") as handle:
        text = handle.read()
    for line in text.splitlines():
        if line.startswith("#"):
            key, colon, value = line[1:].partition(":")
            if colon:
                meta.setdefault(key.strip(), value.strip())
            continue
        if not line.strip():
            continue
        cells = list(map(str.strip, line.split("\t")))
        if header is None:
            header = cells
            continue
        if len(cells) < len(header):
            cells += [""] * (len(header) - len(cells))
        rows.append(dict(zip(header, cells)))
    return meta, rows
