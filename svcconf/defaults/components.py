"""A component's fully defaulted configuration, from svcconf/data/defaults/<Kind>.yaml.

The data files hold the upstream default documents in upstream spelling; printing rewrites the
groups and kinds for `--naming` and `--api-domain`, and leaves every other byte as it is.
"""

from __future__ import annotations

import os
import re

from ..known.naming import KEEP_KUBE_WORD

DEFAULTS_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "defaults")
# The component names README and --help use for the kinds with defaults.
COMPONENTS = {"scheduler": "KubeSchedulerConfiguration", "proxy": "KubeProxyConfiguration", "kubelet": "KubeletConfiguration"}
_API_VERSION = re.compile(r"^(\s*apiVersion:\s*)([^\s/]+)(/\S+\s*)$")
_KIND = re.compile(r"^(\s*kind:\s*)(\S+)(\s*)$")


def kinds() -> list[str]:
    """Kinds that have printed defaults."""
    if not os.path.isdir(DEFAULTS_DIR):
        return []
    return sorted(name[: -len(".yaml")] for name in os.listdir(DEFAULTS_DIR) if name.endswith(".yaml"))


def resolve(written: str) -> str | None:
    """The upstream kind for a component name or a kind written in either spelling, when it has defaults."""
    from ..known.naming import Naming

    available = kinds()
    for candidate in (COMPONENTS.get(written.lower()), written, Naming.kind(written)):
        if candidate in available:
            return candidate
    if written.startswith("Svclet"):  # KubeletConfiguration written with the svc word
        candidate = "Kube" + written[3:]
        return candidate if candidate in available else None
    return None


def document(kind: str, domain: str = "k8s.io", spelling: str = "kube") -> str | None:
    """The defaulted document of an upstream kind, spelled for the domain and naming; None without defaults."""
    from ..known.naming import Naming

    path = os.path.join(DEFAULTS_DIR, f"{kind}.yaml")
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    naming = Naming(domain)
    word = "kube" if kind in KEEP_KUBE_WORD else spelling
    lines = []
    for line in text.splitlines(keepends=True):
        match = _API_VERSION.match(line)
        if match:
            line = match.group(1) + naming.spell_group(match.group(2), word) + match.group(3)
        else:
            match = _KIND.match(line)
            if match:
                line = match.group(1) + naming.spell_kind(match.group(2), word) + match.group(3)
        lines.append(line)
    return "".join(lines)
