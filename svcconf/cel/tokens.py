"""CEL source text as tokens: enough of the lexer to find field selections and literals, never matching inside strings."""

from __future__ import annotations

import re

_STRING_FORMS = (
    r"'''(?:\\.|[^\\])*?'''",
    r'"""(?:\\.|[^\\])*?"""',
    r"'(?:\\.|[^'\\\n])*'",
    r'"(?:\\.|[^"\\\n])*"',
)
_TOKEN = re.compile(
    r"(?P<skip>\s+|//[^\n]*)"
    r"|(?P<string>[rRbB]{0,2}(?:" + "|".join(_STRING_FORMS) + "))"
    r"|(?P<number>0[xX][0-9a-fA-F]+[uU]?|\d*\.\d+(?:[eE][+-]?\d+)?|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?[uU]?)"
    r"|(?P<ident>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<optsel>\.\?)"
    r"|(?P<punct>.)",
    re.DOTALL | re.ASCII,  # CEL's digits and white space are ASCII
)


def tokens(expression: str) -> list[tuple[str, str, int]]:
    """(kind, text, offset) of each significant token; strings and comments never look like fields."""
    out = []
    for match in _TOKEN.finditer(expression):
        kind = match.lastgroup
        if kind != "skip":
            out.append((kind, match.group(), match.start()))
    return out
