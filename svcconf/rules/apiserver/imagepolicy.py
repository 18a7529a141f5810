"""The ImagePolicyWebhook plugin configuration (legacy, unversioned): its shape, TTLs and backoff as the plugin reads them.

The configuration has no apiVersion or kind, so it has no schema file: its schema lives here and
is checked where an AdmissionConfiguration embeds it under a plugin named ImagePolicyWebhook.
The plugin decodes it leniently; svcconf still reports unknown fields (lenient-unknown-field).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from svcconf.go.durations import MILLISECOND, SECOND, format_duration
from svcconf.model import Finding, Severity

from .. import Context, invalid, node_path_problem, required

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "ImagePolicyWebhook plugin configuration",
    "description": "The unversioned configuration of the ImagePolicyWebhook admission plugin (no apiVersion or kind).",
    "type": "object",
    "x-svcconf-lenient": True,
    "additionalProperties": False,
    "properties": {
        "imagePolicy": {
            "type": "object",
            "x-svcconf-lenient": True,
            "additionalProperties": False,
            "description": "Settings of the image policy backend.",
            "properties": {
                "kubeConfigFile": {"type": "string", "description": "kubeconfig of the backend webhook."},
                "allowTTL": {"type": "integer", "description": "Seconds to cache approvals; 0 = 5m, -1 disables."},
                "denyTTL": {"type": "integer", "description": "Seconds to cache denials; 0 = 30s, -1 disables."},
                "retryBackoff": {"type": "integer", "description": "Milliseconds between retries; 0 = 500ms, -1 disables."},
                "defaultAllow": {"type": "boolean", "description": "Admit pods when the backend cannot be reached."},
            },
        }
    },
}
NANOS = {"ms": MILLISECOND, "s": SECOND}
# field -> (unit of the written integer, lowest and highest duration in ns, their upstream spelling)
RANGES = (
    ("retryBackoff", "ms", 1, 5 * 60 * NANOS["s"], "1ns", "5m0s"),
    ("allowTTL", "s", NANOS["s"], 30 * 60 * NANOS["s"], "1s", "30m0s"),
    ("denyTTL", "s", NANOS["s"], 30 * 60 * NANOS["s"], "1s", "30m0s"),
)


@functools.cache
def _checker():
    from svcconf.known.schema import SchemaChecker

    return SchemaChecker(SCHEMA)


def check_plugin_config(where: tuple, config: dict, ctx: Context, shared_with: frozenset = frozenset()) -> Iterator[Finding]:
    """Findings for an ImagePolicyWebhook configuration embedded at `where`.

    `shared_with` names top-level keys other plugins read from the same file (a legacy file).
    """
    for finding in _checker().check(config, ctx.field_validation):
        if len(finding.path) == 1 and finding.path[0] in shared_with:
            continue  # another plugin's key in the same legacy file
        yield Finding(finding.rule, where + finding.path, finding.message, finding.severity, finding.anchor)
    policy = config.get("imagePolicy")
    if not isinstance(policy, dict):
        if policy is None:
            yield required(where + ("imagePolicy",), "the ImagePolicyWebhook plugin needs imagePolicy.kubeConfigFile")
        return
    kubeconfig = policy.get("kubeConfigFile")
    if not kubeconfig:
        yield required(where + ("imagePolicy", "kubeConfigFile"), "the backend is called with this kubeconfig")
    elif isinstance(kubeconfig, str) and (problem := node_path_problem(ctx, kubeconfig, "file")):
        # The plugin loads the kubeconfig when the API server starts.
        yield invalid(where + ("imagePolicy", "kubeConfigFile"), kubeconfig, problem, "admission-file-unreadable", Severity.WARNING)
    for field, unit, low, high, low_text, high_text in RANGES:
        value = policy.get(field)
        if not isinstance(value, int) or isinstance(value, bool) or value in (0, -1):
            continue  # 0 means the default, -1 disables
        nanos = value * NANOS[unit]
        if not low <= nanos <= high:
            yield Finding(
                "image-policy-ttl-out-of-range",
                where + ("imagePolicy", field),
                f"valid value is between {low_text} and {high_text}, got {format_duration(nanos)}",
                Severity.ERROR,
            )
