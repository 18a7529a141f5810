"""Which fields hold secrets: the one list every message path consults before printing a value."""

from __future__ import annotations

from .model import Path

SECRET_FIELDS = frozenset(
    {
        "secret",
        "token",
        "tlsBootstrapToken",
        "clientKeyData",
        "client-key-data",  # kubeconfig spelling
        "keyData",  # scheduler extender tlsConfig private key
        "certificateKey",
        "privateKey",
        "password",
    }
)


def is_secret(path: Path) -> bool:
    """True when the value at `path` must never be printed."""
    return bool(path) and path[-1] in SECRET_FIELDS
