"""Container image references as github.com/distribution/reference (v0.6) matches them, and kubeadm's imageRepository check.

The grammar is upstream's; the expressions are rewritten so that no text matches in two ways
(upstream's `[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]` becomes "alphanumerics, then runs of
dashes each followed by alphanumerics"), which keeps Python's backtracking engine linear, and
`\\w` is spelled out as the ASCII class Go means by it.
"""

from __future__ import annotations

import re

_ALPHANUMERIC = "[a-z0-9]+"
_SEPARATOR = "(?:[._]|__|-+)"
_PATH_COMPONENT = f"{_ALPHANUMERIC}(?:{_SEPARATOR}{_ALPHANUMERIC})*"
_DOMAIN_COMPONENT = "[a-zA-Z0-9]+(?:-+[a-zA-Z0-9]+)*"
_DOMAIN_NAME = f"{_DOMAIN_COMPONENT}(?:\\.{_DOMAIN_COMPONENT})*"
_IPV6_ADDRESS = "\\[[a-fA-F0-9:]+\\]"
_DOMAIN_AND_PORT = f"(?:{_DOMAIN_NAME}|{_IPV6_ADDRESS})(?::[0-9]+)?"
_NAME = f"(?:{_DOMAIN_AND_PORT}/)?{_PATH_COMPONENT}(?:/{_PATH_COMPONENT})*"
_TAG = "[0-9A-Za-z_][0-9A-Za-z_.-]{0,127}"
_DIGEST = "[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}"

NAME = re.compile(f"^{_NAME}\\Z")  # anchoredNameRegexp
REFERENCE = re.compile(f"^{_NAME}(?::{_TAG})?(?:@{_DIGEST})?\\Z")  # ReferenceRegexp


def valid_image_repository(repository: str) -> bool:
    """kubeadm's ValidateImageRepository: "<repository>/name:tag" must be a reference."""
    return bool(REFERENCE.match(f"{repository}/name:tag"))
