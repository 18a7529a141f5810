"""Seed files for the fuzz campaign, and the places in their YAML text a mutation can aim at."""

from __future__ import annotations

import functools
import shlex
from pathlib import Path
from typing import NamedTuple

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
CORPUS = ROOT.parent / "shared" / "corpus"
SEED_SUFFIXES = (".yaml", ".yml", ".json")
# Folders whose files hold removed API versions for migrate to convert.
MIGRATE_FOLDERS = ("fixtures/migrate/", "corpus/removed-apis/", "corpus/mixed/")


class Seed(NamedTuple):
    name: str  # "fixtures/encryption/enc-ok.yaml", "corpus/audit/x.yaml"
    data: bytes

    @property
    def migrate(self) -> bool:
        return self.name.startswith(MIGRATE_FOLDERS)

    @property
    def suffix(self) -> str:
        return self.name[self.name.rfind(".") :]


def _files(folder: Path, label: str) -> list[Seed]:
    found = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.name.endswith(SEED_SUFFIXES) and not path.name.endswith(".migrated.yaml"):
            found.append(Seed(f"{label}/{path.relative_to(folder).as_posix()}", path.read_bytes()))
    return found


@functools.lru_cache(maxsize=2)
def load_seeds(corpus: bool) -> tuple[Seed, ...]:
    """Every fixture, and the corpus files when asked for and present, in a fixed order."""
    seeds = _files(FIXTURES, "fixtures")
    if corpus and CORPUS.is_dir():
        seeds += _files(CORPUS, "corpus")
    return tuple(seeds)


def first_line_args(text: str) -> list[str]:
    """The flags a fixture asks for on its first lines (`# fixture-args:`, `# migrate-args:`)."""
    words: list[str] = []
    for line in text.split("\n", 2)[:2]:
        for prefix in ("# fixture-args:", "# migrate-args:"):
            if line.startswith(prefix):
                try:
                    words += shlex.split(line[len(prefix) :])
                except ValueError:
                    pass
    return words


# --------------------------------------------------------------------------- sites


class Site(NamedTuple):
    """A node of a seed's YAML and the span of text that replacing it rewrites."""

    path: tuple
    node: Node
    key: Node | None  # the key node when the site is a mapping value
    start: int  # replace text[start:end] (for a mapping value: from the end of its key, colon included)
    end: int
    parent: Node | None


def _trimmed_end(text: str, start: int, end: int) -> int:
    # Block collections end where the next token starts: keep the line break and indentation.
    while end > start and text[end - 1] in " \t\r\n":
        end -= 1
    return end


def _walk(text: str, node: Node, path: tuple, key: Node | None, parent: Node | None, depth: int, out: list[Site], seen: set) -> None:
    if depth > 200 or id(node) in seen:  # an alias: its marks are those of the anchored node
        return
    seen.add(id(node))
    start = key.end_mark.index if key is not None else node.start_mark.index
    out.append(Site(path, node, key, start, _trimmed_end(text, node.start_mark.index, node.end_mark.index), parent))
    if isinstance(node, MappingNode):
        for key_node, value in node.value:
            name = key_node.value if isinstance(key_node, ScalarNode) else "?"
            _walk(text, value, (*path, name), key_node, node, depth + 1, out, seen)
    elif isinstance(node, SequenceNode):
        for index, item in enumerate(node.value):
            _walk(text, item, (*path, index), None, node, depth + 1, out, seen)


def sites(text: str) -> tuple[Site, ...]:
    """Every node of every document, in document order; empty when the text is not YAML."""
    return _seed_sites(text) if len(text) < 100_000 else _sites(text)


@functools.lru_cache(maxsize=1024)  # the seeds' nodes, read once per process; big mutants are not kept
def _seed_sites(text: str) -> tuple[Site, ...]:
    return _sites(text)


def _sites(text: str) -> tuple[Site, ...]:
    out: list[Site] = []
    try:
        for index, root in enumerate(yaml.compose_all(text, Loader=yaml.SafeLoader)):
            if root is not None:
                _walk(text, root, (index,), None, None, 0, out, set())
    except (yaml.YAMLError, RecursionError, ValueError):
        return ()
    return tuple(out)


def node_text(text: str, site: Site) -> str:
    return text[site.node.start_mark.index : site.end]


def splice(text: str, site: Site, fragment: str) -> str:
    """Replace a site's value with a one-line YAML fragment (a mapping value keeps its key)."""
    if site.key is not None:
        return text[: site.start] + ": " + fragment + text[site.end :]
    return text[: site.start] + fragment + text[site.end :]


def insert_entry(text: str, mapping: Node, key_text: str, fragment: str) -> str:
    """Add `key: fragment` as the first entry of a mapping (block or flow), before its first key."""
    if not mapping.value:  # only a flow mapping can be empty: `{}`
        return text[: mapping.start_mark.index] + "{" + f"{key_text}: {fragment}" + "}" + text[mapping.end_mark.index :]
    first = mapping.value[0][0]
    at = first.start_mark.index
    if mapping.flow_style:
        return text[:at] + f"{key_text}: {fragment}, " + text[at:]
    return text[:at] + f"{key_text}: {fragment}\n" + " " * first.start_mark.column + text[at:]
