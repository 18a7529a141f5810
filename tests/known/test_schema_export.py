"""`svcconf schema export DIR`: standalone editor schemas that judge documents as svcconf's schema check does."""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest
import yaml

from svcconf import rules
from svcconf.known.catalog import aliases, schema_index
from svcconf.lint.document import DocumentChecker
from svcconf.load.source import load_bytes
from tests.conftest import FIXTURES
from tests.fixture_args import options_for
from tests.helpers import run

CASES = sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".yaml", ".yml", ".json") and not p.name.endswith(".migrated.yaml"))
# What svcconf's schema check reports; rules use some of these ids too, so the comparison turns rules off.
SCHEMA_RULES = frozenset({"unknown-field", "lenient-unknown-field", "wrong-type", "missing-field", "invalid-value"})


class Export:
    """One `svcconf schema export` run: its folder, its index and validators for its files."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
        self._validators: dict[str, jsonschema.protocols.Validator] = {}
        self.combined = self.validator("all.json")

    def validator(self, relative: str):
        """A validator of the draft the file declares, for a file that is a valid schema of that draft."""
        if relative not in self._validators:
            schema = json.loads((self.folder / relative).read_text(encoding="utf-8"))
            cls = jsonschema.validators.validator_for(schema)
            cls.check_schema(schema)
            self._validators[relative] = cls(schema)
        return self._validators[relative]

    def file_for(self, data: dict) -> str | None:
        api_version, kind = data.get("apiVersion"), data.get("kind")
        if not (isinstance(api_version, str) and isinstance(kind, str)):
            return None
        return self.index["kinds"].get(api_version, {}).get(kind)


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """Exports made through the command line, one per (domain, spelling, target), made once."""
    made: dict[tuple, Export] = {}

    def get(domain: str = "k8s.io", spelling: str = "kube", target: tuple | None = None) -> Export:
        key = (domain, spelling, target)
        if key not in made:
            folder = tmp_path_factory.mktemp("schemas")
            extra = ["--target-version", f"{target[0]}.{target[1]}"] if target else []
            result = run("schema", "export", str(folder), "--api-domain", domain, "--naming", spelling, *extra)
            assert result.code == 0, result.err
            made[key] = Export(folder)
        return made[key]

    return get


@pytest.mark.parametrize("case", CASES, ids=[str(c.relative_to(FIXTURES)) for c in CASES])
def test_exported_schemas_judge_fixtures_as_svcconf_does(case: Path, exported, monkeypatch) -> None:
    """Every fixture document of a kind with an exported schema gets the same verdict from both sides.

    svcconf's side: the document goes through svcconf's own document checker (its YAML reading,
    List expansion, kind aliases, release and domain from the fixture's `fixture-args`) with rule
    functions switched off, since cross-field rules are exactly what a JSON Schema cannot say. Its
    verdict is "has a schema finding": any of unknown-field, lenient-unknown-field, wrong-type,
    missing-field or invalid-value. `duplicate-field` is left out: a repeated key is a YAML
    problem that no JSON Schema can see, since the parsed document holds one value.

    The exported side: the `jsonschema` package, with the draft the file declares, checks the
    same parsed document against all.json (one association for everything) and against the
    kind's own file from index.json; each must report an error exactly when svcconf has a finding.
    Documents are looked up in the export of the fixture's domain and release, in either
    spelling; documents of kinds without a schema, and `kind: List` items, go through all.json.
    """
    data = case.read_bytes()
    options = options_for(data.decode("utf-8", errors="replace"))
    target = options.resolved_target()
    monkeypatch.setattr(rules, "rules_for", lambda *_args: [])
    source = load_bytes(str(case), data)
    if not source.documents:
        pytest.skip("svcconf reads no document from this file (empty, unreadable or not YAML): nothing to judge")
    checker = DocumentChecker(options, str(case))
    siblings = [document.data for document in source.documents]
    for document in source.documents:
        data = document.data if isinstance(document.data, dict) else {}
        export = next((e for e in (exported(options.api_domain, s, target) for s in ("kube", "svc")) if e.file_for(data)), None)
        if export is None and data.get("kind") != "List":
            # No exported schema names this document's kind (or it is no mapping): all.json lets it pass, so that
            # one association covers a whole repository. svcconf may still have findings an editor cannot see.
            others = list(exported(options.api_domain, "kube", target).combined.iter_errors(document.data))
            assert others == [], f"{case.name} document {document.index + 1}: all.json rejects a document of another kind"
            continue
        export = export or exported(options.api_domain, "kube", target)
        findings, _skipped = checker.check(document, siblings)
        svcconf_says = sorted({f"{f.rule} {'.'.join(map(str, f.path))}" for f in findings if f.rule in SCHEMA_RULES})
        where = f"{case.name} document {document.index + 1}"
        combined_says = [error.message for error in export.combined.iter_errors(document.data)]
        assert bool(combined_says) == bool(svcconf_says), f"{where}: svcconf {svcconf_says}, all.json {combined_says}"
        relative = export.file_for(data)
        if relative:
            own_says = [error.message for error in export.validator(relative).iter_errors(document.data)]
            assert bool(own_says) == bool(svcconf_says), f"{where}: svcconf {svcconf_says}, {relative} {own_says}"


def test_fixtures_hold_documents_with_and_without_schema_findings(exported) -> None:
    """The comparison above is not vacuous: fixtures hold both kinds of document, and all.json rejects the bad ones."""
    export = exported()
    verdicts = []
    for case in CASES:
        for document in load_bytes(str(case), case.read_bytes()).documents:
            if isinstance(document.data, dict) and export.file_for(document.data):
                verdicts.append(any(True for _ in export.combined.iter_errors(document.data)))
    assert verdicts.count(True) >= 20 and verdicts.count(False) >= 200


def test_every_kind_and_alias_has_a_file_that_matches_only_its_documents(exported) -> None:
    export = exported()
    listed = {(api_version, kind): file for api_version, kinds in export.index["kinds"].items() for kind, file in kinds.items()}
    expected = {(f"{g}/{v}" if g else v, k) for g, v, k in [*schema_index(), *aliases()]}
    assert set(listed) == expected
    policy = {"apiVersion": "audit.k8s.io/v1", "kind": "Policy", "rules": [{"level": "Metadata"}]}
    for (api_version, kind), relative in listed.items():
        schema = json.loads((export.folder / relative).read_text(encoding="utf-8"))
        assert schema["properties"]["apiVersion"]["const"] == api_version
        assert schema["properties"]["kind"]["const"] == kind
        assert "x-svcconf" not in json.dumps(schema)
        if (api_version, kind) != ("audit.k8s.io/v1", "Policy"):
            assert list(export.validator(relative).iter_errors(policy)), f"{relative} accepts an audit Policy"
    assert not list(export.validator(listed[("audit.k8s.io/v1", "Policy")]).iter_errors(policy))


def test_combined_schema_passes_documents_of_other_kinds(exported) -> None:
    export = exported()
    deployment = {"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"replicas": "three"}}
    assert not list(export.combined.iter_errors(deployment))
    assert not list(export.combined.iter_errors(["not", "an", "object"]))
    listed = {"apiVersion": "v1", "kind": "List", "items": [deployment, {"apiVersion": "audit.k8s.io/v1", "kind": "Policy", "rules": 3}]}
    assert [list(e.absolute_path) for e in export.combined.iter_errors(listed)] == [["items", 1, "rules"]]


def test_spelling_and_domain(exported) -> None:
    export = exported("example.com", "svc")
    kinds = export.index["kinds"]
    assert kinds["svcscheduler.config.example.com/v1"]["SvcSchedulerConfiguration"] == (
        "svcscheduler.config.example.com/v1/SvcSchedulerConfiguration.json"
    )
    assert "InitConfiguration" in kinds["svcadm.example.com/v1beta4"]
    # The node agent keeps its name in both spellings, as `svcconf print defaults` writes it.
    assert "KubeletConfiguration" in kinds["kubelet.config.example.com/v1beta1"]
    assert (export.index["apiDomain"], export.index["naming"]) == ("example.com", "svc")
    scheduler = {"apiVersion": "svcscheduler.config.example.com/v1", "kind": "SvcSchedulerConfiguration", "parallelism": "16"}
    assert [list(e.absolute_path) for e in export.combined.iter_errors(scheduler)] == [["parallelism"]]
    upstream = {**scheduler, "apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration"}
    assert not list(export.combined.iter_errors(upstream))  # another spelling: not this export's kind


def test_target_release_leaves_out_what_it_does_not_serve(exported) -> None:
    """At 1.27, `delayCacheUntilActive` (1.28) is an unknown field and DynamicResourcesArgs (1.34) no kind, as validate says."""
    old = exported(target=(1, 27))
    assert "DynamicResourcesArgs" not in old.index["kinds"]["kubescheduler.config.k8s.io/v1"]
    assert "DynamicResourcesArgs" in exported().index["kinds"]["kubescheduler.config.k8s.io/v1"]
    document = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration", "delayCacheUntilActive": True}
    assert list(old.combined.iter_errors(document)) and not list(exported().combined.iter_errors(document))
    checked = run("validate", "--target-version", "1.27", "--no-config", "-f", "json", "-", stdin=yaml.safe_dump(document).encode())
    assert [(d["rule"], d["path"]) for d in checked.json()["diagnostics"]] == [("unknown-field", "delayCacheUntilActive")]


def test_editor_annotations(exported) -> None:
    """Upstream defaults, the server's wording for a bad duration, and a deprecation note on an old apiVersion."""
    export = exported()
    scheduler = json.loads((export.folder / "kubescheduler.config.k8s.io/v1/KubeSchedulerConfiguration.json").read_text(encoding="utf-8"))
    assert scheduler["properties"]["parallelism"]["default"] == 16  # rules-components.md 2.1: parallelism nil -> 16
    lease = scheduler["definitions"]["LeaderElectionConfiguration"]["properties"]["leaseDuration"]
    assert lease["patternErrorMessage"] == "time: invalid duration"
    v1beta3 = json.loads((export.folder / "kubeadm.k8s.io/v1beta3/InitConfiguration.json").read_text(encoding="utf-8"))
    assert "deprecated since 1.31" in v1beta3["properties"]["apiVersion"]["deprecationMessage"]
    assert "deprecationMessage" not in json.dumps(json.loads((export.folder / "kubeadm.k8s.io/v1beta4/InitConfiguration.json").read_text()))


def test_refuses_to_write_through_a_symbolic_link(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = tmp_path / "out"
    target.mkdir()
    (target / "audit.k8s.io").symlink_to(elsewhere)
    result = run("schema", "export", str(target))
    assert result.code == 2
    assert "symbolic link" in result.err and "Traceback" not in result.err
    assert list(elsewhere.iterdir()) == []
    linked = tmp_path / "linked"
    linked.symlink_to(elsewhere)
    assert run("schema", "export", str(linked)).code == 2
    assert list(elsewhere.iterdir()) == []


def test_refuses_a_target_below_a_symlinked_folder(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "linked").symlink_to(elsewhere, target_is_directory=True)
    result = run("schema", "export", str(tmp_path / "linked" / "schemas"))
    assert result.code == 2
    assert "symbolic link" in result.err and "Traceback" not in result.err
    assert list(elsewhere.iterdir()) == []


def test_unusable_domain_and_unwritable_folder(tmp_path: Path) -> None:
    bad = run("schema", "export", str(tmp_path / "out"), "--api-domain", "not a domain")
    assert bad.code == 2 and "--api-domain" in bad.err
    assert not (tmp_path / "out").exists()
    blocked = tmp_path / "file"
    blocked.write_text("x")
    result = run("schema", "export", str(blocked))
    assert result.code == 2 and "cannot write the schemas" in result.err
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        assert run("schema", "export", str(locked)).code == 2


def test_schema_without_action_prints_usage() -> None:
    result = run("schema")
    assert result.code == 2 and "export" in result.out


def _printed_defaults() -> dict[tuple[str, str, str], dict]:
    """The upstream default documents `svcconf print` writes, by (group, version, kind); plugin args as their own kinds."""
    documents = []
    for command in (["defaults", "KubeSchedulerConfiguration"], ["defaults", "KubeProxyConfiguration"]):
        documents.append(yaml.safe_load(run("print", *command).out))
    for version in ("v1beta3", "v1beta4"):
        for command in ("init-defaults", "join-defaults"):
            documents.extend(yaml.safe_load_all(run("print", command, "--api-version", version).out))
    for document in list(documents):
        for plugin in document.get("profiles", [{}])[0].get("pluginConfig", []):
            documents.append(plugin["args"])
    return {(*document["apiVersion"].split("/"), document["kind"]): document for document in documents}


def _defaults_in(schema: dict, node: dict, path: tuple = (), followed: frozenset = frozenset()):
    """(path, subschema) of every subschema with a `default`, reachable through properties and $refs."""
    if "default" in node:
        yield path, node
    name = node.get("$ref", "").rpartition("/")[2]
    if name and name not in followed:
        yield from _defaults_in(schema, schema["$defs"][name], path, followed | {name})
    for key, sub in node.get("properties", {}).items():
        yield from _defaults_in(schema, sub, (*path, key), followed)


def test_schema_defaults_are_the_printed_upstream_defaults() -> None:
    """Every `default` in a bundled schema is the value at its path in the upstream default document, and a valid value.

    Bootstrap placeholders (token, node name, advertise address) and host-dependent values are no
    defaults and must not appear; nor may a default hide where this walk cannot check it.
    """
    printed = _printed_defaults()
    defaults = []
    for (group, version, kind), path in schema_index().items():
        text = Path(path).read_text(encoding="utf-8")
        schema = json.loads(text)
        found = list(_defaults_in(schema, schema))
        assert len(found) == text.count('"default":'), f"{kind}: a default outside properties"
        for field, node in found:
            default = node["default"]
            assert jsonschema.Draft202012Validator({**node, "$defs": schema.get("$defs", {})}).is_valid(default), field
            value = printed[(group, version, kind)]
            for key in field:
                value = value[key]
            assert value == default, f"{group}/{version} {kind} {'.'.join(field)}"
            defaults.append(default)
    assert len(defaults) >= 80
    assert not {"abcdef.0123456789abcdef", "1.2.3.4", "node", "unix:///var/run/containerd/containerd.sock"} & set(map(str, defaults))
