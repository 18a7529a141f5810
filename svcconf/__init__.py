"""svcconf: a linter and migrator for control-plane configuration files."""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["Options", "Report", "__version__", "migrate_bytes", "validate"]


def __getattr__(name: str):
    # The library API is imported on first use so that `svcconf --help` stays fast.
    if name in ("validate", "Options", "Report"):
        from . import pipeline

        return getattr(pipeline, name)
    if name == "migrate_bytes":
        from .migrate import migrate_bytes

        return migrate_bytes
    raise AttributeError(name)
