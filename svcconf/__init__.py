"""svcconf: a linter and migrator for control-plane configuration files.

The library API: `validate(paths, ValidateOptions(...)) -> Report` checks files as `svcconf
validate` does; `migrate_bytes(name, data, MigrateOptions(...)) -> FileOutcome` converts one
file's bytes as `svcconf migrate` does, without writing anything.
"""

from __future__ import annotations

__version__ = "0.2.0.dev0"  # on the way to 0.2.0: CHANGELOG.md's Unreleased section says what changed since 0.1.0

__all__ = ["FileOutcome", "MigrateOptions", "Report", "ValidateOptions", "__version__", "migrate_bytes", "validate"]

from .lint import conversion as _conversion


def _migrate_conversions():
    # Linting checks a removed version as migrate converts it; migrate sits above lint, so it is installed here.
    from .migrate import preview

    return preview


_conversion.install(_migrate_conversions)

_HOMES = {
    "validate": "lint.pipeline",
    "Report": "lint.result",
    "ValidateOptions": "settings.options",
    "MigrateOptions": "settings.options",
    "migrate_bytes": "migrate",
    "FileOutcome": "migrate",
}


def __getattr__(name: str):
    # The library API is imported on first use so that `svcconf --help` stays fast.
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(name)
    import importlib

    return getattr(importlib.import_module(f".{home}", __name__), name)
