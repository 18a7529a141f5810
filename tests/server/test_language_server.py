"""`svcconf server` driven over stdio by a real LSP client (pytest-lsp): diagnostics, hover, completion and code actions.

Diagnostics are compared with `svcconf validate -f json` on the same text; hover and completion
answers come from the schemas' upstream descriptions, the lifecycle table and upstream's lists.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from tests.conftest import FIXTURES
from tests.server_client import apply, as_found, config, environment, open_file, pushed, sorted_found, validate_json

pytestmark = pytest.mark.asyncio(loop_scope="module")

CAPABILITIES = lsp.ClientCapabilities(
    workspace=lsp.WorkspaceClientCapabilities(
        did_change_watched_files=lsp.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True)
    )
)


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    @lsp_client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
    def register(params: lsp.RegistrationParams) -> None:
        REGISTERED.extend(params.registrations)

    REGISTERED.clear()  # what this session's server registered, not an earlier one's in the same process
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=CAPABILITIES))
    yield
    await lsp_client.shutdown_session()


REGISTERED: list[lsp.Registration] = []
CASES = ["bootstrap/cross-duplicate-kind", "core/ambiguous-scalar-boolean", "audit/removed-v1beta1-policy", "proxy/client-qps-negative"]


async def test_open_change_save_close_give_validates_diagnostics(client: LanguageClient, tmp_path) -> None:
    paths = []
    for case in CASES:
        path = tmp_path / case.replace("/", "-")
        path = path.with_suffix(".yaml")
        shutil.copy(FIXTURES / f"{case}.yaml", path)
        paths.append(path)
    expected = validate_json(paths, tmp_path)
    for path in paths:
        found = await open_file(client, path, path.read_text())
        assert as_found(found) == sorted_found(expected[str(path)]), path.name
        assert found, path.name
    # A change: the Policy's first rule loses its level; validate on the new text says the same.
    path = paths[1]
    text = path.read_text()
    line = text.splitlines().index("  - level: Metadata")
    change = lsp.TextDocumentContentChangePartial(lsp.Range(lsp.Position(line, 4), lsp.Position(line, 9)), "levl")
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(lsp.VersionedTextDocumentIdentifier(version=2, uri=path.as_uri()), [change])
    )
    found = await pushed(client, path.as_uri())
    path.write_text(text.replace("- level:", "- levl:"))
    assert as_found(found) == sorted_found(validate_json([path], tmp_path)[str(path)])
    assert "unknown-field" in {d.code for d in found}
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(path.as_uri())))
    assert as_found(await pushed(client, path.as_uri())) == as_found(found)
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(path.as_uri())))
    assert await pushed(client, path.as_uri()) == []


async def test_diagnostics_carry_severity_rule_link_and_related_documents(client: LanguageClient, tmp_path) -> None:
    path = tmp_path / "kubeadm.yaml"
    text = (FIXTURES / "bootstrap/cross-duplicate-kind.yaml").read_text()
    [found] = await open_file(client, path, text)
    assert (found.code, found.severity, found.source) == ("duplicate-bootstrap-kind", lsp.DiagnosticSeverity.Error, "svcconf")
    # the rule's doc names where upstream refuses a kind given twice
    assert found.code_description.href.startswith("https://github.com/kubernetes/kubernetes/blob/")
    # the first InitConfiguration, in document 1, is the other half of the finding
    [related] = found.related_information
    assert related.location.range.start == lsp.Position(1, 6) and related.message == "document 1: InitConfiguration"


async def test_hover_tells_field_api_version_and_rule(client: LanguageClient, tmp_path) -> None:
    path = tmp_path / "audit.yaml"
    text = (FIXTURES / "audit/removed-v1beta1-policy.yaml").read_text()
    await open_file(client, path, text)
    uri = path.as_uri()
    hover = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(0, 14)))
    shown = hover.contents.value
    # audit.k8s.io/v1beta1 was deprecated in 1.21 and removed in 1.24 for audit.k8s.io/v1 (lifecycle.tsv)
    assert "**audit.k8s.io/v1beta1 Policy**: removed in 1.24: 1.36 does not serve it; migrate to audit.k8s.io/v1" in shown
    # the finding there: the rule's summary from its docs
    from svcconf.known.docs import rule_doc

    assert rule_doc("removed-api-version").summary in shown
    scheduler = tmp_path / "scheduler.yaml"
    await open_file(
        client, scheduler, "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\npercentageOfNodesToScore: 50\n"
    )
    hover = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(scheduler.as_uri()), lsp.Position(2, 3)))
    shown = hover.contents.value
    # KubeSchedulerConfiguration.percentageOfNodesToScore: an integer, 0 by default (0 = adaptive), in v1 since 1.25
    assert shown.startswith("**percentageOfNodesToScore**: integer")
    assert "Default: `0`" in shown and "kubescheduler.config.k8s.io/v1 KubeSchedulerConfiguration: served from 1.25" in shown


async def _labels(client: LanguageClient, path, text: str, line: int, character: int) -> list[str]:
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(path.as_uri(), "yaml", 1, text)))
    await pushed(client, path.as_uri())
    found = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(path.as_uri()), lsp.Position(line, character))
    )
    return [item.label for item in found.items] if found else []


async def test_completion_offers_what_the_target_release_reads(client: LanguageClient, tmp_path) -> None:
    scheduler = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nparallelism: 16\n\n"
    labels = await _labels(client, tmp_path / "s.yaml", scheduler, 3, 0)
    assert "profiles" in labels and "percentageOfNodesToScore" in labels
    assert not {"parallelism", "apiVersion", "kind"} & set(labels)  # already there
    # audit levels (k8s.io/apiserver/pkg/apis/audit: None, Metadata, Request, RequestResponse)
    audit = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: \n"
    assert await _labels(client, tmp_path / "a.yaml", audit, 3, 11) == ["None", "Metadata", "Request", "RequestResponse"]
    # a list item's other fields, under the list's key
    assert "resources" in await _labels(client, tmp_path / "b.yaml", audit.replace("level: \n", "level: None\n    \n"), 4, 4)
    authz = "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n  - type: \n"
    # AuthorizationConfiguration authorizer types (apiserver/pkg/apis/apiserver/types.go)
    assert await _labels(client, tmp_path / "z.yaml", authz, 3, 10) == ["ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook"]
    admission = "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: \n"
    assert {"NamespaceLifecycle", "PodSecurity", "EventRateLimit"} <= set(await _labels(client, tmp_path / "m.yaml", admission, 3, 8))
    proxy = "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nfeatureGates:\n  AllAlpha: false\n  \n"
    gates = await _labels(client, tmp_path / "p.yaml", proxy, 4, 2)
    # AllBeta switches every beta gate; NFTablesProxyMode went GA in 1.33 (pkg/features/kube_features.go)
    assert "AllBeta" in gates and "NFTablesProxyMode" in gates and "AllAlpha" not in gates
    pairs = await _labels(client, tmp_path / "e.yaml", "\n", 0, 0)
    assert "KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1)" in pairs
    # removed in 1.24: not offered for the default target
    assert "Policy (audit.k8s.io/v1beta1)" not in pairs and "Policy (audit.k8s.io/v1)" in pairs


async def _actions(client: LanguageClient, uri: str, line: int) -> dict[str, lsp.CodeAction]:
    found = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri), lsp.Range(lsp.Position(line, 0), lsp.Position(line, 0)), lsp.CodeActionContext([])
        )
    )
    return {action.title: action for action in found or []}


def _run(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "svcconf", *args], capture_output=True, text=True, cwd=cwd, env=environment(), check=False)


async def test_code_actions_make_the_edits_the_commands_make(client: LanguageClient, tmp_path) -> None:
    path = tmp_path / "policy.yaml"
    text = (FIXTURES / "audit/removed-v1beta1-policy.yaml").read_text()
    path.write_text(text)
    await open_file(client, path, text)
    actions = await _actions(client, path.as_uri(), 0)
    migrated = apply(
        text, actions["Migrate this document: audit.k8s.io/v1beta1 Policy -> audit.k8s.io/v1 Policy"].edit.changes[path.as_uri()]
    )
    _run("migrate", "--write", str(path), cwd=tmp_path)
    assert migrated == path.read_text() != text
    suppressed = apply(text, actions["Suppress removed-api-version on this line"].edit.changes[path.as_uri()])
    path.write_text(text)
    _run("validate", "--add-suppressions", str(path), cwd=tmp_path)
    assert suppressed == path.read_text() != text
    # a finding on a mapping value is suppressed on the line of the key holding it, as --add-suppressions does
    encryption = tmp_path / "enc.yaml"
    text = (
        "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n"
        "    providers:\n      - aescbc:\n          keys:\n            - name: k1\n"
        "              secret: MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=\n      - identity: {}\n"
    )
    encryption.write_text(text)
    await open_file(client, encryption, text)
    actions = await _actions(client, encryption.as_uri(), 6)
    suppressed = apply(text, actions["Suppress aescbc-discouraged on this line"].edit.changes[encryption.as_uri()])
    _run("validate", "--add-suppressions", str(encryption), cwd=tmp_path)
    assert (
        suppressed
        == encryption.read_text()
        == text.replace("      - aescbc:\n", "      - aescbc:  # svcconf: ignore[aescbc-discouraged]\n")
    )
    ambiguous = tmp_path / "ambiguous.yaml"
    text = (FIXTURES / "core/ambiguous-scalar-boolean.yaml").read_text()
    await open_file(client, ambiguous, text)
    actions = await _actions(client, ambiguous.as_uri(), 2)
    fixed = apply(text, actions["Write true (as the server reads yes)"].edit.changes[ambiguous.as_uri()])
    assert "omitManagedFields: true\n" in fixed
    ambiguous.write_text(fixed)
    assert validate_json([ambiguous], tmp_path)[str(ambiguous)] == []
    # a user named "no" in an audit rule: the server reads unquoted no as false, which a string list refuses
    unquoted = tmp_path / "users.yaml"
    text = (FIXTURES / "core/wrong-type-unquoted-no.yaml").read_text()
    await open_file(client, unquoted, text)
    actions = await _actions(client, unquoted.as_uri(), 4)
    fixed = apply(text, actions["Quote no"].edit.changes[unquoted.as_uri()])
    unquoted.write_text(fixed)
    assert '"no"' in fixed and validate_json([unquoted], tmp_path)[str(unquoted)] == []


async def test_a_configuration_change_checks_open_files_again(client: LanguageClient, tmp_path) -> None:
    # the server asked to be told of changes to configuration files (right after initialization)
    for _ in range(100):
        if REGISTERED:
            break
        await asyncio.sleep(0.05)
    assert [w["globPattern"] for r in REGISTERED for w in r.register_options["watchers"]] == [
        "**/.svcconf.yaml",
        "**/.svcconf.yml",
        "**/pyproject.toml",
    ]
    path = tmp_path / "policy.yaml"
    text = (FIXTURES / "core/ambiguous-scalar-boolean.yaml").read_text()
    assert [d.code for d in await open_file(client, path, text)] == ["ambiguous-scalar"]
    settings = tmp_path / ".svcconf.yaml"
    settings.write_text("ignore: [ambiguous-scalar]\n")
    client.workspace_did_change_watched_files(
        lsp.DidChangeWatchedFilesParams([lsp.FileEvent(settings.as_uri(), lsp.FileChangeType.Created)])
    )
    assert await pushed(client, path.as_uri()) == []
    settings.write_text("ignore: [no-such-rule]\n")
    client.workspace_did_change_watched_files(
        lsp.DidChangeWatchedFilesParams([lsp.FileEvent(settings.as_uri(), lsp.FileChangeType.Changed)])
    )
    [problem] = await pushed(client, path.as_uri())
    assert problem.code == "invalid-config" and "unknown rule id 'no-such-rule'" in problem.message
    # exclude leaves the file out, as validate leaves out a --stdin-filename it excludes
    settings.write_text("exclude: [policy.yaml]\n")
    client.workspace_did_change_watched_files(
        lsp.DidChangeWatchedFilesParams([lsp.FileEvent(settings.as_uri(), lsp.FileChangeType.Changed)])
    )
    assert await pushed(client, path.as_uri()) == []


@pytest_lsp.fixture(scope="module", config=config())
async def pulling(lsp_client: LanguageClient):
    capabilities = lsp.ClientCapabilities(text_document=lsp.TextDocumentClientCapabilities(diagnostic=lsp.DiagnosticClientCapabilities()))
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=capabilities))
    yield
    await lsp_client.shutdown_session()


async def test_a_client_that_pulls_gets_validates_diagnostics_on_request(pulling: LanguageClient, tmp_path) -> None:
    path = tmp_path / "kubeadm.yaml"
    shutil.copy(FIXTURES / "bootstrap/cross-duplicate-kind.yaml", path)
    pulling.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(path.as_uri(), "yaml", 1, path.read_text())))
    report = await pulling.text_document_diagnostic_async(lsp.DocumentDiagnosticParams(lsp.TextDocumentIdentifier(path.as_uri())))
    assert as_found(report.items) == sorted_found(validate_json([path], tmp_path)[str(path)]) != []
    assert path.as_uri() not in pulling.diagnostics  # nothing pushed to a client that pulls


async def test_a_secret_never_leaves_the_server(client: LanguageClient, tmp_path) -> None:
    # an aesgcm key of 9 bytes: the API server refuses it (invalid-key-length), and its value must not be shown
    path = tmp_path / "encryption.yaml"
    text = (FIXTURES / "encryption/key-invalid-length-aesgcm.yaml").read_text()
    secret = "cGFzc3dvcmQK"
    found = await open_file(client, path, text)
    assert "invalid-key-length" in {d.code for d in found}
    said = [repr(found)]
    row = text.splitlines().index(f"              secret: {secret}")
    for character in (16, 25):
        where = lsp.HoverParams(lsp.TextDocumentIdentifier(path.as_uri()), lsp.Position(row, character))
        said.append(repr(await client.text_document_hover_async(where)))
    actions = await _actions(client, path.as_uri(), row)
    assert "Suppress invalid-key-length on this line" in actions
    said += [repr(action) for action in actions.values()]
    said += [message.message for message in client.log_messages]
    assert not [shown for shown in said if secret in shown]


async def test_no_migrate_action_carries_a_secret_the_conversion_moves(client: LanguageClient, tmp_path) -> None:
    # apiextensions v1beta1 -> v1 moves `subresources` into each version; the token is written with a YAML escape,
    # so its text in the file is not its value
    path = tmp_path / "crd.yaml"
    text = (
        "apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata:\n  name: jobs.example.com\n"
        "spec:\n  group: example.com\n  names: {kind: Job, plural: jobs}\n  scope: Namespaced\n  version: v1\n"
        '  subresources:\n    status: {token: "s3cr3t-t0ken\\nnext"}\n'
    )
    path.write_text(text)
    found = await open_file(client, path, text)
    assert "removed-api-version" in {d.code for d in found}
    actions = await _actions(client, path.as_uri(), 0)
    assert "Suppress removed-api-version on this line" in actions
    assert not [title for title in actions if title.startswith("Migrate")]
    assert not [action for action in actions.values() if "s3cr3t-t0ken" in repr(action)]
    _run("migrate", "--write", str(path), cwd=tmp_path)  # the command still converts it, on disk
    assert "apiextensions.k8s.io/v1\n" in path.read_text() and "s3cr3t-t0ken" in path.read_text()
