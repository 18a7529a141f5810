"""apiVersion parsing and the two spellings of every name: the configured domain and svc/kube.

The svc spelling writes groups as `x.{api_domain}` and says `svc` where upstream says `kube`. Internally
every name is kept in the upstream spelling (`k8s.io`, `kube`), so tables and schema folders need
only one spelling; input in either spelling, and with the configured domain, maps onto it.
"""

from __future__ import annotations

import os
import re
from typing import NamedTuple

from ..go.memo import remembered

UPSTREAM_DOMAIN = "k8s.io"
DOMAIN_ENV = "SVCCONF_API_DOMAIN"
# The node agent keeps its name in both spellings (upstream and svc spellings alike write KubeletConfiguration).
KEEP_KUBE_WORD = frozenset({"KubeletConfiguration"})
# A DNS subdomain with at least two labels; each dash run is followed by an alphanumeric, so no text matches two ways.
_DOMAIN = re.compile(r"^[a-z0-9]+(?:-+[a-z0-9]+)*(?:\.[a-z0-9]+(?:-+[a-z0-9]+)*)+\Z")


def valid_domain(domain: str) -> bool:
    return bool(_DOMAIN.match(domain))


def default_domain() -> str:
    return os.environ.get(DOMAIN_ENV) or UPSTREAM_DOMAIN


class GroupVersion(NamedTuple):
    group: str  # upstream spelling; "" for the core group
    version: str

    def __str__(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    @property
    def level(self) -> str:
        """alpha, beta or ga, from the version name."""
        if "alpha" in self.version:
            return "alpha"
        if "beta" in self.version:
            return "beta"
        return "ga"


@remembered(253)  # the longest DNS name: every document names its group again
def _upstream_group(written: str, domain: str) -> str:
    group = written
    for suffix in {domain, UPSTREAM_DOMAIN}:
        if group == suffix:
            group = UPSTREAM_DOMAIN
            break
        if group.endswith("." + suffix):
            group = group[: -len(suffix)] + UPSTREAM_DOMAIN
            break
    if "svc" in group:
        group = ".".join("kube" + label[3:] if label.startswith("svc") else label for label in group.split("."))
    return group


class Naming:
    """Maps names as written in a file onto the upstream spelling, for one configured domain."""

    def __init__(self, domain: str = UPSTREAM_DOMAIN) -> None:
        self.domain = domain

    def group(self, written: str) -> str:
        return _upstream_group(written, self.domain)

    @staticmethod
    def kind(written: str) -> str:
        if written.startswith("Svc") and len(written) > 3:
            return "Kube" + written[3:]
        return written

    def api_version(self, written: str) -> GroupVersion | None:
        """Parse `group/version` or a bare core version; None when it is not of that form."""
        if not isinstance(written, str) or not written or written.count("/") > 1:
            return None
        group, _, version = written.rpartition("/")
        if not version:
            return None
        return GroupVersion(self.group(group), version)

    def spell_group(self, group: str, naming: str = "kube") -> str:
        """Write an upstream group in the configured domain and the chosen product word."""
        if group.endswith(UPSTREAM_DOMAIN):
            group = group[: -len(UPSTREAM_DOMAIN)] + self.domain
        if naming == "svc":
            group = ".".join("svc" + label[4:] if label.startswith("kube") else label for label in group.split("."))
        return group

    @staticmethod
    def spell_kind(kind: str, naming: str = "kube") -> str:
        if naming == "svc" and kind.startswith("Kube"):
            return "Svc" + kind[4:]
        return kind
