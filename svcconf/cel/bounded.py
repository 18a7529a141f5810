"""CEL evaluation for `explain` within a budget, as the API server evaluates within its cost limit.

The server gives every evaluation of an authentication or authorization expression a runtime
cost limit of 1,000,000 (`PerCallLimit`, k8s.io/apiserver/pkg/apis/cel/config.go, "roughly 0.1
second"; set for every expression by the base environment, pkg/cel/environment/base.go) and
fails the evaluation past it ("operation cancelled: actual cost limit exceeded"). It estimates no
cost when it compiles these expressions (authentication/cel/compile.go,
authorization/cel/compile.go), so `validate` reports none either. The C++ runtime svcconf
evaluates with counts no cost: a few nested `replace` calls would build gigabytes. So every
evaluation runs in a worker process with a budget of memory and time far beyond what the
server's limit lets an expression spend (its string functions cost 0.1 to 0.2 a byte), and one
that exceeds it fails as the server's would. The worker is started on the first evaluation and
replaced after an evaluation that exceeded the budget.
"""

from __future__ import annotations

import os
from typing import Any, NamedTuple

MEMORY_BUDGET = 256 * 1024 * 1024  # bytes of address space an evaluation may add (where the system enforces it)
TIME_BUDGET = 2.0  # seconds an evaluation may take
START_TIMEOUT = 120.0  # seconds for a worker to start (a spawned one imports svcconf and the CEL runtime)
SERVER_ERROR = "operation cancelled: actual cost limit exceeded"
OPTIONAL = "optional_type"


class BudgetExceeded(Exception):
    """An evaluation ran past the budget; the message says which and what the server would do."""


class Outcome(NamedTuple):
    type_name: str  # the CEL type of the result ("BOOL", "STRING", ...; "ERROR" for an evaluation error)
    value: Any  # the plain value, or the error's text for ERROR


class Unconverted(NamedTuple):
    """A result the binding cannot hand over as a Python value (an optional, or a list holding one): neither text nor a boolean."""

    type_name: str


class Program(NamedTuple):
    """An expression known to compile in the environment of `variable` (claims, user, request) and release `bucket`."""

    expression: str
    variable: str
    bucket: tuple

    def eval(self, value: Any) -> Outcome:
        """The outcome of the expression with `variable` bound to `value`; RuntimeError when the runtime refuses it, BudgetExceeded."""
        answer = _worker().ask((self.expression, self.variable, self.bucket, value))
        if answer[0] == "raised":
            raise RuntimeError(answer[1])
        return Outcome(answer[1], answer[2])


class _Worker:
    """A process that evaluates expressions one at a time, killed and forgotten when one runs past the budget."""

    def __init__(self) -> None:
        import multiprocessing

        # fork shares the loaded CEL runtime at once; where there is none (Windows), spawn imports it again.
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        context = multiprocessing.get_context(method)
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, MEMORY_BUDGET), daemon=True, name="svcconf-cel")
        self.process.start()
        self.owner = os.getpid()  # a process forked from this one has no worker of its own yet
        child.close()
        if not self._answered(START_TIMEOUT):
            raise BudgetExceeded("the CEL evaluation process did not start")

    def ask(self, job: tuple) -> tuple:
        global _current
        self.connection.send(job)
        answer = self._answered(TIME_BUDGET)
        if answer is None or answer[0] == "over":
            out_of_time = answer is None and self.process.is_alive()  # else it ended on its memory limit
            _current = None
            self.process.kill()
            self.process.join()
            what = f"{TIME_BUDGET:g} seconds" if out_of_time else f"{MEMORY_BUDGET // 2**20} MiB of memory"
            raise BudgetExceeded(
                f"svcconf stopped the evaluation after {what}; the API server stops an evaluation past its cost limit "
                f"(1,000,000) with: {SERVER_ERROR}"
            )
        return answer

    def _answered(self, timeout: float) -> tuple | None:
        """The worker's next message, or None when it sent none in time or ended (killed for its memory)."""
        try:
            return self.connection.recv() if self.connection.poll(timeout) else None
        except (EOFError, OSError):
            return None


_current: _Worker | None = None


def _worker() -> _Worker:
    global _current
    if _current is None or _current.owner != os.getpid() or not _current.process.is_alive():
        _current = _Worker()
    return _current


# --------------------------------------------------------------------------- in the worker


def _serve(connection, memory: int) -> None:
    """Answer evaluations until the parent closes the pipe."""
    _limit_memory(memory)
    from .runtime import environment

    connection.send(("ready",))
    while True:
        try:
            expression, variable, bucket, value = connection.recv()
        except (EOFError, OSError):
            return
        try:
            try:
                answer = _answer(environment(variable, bucket).compile(expression).eval(data={variable: value}))
            except RuntimeError as error:
                answer = ("raised", str(error))
            connection.send(answer)
        except MemoryError:
            connection.send(("over", "memory"))
        except Exception as error:  # noqa: BLE001 - the binding failed: the expression cannot be evaluated here
            connection.send(("raised", f"{type(error).__name__}: {error}"))


def _answer(result) -> tuple:
    type_name = result.type().name()
    try:
        plain = result.plain_value()
    except Exception:  # noqa: BLE001 - the binding cannot hand the value over: an optional (in a list), or text larger than the memory left
        if type_name in ("STRING", "BYTES"):
            return ("over", "memory")
        # The binding names an optional's type ERROR, and only an opaque value fails to convert (cel-go: optional_type).
        type_name = OPTIONAL if type_name == "ERROR" else type_name
        return ("value", type_name, Unconverted(type_name))
    return ("value", type_name, str(plain) if type_name == "ERROR" else _sendable(plain))


def _sendable(value: Any) -> Any:
    """A plain value with what cannot cross a pipe (a CEL type, a message) as text."""
    if isinstance(value, list):
        return [_sendable(v) for v in value]
    if isinstance(value, dict):
        return {_sendable(k): _sendable(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return value
    return str(value)


def _limit_memory(budget: int) -> None:
    """Cap the worker's address space at what it maps now plus `budget`, where the system says and enforces it (Linux)."""
    try:
        import resource

        with open("/proc/self/statm", encoding="ascii") as statm:
            mapped = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (ImportError, OSError, ValueError):
        return
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = mapped + budget if hard == resource.RLIM_INFINITY else min(hard, mapped + budget)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
