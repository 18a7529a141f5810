"""A small YAML writer for the generated corpus: comments, both sequence indentations, flow lists, mixed quoting.

Written by hand rather than with yaml.dump so that the output has what real files have and a
dumper does not. Documents are plain dicts and lists with a few marker types (Comment, Flow,
Inline, Literal, Quoted); plain_data() gives back what a YAML reader reads from the written text.
"""

from __future__ import annotations

import random
import re


class Comment:
    """A comment line before the next entry of a mapping or item of a sequence (a key or an item of its own)."""

    __slots__ = ("blank", "text")

    def __init__(self, text: str, blank: bool = False) -> None:
        self.text = text
        self.blank = blank  # an empty line before the comment


class Flow(list):
    """A sequence written in flow style: [a, b]."""


class Inline:
    """A scalar followed by a comment on the same line."""

    __slots__ = ("comment", "value")

    def __init__(self, value, comment: str) -> None:
        self.value = value
        self.comment = comment


class Literal(str):
    """A string written as a literal block scalar (|)."""


class Quoted(str):
    """A string always written in quotes."""


_RESERVED = frozenset(
    [
        "y",
        "Y",
        "yes",
        "Yes",
        "YES",
        "n",
        "N",
        "no",
        "No",
        "NO",
        "true",
        "True",
        "TRUE",
        "false",
        "False",
        "FALSE",
        "on",
        "On",
        "ON",
        "off",
        "Off",
        "OFF",
        "null",
        "Null",
        "NULL",
        "~",
        "=",
        "<<",
    ]
)
# PyYAML's own implicit resolvers by first character (YAML 1.1: ints, floats, base 60, timestamps,
# ...), a superset of what the API server's reader treats as non-strings.
_IMPLICIT: dict[str, list] = {}
try:  # pragma: no cover - PyYAML is installed wherever svcconf is
    import yaml.resolver as _resolver

    for _first, _entries in _resolver.Resolver.yaml_implicit_resolvers.items():
        _IMPLICIT[_first] = [regexp for tag, regexp in _entries if not tag.endswith((":str", ":merge", ":value"))]
except ImportError:  # pragma: no cover
    _IMPLICIT = {c: [re.compile(r"^[-+.0-9]")] for c in "-+.0123456789"}


def _plain_ok(text: str, flow: bool) -> bool:
    if not text or text in _RESERVED:
        return False
    if text[0] in "-?:,[]{}#&*!|>'\"%@` " or text[-1] in " :":
        return False
    if ": " in text or " #" in text or "\t" in text or "\n" in text:
        return False
    if flow and any(c in text for c in ",[]{}:"):
        return False
    return not any(regexp.match(text) for regexp in _IMPLICIT.get(text[0], ()))


class Style:
    """How one document is written; drawn once per document."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.top_indent = rng.random() < 0.45  # top-level sequences: "key:\n  - a" rather than "key:\n- a"
        self.nested_indent = rng.random() < (0.7 if self.top_indent else 0.4)
        self.flow = rng.choice((0.0, 0.5, 0.5, 0.85))  # share of short string lists written [a, b]
        self.quote = rng.choice((0.0, 0.0, 0.3, 0.9))  # share of plain-safe strings quoted anyway
        self.single = rng.random() < 0.2  # single rather than double quotes


def _scalar(value, style: Style, flow: bool = False) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value)
    forced = isinstance(value, Quoted)
    if not forced and _plain_ok(text, flow):
        # Flow lists are mostly written with quotes in real files: ["get", "list"].
        share = 0.85 if flow and style.quote else style.quote
        if style.rng.random() >= share:
            return text
    if style.single and "'" not in text:
        return f"'{text}'"
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _short_list(value) -> bool:
    return bool(value) and len(value) <= 6 and all(isinstance(v, str) for v in value)


def _value_lines(key: str, value, indent: int, depth: int, style: Style) -> list[str]:
    pad = " " * indent
    comment = ""
    if isinstance(value, Inline):
        comment = f" # {value.comment}"
        value = value.value
    if isinstance(value, Literal):
        body = [pad + "  " + line if line else "" for line in value.rstrip("\n").split("\n")]
        return [f"{pad}{key}: |{comment}", *body]
    if isinstance(value, dict):
        if not value:
            return [f"{pad}{key}: {{}}{comment}"]
        return [f"{pad}{key}:{comment}", *_map_lines(value, indent + 2, depth + 1, style)]
    if isinstance(value, list):
        if not value:
            return [f"{pad}{key}: []{comment}"]
        if isinstance(value, Flow) or (_short_list(value) and style.rng.random() < style.flow):
            return [f"{pad}{key}: [{', '.join(_scalar(v, style, flow=True) for v in value)}]{comment}"]
        step = 2 if (style.top_indent if depth == 0 else style.nested_indent) else 0
        return [f"{pad}{key}:{comment}", *_seq_lines(value, indent + step, depth + 1, style)]
    return [f"{pad}{key}: {_scalar(value, style)}{comment}"]


def _map_lines(mapping: dict, indent: int, depth: int, style: Style) -> list[str]:
    out: list[str] = []
    for key, value in mapping.items():
        if isinstance(key, Comment):
            if key.blank:
                out.append("")
            out.append(" " * indent + "# " + key.text)
            continue
        out.extend(_value_lines(key, value, indent, depth, style))
    return out


def _seq_lines(items: list, indent: int, depth: int, style: Style) -> list[str]:
    pad = " " * indent
    out: list[str] = []
    for item in items:
        if isinstance(item, Comment):
            if item.blank:
                out.append("")
            out.append(pad + "# " + item.text)
            continue
        comment = ""
        if isinstance(item, Inline):
            comment = f" # {item.comment}"
            item = item.value
        if isinstance(item, dict) and item:
            while item and isinstance(next(iter(item)), Comment):
                # A comment heading an item goes above its "- " line.
                first = next(iter(item))
                if first.blank:
                    out.append("")
                out.append(pad + "# " + first.text)
                item = {k: v for k, v in item.items() if k is not first}
            lines = _map_lines(item, indent + 2, depth, style)
            out.append(pad + "- " + lines[0][indent + 2 :] + comment)
            out.extend(lines[1:])
        elif isinstance(item, dict):
            out.append(f"{pad}- {{}}{comment}")
        else:
            out.append(f"{pad}- {_scalar(item, style)}{comment}")
    return out


def write_document(data: dict, style: Style) -> str:
    return "\n".join(_map_lines(data, 0, 0, style)) + "\n"


def plain_data(value):
    """The data a YAML reader gets back from a written value (for --check)."""
    if isinstance(value, Inline):
        return plain_data(value.value)
    if isinstance(value, dict):
        return {k: plain_data(v) for k, v in value.items() if not isinstance(k, Comment)}
    if isinstance(value, list):
        return [plain_data(v) for v in value if not isinstance(v, Comment)]
    if isinstance(value, str):
        return str(value)
    return value


# --------------------------------------------------------------------------- building blocks of the generators


def header(rng: random.Random, comments: tuple[str, ...], api_version: str, kind: str, *, kind_first: float) -> dict:
    """A document's opening: sometimes a comment, apiVersion and kind in either order (a new dict every call)."""
    doc: dict = {}
    if rng.random() < 0.3:
        doc[Comment(rng.choice(comments))] = None
    if rng.random() < kind_first:
        doc["kind"] = kind
    doc["apiVersion"] = api_version
    doc["kind"] = kind
    return doc


def pick(rng: random.Random, pool, low: int, high: int) -> list:
    """low to high distinct items of pool, in random order."""
    return rng.sample(list(pool), min(len(pool), rng.randint(low, high)))


def rename(mapping: dict, old: str, new: str) -> None:
    """Rename a key in place, keeping the order of keys."""
    items = [(new if k == old else k, v) for k, v in mapping.items()]
    mapping.clear()
    mapping.update(items)
