"""Which fields hold secrets: the one list every message path consults before printing a value."""

from __future__ import annotations

from typing import Any

from ..model import Path, render_value

# The fields upstream tags `datapolicy:"token"`, `"security-key"` or `"password"` in the kinds svcconf
# reads, plus kubeconfig's credentials: a value anywhere under one of them is never printed.
SECRET_FIELDS = frozenset(
    {
        "secret",  # EncryptionConfiguration aescbc / aesgcm / secretbox keys[].secret
        "token",  # kubeadm bootstrapTokens[].token and discovery.bootstrapToken.token; ExecCredential status.token
        "tlsBootstrapToken",  # kubeadm discovery.tlsBootstrapToken
        "certificateKey",  # kubeadm InitConfiguration and JoinConfiguration controlPlane.certificateKey
        "clientKeyData",  # ExecCredential status.clientKeyData
        "keyData",  # KubeSchedulerConfiguration extenders[].tlsConfig.keyData
        "staticPodURLHeader",  # KubeletConfiguration: HTTP headers, typically Authorization
        "client-key-data",  # kubeconfig users[].user
        "privateKey",
        "password",
    }
)
# The one word that stands for a secret value in every output (diagnostics, explanations, diffs).
REDACTION = "REDACTED"
REDACTED = f'"{REDACTION}"'  # as messages quote a value


class Masked(str):
    """A secret's value with the secret part already replaced (a bootstrap token's public id + ".REDACTED"): shown as it is."""

    __slots__ = ()


def is_secret(path: Path) -> bool:
    """True when the value at `path` must never be printed: it is, or lies under, a secret field."""
    return any(segment in SECRET_FIELDS for segment in path if isinstance(segment, str))


def holds_secret(path: Path, value: Any) -> bool:
    """True when the value at `path` is secret or contains a secret field."""
    if is_secret(path):
        return True
    if isinstance(value, dict):
        return any(holds_secret((key,), item) for key, item in value.items())
    if isinstance(value, list):
        return any(holds_secret((), item) for item in value)
    return False


def render_at(path: Path, value: Any) -> str:
    """The value at `path` as messages quote it, with every secret in it shown as REDACTION."""
    if isinstance(value, Masked):
        return render_value(str(value))
    if is_secret(path):
        return REDACTED
    return render_value(_masked(value) if isinstance(value, (dict, list)) else value)


def _masked(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: REDACTION if key in SECRET_FIELDS else _masked(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_masked(item) for item in value]
    return value
