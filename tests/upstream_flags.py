"""Flags upstream renamed or removed (tests/data/upstream-flag-changes.tsv): what migrate may change beside apiVersions.

Read from upstream CHANGELOGs and etcd's deprecation table, never from svcconf's own flag tables.
"""

from __future__ import annotations

import csv
import functools
from pathlib import Path
from typing import Any

TABLE = Path(__file__).resolve().parent / "data" / "upstream-flag-changes.tsv"
_GONE = object()  # a removed flag's place, dropped from its list


@functools.cache
def changes(target: tuple[int, int]) -> tuple[dict[str, str], frozenset[str]]:
    """(old name -> new name, removed names) of the changes made by `target` or earlier, over every component."""
    with open(TABLE, encoding="utf-8", newline="") as handle:
        records = list(csv.DictReader((line for line in handle if not line.startswith("#")), delimiter="\t"))
    made = [r for r in records if tuple(int(part) for part in r["release"].split(".")) <= target]
    renamed = {r["flag"]: r["to"] for r in made if r["change"] == "renamed"}
    return renamed, frozenset(r["flag"] for r in made if r["change"] == "removed")


def with_upstream_flag_changes(value: Any, target: tuple[int, int], unsafe: bool) -> Any:
    """A document's data with every flag upstream renamed by `target` written under its new name, and (under --unsafe)
    every removed flag dropped: in extraArgs maps, `name`/`value` lists and command words (`--name`, `--name=value`)."""
    renamed, removed = changes(target)
    dropped = removed if unsafe else frozenset()

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            if isinstance(node.get("name"), str) and node["name"] in dropped:
                return _GONE
            out = {}
            for key, item in node.items():
                if isinstance(key, str) and key in dropped:
                    continue
                out[renamed.get(key, key) if isinstance(key, str) else key] = walk(item)
            if isinstance(out.get("name"), str):
                out["name"] = renamed.get(out["name"], out["name"])
            return out
        if isinstance(node, list):
            items = [_word(walk(item)) for item in node]
            return [item for item in items if item is not _GONE]
        return node

    def _word(word: Any) -> Any:
        if not isinstance(word, str) or not word.startswith("--"):
            return word
        name, equals, rest = word[2:].partition("=")
        if name in dropped:
            return _GONE
        return f"--{renamed.get(name, name)}{equals}{rest}"

    return walk(value)
