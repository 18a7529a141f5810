"""Kubernetes name checks (apimachinery `IsDNS1123Label`, `IsDNS1123Subdomain`, `IsQualifiedName`) with their messages."""

from __future__ import annotations

import re

_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_SUBDOMAIN_FMT = _LABEL_FMT + "(\\." + _LABEL_FMT + ")*"
_QUALIFIED_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_LABEL = re.compile(f"^{_LABEL_FMT}$")
_SUBDOMAIN = re.compile(f"^{_SUBDOMAIN_FMT}$")
SUBDOMAIN = _SUBDOMAIN  # for callers that only need the yes/no answer
_QUALIFIED = re.compile(f"^{_QUALIFIED_FMT}$")

LABEL_MESSAGE = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end "
    f"with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '{_LABEL_FMT}')"
)
SUBDOMAIN_MESSAGE = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start "
    f"and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '{_SUBDOMAIN_FMT}')"
)
_QUALIFIED_PART = (
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character "
    f"(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '{_QUALIFIED_FMT}')"
)


def dns1123_label(value: str) -> list[str]:
    """The messages of IsDNS1123Label (empty when the value is a valid label)."""
    problems = []
    if len(value) > 63:
        problems.append("must be no more than 63 characters")
    if not _LABEL.match(value):
        problems.append("must not contain dots" if _SUBDOMAIN.match(value) else LABEL_MESSAGE)
    return problems


def dns1123_subdomain(value: str) -> list[str]:
    """The messages of IsDNS1123Subdomain."""
    problems = []
    if len(value) > 253:
        problems.append("must be no more than 253 characters")
    if not _SUBDOMAIN.match(value):
        problems.append(SUBDOMAIN_MESSAGE)
    return problems


def qualified_name(value: str) -> list[str]:
    """The messages of IsQualifiedName: an optional DNS subdomain prefix and '/', then a name part."""
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
        problems: list[str] = []
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            problems = ["prefix part must be non-empty"]
        else:
            problems = [f"prefix part {msg}" for msg in dns1123_subdomain(prefix)]
    else:
        return [f"a qualified name {_QUALIFIED_PART} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
    if not name:
        problems.append("name part must be non-empty")
    elif len(name) > 63:
        problems.append("name part must be no more than 63 characters")
    if name and not _QUALIFIED.match(name):
        problems.append(f"name part {_QUALIFIED_PART}")
    return problems
