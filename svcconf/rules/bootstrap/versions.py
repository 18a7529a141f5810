"""ClusterConfiguration kubernetesVersion against the control-plane versions the target release's kubeadm deploys.

kubeadm deploys its own minor release and the one before it: `MinimumControlPlaneVersion` is
`getSkewedKubernetesVersion(-1)` in cmd/kubeadm/app/constants/constants.go (computed from kubeadm's
own version since kubernetes#104015, 1.23; a literal one minor below before that, e.g. v1.12.0 in
kubeadm 1.13). `NormalizeKubernetesVersion` (cmd/kubeadm/app/util/config/common.go) refuses an older
version, except that a pre-release kubeadm tolerates one minor more (`isKubeadmPrereleaseVersion`),
and the preflight check `KubernetesVersionCheck` (cmd/kubeadm/app/preflight/checks.go) warns about
a version from the next minor release on.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from svcconf.known.catalog import format_release, lifecycle
from svcconf.model import Finding, Severity

from .. import Context, advice

PATH = ("kubernetesVersion",)
# Releases before 1.7 (kubeadm's first, 1.6, took 1.6.0-alpha.1) are not checked.
FIRST_CHECKED = (1, 7)


class Version(NamedTuple):
    """A semantic version as apimachinery's version.ParseSemantic reads it (build metadata dropped)."""

    major: int
    minor: int
    patch: int
    pre_release: str  # empty: a release

    def below(self, major: int, minor: int) -> bool:
        """Whether it comes before major.minor.0 (a pre-release of major.minor.0 does)."""
        return (self.major, self.minor, self.patch) < (major, minor, 0) or (
            (self.major, self.minor, self.patch) == (major, minor, 0) and bool(self.pre_release)
        )

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}.{self.patch}" + (f"-{self.pre_release}" if self.pre_release else "")


def parse_semantic(text: str) -> Version | None:
    """`v1.31.2`, `1.31.0-rc.1`, `v1.30.0+build`: None for anything else (labels such as stable-1 are resolved over the network)."""
    core, _plus, _build = text.removeprefix("v").partition("+")
    core, dash, pre_release = core.partition("-")
    parts = core.split(".")
    if len(parts) != 3 or not all(part.isascii() and part.isdigit() for part in parts) or (dash and not pre_release):
        return None
    if any(len(part) > 1 and part.startswith("0") for part in parts):
        return None
    return Version(int(parts[0]), int(parts[1]), int(parts[2]), pre_release)


def check_kubernetes_version(value: Any, ctx: Context) -> Iterator[Finding]:
    if not isinstance(value, str) or not ctx.at_least(*FIRST_CHECKED):
        return
    bucket, _slash, name = value.rpartition("/")
    if bucket not in ("", "release", "ci"):
        return
    version = parse_semantic(name)
    if version is None:
        return
    major, minor = ctx.target
    minimum = (major, minor - 1)
    # A pre-release kubeadm (a release not yet out) takes one minor below its minimum, as its `stable` marker may be.
    pre_release_kubeadm = ctx.target > lifecycle().released
    tolerated = pre_release_kubeadm and not version._replace(minor=version.minor + 1).below(*minimum)
    if version.below(*minimum) and not tolerated:
        current = name if name.startswith("v") else f"v{name}"
        yield Finding(
            "control-plane-version-too-old",
            PATH,
            "this version of kubeadm only supports deploying clusters with the control plane version >= "
            f"{format_release(minimum)}.0. Current version: {current} (kubeadm {format_release(ctx.target)}, the target release)",
        )
    elif (version.major, version.minor) > ctx.target:
        yield advice(
            "control-plane-version-too-new",
            PATH,
            "Kubernetes version is greater than kubeadm version. Please consider to upgrade kubeadm. "
            f"Kubernetes version: {version}. Kubeadm version: {format_release(ctx.target)}.x",
            Severity.WARNING,
        )
