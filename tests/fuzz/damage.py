"""Damage below the YAML: bytes of the encoded file, and the name it is saved under."""

from __future__ import annotations

import codecs
import random

Rng = random.Random


def damage(rng: Rng, data: bytes) -> bytes:
    kind = rng.randrange(14)
    at = rng.randrange(len(data) + 1)
    if kind == 0:
        return data[:at]
    if kind == 1:
        out = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            if out:
                i = rng.randrange(len(out))
                out[i] ^= 1 << rng.randrange(8)
        return bytes(out)
    if kind == 2:
        return data[:at] + b"\0" + data[at:]
    if kind == 3:
        return data[:at] + rng.choice([b"\xff", b"\xc3", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x82"]) + data[at:]
    if kind == 4:
        return rng.choice([codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_LE, codecs.BOM_UTF8 * 2]) + data
    if kind == 5:
        text = data.decode("utf-8", errors="replace")
        encoding = rng.choice(["utf-16", "utf-32", "utf-16-le", "utf-16-be"])
        return text.encode(encoding)
    if kind == 6:
        return data[:at] + "\ufeff".encode() + data[at:]
    if kind == 7:
        return data.replace(b"\n", b"\r\n")
    if kind == 8:
        return data.replace(b"\n", b"\r")
    if kind == 9:
        return data.replace(b"\n  ", b"\n\t", rng.randint(1, 3))
    lines = data.split(b"\n")
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    if kind == 10:
        del lines[i]
    elif kind == 11:
        lines.insert(i, lines[j])
    elif kind == 12:
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    return b"\n".join(lines)


# --------------------------------------------------------------------------- file names


def odd_name(rng: Rng, suffix: str) -> bytes:
    suffix_b = suffix.encode()
    names = [
        b"a\nb",
        b"::error::x",
        b"::warning file=a,line=1::b",
        b"a\\b",
        b"\xff\xfe",
        b"caf\xe9",
        b"-x",
        b"--",
        b"-ostray.txt#",
        b"\x1b[31mred",
        b"a%0Ab",
        b"a,b:c=d",
        b" lead",
        b"a\rb",
        b"a\tb",
        b"<x>&amp;\"'",
        "é€𝟙".encode(),
        b"x" * 200,
        b"%25",
    ]
    name = rng.choice(names)
    if rng.random() < 0.15:  # the other reader: .json parses with JSON's rules
        suffix_b = b".json" if suffix_b != b".json" else b".yaml"
    return name + suffix_b
