"""kube-proxy logging: logsapi.Validate on the `logging` block, with the document's feature gates."""

from __future__ import annotations

from collections.abc import Iterator

from svcconf.go.durations import SECOND, duration_or_default, format_duration
from svcconf.go.quantity import parse_quantity
from svcconf.go.text import trim_space
from svcconf.model import Finding
from svcconf.rules import Context, forbidden, invalid, items, mapping

INT32_MAX = 2147483647


def _gate(doc: dict, name: str, default: bool) -> bool:
    value = mapping(doc.get("featureGates")).get(name)
    return value if isinstance(value, bool) else default


def check_logging(doc: dict, ctx: Context) -> Iterator[Finding]:
    logging = mapping(doc.get("logging"))
    base = ("logging",)
    fmt = logging.get("format")
    if isinstance(fmt, str) and fmt not in ("", "text", "json"):
        yield invalid(base + ("format",), fmt, "Unsupported log format", "log-format-unsupported")
    elif fmt == "json" and not _gate(doc, "LoggingBetaOptions", True):
        yield forbidden(base + ("format",), "Log format json is disabled, see LoggingBetaOptions feature", "log-format-unsupported")
    flush = logging.get("flushFrequency")
    flush_ns = flush if isinstance(flush, int) and not isinstance(flush, bool) else duration_or_default(flush, 5 * SECOND)
    if flush_ns is not None and flush_ns < 0:
        yield invalid(
            base + ("flushFrequency",), format_duration(flush_ns), "Must be greater than zero", "log-flush-frequency-not-positive"
        )
    verbosity = logging.get("verbosity")
    if isinstance(verbosity, int) and verbosity > INT32_MAX:
        yield invalid(base + ("verbosity",), verbosity, f"Must be <= {INT32_MAX}", "log-invalid-verbosity")
    yield from _vmodule(logging.get("vmodule"), fmt)
    if not _gate(doc, "LoggingAlphaOptions", False):
        for name, options in mapping(logging.get("options")).items():
            options = mapping(options)
            path = base + ("options", name)
            if options.get("splitStream") is True:
                yield forbidden(path + ("splitStream",), "Feature LoggingAlphaOptions is disabled", "log-alpha-option-disabled")
            if not _zero_quantity(options.get("infoBufferSize")):
                yield forbidden(path + ("infoBufferSize",), "Feature LoggingAlphaOptions is disabled", "log-alpha-option-disabled")


def _vmodule(entries, fmt) -> Iterator[Finding]:
    base = ("logging", "vmodule")
    if entries and isinstance(entries, list) and fmt not in (None, "", "text"):
        yield forbidden(base, "Only supported for text log format", "log-invalid-vmodule")
    for i, entry in items(entries):
        entry = mapping(entry)
        pattern = entry.get("filePattern")
        if not pattern:
            yield Finding("log-invalid-vmodule", base + (i,), "Required value: File pattern must not be empty")
        elif isinstance(pattern, str) and ("=" in pattern or "," in pattern):
            yield invalid(base + (i,), pattern, "File pattern must not contain equal sign or comma", "log-invalid-vmodule")
        level = entry.get("verbosity")
        if isinstance(level, int) and level > INT32_MAX:
            yield invalid(base + (i,), level, f"Must be <= {INT32_MAX}", "log-invalid-verbosity")


def _zero_quantity(value) -> bool:
    """Unset or zero; a text that is no quantity is left to the decoder, which refuses it."""
    if value is None or value == 0:
        return True
    if not isinstance(value, str):
        return False
    quantity = parse_quantity(trim_space(value))  # Quantity.UnmarshalJSON trims spaces
    return quantity is None or quantity == 0
