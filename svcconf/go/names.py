"""Kubernetes name checks (apimachinery validation: IsDNS1123Label, IsDNS1123Subdomain, IsWildcardDNS1123Subdomain,
IsQualifiedName, IsValidLabelValue) with their messages.

Messages quote the upstream regular expressions; matching uses equivalent patterns written so that
no text can be matched in two ways (each run of separators must be followed by an alphanumeric),
which keeps Python's backtracking engine linear. Lengths are counted in bytes, as Go does.
"""

from __future__ import annotations

import re

from .text import byte_length

_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_SUBDOMAIN_FMT = _LABEL_FMT + "(\\." + _LABEL_FMT + ")*"
_WILDCARD_FMT = "\\*\\." + _SUBDOMAIN_FMT
_QUALIFIED_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_LABEL_VALUE_FMT = "(" + _QUALIFIED_FMT + ")?"

_LABEL_LINEAR = "[a-z0-9]+(?:-+[a-z0-9]+)*"
LABEL = re.compile(f"^{_LABEL_LINEAR}\\Z")
SUBDOMAIN = re.compile(f"^{_LABEL_LINEAR}(?:\\.{_LABEL_LINEAR})*\\Z")
QUALIFIED_NAME_PART = re.compile("^[A-Za-z0-9]+(?:[-_.]+[A-Za-z0-9]+)*\\Z")

LABEL_MESSAGE = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end "
    f"with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '{_LABEL_FMT}')"
)
SUBDOMAIN_MESSAGE = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start "
    f"and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '{_SUBDOMAIN_FMT}')"
)
WILDCARD_MESSAGE = (
    "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of "
    "lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', "
    f"regex used for validation is '{_WILDCARD_FMT}')"
)
_QUALIFIED_PART = (
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character "
    f"(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '{_QUALIFIED_FMT}')"
)
LABEL_VALUE_MESSAGE = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and "
    f"end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '{_LABEL_VALUE_FMT}')"
)


def _too_long(value: str, limit: int) -> list[str]:
    return [f"must be no more than {limit} characters"] if byte_length(value) > limit else []


def dns1123_label(value: str) -> list[str]:
    """The messages of IsDNS1123Label (empty when the value is a valid label)."""
    problems = _too_long(value, 63)
    if not LABEL.match(value):
        problems.append("must not contain dots" if SUBDOMAIN.match(value) else LABEL_MESSAGE)
    return problems


def dns1123_subdomain(value: str) -> list[str]:
    """The messages of IsDNS1123Subdomain."""
    problems = _too_long(value, 253)
    if not SUBDOMAIN.match(value):
        problems.append(SUBDOMAIN_MESSAGE)
    return problems


def is_subdomain(value: str) -> bool:
    return not dns1123_subdomain(value)


def wildcard_dns1123_subdomain(value: str) -> list[str]:
    """The messages of IsWildcardDNS1123Subdomain: "*." and then a subdomain."""
    problems = _too_long(value, 253)
    if not (value.startswith("*.") and SUBDOMAIN.match(value[2:])):
        problems.append(WILDCARD_MESSAGE)
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
    elif byte_length(name) > 63:
        problems.append("name part must be no more than 63 characters")
    if name and not QUALIFIED_NAME_PART.match(name):
        problems.append(f"name part {_QUALIFIED_PART}")
    return problems


def label_value(value: str) -> list[str]:
    """The messages of IsValidLabelValue: empty, or a name part of at most 63 characters."""
    problems = _too_long(value, 63)
    if value and not QUALIFIED_NAME_PART.match(value):
        problems.append(LABEL_VALUE_MESSAGE)
    return problems
