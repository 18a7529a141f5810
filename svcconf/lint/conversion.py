"""What migrate would make of a document, asked without importing migrate.

`migrate` sits above `lint` (it checks what it writes with `lint.check`), so linting reaches it
through this seam: the package root (`svcconf/__init__.py`) installs a loader of migrate's answers,
called on first use. Without one, the checks that need a conversion are skipped. The package root
imports this module at start-up, so it imports nothing itself.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing's own flag, without importing typing at start-up
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Protocol

    class Conversions(Protocol):
        """The answers linting needs: the fix a removed version gets, and a document's conversion on plain data."""

        Converted: type

        def fix_for(self, gvk: tuple, target_release: tuple) -> str | None: ...

        def preview(self, documents: list, options: Any, can_add: bool = True, only: set[int] | None = None) -> list: ...


_loader: list[Callable[[], Conversions]] = []
_loaded: list[Conversions] = []


def install(loader: Callable[[], Conversions]) -> None:
    """Name where the conversions come from; `loader` runs when linting first needs them."""
    _loader[:] = [loader]
    _loaded.clear()


def provided() -> Conversions | None:
    if not _loaded and _loader:
        _loaded.append(_loader[0]())
    return _loaded[0] if _loaded else None
