"""kube-proxy flags beside --config: the configuration file replaces what the flags had set.

kube-proxy binds most flags to its configuration struct, then, when --config names a file, loads
the file into a new struct and drops the one the flags had filled (cmd/kube-proxy/app/options.go
Options.Complete: `o.config = c`), so those flags are ignored without a word; their help says "This
parameter is ignored if a config file is specified by --config". What still applies: the flags
bound to Options itself (--config, --write-config-to, --cleanup, --init-only, --master,
--hostname-override, which processHostnameOverrideFlag puts over the file), the logging flags
copied over the file (copyLogsFromFlags) or kept by klog, and --help/--version.
"""

from __future__ import annotations

from collections.abc import Iterator

from svcconf.known.flags.arguments import CommandLine, merged
from svcconf.known.flags.table import lookup
from svcconf.model import Finding, Severity

STILL_APPLY = frozenset(
    {"config", "write-config-to", "cleanup", "init-only", "master", "hostname-override", "windows-service",
     "help", "h", "version", "v", "vmodule", "logging-format", "log-flush-frequency",
     "log-text-split-stream", "log-text-info-buffer-size", "log-json-split-stream", "log-json-info-buffer-size",
     "log-dir", "log-file", "log-file-max-size", "logtostderr", "alsologtostderr", "add-dir-header",
     "skip-headers", "skip-log-headers", "stderrthreshold", "one-output", "log-backtrace-at"}
)  # fmt: skip


def ignored_beside_config(line: CommandLine) -> Iterator[Finding]:
    config = merged(line.args).get("config")
    if config is None or not config.value:  # kube-proxy loads a file only for a non-empty --config
        return
    for arg in line.args:
        flag = lookup("kube-proxy", arg.name)
        if flag is None or flag.name in STILL_APPLY:
            continue
        yield Finding(
            "flag-ignored-with-config",
            arg.name_path,
            f"--{flag.name} is ignored: kube-proxy takes its configuration from the --config file and drops what this flag set "
            '("This parameter is ignored if a config file is specified by --config"); set it in the KubeProxyConfiguration',
            Severity.WARNING,
            arg.name_anchor,
        )
