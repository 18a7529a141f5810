"""Where in svcconf a failure happened, and the CPU-time limit that samples where a slow call spends its time.

Causes name places without line numbers: lines move with every edit, functions and modules rarely.
"""

from __future__ import annotations

import collections
import contextlib
import os
import signal
import traceback

import svcconf

SVCCONF_DIR = os.path.dirname(os.path.abspath(svcconf.__file__))
HARNESS_DIR = os.path.dirname(os.path.abspath(__file__))
# A slow loop is charged to the outermost rule or conversion-table function on the stack (it may
# call helpers anywhere), else to the innermost svcconf module (the reader, a report format).
OWNERS = (os.path.join(SVCCONF_DIR, "rules") + os.sep, os.path.join(SVCCONF_DIR, "migrate", "tables") + os.sep)
SAMPLE = 0.25  # seconds of CPU time between two looks at the stack


class Hang(BaseException):
    """Raised into a call over its limit; not an Exception, so svcconf's `except Exception` guards let it pass."""

    def __init__(self, owner: str) -> None:
        super().__init__(owner)
        self.owner = owner


def _ours(frame: traceback.FrameSummary) -> bool:
    return os.path.abspath(frame.filename).startswith(SVCCONF_DIR + os.sep)


def _name(frame: traceback.FrameSummary) -> str:
    return os.path.relpath(frame.filename, os.path.dirname(SVCCONF_DIR)) if _ours(frame) else os.path.basename(frame.filename)


def where(frames: list[traceback.FrameSummary]) -> str:
    """The innermost svcconf frame as `svcconf/module.py:function` (else the innermost frame outside this harness)."""
    outside = [f for f in frames if not os.path.abspath(f.filename).startswith(HARNESS_DIR)]
    frame = ([f for f in outside if _ours(f)] or outside or [None])[-1]
    return "?" if frame is None else f"{_name(frame)}:{frame.name}"


def where_line(frames: list[traceback.FrameSummary]) -> str:
    ours = [f for f in frames if _ours(f)]
    return f"line {ours[-1].lineno}: {ours[-1].line}" if ours else ""


def owner(frames: list[traceback.FrameSummary]) -> str:
    for frame in frames:
        if os.path.abspath(frame.filename).startswith(OWNERS):
            return f"{_name(frame)}:{frame.name}"
    return where(frames).split(":", 1)[0]


@contextlib.contextmanager
def time_limit(seconds: float):
    """Raise Hang after `seconds` of CPU time (a busy shared machine slows the block but cannot fail it).

    The stack is sampled every SAMPLE seconds and the Hang names the most frequent owner: a single
    look would see wherever the loop happened to be, or where a garbage collection ended.
    """
    samples: collections.Counter = collections.Counter()
    ticks = max(1, round(seconds / SAMPLE))

    def look(_signum, frame) -> None:
        samples[owner(traceback.extract_stack(frame))] += 1
        if sum(samples.values()) >= ticks:
            raise Hang(min(samples, key=lambda name: (-samples[name], name)))

    previous = signal.signal(signal.SIGPROF, look)
    signal.setitimer(signal.ITIMER_PROF, SAMPLE, SAMPLE)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
