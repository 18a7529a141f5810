"""Mutations of a seed's text: each takes a random source and the text and returns hostile input.

A mutation returns None when the seed has nothing for it to aim at. It splices the YAML text at
a node: everything else stays byte for byte, comments included.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import NamedTuple

from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from . import values
from .seeds import Site, insert_entry, node_text, sites, splice

Rng = random.Random


class Planted(NamedTuple):
    text: str
    markers: tuple[str, ...]


# --------------------------------------------------------------------------- picking sites


def _scalars(text: str, strings_only: bool = False) -> list[Site]:
    found = [s for s in sites(text) if isinstance(s.node, ScalarNode) and s.path[1:]]
    if strings_only:
        found = [s for s in found if s.node.style or not s.node.value[:1].isdigit()]
    return found


def _pick(rng: Rng, candidates: list[Site]) -> Site | None:
    return rng.choice(candidates) if candidates else None


def _value_sites(text: str) -> list[Site]:
    return [s for s in sites(text) if s.path[1:]]


def _type_of(site: Site) -> str:
    if isinstance(site.node, MappingNode):
        return "map"
    if isinstance(site.node, SequenceNode):
        return "list"
    return "scalar"


# --------------------------------------------------------------------------- value mutations


def wrong_type(rng: Rng, text: str) -> str | None:
    site = _pick(rng, _value_sites(text))
    if site is None:
        return None
    kinds = [k for k in values.WRONG_TYPES if k != _type_of(site)]
    return splice(text, site, rng.choice(values.WRONG_TYPES[rng.choice(kinds)]))


def drop_field(rng: Rng, text: str) -> str | None:
    """A field removed, required ones included (block mappings only: a flow mapping would keep its comma)."""
    site = _pick(
        rng, [s for s in _value_sites(text) if s.key is not None and isinstance(s.parent, MappingNode) and not s.parent.flow_style]
    )
    if site is None or site.key is None:
        return None
    return text[: site.key.start_mark.index] + text[site.end :]


def rewrap(rng: Rng, text: str, inside: str = "") -> str | None:
    """A map becomes a list holding it, a list becomes its first item: the shape errors of real files.

    With `inside`, only a collection whose text holds it (a planted secret's parents).
    """
    import yaml

    candidates = [s for s in _value_sites(text) if isinstance(s.node, (MappingNode, SequenceNode)) and s.node.value]
    site = _pick(rng, [s for s in candidates if inside in node_text(text, s)])
    if site is None:
        return None
    block = " " * site.node.start_mark.column + node_text(text, site)
    try:  # a seed may hold anything, odd tags included: PyYAML raises more than YAMLError on those
        data = yaml.safe_load(_dedent(block))
        data = data[0] if isinstance(site.node, SequenceNode) and isinstance(data, list) else [data]
        flow = yaml.safe_dump(data, default_flow_style=True, width=10**9)
    except Exception:  # noqa: BLE001
        return None
    return splice(text, site, flow.strip().replace("\n", " "))


def _dedent(block: str) -> str:
    lines = block.split("\n")
    indent = min((len(line) - len(line.lstrip(" ")) for line in lines if line.strip()), default=0)
    return "\n".join(line[indent:] for line in lines)


def odd_key(rng: Rng, text: str) -> str | None:
    site = _pick(rng, [s for s in _value_sites(text) if s.key is not None])
    if site is None or site.key is None:
        return None
    key = site.key
    return text[: key.start_mark.index] + rng.choice(values.ODD_KEYS) + text[key.end_mark.index :]


def huge_number(rng: Rng, text: str) -> str | None:
    scalars = _scalars(text)
    numeric = [s for s in scalars if any(ch.isdigit() for ch in s.node.value)]
    site = _pick(rng, numeric if numeric and rng.random() < 0.7 else scalars)
    return None if site is None else splice(text, site, rng.choice(values.huge_numbers(rng)))


def long_duration(rng: Rng, text: str, durations_only: bool = False) -> str | None:
    """A duration field's value (any scalar when the seed has none) made longer than real durations are."""
    scalars = _scalars(text)
    durations = [s for s in scalars if len(s.node.value) < 40 and values.DURATION.fullmatch(s.node.value)]
    site = _pick(rng, durations or ([] if durations_only else scalars))
    return None if site is None else splice(text, site, rng.choice(values.long_durations(rng)))


def odd_tag(rng: Rng, text: str) -> str | None:
    site = _pick(rng, _value_sites(text))
    return None if site is None else splice(text, site, rng.choice(values.ODD_TAGS))


def long_string(rng: Rng, text: str) -> str | None:
    site = _pick(rng, _scalars(text, strings_only=True))
    if site is None:
        return None
    return splice(text, site, values.quoted(values.long_string(site.node.value, rng)))


def long_strings_everywhere(rng: Rng, text: str) -> str | None:
    """Every string field at once gets long (one seed run finds the first field that is slow)."""
    targets = _scalars(text, strings_only=True)
    if not targets:
        return None
    for site in sorted(targets, key=lambda s: s.start, reverse=True):  # from the end: earlier spans stay put
        text = splice(text, site, values.quoted(values.long_string(site.node.value, rng)))
    return text


def other_digits(rng: Rng, text: str) -> str | None:
    scalars = _scalars(text)
    numeric = [s for s in scalars if any(ch.isdigit() for ch in s.node.value)]
    site = _pick(rng, numeric or scalars)
    return None if site is None else splice(text, site, values.quoted(values.other_digits(site.node.value, rng)))


def control_value(rng: Rng, text: str) -> str | None:
    site = _pick(rng, _scalars(text))
    if site is None:
        return None
    value = site.node.value
    at = rng.randrange(len(value) + 1)
    return splice(text, site, values.quoted(value[:at] + rng.choice(values.CONTROL) + value[at:]))


def control_key(rng: Rng, text: str) -> str | None:
    site = _pick(rng, [s for s in _value_sites(text) if s.key is not None])
    if site is None or site.key is None:
        return None
    name = str(site.key.value) + rng.choice(values.CONTROL)
    return text[: site.key.start_mark.index] + values.quoted(name) + text[site.key.end_mark.index :]


def block_scalar_command(rng: Rng, text: str) -> str | None:
    """A literal block scalar whose second line starts a workflow command."""
    site = _pick(rng, [s for s in _scalars(text) if s.key is not None and s.node.start_mark.line == s.key.start_mark.line])
    if site is None or site.key is None:
        return None
    indent = " " * (site.key.start_mark.column + 2)
    command = rng.choice(["::error::injected", "::set-output name=x::y", "\x1b[31mred"])
    return text[: site.start] + f": |\n{indent}{site.node.value}\n{indent}{command}" + text[site.end :]


# --------------------------------------------------------------------------- structure


API_VERSIONS = ["v1", "extensions/v1beta1", "kubeadm.k8s.io/v1beta2", "apiserver.config.k8s.io/v1", "x/y/z", '""', "[v1]", "1"]


def duplicate_key(rng: Rng, text: str) -> str | None:
    site = _pick(rng, [s for s in _value_sites(text) if s.key is not None and s.parent is not None])
    if site is None or site.key is None or site.parent is None:
        return None
    fragment = rng.choice([node_text(text, site).split("\n", 1)[0] or "x", *values.WRONG_TYPES["string"], "{}"])
    if fragment.rstrip().endswith(("|", ">", "|-", ">-")) or fragment.startswith(("&", "*", "{", "[")):
        fragment = '"x"'
    return insert_entry(text, site.parent, text[site.key.start_mark.index : site.key.end_mark.index], fragment)


def duplicate_api_version(rng: Rng, text: str) -> str | None:
    roots = [s for s in sites(text) if len(s.path) == 1 and isinstance(s.node, MappingNode)]
    site = _pick(rng, roots)
    if site is None:
        return None
    return insert_entry(text, site.node, "apiVersion", rng.choice(API_VERSIONS))


DEEP = 10_000


def deep_flow(rng: Rng, text: str) -> str | None:
    site = _pick(rng, _value_sites(text)) if rng.random() < 0.8 else None
    depth = DEEP + rng.randrange(100)
    shape = rng.randrange(4)
    if shape == 0:
        fragment = "[" * depth + "]" * depth
    elif shape == 1:
        fragment = "{a: " * depth + "1" + "}" * depth
    elif shape == 2:
        fragment = "[{a: " * (depth // 2) + "1" + "}]" * (depth // 2)
    else:
        fragment = "[" * depth  # never closed
    if site is None:
        return text + "\n---\n" + fragment + "\n"
    return splice(text, site, fragment)


def deep_block(rng: Rng, text: str) -> str | None:
    """Block nesting: a mapping per line, each indented one more (quadratic in size, so fewer levels)."""
    depth = rng.choice([300, 1_000, 2_000])
    if rng.random() < 0.5:
        nested = "".join(" " * i + "a:\n" for i in range(depth)) + " " * depth + "b: 1\n"
    else:
        nested = "- " * (DEEP // 2) + "x\n"  # nested sequences on one line: deep but linear in size
    return text.rstrip("\n") + "\n---\n" + nested


def _bomb_anchors(rng: Rng, levels: int, fan: int, column: int) -> str:
    pad = " " * column
    lines = [f"x-a0: &a0 [{', '.join(['x'] * fan)}]"]
    for level in range(1, levels):
        lines.append(f"x-a{level}: &a{level} [{', '.join([f'*a{level - 1}'] * fan)}]")
    return ("\n" + pad).join(lines) + "\n" + pad


def alias_bomb(rng: Rng, text: str) -> str | None:
    """Anchors at the top of a document and an alias of the last one in one of its fields."""
    roots = [s for s in sites(text) if len(s.path) == 1 and isinstance(s.node, MappingNode) and not s.node.flow_style and s.node.value]
    root = _pick(rng, roots)
    if root is None:
        return None
    # Far over any sane budget (must be refused quickly) or far under it (must be checked quickly).
    fan, levels = rng.choice([(10, 6), (9, 6), (2, 20), (3, 13), (100, 3), (6, 6), (30, 3)])
    inside = [s for s in _value_sites(text) if s.path[0] == root.path[0] and s.start >= root.node.value[0][0].start_mark.index]
    target = _pick(rng, inside)
    if target is None:
        return None
    text = splice(text, target, f"*a{levels - 1}")
    first = root.node.value[0][0]
    at = first.start_mark.index
    return text[:at] + _bomb_anchors(rng, levels, fan, first.start_mark.column) + text[at:]


# (bytes of the anchored string, aliases of it, aliases of a list of those): 10 GB of copies, and
# others far over or just under the 8 MiB aliases may add to a file.
FAT_LEAVES = [(1_000_000, 10_000, 0), (1_000_000, 10, 0), (100_000, 10, 0), (1_000, 100, 100), (10_000, 10, 10), (1_000, 10_000, 0)]


def fat_leaf_alias(rng: Rng, text: str) -> str | None:
    """A long string anchored at the top of a document and copied through aliases in one of its fields, few nodes and many bytes."""
    roots = [s for s in sites(text) if len(s.path) == 1 and isinstance(s.node, MappingNode) and not s.node.flow_style and s.node.value]
    root = _pick(rng, roots)
    if root is None:
        return None
    size, copies, lists = rng.choice(FAT_LEAVES)
    inside = [s for s in _value_sites(text) if s.path[0] == root.path[0] and s.start >= root.node.value[0][0].start_mark.index]
    target = _pick(rng, inside)
    if target is None:
        return None
    first = root.node.value[0][0]
    pad = "\n" + " " * first.start_mark.column
    anchors = f"x-fat: &fat {rng.choice(['x', 'é']) * size}{pad}"
    if lists:
        anchors += f"x-fats: &fats [{', '.join(['*fat'] * copies)}]{pad}"
    text = splice(text, target, f"[{', '.join(['*fats'] * lists if lists else ['*fat'] * copies)}]")
    at = first.start_mark.index
    return text[:at] + anchors + text[at:]


def many_alias_documents(rng: Rng, text: str) -> str | None:
    """Many documents, each under any per-document alias budget, that add up to 60 million nodes and more.

    That is ten times what a reader builds within the time limit: refused early, or a clear hang.
    """
    fan, levels, count = rng.choice([(10, 5, 600), (8, 6, 250), (20, 4, 400), (4, 9, 250)])
    doc = "a0: &a0 [" + ", ".join(["x"] * fan) + "]\n"
    for level in range(1, levels):
        doc += f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * fan) + "]\n"
    header = _header(text)
    return "".join(f"---\n{header}{doc}" for _ in range(count))


def _header(text: str) -> str:
    """apiVersion and kind of the seed's first document, so that the documents are checked."""
    roots = [s for s in sites(text) if len(s.path) == 1 and isinstance(s.node, MappingNode)]
    if not roots:
        return ""
    pairs = {k.value: v.value for k, v in roots[0].node.value if isinstance(k, ScalarNode) and isinstance(v, ScalarNode)}
    return "".join(f"{key}: {values.quoted(pairs[key])}\n" for key in ("apiVersion", "kind") if key in pairs)


MANY_BYTES = 1_000_000  # a big file, but one a linear reader checks and reports in about a second


def many_documents(rng: Rng, text: str) -> str | None:
    """The seed repeated: cross-document rules must stay linear in the number of documents."""
    body = text.rstrip("\n") + "\n"
    body = body if body.startswith("---") else "---\n" + body
    return body * min(rng.choice([300, 2_000]), MANY_BYTES // len(body))


def empty_documents(rng: Rng, text: str) -> str | None:
    return rng.choice(["---\n", "--- {}\n", "--- ~\n", "---\n...\n", "--- []\n"]) * rng.choice([1_000, 10_000])


# --------------------------------------------------------------------------- planted secrets

SECRET_KEYS = ("secret", "token", "tlsBootstrapToken", "certificateKey", "clientKeyData", "client-key-data", "keyData", "password")
# Where a secret field may be added when a seed lacks it: parent key -> fields.
SECRET_HOMES = {
    "tlsConfig": ("keyData",),
    "discovery": ("tlsBootstrapToken",),
    "bootstrapToken": ("token",),
    "controlPlane": ("certificateKey",),
    "status": ("token", "clientKeyData"),
    "user": ("token", "client-key-data", "password"),
}
SECRET_LIST_HOMES = {"keys": ("secret",), "bootstrapTokens": ("token",)}
MARKER = "SVCCONF-SECRET-MARKER"


def has_secret_home(text: str) -> bool:
    names = (*SECRET_KEYS, *SECRET_HOMES, *SECRET_LIST_HOMES)
    return any(f"{name}:" in text or f'"{name}"' in text for name in names)


def plant_secrets(rng: Rng, text: str, index: int) -> Planted | None:
    """Put a marker into every secret field (adding one where a seed has a home for it)."""
    marker = f"{MARKER}-{index}"
    edits: list[tuple[int, Callable[[str], str]]] = []
    for site in sites(text):
        key = site.path[-1] if site.path[1:] else None
        if key in SECRET_KEYS and site.key is not None:
            edits.append((site.start, lambda t, s=site: splice(t, s, values.secret_forms(marker, rng))))
        homes = SECRET_HOMES.get(key, ()) if isinstance(site.node, MappingNode) else ()
        if isinstance(site.parent, SequenceNode) and isinstance(site.node, MappingNode) and len(site.path) >= 2:
            homes = SECRET_LIST_HOMES.get(site.path[-2], homes)
        for field in homes:
            if rng.random() < 0.7:
                edits.append(
                    (site.node.start_mark.index, lambda t, s=site, f=field: insert_entry(t, s.node, f, values.secret_forms(marker, rng)))
                )
    if not edits:
        return None
    # Apply from the end of the text so that earlier positions stay valid; one edit per position.
    done = set()
    for position, edit in sorted(edits, key=lambda e: e[0], reverse=True):
        if position not in done:
            text = edit(text)
            done.add(position)
    return Planted(text, values.marker_texts(marker))


# --------------------------------------------------------------------------- settings a pull request controls


SUPPRESSION_NEAR_MISSES = (
    "# svcconf: ignore [{rule}]",
    "# svcconf: ignore[{rule}",
    "# svcconf: ignore({rule})",
    "# svcconf: ignore: {rule}",
    "# svcconf: ignore {rule}",
    "# svcconf: ignore[]",
    "#svcconf:ignore[{rule}]x",
    "# svcconf: ignore-file",
    "# svcconf:",
    "# svcconf: ignore[{rule}] " + "# svcconf: ignore[" * 50,
)


def suppression_comment(rng: Rng, text: str) -> str | None:
    """A suppression comment, well formed or a near miss, at the end of a line or on a line of its own."""
    lines = text.split("\n")
    if len(lines) < 2:
        return None
    rule = rng.choice(("unknown-field", "wrong-type", "invalid-value", "encryption", "no-such-rule", "*"))
    comment = rng.choice((*SUPPRESSION_NEAR_MISSES, "# svcconf: ignore[{rule}]", "# svcconf: ignore")).format(rule=rule)
    at = rng.randrange(len(lines))
    if rng.random() < 0.5 and not lines[at].rstrip().endswith(("|", ">", "|-", ">-")):
        lines[at] = f"{lines[at]}  {comment}"
    else:
        lines.insert(at, comment)
    return "\n".join(lines)


# Patterns git reads: the costly, the broken (lone backslash, unclosed bracket, `//`), negations and odd characters.
HOSTILE_PATTERNS = (
    "**/a/**/a*c",
    "**/a/**/a/**/b",
    "*a*a*a*a*b",
    "a/**/*b*/**/c",
    "enc.yaml\\",
    "[enc.yaml",
    "deploy//enc.yaml",
    "!enc.yaml",
    "*.yaml",
    "enc.yaml",
    "/deploy/",
    "**",
    "\\!x\\ ",
    "[!/]*",
    "[z-a]",
    "#*.yaml",
    "\x00",
    "\u202e.yaml",
)


def pattern_lines(rng: Rng, count: int | None = None) -> list[str]:
    """Lines for a `.gitignore` or an `exclude` setting: hostile patterns, some repeated hundreds of times with a variation."""
    lines = [rng.choice(HOSTILE_PATTERNS) for _ in range(count or rng.randint(1, 8))]
    if rng.random() < 0.3:
        lines += [f"**/a/**/a*{'?' * (i % 7)}c{i}" for i in range(rng.choice((100, 1000)))]
    return lines


def baseline_text(rng: Rng, file: str) -> bytes:
    """A baseline file as a pull request could write it: valid, broken, huge, deep, or naming files outside."""
    entry = {"file": file, "rule": "unknown-field", "apiVersion": None, "kind": None, "path": "x", "value": None, "count": 1}
    choice = rng.randrange(8)
    if choice == 0:
        return b'{"svcconf-baseline": 1, "entries": [' + b"[" * 100_000 + b"]" * 100_000 + b"]}"
    if choice == 1:
        return b'{"svcconf-baseline": 1, "entries": [{"count": 1' + b"0" * 10_000 + b"}]}"
    if choice == 2:
        entry["file"] = rng.choice(("../../etc/passwd", "/tmp/x.yaml", "a\x00b", "\u202e.yaml"))
    if choice == 3:
        entry["count"] = rng.choice((0, -1, 10**30, True, "1"))
    if choice == 4:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 200)))
    import json

    return json.dumps({"svcconf-baseline": 1, "entries": [entry] * rng.randint(1, 3)}).encode()
