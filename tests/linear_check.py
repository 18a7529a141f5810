"""A black-box check that a regular expression runs in linear time on adversarial input.

Python's `re` backtracks: a pattern that can match the same text in several ways inside a
repetition takes quadratic or exponential time on a string that almost matches. The checker
builds such strings from the pattern itself (its characters, pairs of them, prefixes of a match
and samples of each repeated part placed where the pattern expects them), followed by a character
that makes the match fail, and compares the CPU time on 1,000 and 10,000 characters: linear work
grows about 10x, quadratic about 100x. Under an absolute floor a pattern always passes (timers
are noisy; a quadratic pattern on 10,000 characters is far above it), and an alarm stops an
exponential pattern at once.
"""

from __future__ import annotations

import itertools
import re
import signal
import time
from collections.abc import Callable, Iterator
from re import _constants as C
from re import _parser as parser

SHORT, LONG = 1_000, 10_000
FLOOR = 0.02  # seconds on LONG input under which any growth is accepted
GROWTH_LIMIT = 35  # times slower on LONG than on SHORT input: linear is ~10, quadratic ~100
ALARM = 1.0  # seconds one match may take before it counts as exponential (linear work on LONG input takes ~10 ms)
FAILING_TAILS = ("\x00", "!", "\n")
_CATEGORY_SAMPLES = {
    C.CATEGORY_DIGIT: "0",
    C.CATEGORY_NOT_DIGIT: "a",
    C.CATEGORY_SPACE: " ",
    C.CATEGORY_NOT_SPACE: "a",
    C.CATEGORY_WORD: "a",
    C.CATEGORY_NOT_WORD: "-",
    C.CATEGORY_LINEBREAK: "\n",
    C.CATEGORY_NOT_LINEBREAK: "a",
}
_REPEATS = (C.MAX_REPEAT, C.MIN_REPEAT) + ((C.POSSESSIVE_REPEAT,) if hasattr(C, "POSSESSIVE_REPEAT") else ())


class TooSlow(Exception):
    """A single match ran past the alarm."""


class Verdict:
    """The worst input found for one pattern: its growth from SHORT to LONG, or that it never finished."""

    def __init__(self, sample: str, short: float, long: float, exponential: bool = False) -> None:
        self.sample, self.short, self.long, self.exponential = sample, short, long, exponential

    @property
    def linear(self) -> bool:
        if self.exponential:
            return False
        return self.long < FLOOR or self.long < GROWTH_LIMIT * max(self.short, 1e-6)

    def __str__(self) -> str:
        shown = repr(self.sample[:40]) + ("..." if len(self.sample) > 40 else "")
        if self.exponential:
            return f"no result within {ALARM}s on {shown}"
        return f"{self.short * 1000:.1f} ms on {SHORT} characters, {self.long * 1000:.1f} ms on {LONG}: {shown}"


# --------------------------------------------------------------------------- samples from the parse tree


def _class_samples(items) -> list[str]:
    out: list[str] = []
    negate = False
    for op, arg in items:
        if op is C.NEGATE:
            negate = True
        elif op is C.LITERAL:
            out.append(chr(arg))
        elif op is C.RANGE:
            out += [chr(arg[0]), chr(arg[1])]
        elif op is C.CATEGORY:
            out.append(_CATEGORY_SAMPLES.get(arg, "a"))
    if negate:
        excluded = set(out)
        return [next(ch for ch in "a0-. _/:xZ\x01" if ch not in excluded)]
    return out


def _witness(tree, count: Callable[[int, int], int], groups: dict) -> str:
    """One string the (sub)pattern matches, with `count` choosing how often each repetition runs."""
    out = []
    for op, arg in tree:
        if op is C.LITERAL:
            out.append(chr(arg))
        elif op is C.NOT_LITERAL:
            out.append("a" if chr(arg) != "a" else "b")
        elif op is C.ANY:
            out.append("a")
        elif op is C.IN:
            samples = _class_samples(arg)
            out.append(samples[0] if samples else "a")
        elif op is C.BRANCH:
            out.append(_witness(arg[1][0], count, groups))
        elif op is C.SUBPATTERN:
            text = _witness(arg[-1], count, groups)
            if arg[0]:
                groups[arg[0]] = text
            out.append(text)
        elif op in _REPEATS:
            low, high, body = arg
            out.append(_witness(body, count, groups) * count(low, high))
        elif op is C.GROUPREF:
            out.append(groups.get(arg, ""))
        elif op is getattr(C, "ATOMIC_GROUP", None):
            out.append(_witness(arg, count, groups))
    return "".join(out)


def _once(low: int, high: int) -> int:
    return min(max(low, 1), high)


def _twice_no_options(low: int, high: int) -> int:
    return low if high == 1 else min(max(low, 2), high)


def _least(low: int, high: int) -> int:
    return low


COUNTS = (_once, _twice_no_options, _least)


def _alphabet(tree, out: set[str]) -> None:
    for op, arg in tree:
        if op is C.LITERAL:
            out.add(chr(arg))
        elif op is C.IN:
            out.update(_class_samples(arg))
        elif op in (C.NOT_LITERAL, C.ANY):
            out.add("a")
        elif op is C.BRANCH:
            for branch in arg[1]:
                _alphabet(branch, out)
        elif op is C.SUBPATTERN:
            _alphabet(arg[-1], out)
        elif op in _REPEATS:
            _alphabet(arg[2], out)
        elif op in (C.ASSERT, C.ASSERT_NOT):
            _alphabet(arg[1], out)
        elif op is getattr(C, "ATOMIC_GROUP", None):
            _alphabet(arg, out)


def _repeated_parts(tree, before: Callable[[], str]) -> Iterator[tuple[Callable[[], str], object]]:
    """(prefix that reaches it, body) of every repetition, depth first."""
    items = list(tree)
    for index, (op, arg) in enumerate(items):

        def prefix(index=index) -> str:
            return before() + "".join(_witness([item], _once, {}) for item in items[:index])

        if op in _REPEATS:
            yield prefix, arg[2]
            yield from _repeated_parts(arg[2], prefix)
        elif op is C.SUBPATTERN:
            yield from _repeated_parts(arg[-1], prefix)
        elif op is C.BRANCH:
            for branch in arg[1]:
                yield from _repeated_parts(branch, prefix)
        elif op is getattr(C, "ATOMIC_GROUP", None):
            yield from _repeated_parts(arg, prefix)


def adversarial_inputs(pattern: str, flags: int = 0) -> Iterator[tuple[str, str]]:
    """(prefix, fragment) pairs: the checker repeats the fragment after the prefix, then adds a failing tail.

    Fragments are the pattern's characters, pairs of characters that sit side by side in a match,
    every prefix of a whole match (many starts that each scan far), and samples of each repeated part.
    """
    tree = parser.parse(pattern, flags)
    letters: set[str] = set()
    _alphabet(tree, letters)
    seen = set()

    def fresh(pair: tuple[str, str]) -> bool:
        if not pair[1] or pair in seen:
            return False
        seen.add(pair)
        return True

    for letter in sorted(letters):
        if fresh(("", letter)):
            yield "", letter
    items = list(tree)
    for count in COUNTS:
        whole = _witness(items, count, {})
        for a, b in itertools.pairwise(whole):
            if fresh(("", a + b)):
                yield "", a + b
        groups: dict = {}
        starts = [_witness(items[:end], count, groups) for end in range(1, len(items) + 1)]
        for start in starts:
            if fresh(("", start)):
                yield "", start
    for prefix, body in _repeated_parts(tree, lambda: ""):
        for count in COUNTS:
            pair = (prefix(), _witness(body, count, {}))
            if fresh(pair):
                yield pair


# --------------------------------------------------------------------------- timing


def _alarm(signum, frame):
    raise TooSlow


def _timed(run: Callable[[str], object], text: str) -> float:
    signal.setitimer(signal.ITIMER_REAL, ALARM)
    try:
        start = time.process_time()  # CPU time: other processes on a shared machine do not inflate it
        run(text)
        return time.process_time() - start
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _measure(run: Callable[[str], object], short_text: str, long_text: str) -> tuple[float, float]:
    """(short, long) times: one run when the long one is under the floor, else the best of three, interleaved
    so that a slow spell of the machine hits both sizes alike."""
    long = _timed(run, long_text)
    if long < FLOOR:
        return long, long
    short = float("inf")
    for _ in range(3):
        short = min(short, _timed(run, short_text))
        long = min(long, _timed(run, long_text))
    return short, long


def _build(prefix: str, fragment: str, tail: str, size: int) -> str:
    return prefix + fragment * max(1, (size - len(prefix)) // len(fragment)) + tail


def worst_case(run: Callable[[str], object], inputs: list[tuple[str, str]]) -> Verdict:
    """Time `run` on every adversarial input; the verdict of the input that grew fastest."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    worst = Verdict("", 0.0, 0.0)
    try:
        for prefix, fragment in inputs:
            for tail in FAILING_TAILS:
                long_text = _build(prefix, fragment, tail, LONG)
                try:
                    short, long = _measure(run, _build(prefix, fragment, tail, SHORT), long_text)
                except TooSlow:
                    return Verdict(long_text, 0.0, ALARM, exponential=True)
                verdict = Verdict(long_text, short, long)
                if not verdict.linear:
                    return verdict
                if long > worst.long:
                    worst = verdict
    finally:
        signal.signal(signal.SIGALRM, previous)
    return worst


def check_pattern(compiled: re.Pattern) -> Verdict:
    """The verdict for a compiled Python pattern: `search` and `fullmatch`, the two ways that backtrack most."""
    inputs = list(adversarial_inputs(compiled.pattern, compiled.flags))

    def run(text: str) -> None:
        compiled.search(text)
        compiled.fullmatch(text)

    return worst_case(run, inputs)


def _is_pattern(value: object) -> bool:
    return isinstance(value, re.Pattern)


def patterns_in(value: object, depth: int = 0) -> Iterator[re.Pattern]:
    """Compiled patterns held by a module attribute, including inside lists, tuples, sets and dicts."""
    if _is_pattern(value):
        yield value  # type: ignore[misc]
    elif depth < 3 and isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from patterns_in(item, depth + 1)
    elif depth < 3 and isinstance(value, dict):
        for item in value.values():
            yield from patterns_in(item, depth + 1)
