"""The literal checks the API server's CEL environment runs after type-checking, which the checker lacks.

The base environment (staging/src/k8s.io/apiserver/pkg/cel/environment/base.go) refuses mixed-type
list and map literals at every release, and from 1.29 constant arguments of duration(), timestamp()
and matches() that cannot be evaluated (cel-go's ValidateDurationLiterals, ValidateTimestampLiterals,
ValidateRegexLiterals and ValidateHomogeneousAggregateLiterals). These checks read the token stream of
an expression that already type-checked; where they cannot tell a type or value for sure, they stay
silent, so they never refuse what the server accepts.
"""

from __future__ import annotations

import calendar
import re
import warnings
from typing import NamedTuple

from ..go.durations import parse_duration
from ..model import at_least
from .tokens import tokens

Issue = tuple  # (line, column, message)

# Tokens after which `[` indexes and `{` constructs a message; elsewhere they open a literal.
_OPERAND_END = {"ident", "string", "number"}
_CLOSERS = {")", "]", "}"}
_PAIRS = {"(": ")", "[": "]", "{": "}"}
_INT64 = 1 << 63
# cel-go's timestamp range: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z, in Unix seconds.
_MIN_UNIX, _MAX_UNIX = -62135596800, 253402300799
_RFC3339 = re.compile(
    r"^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{1,2}):([0-9]{2}):([0-9]{2})(?:[.,][0-9]+)?(?:Z|([+-])([0-9]{2}):([0-9]{2}))\Z"
)


class _Frame(NamedTuple):
    opener: str  # "(", "[" or "{"
    kind: str  # call, group, index, list, map, message
    name: str  # the function name of a call
    start: int  # token index of the opener
    elements: list  # [first token, last token, key end or -1, optional] per element


def literal_issues(expression: str, target: tuple) -> list[Issue]:
    """Issues cel-go's literal validators report for an expression that type-checked."""
    toks = tokens(expression)
    issues: list[tuple[int, str]] = []  # (offset, message)
    if at_least(target, 1, 29):
        issues += _call_literals(toks)
    issues += _aggregates(toks)
    return [(*_line_column(expression, offset), message) for offset, message in sorted(set(issues))]


def _line_column(expression: str, offset: int) -> tuple[int, int]:
    line = expression.count("\n", 0, offset) + 1
    return line, offset - (expression.rfind("\n", 0, offset) + 1) + 1


# --------------------------------------------------------------------------- duration, timestamp, matches


def _call_literals(toks: list) -> list[tuple[int, str]]:
    found = []
    for i, (kind, text, _offset) in enumerate(toks):
        if kind != "ident" or text not in ("duration", "timestamp", "matches") or i + 3 >= len(toks) or toks[i + 1][1] != "(":
            continue
        arg, after = toks[i + 2], i + 3
        if arg[1] == "-" and toks[after][0] == "number":  # a negative number is one literal
            arg, after = ("number", "-" + toks[after][1], arg[2]), after + 1
        # Only a lone literal argument is checked: the next token closes the call (or ends the first argument).
        if after >= len(toks) or toks[after][1] not in (")", ","):
            continue
        member = i > 0 and toks[i - 1][1] == "."
        if text != "matches" and (member or toks[after][1] != ")"):
            continue
        if _refused(text, arg):
            found.append((arg[2], f"invalid {text} argument"))
    return found


def _refused(function: str, token: tuple) -> bool:
    kind, text, _offset = token
    if function == "timestamp" and kind == "number":
        value = _int_value(text)
        return value is not None and not _MIN_UNIX <= value <= _MAX_UNIX
    value = string_value(text) if kind == "string" else None
    if value is None:
        return False
    if function == "duration":
        nanos = parse_duration(value)
        return nanos is None or not -_INT64 <= nanos < _INT64
    if function == "timestamp":
        return not _valid_timestamp(value)
    return regex_refused(value)


def _int_value(text: str) -> int | None:
    """An int literal's value (decimal or hex, maybe negative); None for uint, double or anything else."""
    match = re.fullmatch(r"(-?)(?:0[xX]([0-9a-fA-F]+)|(\d+))", text)
    if not match:
        return None
    value = int(match.group(2), 16) if match.group(2) else int(match.group(3))
    return -value if match.group(1) else value


def _valid_timestamp(value: str) -> bool:
    """Go's time.Parse(time.RFC3339, value), then cel-go's range check."""
    match = _RFC3339.match(value)
    if not match:
        return False
    year, month, day, hour, minute, second = (int(match.group(n)) for n in range(1, 7))
    if not (1 <= month <= 12 and hour < 24 and minute < 60 and second < 60):
        return False
    if not 1 <= day <= _DAYS[month - 1] + (month == 2 and calendar.isleap(year)):
        return False
    offset = 0
    if match.group(7):
        offset = (int(match.group(8)) * 60 + int(match.group(9))) * 60 * (1 if match.group(7) == "+" else -1)
    unix = _days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset
    return _MIN_UNIX <= unix <= _MAX_UNIX


_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date, year 0 included (Go parses it)."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"', "`": "`", "?": "?"}
_ESCAPE = re.compile(r"\\(?:([abfnrtv\\'\"`?])|x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|([0-3][0-7]{2}))")


def string_value(text: str) -> str | None:
    """The value of a CEL string literal token; None for bytes or an escape this reader does not know."""
    prefix = re.match(r"[rRbB]*", text).group()
    if "b" in prefix.lower():
        return None
    body = text[len(prefix) :]
    quote = body[:3] if body[:3] in ("'''", '"""') else body[:1]
    body = body[len(quote) : len(body) - len(quote)]
    if "r" in prefix.lower():
        return body
    out, position = [], 0
    for match in _ESCAPE.finditer(body):
        if "\\" in body[position : match.start()]:
            return None
        out.append(body[position : match.start()])
        simple, hex2, hex4, hex8, octal = match.groups()
        code = int(hex2 or hex4 or hex8, 16) if (hex2 or hex4 or hex8) else (int(octal, 8) if octal else None)
        if code is not None and (code > 0x10FFFF or 0xD800 <= code <= 0xDFFF):
            return None
        out.append(_ESCAPES[simple] if simple else chr(code))
        position = match.end()
    if "\\" in body[position:]:
        return None
    out.append(body[position:])
    return "".join(out)


# Go's regexp (RE2) refuses these Perl constructs that Python compiles: lookaround, atomic groups,
# comments, conditionals, named backreferences, bad group names, possessive repetition, repeat counts over 1000
# (and numbered backreferences, found by the scan below).
_OVER_1000 = r"(?:[1-9]\d{4,}|[2-9]\d{3}|1[1-9]\d\d|10[1-9]\d|100[1-9])"
_PERL_ONLY = re.compile(rf"\(\?<?[=!]|\(\?[>#(]|\(\?P=|\(\?P?<(?![=!])(?!\w+>)|[*+?]\+|{{{_OVER_1000}(?:,\d*)?}}|{{\d+,{_OVER_1000}}}")


def _perl_only(pattern: str) -> bool:
    """Look for _PERL_ONLY and backreferences outside escapes and character classes, in one pass."""
    i, length = 0, len(pattern)
    while i < length:
        char = pattern[i]
        if char == "\\":
            if pattern[i + 1 : i + 2] in tuple("123456789"):
                return True
            i += 2
        elif char == "[":
            end = i + 1 + (pattern[i + 1 : i + 2] == "^")
            end += pattern[end : end + 1] == "]"  # a leading ] is a member
            while end < length and pattern[end] != "]":
                end += 2 if pattern[end] == "\\" else 1
            i = end + 1
        elif _PERL_ONLY.match(pattern, i):
            return True
        else:
            i += 1
    return False


# Python compile errors whose cause Go's regexp refuses too: unbalanced groups and classes, a repeated
# repetition, a reversed range or repeat count, a trailing backslash.
_SHARED_ERRORS = (
    "missing ), unterminated subpattern",
    "unbalanced parenthesis",
    "unterminated character set",
    "multiple repeat",
    "bad character range",
    "bad escape (end of pattern)",
    "min repeat greater than max repeat",
)


def regex_refused(pattern: str) -> bool:
    """Whether Go's regexp.Compile certainly refuses `pattern` (approximate: silent when unsure)."""
    if _perl_only(pattern):
        return True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # FutureWarnings about sets Go reads differently anyway
            re.compile(pattern)
    except re.error as error:
        message = str(error)
        if message.startswith("nothing to repeat"):
            # Go repeats an assertion (`^*`) but not nothing: at the start, after `(` or `|`.
            return error.pos is not None and (error.pos == 0 or pattern[error.pos - 1] in "(|")
        return message.startswith(_SHARED_ERRORS)
    except (RecursionError, OverflowError, ValueError):
        return False
    return False


# --------------------------------------------------------------------------- homogeneous aggregates


def _aggregates(toks: list) -> list[tuple[int, str]]:
    """ValidateHomogeneousAggregateLiterals: every element (and map key, and map value) has the first one's type."""
    found: list[tuple[int, str]] = []
    stack: list[_Frame] = []
    typed: dict[tuple[int, int], str] = {}  # (opener, closer) token indexes of a literal -> its type
    pending_ternary: list[int] = []
    for i, (kind, text, _offset) in enumerate(toks):
        if text in _PAIRS:
            before = toks[i - 1] if i else None
            operand = before is not None and (before[0] in _OPERAND_END and before[1] != "in" or before[1] in _CLOSERS)
            if text == "(":
                frame_kind = "call" if before is not None and before[0] == "ident" else "group"
            elif text == "[":
                frame_kind = "index" if operand else "list"
            else:
                frame_kind = "message" if operand else "map"
            name = before[1] if frame_kind == "call" else ""
            stack.append(_Frame(text, frame_kind, name, i, [[i + 1, i, -1, False]]))
            pending_ternary.append(0)
            continue
        if not stack:
            continue
        frame = stack[-1]
        current = frame.elements[-1]
        if text == ",":
            frame.elements.append([i + 1, i, -1, False])
            pending_ternary[-1] = 0
        elif text == "?" and current[1] < current[0]:
            current[3] = True  # an optional element or entry: `[?x]`, `{?k: v}`
            current[0] = i + 1
        elif text == "?":
            pending_ternary[-1] += 1
        elif text == ":" and frame.kind == "map" and pending_ternary[-1] == 0 and current[2] < 0:
            current[2] = i
        elif text == ":" and pending_ternary[-1]:
            pending_ternary[-1] -= 1
        elif text == _PAIRS[frame.opener]:
            stack.pop()
            pending_ternary.pop()
            if frame.kind in ("list", "map"):
                exempt = _in_format_call(stack)
                own = _check_aggregate(frame, toks, typed, found, exempt)
                if own:
                    typed[(frame.start, i)] = own
            if stack:
                stack[-1].elements[-1][1] = i
            continue
        if text not in (",",) and not (text == "?" and current[1] < current[0]):
            current[1] = i
    return found


def _in_format_call(stack: list[_Frame]) -> bool:
    """cel-go exempts literals nested (through other literals) in a string format() call."""
    for frame in reversed(stack):
        if frame.kind == "call":
            return frame.name == "format"
        if frame.kind not in ("list", "map", "group"):
            return False
    return False


def _check_aggregate(frame: _Frame, toks: list, typed: dict, found: list, exempt: bool) -> str | None:
    """Report mixed element types of one literal; return its own type when every element's is known."""
    elements = [e for e in frame.elements if e[1] >= e[0]]
    if frame.kind == "list":
        spans = [(e[0], e[1], e[3]) for e in elements]
        element_type = _homogeneous(spans, toks, typed, found, exempt, stop_at_mismatch=True)
        return f"list({element_type})" if element_type else None
    keys = [(e[0], e[2] - 1, False) if e[2] > 0 else (0, -1, False) for e in elements]
    values = [(e[2] + 1, e[1], e[3]) if e[2] > 0 else (0, -1, False) for e in elements]
    key_type = _homogeneous(keys, toks, typed, found, exempt, stop_at_mismatch=False)
    value_type = _homogeneous(values, toks, typed, found, exempt, stop_at_mismatch=False)
    return f"map({key_type}, {value_type})" if key_type and value_type else None


def _homogeneous(spans: list, toks: list, typed: dict, found: list, exempt: bool, stop_at_mismatch: bool) -> str | None:
    """The common type of a run of elements, reporting those that differ from the first; None when not uniform and known."""
    expected = _span_type(spans[0], toks, typed) if spans else None
    if expected is None:
        return None
    uniform = True
    for span in spans[1:]:
        actual = _span_type(span, toks, typed)
        if actual is None:
            return None  # cel-go may report this element: say nothing more about the literal
        if actual != expected:
            uniform = False
            if not exempt:
                found.append((toks[span[0]][2], f"expected type '{expected}' but found '{actual}'"))
            if stop_at_mismatch:
                return None
    return expected if uniform else None


def _span_type(span: tuple, toks: list, typed: dict) -> str | None:
    first, last, optional = span
    if optional or last < first:
        return None
    if (first, last) in typed:
        return typed[(first, last)]
    if last - first == 1 and toks[first][1] == "-" and toks[last][0] == "number":
        first += 1  # a negative number literal
    if first != last:
        return None
    kind, text, _offset = toks[first]
    if kind == "string":
        return "bytes" if "b" in re.match(r"[rRbB]*", text).group().lower() else "string"
    if kind == "number":
        lowered = text.lower()
        if lowered.endswith("u"):
            return "uint"
        if lowered.startswith("0x"):
            return "int"
        return "double" if ("." in lowered or "e" in lowered) else "int"
    if kind == "ident" and text in ("true", "false"):
        return "bool"
    if kind == "ident" and text == "null":
        return "null_type"
    return None
