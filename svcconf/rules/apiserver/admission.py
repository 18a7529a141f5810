"""AdmissionConfiguration and WebhookAdmissionConfiguration rules: plugin entries, their files, and embedded plugin configs.

Each `plugins[].configuration` is checked as a document of its own (defaults by plugin name), so
its findings point into the AdmissionConfiguration file.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from svcconf.known.apiserver import KNOWN_PLUGINS
from svcconf.model import Anchor, Finding, Severity

from .. import Context, advice, forbidden, in_memory, invalid, items, mapping, node_path_problem, rule, text

# Plugin name -> (apiVersion, kind) assumed when an embedded configuration names none.
EMBEDDED_DEFAULTS = {
    "EventRateLimit": ("eventratelimit.admission.k8s.io/v1alpha1", "Configuration"),
    "PodSecurity": ("pod-security.admission.config.k8s.io/v1", "PodSecurityConfiguration"),
    "ValidatingAdmissionWebhook": ("apiserver.config.k8s.io/v1", "WebhookAdmissionConfiguration"),
    "MutatingAdmissionWebhook": ("apiserver.config.k8s.io/v1", "WebhookAdmissionConfiguration"),
}
# Plugins that refuse to start without a configuration.
NEEDS_CONFIG = {
    "EventRateLimit": 'couldn\'t init admission plugin "EventRateLimit": limits: Invalid value: null: must not be empty',
    "ImagePolicyWebhook": 'couldn\'t init admission plugin "ImagePolicyWebhook": no config specified',
}


@rule("AdmissionConfiguration")
def check_plugins(doc: dict, ctx: Context) -> Iterator[Finding]:
    seen: dict[str, int] = {}
    for i, entry in items(doc.get("plugins")):
        entry = mapping(entry)
        base = ("plugins", i)
        name = text(entry.get("name"))
        yield from _check_name(base, entry, name, seen, i)
        if name and seen[name] != i:
            continue  # the server reads only the first entry of a name (ConfigFor): this one is never read
        configuration = entry.get("configuration")
        path = entry.get("path")
        if configuration is not None and path:
            yield advice(
                "plugin-path-ignored",
                base + ("path",),
                f"path is ignored: the embedded configuration of plugin {name or '(unnamed)'} is used instead",
            )
        elif path and isinstance(path, str):
            yield from _check_path(base + ("path",), path, ctx)
        if configuration is None and not path and name in NEEDS_CONFIG:
            yield Finding("plugin-config-required", base, NEEDS_CONFIG[name], subject=name)
        if isinstance(configuration, dict):
            yield from _embedded(base + ("configuration",), name, configuration, ctx)


def _check_name(base: tuple, entry: dict, name: str, seen: dict[str, int], i: int) -> Iterator[Finding]:
    if not name:
        yield Finding(
            "plugin-without-name",
            base + ("name",),
            "plugin entry has no name; the server ignores it",
            Severity.WARNING,
            Anchor.PARENT,
        )
        return
    if name in seen:
        yield advice(
            "duplicate-admission-plugin",
            base + ("name",),
            f"plugin {name} is already configured by plugins[{seen[name]}]; the server uses the first entry and ignores this one",
        )
    else:
        seen[name] = i
    if name not in KNOWN_PLUGINS:
        yield advice(
            "unknown-admission-plugin",
            base + ("name",),
            f"{name} is not an admission plugin of kube-apiserver; the server ignores its configuration unless another server registers it",
        )


def _check_path(where: tuple, path: str, ctx: Context) -> Iterator[Finding]:
    if in_memory(ctx.file):
        return
    folder = os.path.dirname(os.path.abspath(ctx.file))
    resolved = os.path.normpath(os.path.join(folder, path))
    # A relative path belongs to the files deployed with this one; an absolute path names the
    # node's file system, checked only when svcconf runs there (--fs-checks).
    checkable = not os.path.isabs(path) or ctx.fs_checks
    if checkable and not os.path.exists(resolved):
        yield advice(
            "plugin-config-file-missing",
            where,
            f"{path} does not exist (resolved against the config file's folder: {resolved}); "
            "the server exits at start-up unless the file is present on the node",
        )
    if os.path.relpath(resolved, folder).split(os.sep)[0] == "..":
        yield advice(
            "plugin-path-outside-config-dir",
            where,
            f"{path} is outside the folder of this AdmissionConfiguration; the API server reads it all the same, "
            "but a file referenced from elsewhere is easily left behind when the config is deployed",
            Severity.INFO,
        )


def _embedded(where: tuple, name: str, configuration: dict, ctx: Context) -> Iterator[Finding]:
    if name == "ImagePolicyWebhook":
        from .imagepolicy import check_plugin_config

        yield from check_plugin_config(where, configuration, ctx)
        return
    api_version, kind = EMBEDDED_DEFAULTS.get(name, (None, None))
    written = configuration.get("apiVersion")
    if api_version and isinstance(written, str) and written:
        # The plugin decodes its configuration with a scheme of its own group alone (PodSecurity:
        # pod-security-admission/admission/api/load/load.go), so another group is refused.
        from svcconf.known.naming import Naming

        group = api_version.rpartition("/")[0]
        naming = Naming(ctx.api_domain)
        parsed = naming.api_version(written)
        if parsed is None or parsed.group != group:
            shown = configuration.get("kind") if isinstance(configuration.get("kind"), str) else kind
            yield Finding(
                "unknown-api-version",
                where + ("apiVersion",),
                f'no kind "{shown}" is registered for version "{written}": the {name} plugin reads only {naming.spell_group(group)}',
            )
            return
    yield from ctx.embedded(where, configuration, api_version, kind)


@rule("WebhookAdmissionConfiguration")
def check_webhook_admission(doc: dict, ctx: Context) -> Iterator[Finding]:
    kubeconfig = doc.get("kubeConfigFile")
    if isinstance(kubeconfig, str) and kubeconfig and not kubeconfig.startswith("/"):
        yield invalid(("kubeConfigFile",), kubeconfig, "must be an absolute file path", "admission-path-not-absolute")
    elif isinstance(kubeconfig, str) and (problem := node_path_problem(ctx, kubeconfig, "file")):
        yield invalid(("kubeConfigFile",), kubeconfig, problem, "admission-file-unreadable", Severity.WARNING)
    manifests = doc.get("staticManifestsDir")
    if not isinstance(manifests, str) or not manifests:
        return
    if not ctx.at_least(1, 36):
        return  # unknown before 1.36: the schema check reports it
    yield forbidden(
        ("staticManifestsDir",),
        "staticManifestsDir requires the ManifestBasedAdmissionControlConfig feature gate to be enabled",
        "static-manifests-dir-gated",
    )
    if not manifests.startswith("/"):
        yield invalid(("staticManifestsDir",), manifests, "must be an absolute file path", "admission-path-not-absolute")
    elif problem := node_path_problem(ctx, manifests, "dir"):
        yield invalid(("staticManifestsDir",), manifests, problem, "admission-file-unreadable", Severity.WARNING)


# Keys of an unversioned admission file -> the plugin that reads it. The server hands such a file
# whole to both plugins (legacyPluginsWithUnversionedConfig, staging/src/k8s.io/apiserver/pkg/
# admission/config.go); each reads only its own key.
LEGACY_PLUGIN_KEYS = {"imagePolicy": "ImagePolicyWebhook", "podNodeSelectorPluginConfig": "PodNodeSelector"}


@rule("LegacyAdmissionPluginConfig")
def check_legacy_config(doc: dict, ctx: Context) -> Iterator[Finding]:
    """An unversioned admission plugin file (no apiVersion, no kind), which the server still accepts
    (staging/src/k8s.io/apiserver/pkg/admission/config.go: ReadAdmissionConfiguration)."""
    plugins = [plugin for key, plugin in LEGACY_PLUGIN_KEYS.items() if key in doc]
    yield advice(
        "legacy-admission-config",
        (),
        f"legacy unversioned admission config: the API server reads this file as the configuration of the "
        f"{' and '.join(plugins)} plugin{'s' * (len(plugins) > 1)}; "
        f"embed it in an AdmissionConfiguration (apiserver.config.k8s.io/v1) under plugins[].configuration",
        subject=plugins,
    )
    if "ImagePolicyWebhook" in plugins:
        from .imagepolicy import check_plugin_config

        yield from check_plugin_config((), doc, ctx, shared_with=frozenset(LEGACY_PLUGIN_KEYS))
