"""Text work for rewrites: indentation of a file, document spans, scalar splices, added documents and ruamel re-emission."""

from __future__ import annotations

import json
import re
from typing import Any, NamedTuple

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode


class Indent(NamedTuple):
    mapping: int = 2
    sequence: int = 2  # column of an item's content relative to its parent key
    offset: int = 0  # column of the dash relative to its parent key


def detect_indent(roots: list[Node]) -> Indent:
    """The indentation most of the file uses: the commonest nested block mapping and block sequence steps."""
    from collections import Counter

    mappings: Counter = Counter()
    sequences: Counter = Counter()
    stack = list(roots)
    while stack:
        node = stack.pop()
        if isinstance(node, MappingNode) and not node.flow_style:
            for key, value in node.value:
                below = value.start_mark.line > key.start_mark.line
                if isinstance(value, MappingNode) and not value.flow_style and value.value and below:
                    mappings[value.start_mark.column - key.start_mark.column] += 1
                if isinstance(value, SequenceNode) and not value.flow_style and value.value and below:
                    first = value.value[0]
                    if first.start_mark.line == value.start_mark.line:
                        offset = value.start_mark.column - key.start_mark.column
                        sequences[(first.start_mark.column - key.start_mark.column, offset)] += 1
                stack.append(value)
        elif isinstance(node, SequenceNode):
            stack.extend(node.value)
    mapping = max(sorted(mappings), key=lambda step: mappings[step]) if mappings else 2
    mapping = mapping if mapping > 0 else 2
    sequence, offset = max(sorted(sequences), key=lambda pair: sequences[pair]) if sequences else (mapping, 0)
    if sequence < 2 or offset < 0:
        sequence, offset = mapping, 0
    return Indent(mapping, max(sequence, offset + 2), offset)


def node_at(root: Node, path: tuple) -> Node | None:
    """The node at a field path (keys and list indexes), or None."""
    node: Node | None = root
    for segment in path:
        if isinstance(node, MappingNode) and isinstance(segment, str):
            node = next((v for k, v in node.value if isinstance(k, ScalarNode) and k.value == segment), None)
        elif isinstance(node, SequenceNode) and isinstance(segment, int) and segment < len(node.value):
            node = node.value[segment]
        else:
            return None
    return node


def appended(so_far: str, root: Node, source: str, api_version: str, kind: str, moved: tuple) -> tuple[str, int]:
    """A document to add after `so_far`, and the line of its apiVersion.

    It holds apiVersion, kind and the `moved` scalars ((new path, path under `root`)), each written
    as `source` writes it, with its end-of-line comment; nested keys use the document's indentation.
    """
    newline = "\r\n" if "\r\n" in source else "\n"
    lead = newline if so_far and not so_far.endswith("\n") else ""
    lines = ["---", f"apiVersion: {api_version}", f"kind: {kind}"]
    step = detect_indent([root]).mapping
    opened: tuple = ()
    for new_path, old_path in moved:
        shared = 0
        while shared < min(len(opened), len(new_path) - 1) and opened[shared] == new_path[shared]:
            shared += 1
        lines.extend(" " * step * depth + f"{new_path[depth]}:" for depth in range(shared, len(new_path) - 1))
        lines.append(" " * step * (len(new_path) - 1) + f"{new_path[-1]}: {_as_written(source, node_at(root, old_path))}")
        opened = new_path[:-1]
    return lead + newline.join(lines) + newline, so_far.count("\n") + (1 if lead else 0) + 2


def _as_written(source: str, node: Node | None) -> str:
    """A scalar's text with its end-of-line comment, as the source has them (a multi-line scalar: as JSON)."""
    if not isinstance(node, ScalarNode):
        raise TypeError("only scalars move into a new document")
    if node.start_mark.line != node.end_mark.line:
        return json.dumps(node.value, ensure_ascii=False)
    line_end = source.find("\n", node.end_mark.index)
    rest = source[node.end_mark.index : len(source) if line_end < 0 else line_end].rstrip("\r")
    return source[node.start_mark.index : node.end_mark.index] + (rest.rstrip() if rest.lstrip().startswith("#") else "")


def last_leaf(node: Node) -> Node:
    while isinstance(node, (MappingNode, SequenceNode)) and node.value and not node.flow_style:
        last = node.value[-1]
        node = last[1] if isinstance(node, MappingNode) else last
    return node


def body_span(text: str, root: Node) -> tuple[int, int]:
    """Where a document's content starts and ends: leading comments, `---` and trailing lines stay outside.

    The end includes an end-of-line comment on the last content line, which belongs to its field.
    """
    start = root.start_mark.index
    end = last_leaf(root).end_mark.index
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    rest = text[end:line_end].rstrip("\r")
    if not rest.strip() or rest.lstrip().startswith("#"):
        end += len(rest)
    return start, end


# A command-line flag (`--name=value`) stays plain too: `-` and `--` before a word start no YAML indicator.
_PLAIN_SAFE = re.compile(r"^-{0,2}[A-Za-z0-9_./][A-Za-z0-9_./:=+-]*$")


def scalar_changes(old: Any, new: Any, path: tuple = ()) -> list[tuple[tuple, Any]] | None:
    """Scalars whose value differs, when both trees have the same shape and key order; else None."""
    if isinstance(old, dict) and isinstance(new, dict):
        if list(old) != list(new):
            return None
        out: list[tuple[tuple, Any]] = []
        for key in old:
            found = scalar_changes(old[key], new[key], (*path, key))
            if found is None:
                return None
            out.extend(found)
        return out
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return None
        out = []
        for index, (a, b) in enumerate(zip(old, new)):
            found = scalar_changes(a, b, (*path, index))
            if found is None:
                return None
            out.extend(found)
        return out
    if isinstance(old, (dict, list)) or isinstance(new, (dict, list)):
        return None
    return [] if type(old) is type(new) and old == new else [(path, new)]


def scalar_text(value: Any, node: ScalarNode) -> str:
    """The YAML text of a new scalar value written where `node` was: same quotes where they fit."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)) and node.style not in ("'", '"'):
        return str(value)
    text = str(value)
    if node.style == "'" and "\n" not in text:
        return "'" + text.replace("'", "''") + "'"
    if node.style == '"' or not _plain_is_string(text):
        return json.dumps(text, ensure_ascii=False)
    return text


def _plain_is_string(text: str) -> bool:
    if not _PLAIN_SAFE.match(text):
        return False
    import yaml

    try:
        return yaml.safe_load(text) == text
    except yaml.YAMLError:
        return False


def round_trip_yaml(indent: Indent):
    from ruamel.yaml import YAML

    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 1 << 30  # never wrap
    yaml.indent(mapping=indent.mapping, sequence=indent.sequence, offset=indent.offset)
    return yaml


def dump(yaml: Any, data: Any) -> str:
    import io

    stream = io.StringIO()
    yaml.dump(data, stream)
    return stream.getvalue()


def fix_comments(text: str, fixes: list[tuple[str, str, int, str]]) -> str:
    """Place moved end-of-line comments: keep their gap to the value, or their column when it fits.

    A fix names its comment and, where known, the key on its line; fixes that name the same line
    text apply in order to the lines that carry it, and not at all when the counts differ.
    """
    if not fixes:
        return text
    lines = text.split("\n")
    groups: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for comment, policy, amount, key in fixes:
        if comment:
            groups.setdefault((comment, key), []).append((policy, amount))
    for (comment, key), placed in groups.items():
        hits = [i for i, line in enumerate(lines) if "#" in line and line.rstrip().endswith(comment) and _has_key(line, comment, key)]
        if len(hits) != len(placed):
            continue
        for index, (policy, amount) in zip(hits, placed):
            line = lines[index]
            at = line.rstrip().rfind(comment)
            content = line[:at].rstrip()
            if not content.strip():
                continue
            if policy == "column" and len(content) + 1 <= amount:
                lines[index] = content.ljust(amount) + line[at:]
            else:
                lines[index] = content + " " * max(amount, 1) + line[at:]
    return "\n".join(lines)


def _has_key(line: str, comment: str, key: str) -> bool:
    if not key:
        return True
    content = line[: line.rstrip().rfind(comment)].strip().removeprefix("- ").lstrip()
    return content.startswith(f"{key}:")


def keep_original_lines(original: list[str], normalised: list[str], changed: list[str]) -> list[str]:
    """The changed document's lines, with every line the change did not touch taken from the source.

    `normalised` is the unchanged document as the dumper writes it; where it differs from the
    source only in spelling (`[ a ]` for `[a]`, a sequence's indentation) the source line is kept.
    """
    from .match import opcodes

    source_of: dict[int, str] = {}
    for tag, i1, i2, j1, j2 in opcodes(original, normalised):
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            for offset in range(j2 - j1):
                source_of[j1 + offset] = original[i1 + offset]
    out: list[str] = []
    for tag, i1, i2, j1, j2 in opcodes(normalised, changed):
        if tag == "equal":
            out.extend(source_of.get(i, normalised[i]) for i in range(i1, i2))
        else:
            out.extend(changed[j1:j2])
    return out
