"""Go's view of a string: its length in bytes, and what strings.TrimSpace removes."""

from __future__ import annotations

# unicode.IsSpace: Python's str.isspace() also counts the separators U+001C..U+001F, Go does not.
_GO_SPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"


def byte_length(text: str) -> int:
    """len(s) in Go: UTF-8 bytes, which is what Kubernetes' length limits count."""
    return len(text.encode("utf-8", "surrogatepass"))


def trim_space(text: str) -> str:
    """strings.TrimSpace."""
    return text.strip(_GO_SPACE)
