"""Hostile values as one-line YAML fragments: wrong types, huge numbers, odd tags, long and odd strings."""

from __future__ import annotations

import base64
import json
import random
import re
import string

# One of each YAML type, as a fragment that fits any value position (block or flow).
WRONG_TYPES = {
    "null": ["null", "~", '""'],
    "bool": ["true", "false", "yes", "off", "True"],
    "int": ["0", "-1", "100000000000000000000", "0x1F", "0o17", "017", "1_000", "-0"],
    "float": ["1.5", "-0.0", ".inf", "-.inf", ".nan", "1e3"],
    "string": ['"x"', '""', '"::"', '"*"', '"-1s"', '"1"', '"true"', '" "', '"a,b"'],
    "list": ["[]", "[1, a]", "[[]]", "[{}]", "[null]", "[[1, 2], [3]]"],
    "map": ["{}", "{a: 1}", "{apiVersion: v1}", '{"": 1}', "{1: 2}", "{true: x}", "{~: x}", "{a: {b: [c]}}"],
}

# Keys of odd types: the server's JSON conversion refuses them, a rule may not expect them.
ODD_KEYS = ["1", "true", "~", "1.5", "[a]", "{a: b}", '""', '"::error::k"', '"a\\nb"', "<<"]

HUGE_DIGITS = 5_000


def huge_numbers(rng: random.Random) -> list[str]:
    digits = HUGE_DIGITS + rng.randrange(200)
    nines = "9" * digits
    return [
        nines,
        "-" + nines,
        "0x" + "f" * digits,
        "0o" + "7" * digits,
        "0" + "7" * digits,
        "0b" + "1" * (4 * digits),
        "1_" * digits + "0",
        "1e999",
        "-1e999",
        "1e-999",
        "1e99999999999999999999",
        "1" + "0" * digits + ".5",
        "0." + "1" * digits,
        nines + "e" + nines,
        "1:" * (digits // 10) + "1",
        f'"{nines}"',
        f'"{nines}s"',
        f'"{nines}Gi"',
        f'"{nines}.1.1.1"',
        f'"1.1.1.1:{nines}"',
        f'"1.1.1.1/{nines}"',
        f'"{nines}m"',
        f'"0x{nines}"',
        f'"{nines}h{nines}m"',
        f'"1e{nines}"',
    ]


# A Go duration as a fixture writes one ("15s", "1m30s", "100ms"), checked on short values only.
DURATION = re.compile(r"[-+]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:ns|us|µs|μs|ms|s|m|h))+")
DURATION_LENGTHS = (21, 40, 300, 10_000)  # real durations are short: a parser may assume so


def long_durations(rng: random.Random) -> list[str]:
    """Durations of 21 to 10,000 characters: valid sums, long fractions, overflows, a fault at the end."""
    n = rng.choice(DURATION_LENGTHS)
    return [
        "1h" * (n // 2),
        "-" + "1m" * (n // 2),
        "0." + "0" * n + "1s",
        "1" * n + "s",
        "1.5h" + "30m" * (n // 3),
        "1" + "s" * n,
        "1h" * (n // 2) + "1",
        "1h" * (n // 2) + "x",
        "1" + "0" * n + "ns",
    ]


ODD_TAGS = [
    "!!omap [{a: 1}, {b: 2}]",
    "!!omap [a, b]",
    "!!set {a, b}",
    "!!set {a: 1}",
    "!!binary aGVsbG8=",
    "!!binary '!!!'",
    "!!int 1e5",
    "!!int abc",
    "!!int 0x" + "f" * 40,
    "!!float abc",
    "!!float 0x1p3",
    "!!bool maybe",
    "!!null x",
    "!!str 1",
    "!!map [1]",
    "!!seq {a: 1}",
    "!!timestamp 2001-12-14",
    "!!timestamp 2001-02-30",
    "!!timestamp not-a-date",
    "!!pairs [{a: 1}, {a: 2}]",
    "!!merge x",
    "!!value x",
    "!!python/object/apply:os.system ['true']",
    "!foo bar",
    "!foo {a: 1}",
    "!foo [1]",
    "!<tag:yaml.org,2002:str> x",
    "! 12",
    "!!yaml x",
]

# Control characters and workflow-command starts, for keys and values.
CONTROL = [
    "\n::error::injected",
    "\r\n::warning file=x::injected",
    "\n::add-mask::x",
    "\n::stop-commands::resume",
    "\x1b[2J\x1b[31mred",
    "\x1b]8;;https://example.invalid\x07link\x1b]8;;\x07",
    "\x9b31m",
    "\x07\x08\x7f",
    "\x00",
    "\u0085::error::nel",
    "\u2028::error::ls",
    "\u202eevil",
    "%0A::error::pre-escaped",
    "\t",
]

# Digits of other scripts: Python's int() and str.isdigit() accept several, Go's parsers none.
DIGIT_SCRIPTS = [0x0660, 0x06F0, 0x0966, 0x09E6, 0x0E50, 0xFF10, 0x1D7CE, 0x1040]
SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"

BAD_CHARS = ["!", " ", "_", "é", "\u200b", "..", "-", ":", "/", "\x7f", "%", "*", "\\", "@"]


def quoted(text: str) -> str:
    """A double-quoted YAML scalar for any text (JSON escapes are YAML escapes)."""
    return json.dumps(text, ensure_ascii=False)


def other_digits(text: str, rng: random.Random) -> str:
    if rng.random() < 0.15:
        table = {str(d): SUPERSCRIPTS[d] for d in range(10)}
    else:
        zero = rng.choice(DIGIT_SCRIPTS)
        table = {str(d): chr(zero + d) for d in range(10)}
    digits = [i for i, ch in enumerate(text) if ch in table]
    if not digits:
        return "".join(table[d] for d in "123")
    if rng.random() < 0.5:  # all of them, or just one
        return "".join(table.get(ch, ch) for ch in text)
    i = rng.choice(digits)
    return text[:i] + table[text[i]] + text[i + 1 :]


def alphabet_of(text: str) -> str:
    """The plausible alphabet of a value: the classes of characters it is written with."""
    classes = [string.ascii_lowercase, string.ascii_uppercase, string.digits]
    out = "".join(c for c in classes if any(ch in c for ch in text))
    out += "".join(sorted({ch for ch in text if not ch.isalnum() and ch.isprintable()}))
    return out or string.ascii_lowercase


def long_string(text: str, rng: random.Random, length: int = 10_000) -> str:
    """A value of `length` characters of the field's own alphabet, ended by a character it may refuse."""
    shape = rng.randrange(4)
    alphabet = alphabet_of(text)
    if shape == 0 and text:
        body = (text * (length // max(len(text), 1) + 1))[:length]
    elif shape == 1:
        body = rng.choice(alphabet) * length
    elif shape == 2:  # label-like runs: "a.a.a", "a-a-a", "a:a:a"
        sep = rng.choice([".", "-", ":", "/", "=", ",", "*", "@", "_"])
        body = (rng.choice(alphabet) + sep) * (length // 2)
    else:
        body = "".join(rng.choice(alphabet) for _ in range(length))
    return body + rng.choice(BAD_CHARS)


def secret_forms(marker: str, rng: random.Random) -> str:
    """The planted marker, written as a secret field might hold it (valid, invalid or mistyped)."""
    encoded = base64.b64encode(marker.encode()).decode()
    forms = [
        marker,
        quoted(marker),
        encoded,
        quoted(marker + "\n::error::x"),
        quoted(marker + "!"),
        f"[{marker}]",
        f"{{a: {marker}}}",
        f"[{{secret: {marker}}}]",
        quoted(marker * 200),
        quoted(" " + marker),
        f"!!binary {encoded}",
        f"!foo {marker}",
    ]
    return rng.choice(forms)


def marker_texts(marker: str) -> tuple[str, ...]:
    """What must never appear in any output once `marker` was planted (the plain and base64 forms)."""
    encoded = base64.b64encode(marker.encode()).decode()
    return (marker.rsplit("-", 1)[0], encoded[:16])


# --------------------------------------------------------------------------- CEL that busts an evaluation budget


def growing_expression(rng: random.Random, start: str) -> str:
    """A CEL string expression from `start` (a string) that grows past any budget, or spends seconds on little memory."""
    shape = rng.randrange(6)
    if shape == 0:  # each `a` ten to a thousand of them, again and again (nested replace)
        insert = "a" * rng.choice([10, 100, 1000])
        return start + f".replace('a', '{insert}')" * rng.randint(3, 12)
    if shape == 1:  # text between every two characters
        return start + f".replace('', '{'x' * rng.choice([2, 50, 1000])}')" * rng.randint(2, 8)
    if shape == 2:  # copies in nested comprehensions, no function at all: copies**depth in a few hundred characters
        return _multiplied(start, rng.choice([2, 4, 10]), rng.randint(6, 8))
    if shape == 3:  # a list larger than any memory, or comprehensions past the iteration budget
        size = rng.choice(["1000000000", "100000", "3000"])
        return f"string(lists.range({size}).map(i, {start}).size())"
    if shape == 4:  # the same large string copied in a loop: seconds, and little memory
        big = "'aaaaaaaaaa'" + ".replace('a', 'aaaaaaaaaa')" * rng.randint(5, 7)
        return f"[{big}].all(s, lists.range({rng.choice([10, 100, 9000])}).all(i, s.replace('a', 'b').size() > 0)) ? {start} : ''"
    return f"[{start}, {start}].join({start})" + ".replace('a', 'aaaaaaaaaa')" * rng.randint(4, 9)


def _multiplied(start: str, copies: int, depth: int) -> str:
    """`[start].map(s0, [s0 + s0].map(s1, ... s<depth>)[0])[0]` with `copies` terms: `start` copies**depth times."""
    inner = f"s{depth}"
    for level in range(depth, 0, -1):
        inner = f"[{' + '.join([f's{level - 1}'] * copies)}].map(s{level}, {inner})[0]"
    return f"[{start}].map(s0, {inner})[0]"
