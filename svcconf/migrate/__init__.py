"""Migration of the API versions an upgrade removes (deprecated ones on request): conversion tables, a byte-faithful rewriter, atomic writes."""

from __future__ import annotations

from ..load.atomic import write_atomic
from ..settings.options import MigrateOptions
from .engine import Edit, FileOutcome, migrate_bytes

__all__ = ["Edit", "FileOutcome", "MigrateOptions", "migrate_bytes", "write_atomic"]
