"""What every command shares: exit codes, argument types, and how to report a problem."""

from __future__ import annotations

import argparse
import contextlib
import gc
import sys

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2

SEVERITIES = ("error", "warning", "info")


@contextlib.contextmanager
def loading():
    """Around a command's imports: the modules they load live as long as the process, so the cyclic collector is kept
    from walking them while they load (a few percent of a one-file run) and left to skip them afterwards."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if collecting:
            gc.enable()


def error(message: str) -> None:
    """One line on stderr; paths and values in `message` are escaped, so input cannot add lines."""
    from ..escape import printable

    sys.stderr.write(f"svcconf: {printable(message)}\n")


def usage(parser: argparse.ArgumentParser) -> int:
    """A command group run without its sub-command: its help, and the usage exit code."""
    parser.print_help()
    return EXIT_USAGE


def comma_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def size(text: str) -> int:
    units = {"k": 1024, "m": 1024**2, "g": 1024**3}
    text = text.strip().lower().removesuffix("ib").removesuffix("b")
    factor = units.get(text[-1:], 1)
    number = text[:-1] if text[-1:] in units else text
    digits = number.replace(".", "", 1)
    if not (digits.isascii() and digits.isdigit()):  # plain decimal: no sign, exponent, inf or other scripts' digits
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 8M)")
    return int(float(number) * factor)


def config_problems(err) -> list[str]:
    """An unusable configuration file's problems, one line each with its position."""
    return [
        f"{d.file}:{d.line}:{d.column}: invalid configuration:" + (f" {d.path_text}:" if d.path_text else "") + f" {d.message}"
        for d in err.diagnostics
    ]


def config_error(err) -> int:
    """Report an unusable configuration file on stderr; the usage exit code."""
    for problem in config_problems(err):
        error(problem)
    return EXIT_USAGE
