"""Where a run's target release came from (a flag, the configuration file or the default), and the warning for a
release whose data is not final.

svcconf's tables are final up to the newest release it knows (`newest-release` of the lifecycle
table, the default target). A later release is accepted, since its announced removals are worth
checking before an upgrade, but never silently: a typo of 1.38 for 1.28 would otherwise pass.
"""

from __future__ import annotations

from typing import NamedTuple

from ..known.catalog import Release, format_release, lifecycle
from ..model import Anchor, Diagnostic, Severity

# The file name of a finding about the command line itself (as `<stdin>` names standard input).
COMMAND_LINE = "<command line>"
NOT_RELEASED = "target-not-released"
CONFIG_KEY = "target-version"


class Origin(NamedTuple):
    """The target of a run and where it was set."""

    release: Release
    flag: str | None = None  # the flag that set it (--target-version, --to-version)
    config_file: str | None = None  # else the configuration file that set it; neither: the default

    def describe(self) -> str:
        """`--to-version 1.31`, `target-version in .svcconf.yaml`, or `default: the newest release svcconf knows`."""
        if self.flag:
            return f"{self.flag} {format_release(self.release)}"
        if self.config_file:
            return f"{CONFIG_KEY} in {self.config_file}"
        return "default: the newest release svcconf knows"


def origin(flag: str, given: Release | None, config) -> Origin:
    """The target release of a run: the flag's value, else the configuration file's, else the newest release svcconf knows."""
    from ..known.catalog import parse_release

    if given is not None:
        return Origin(given, flag=flag)
    if CONFIG_KEY in config.values:
        return Origin(parse_release(config.values[CONFIG_KEY]), config_file=config.path)
    return Origin(lifecycle().newest)


def not_released(target: Origin) -> Diagnostic | None:
    """A warning when the target is past the newest release whose data svcconf holds in full; placed where the target was set."""
    table = lifecycle()
    release = target.release
    if release <= table.newest:
        return None
    final, out = format_release(table.newest), format_release(table.released)
    if release <= table.released:
        why = (
            f"Kubernetes {format_release(release)} is released, but svcconf's data for it is not final: it holds what its "
            f"pre-releases and the deprecation schedule announced (svcconf's data is final up to {final})"
        )
    else:
        why = (
            f"Kubernetes {format_release(release)} is not released yet (the newest release is {out}): svcconf's data for it "
            f"holds announced removals only (final up to {final}); check that {format_release(release)} is the release you mean"
        )
    if target.config_file:
        line, column = _config_position(target.config_file)
        return Diagnostic(target.config_file, line, column, NOT_RELEASED, Severity.WARNING, why, (CONFIG_KEY,))
    return Diagnostic(COMMAND_LINE, 1, 1, NOT_RELEASED, Severity.WARNING, f"{target.describe()}: {why}")


def _config_position(path: str) -> tuple[int, int]:
    """Line and column of the target-version setting in a configuration file (1:1 when it cannot be found again)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(1 << 20)
    except OSError:
        return 1, 1
    if path.endswith(".toml"):
        lines = data.decode("utf-8", errors="replace").splitlines()
        number = next((n for n, line in enumerate(lines, 1) if line.lstrip().lstrip('"').startswith(CONFIG_KEY)), 1)
        return number, 1
    from ..load.source import load_bytes

    source = load_bytes(path, data)
    if not source.documents or not isinstance(source.documents[0].data, dict):
        return 1, 1
    return source.locator(0).position((CONFIG_KEY,), Anchor.VALUE)
