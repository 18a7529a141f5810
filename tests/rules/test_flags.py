"""Command lines: kubeadm extraArgs and static Pod manifests against the flag tables, with known answers from upstream.

Known answers: kube-apiserver's --insecure-port was deprecated in 1.20 and removed in 1.24
(staging/src/k8s.io/apiserver/pkg/server/options/deprecated_insecure_serving.go at release-1.23,
CHANGELOG-1.24); authorization modes and the --authorization-config exclusion are
pkg/kubeapiserver/options/authorization.go BuiltInAuthorizationOptions.Validate; unknown gates are
component-base featuregate.SetFromMap.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from svcconf.known.catalog import lifecycle, parse_release
from svcconf.known.flags import table as tables
from svcconf.known.tsv import DATA_DIR, read_table
from tests.helpers import run
from tests.tools import flag_table

SOURCES = Path(flag_table.SOURCES)


def diagnostics(path: Path, *args: str) -> list[dict]:
    result = run("validate", "-f", "json", "--no-config", *args, str(path))
    assert result.code in (0, 1), result.err
    return result.json()["diagnostics"]


def found(path: Path, *args: str) -> list[tuple[int, str, str]]:
    return [(d["line"], d["rule"], d["message"]) for d in diagnostics(path, *args)]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


V1BETA4 = "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\n"
V1BETA3 = "apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\n"  # the version kubeadm 1.22 to 1.30 read


# --------------------------------------------------------------------------- known answers


@pytest.mark.parametrize(("target", "rule"), [("1.23", "deprecated-flag"), ("1.24", "removed-flag")])
def test_insecure_port_is_deprecated_in_1_23_and_gone_in_1_24(tmp_path: Path, target: str, rule: str) -> None:
    path = write(tmp_path, "c.yaml", V1BETA3 + "apiServer:\n  extraArgs:\n    insecure-port: '0'\n")
    [(line, got, message)] = found(path, "--target-version", target)
    assert (line, got) == (5, rule)
    if rule == "removed-flag":
        assert message.startswith("unknown flag: --insecure-port: removed in 1.24 (target 1.24)")


def test_an_unknown_gate_in_feature_gates_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", V1BETA4 + "apiServer:\n  extraArgs:\n  - name: feature-gates\n    value: NoSuchGate=true\n")
    assert found(path) == [(6, "unknown-gate-in-flag", "unrecognized feature gate: NoSuchGate")]


def test_a_bogus_authorization_mode_is_refused_in_the_servers_words(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", V1BETA4 + "apiServer:\n  extraArgs:\n  - name: authorization-mode\n    value: Node,RBAC,Bogus\n")
    assert found(path) == [(6, "invalid-flag-value", 'authorization-mode "Bogus" is not a valid mode')]


def test_authorization_config_excludes_the_legacy_authorization_flags(tmp_path: Path) -> None:
    text = V1BETA4 + (
        "apiServer:\n  extraArgs:\n"
        "  - {name: authorization-config, value: /etc/kubernetes/pki/authz.yaml}\n"
        "  - {name: authorization-webhook-version, value: v1}\n"
    )
    [(line, rule, message)] = found(write(tmp_path, "c.yaml", text))
    assert (line, rule) == (6, "conflicting-flags")
    assert message == "--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined"
    # Before 1.29 the flag itself does not exist (kubeadm 1.28 reads v1beta3).
    old = write(tmp_path, "old.yaml", V1BETA3 + "apiServer:\n  extraArgs:\n    authorization-config: /etc/kubernetes/pki/authz.yaml\n")
    assert [(d["rule"], d["line"]) for d in diagnostics(old, "--target-version", "1.28")] == [("unknown-flag", 5)]


def test_a_v1beta3_map_and_a_v1beta4_list_point_at_the_name_and_at_the_value(tmp_path: Path) -> None:
    v1beta3 = "apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\napiServer:\n  extraArgs:\n    no-such-flag: x\n    secure-port: six\n"
    v1beta4 = V1BETA4 + "apiServer:\n  extraArgs:\n  - name: no-such-flag\n    value: x\n  - name: secure-port\n    value: six\n"
    at = ("--target-version", "1.35")  # the newest release of the kube-apiserver table's sources
    mapped = {(d["rule"], d["line"], d["column"], d["path"]) for d in diagnostics(write(tmp_path, "a.yaml", v1beta3), *at)}
    listed = {(d["rule"], d["line"], d["column"], d["path"]) for d in diagnostics(write(tmp_path, "b.yaml", v1beta4), *at)}
    assert {
        ("unknown-flag", 5, 5, "apiServer.extraArgs.no-such-flag"),
        ("invalid-flag-value", 6, 18, "apiServer.extraArgs.secure-port"),
    } <= mapped
    assert listed == {("unknown-flag", 5, 11, "apiServer.extraArgs[0].name"), ("invalid-flag-value", 8, 12, "apiServer.extraArgs[1].value")}


@pytest.mark.parametrize(
    ("flag", "value", "message"),
    [
        # pflag: invalid argument "V" for "--name" flag: <the parser's error>
        ("secure-port", "six", 'invalid argument "six" for "--secure-port" flag: strconv.ParseInt: parsing "six": invalid syntax'),
        ("anonymous-auth", "yes", 'invalid argument "yes" for "--anonymous-auth" flag: strconv.ParseBool: parsing "yes": invalid syntax'),
        ("request-timeout", "1 minute", 'invalid argument "1 minute" for "--request-timeout" flag: time: invalid duration "1 minute"'),
        ("bind-address", "0.0.0.0.0", 'invalid argument "0.0.0.0.0" for "--bind-address" flag: failed to parse IP: "0.0.0.0.0"'),
        ("service-cluster-ip-range", "10.96.0.0/12,fd00::/1080", "invalid CIDR address: fd00::/1080"),
        ("service-node-port-range", "30000-20000", '"30000-20000" is not a valid port range'),
        ("tls-min-version", "VersionTLS14", 'unknown tls version "VersionTLS14"'),
        ("tls-cipher-suites", "TLS_RSA_WITH_RC4_128_MD5", "Cipher suite TLS_RSA_WITH_RC4_128_MD5 not supported or doesn't exist"),
        ("logging-format", "xml", 'format: Unsupported value: "xml": supported values: "json", "text"'),
        ("enable-admission-plugins", "NodeRestriction,PodSecurityPolicy", 'enable-admission-plugins plugin "PodSecurityPolicy" is unknown'),
        ("audit-log-mode", "async", 'invalid audit log mode async, allowed modes are "batch,blocking,blocking-strict"'),
        (
            "feature-gates",
            "APIServerTracing=maybe",
            'invalid value of APIServerTracing=maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax',
        ),
    ],
)
def test_values_are_judged_as_the_component_parses_them(tmp_path: Path, flag: str, value: str, message: str) -> None:
    path = write(tmp_path, "c.yaml", V1BETA4 + f"apiServer:\n  extraArgs:\n  - name: {flag}\n    value: '{value}'\n")
    [(line, rule, said)] = found(path)
    assert (line, rule) == (6, "invalid-flag-value")
    assert message in said


def test_values_the_component_accepts_pass(tmp_path: Path) -> None:
    pairs = {
        "secure-port": "0x1A0B", "anonymous-auth": "F", "request-timeout": "1m30s", "bind-address": "::",
        "service-cluster-ip-range": "10.96.0.0/12,fd00::/108", "service-node-port-range": "30000+2767",
        "tls-cipher-suites": "TLS_AES_128_GCM_SHA256,TLS_RSA_WITH_RC4_128_SHA", "feature-gates": "kube:StorageVersionAPI=true,wardle:X=true",
        "goaway-chance": "0.001", "log-text-info-buffer-size": "2Ki", "enable-admission-plugins": "NodeRestriction,PodSecurity",
    }  # fmt: skip
    args = "".join(f"  - name: {flag}\n    value: '{value}'\n" for flag, value in pairs.items())
    assert found(write(tmp_path, "c.yaml", V1BETA4 + "apiServer:\n  extraArgs:\n" + args)) == []


def test_an_unknown_flag_gets_the_closest_flag_of_the_release(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", V1BETA4 + "apiServer:\n  extraArgs:\n  - name: enable-admision-plugins\n    value: NodeRestriction\n")
    assert (
        found(path, "--target-version", "1.35")[0][2] == "unknown flag: --enable-admision-plugins; did you mean --enable-admission-plugins?"
    )


def test_past_the_newest_reference_of_a_table_an_unknown_name_may_be_a_newer_flag(tmp_path: Path) -> None:
    """The kube-apiserver table is read up to the 1.35 generated reference, the kubelet's up to 1.34: at 1.36 a name
    neither lists may be a flag 1.36 added, so it is a warning, not pflag's `unknown flag` error."""
    path = write(tmp_path, "c.yaml", V1BETA4 + "apiServer:\n  extraArgs:\n  - name: enable-admision-plugins\n    value: NodeRestriction\n")
    message = (
        "--enable-admision-plugins is not a kube-apiserver flag up to 1.35, the newest release svcconf's table was read from: "
        "unknown flag: --enable-admision-plugins unless the target release added it"
    )
    assert found(path, "--target-version", "1.36") == [(5, "flag-not-in-table", message)]
    kubelet = write(tmp_path, "init.yaml", V1BETA4_INIT + "  - {name: node-lables, value: role=edge}\n")
    assert [rule for _line, rule, _message in found(kubelet, "--target-version", "1.34")] == ["unknown-flag"]
    assert [rule for _line, rule, _message in found(kubelet, "--target-version", "1.35")] == ["flag-not-in-table"]


STATIC_POD = """apiVersion: v1
kind: Pod
metadata: {name: kube-apiserver, namespace: kube-system}
spec:
  containers:
  - name: kube-apiserver
    image: registry.k8s.io/kube-apiserver:v1.36.0
    command:
    - /usr/local/bin/kube-apiserver
    - --secure-port=six
    - --audit-policy-file
    - /etc/kubernetes/policies/audit.yaml
    - --allow-privileged
    - --max-requests-inflight
    - many
    volumeMounts:
    - {name: policies, mountPath: /etc/kubernetes/policies, readOnly: true}
  volumes:
  - name: policies
    hostPath: {path: ../policies, type: DirectoryOrCreate}
"""
ENCRYPTION = "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n- resources: [secrets]\n  providers:\n  - identity: {}\n"
AUDIT = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n"


def test_a_static_pod_is_read_in_both_flag_forms(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    pod = write(tmp_path, "manifests/kube-apiserver.yaml", STATIC_POD)
    got = [(d["line"], d["rule"], d["path"]) for d in diagnostics(pod)]
    # `--secure-port=six` in one word, `--max-requests-inflight many` in two: the value is the next word.
    assert got == [
        (10, "invalid-flag-value", "spec.containers[0].command[1]"),
        (15, "invalid-flag-value", "spec.containers[0].command[6]"),
    ]


def test_audit_policy_file_naming_an_encryption_configuration_in_the_tree(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "policies/audit.yaml", ENCRYPTION)
    pod = write(
        tmp_path, "manifests/kube-apiserver.yaml", STATIC_POD.replace("--secure-port=six", "--secure-port=6443").replace("many", "400")
    )
    [(line, rule, message)] = found(pod)
    assert (line, rule) == (12, "flag-file-wrong-kind")
    assert "whose kind is EncryptionConfiguration; kube-apiserver expects Policy there" in message
    write(tmp_path, "policies/audit.yaml", AUDIT)
    assert found(pod) == []


def test_kubeadm_extra_volumes_map_the_container_path_to_the_repository(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "etc/kubernetes/audit/policy.yaml", ENCRYPTION)
    text = V1BETA4 + (
        "apiServer:\n  extraArgs:\n  - {name: audit-policy-file, value: /srv/audit/policy.yaml}\n"
        "  extraVolumes:\n  - {name: audit, hostPath: /etc/kubernetes/audit, mountPath: /srv/audit}\n"
    )
    [(line, rule, _message)] = found(write(tmp_path, "kubeadm/config.yaml", text))
    assert (line, rule) == (5, "flag-file-wrong-kind")


def test_a_named_file_outside_the_repository_or_behind_a_link_is_not_read(tmp_path: Path, monkeypatch) -> None:
    repo = tmp_path / "repo"
    write(tmp_path, "outside/audit.yaml", ENCRYPTION)
    monkeypatch.chdir(write(repo, "x", "").parent)
    (repo / "policies").symlink_to(tmp_path / "outside")
    for host in ("../outside", "policies"):
        pod = write(
            repo, "kube-apiserver.yaml", STATIC_POD.replace("../policies", host).replace("--secure-port=six", "--v=2").replace("many", "1")
        )
        assert found(pod) == []


def test_any_other_pod_stays_skipped(tmp_path: Path) -> None:
    pod = write(
        tmp_path,
        "web.yaml",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n  - {name: web, image: nginx, command: [nginx]}\n",
    )
    result = run("validate", "-f", "json", "--no-config", str(pod))
    summary = result.json()["summary"]
    assert (result.code, result.json()["diagnostics"], summary.get("skipped")) == (0, [], 1)


def test_a_file_without_extra_args_loads_no_flag_table(tmp_path: Path) -> None:
    tables.table.cache_clear()
    path = write(tmp_path, "c.yaml", V1BETA4 + "networking: {podSubnet: 10.244.0.0/16}\n")
    pod = write(tmp_path, "web.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec: {containers: [{name: web, image: nginx}]}\n")
    assert found(path) == found(pod) == []
    assert tables.table.cache_info().currsize == 0


def test_a_long_unknown_name_is_judged_without_a_suggestion(tmp_path: Path) -> None:
    name = "enable-admission-plugins" * 400
    path = write(tmp_path, "c.yaml", V1BETA4 + f"apiServer:\n  extraArgs:\n  - name: {name}\n    value: x\n")
    assert found(path, "--target-version", "1.35")[0][1:] == ("unknown-flag", f"unknown flag: --{name}")


# --------------------------------------------------------------------------- the tables


def test_the_tables_have_their_shape_and_name_their_sources() -> None:
    _meta, sources = read_table("flags", "sources.tsv")
    keys = {row["key"] for row in sources}
    newest = lifecycle().newest
    for component in tables.COMPONENTS:
        meta, rows = read_table("flags", f"{component}.tsv")
        assert meta["complete-from"] == "no" or (1, 22) <= parse_release(meta["complete-from"]) <= newest
        assert meta["complete-through"] == "no" or parse_release(meta["complete-from"]) <= parse_release(meta["complete-through"]) <= newest
        assert rows and list(rows[0]) == list(flag_table.COLUMNS)
        for row in rows:
            assert row["source"] and set(row["source"].split(",")) <= keys, row
            releases = [parse_release(row[c]) for c in ("introduced", "deprecated", "removed") if row[c]]
            assert all((1, 0) < release <= newest for release in releases), row
            if row["introduced"] and row["removed"]:
                assert parse_release(row["introduced"]) < parse_release(row["removed"]), row
            if row["renamed-to"]:
                assert row["renamed-to"] in {r["flag"] for r in rows}, row
    assert {component for component, _complete in flag_table.components()} == set(tables.COMPONENTS)


def test_the_committed_tables_are_what_the_script_builds() -> None:
    for component, (complete_from, complete_through) in flag_table.components():
        meta, committed = read_table("flags", f"{component}.tsv")
        built = flag_table.build(component)
        assert [{k: v.replace("\t", " ") for k, v in row.items()} for row in built] == committed, component
        assert (meta["complete-from"], meta["complete-through"]) == (complete_from, complete_through)


def _excerpts() -> list[tuple[str, Path]]:
    return [(path.name.rsplit("-", 1)[0], path) for path in sorted(SOURCES.glob("*-[0-9]*.tsv"))]


@pytest.mark.parametrize(("component", "excerpt"), _excerpts(), ids=[p.name for _c, p in _excerpts()])
def test_the_table_agrees_with_the_upstream_reference_of_the_release(component: str, excerpt: Path) -> None:
    """Every flag of a stored excerpt of upstream's reference (generated from the flag registrations) lives in
    the table at that release with that type; the excerpt names its source (kubernetes/website page, etcd tag)."""
    meta, rows = flag_table.read_tsv(str(excerpt))
    assert meta["source"] and meta["source-key"]
    release = parse_release(meta["release"])
    flags = tables.table(component).flags
    assert len(rows) >= 50
    for row in rows:
        name = flag_table.flag_name(row["flag"])
        flag = flags[name]
        assert tables.lives_at(flag, release), (name, release)
        assert meta["source-key"] in flag.source.split(","), name
        if meta["source-key"] == flag.source.split(",")[-1] or len(flag.source.split(",")) == 1:
            assert (flag.type, flag.default) == (row["type"], row["default"]), name


@pytest.mark.parametrize("component", tables.COMPONENTS)
def test_a_flag_missing_from_every_reference_is_an_event_with_a_source(component: str) -> None:
    shots = {shot.source for shot in flag_table.snapshots(component)}
    events = {(row["flag"], row["source"]) for row in flag_table.events(component)}
    unsourced = [
        flag
        for flag in tables.table(component).flags.values()
        if not shots & set(flag.source.split(",")) and not all((flag.name, source) in events for source in flag.source.split(","))
    ]
    assert unsourced == []


def test_the_website_excerpt_reader_reads_a_generated_page(tmp_path: Path) -> None:
    page = (
        '<tr>\n<td colspan="2">--audit-log-maxage int</td>\n</tr>\n<tr>\n<td></td><td style="x"><p>days</p></td>\n</tr>\n'
        '<tr>\n<td colspan="2">--anonymous-auth&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;Default: true</td>\n</tr>\n'
        '<tr>\n<td></td><td style="x"><p>Anon. (DEPRECATED: use authentication-config)</p></td>\n</tr>\n'
        '<tr>\n<td colspan="2">-v, --v int</td>\n</tr>\n<tr>\n<td></td><td style="x"><p>verbosity</p></td>\n</tr>\n'
    )
    assert flag_table.website_excerpt(page) == [
        ("--audit-log-maxage", "int", "", ""),
        ("--anonymous-auth", "", "true", "use authentication-config"),
        ("-v, --v", "int", "", ""),
    ]


def test_the_tables_are_package_data() -> None:
    assert os.path.isfile(os.path.join(DATA_DIR, "flags", "kube-apiserver.tsv"))
    assert json.loads(json.dumps(tables.table("etcd").flags["listen-client-urls"]._asdict()))["type"] == "value"


# --------------------------------------------------------------------------- migrate

KUBESPRAY_V1BETA2 = """apiVersion: kubeadm.k8s.io/v1beta2
kind: ClusterConfiguration
apiServer:
  extraArgs:
    insecure-port: "0"
    authorization-mode: Node,RBAC
controllerManager:
  extraArgs:
    experimental-cluster-signing-duration: 8760h
"""


def test_migrating_a_rendered_v1beta2_file_stops_at_the_removed_flag(tmp_path: Path) -> None:
    path = write(tmp_path, "kubeadm-config.yaml", KUBESPRAY_V1BETA2)
    result = run("migrate", "-f", "json", "--no-config", "--write", str(path))
    reviews = [(d["line"], d["path"]) for d in result.json()["diagnostics"] if d["rule"] == "migration-needs-review"]
    assert (result.code, reviews) == (1, [(5, "apiServer.extraArgs.insecure-port")])
    assert path.read_text(encoding="utf-8") == KUBESPRAY_V1BETA2


def test_under_unsafe_the_removed_flag_goes_and_the_renamed_one_is_written(tmp_path: Path) -> None:
    path = write(tmp_path, "kubeadm-config.yaml", KUBESPRAY_V1BETA2)
    run("migrate", "--no-config", "--unsafe", "--write", str(path))
    migrated = path.read_text(encoding="utf-8")
    assert "insecure-port" not in migrated
    assert "  - name: cluster-signing-duration\n    value: 8760h\n" in migrated
    assert found(path) == []


# --------------------------------------------------------------------------- kubelet and controller-manager tables

V1BETA4_INIT = "apiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\nnodeRegistration:\n  kubeletExtraArgs:\n"


def test_a_misspelt_kubelet_flag_is_unknown_with_the_closest_flag(tmp_path: Path) -> None:
    """The kubelet table is complete from 1.22 (kubernetes/website kubelet.md of 1.20, 1.30 and 1.34)."""
    path = write(tmp_path, "init.yaml", V1BETA4_INIT + "  - {name: node-lables, value: role=edge}\n")
    assert found(path, "--target-version", "1.34") == [(5, "unknown-flag", "unknown flag: --node-lables; did you mean --node-labels?")]


def test_a_kubelet_config_file_flag_warns_in_the_kubelets_words(tmp_path: Path) -> None:
    """cmd/kubelet/app/options/options.go AddKubeletConfigFlags marks every config-backed flag deprecated."""
    path = write(tmp_path, "init.yaml", V1BETA4_INIT + "  - {name: max-pods, value: '200'}\n  - {name: node-ip, value: 10.0.0.5}\n")
    [(line, rule, message)] = found(path)
    assert (line, rule) == (5, "deprecated-flag")
    assert "This parameter should be set via the config file specified by the Kubelet's --config flag" in message


def test_kubelet_flags_the_reference_hides_are_known(tmp_path: Path) -> None:
    """--housekeeping-interval (globalflags_linux.go addCadvisorFlags) and --log-json-split-stream (component-base
    logs/api/v1 options.go, registered where JSON logging is linked) exist though the generated page omits them."""
    args = "  - {name: housekeeping-interval, value: 10s}\n  - {name: log-json-split-stream, value: 'true'}\n"
    assert [rule for _line, rule, _message in found(write(tmp_path, "init.yaml", V1BETA4_INIT + args))] == ["deprecated-flag"]


def test_a_dockershim_flag_is_removed_in_1_24(tmp_path: Path) -> None:
    """KEP-2221: the dockershim flags (--network-plugin, --cni-bin-dir, ...) went with it in 1.24."""
    init = "apiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration\nnodeRegistration:\n  kubeletExtraArgs:\n    network-plugin: cni\n"
    path = write(tmp_path, "init.yaml", init)
    assert [(d["rule"], d["line"]) for d in diagnostics(path, "--target-version", "1.23")] == []
    assert [(d["rule"], d["line"]) for d in diagnostics(path, "--target-version", "1.24")] == [("removed-flag", 5)]


@pytest.mark.parametrize(("target", "rule"), [("1.23", "deprecated-flag"), ("1.24", "removed-flag")])
def test_the_controller_managers_insecure_port_goes_in_1_24(tmp_path: Path, target: str, rule: str) -> None:
    """CHANGELOG-1.24: "The insecure address flags --address and --port in kube-controller-manager have had no effect
    since v1.20 and are removed in v1.24"; the reference hides them (MarkDeprecated)."""
    path = write(tmp_path, "c.yaml", V1BETA3 + "controllerManager:\n  extraArgs:\n    port: '0'\n")
    assert [(d["line"], d["rule"]) for d in diagnostics(path, "--target-version", target)] == [(5, rule)]


def test_controller_manager_values_are_parsed_by_type(tmp_path: Path) -> None:
    """--concurrent-deployment-syncs is an int32 in the 1.21 and 1.31 references: pflag refuses "five"."""
    path = write(tmp_path, "c.yaml", V1BETA4 + "controllerManager:\n  extraArgs:\n  - {name: concurrent-deployment-syncs, value: five}\n")
    [(line, rule, message)] = found(path)
    assert (line, rule) == (5, "invalid-flag-value")
    assert message.startswith('invalid argument "five" for "--concurrent-deployment-syncs" flag: strconv.ParseInt')


# --------------------------------------------------------------------------- kube-proxy --config


def pod_running(component: str, binary: str) -> str:
    """A static Pod whose container runs the component; its flags are appended as command words."""
    return (
        f"apiVersion: v1\nkind: Pod\nmetadata: {{name: {component}, namespace: kube-system}}\nspec:\n  containers:\n"
        f"  - name: {component}\n    image: registry.k8s.io/{component}:v1.36.0\n    command:\n    - {binary}\n"
    )


PROXY_POD = pod_running("kube-proxy", "kube-proxy")


def proxy_pod(tmp_path: Path, *words: str) -> Path:
    return write(tmp_path, "kube-proxy.yaml", PROXY_POD + "".join(f"    - {word}\n" for word in words))


def test_kube_proxy_ignores_configuration_flags_beside_config(tmp_path: Path) -> None:
    """cmd/kube-proxy/app/options.go Options.Complete replaces the flag-filled configuration with the file's; flags bound
    to Options (--master, --hostname-override) and the logging flags (copyLogsFromFlags) still apply."""
    path = proxy_pod(tmp_path, "--config=/etc/kube-proxy/config.yaml", "--proxy-mode=ipvs", "--kubeconfig=/etc/kp.conf",
                     "--hostname-override=node-1", "--master=https://10.0.0.1:6443", "--v=2", "--cleanup=false")  # fmt: skip
    got = [(d["line"], d["message"].split(" is ignored")[0]) for d in diagnostics(path) if d["rule"] == "flag-ignored-with-config"]
    assert got == [(11, "--proxy-mode"), (12, "--kubeconfig")]


@pytest.mark.parametrize("config", [(), ("--config=",)])
def test_without_a_config_file_kube_proxy_uses_its_flags(tmp_path: Path, config: tuple[str, ...]) -> None:
    """An empty --config loads no file (`len(o.ConfigFile) > 0`)."""
    assert found(proxy_pod(tmp_path, *config, "--proxy-mode=ipvs", "--cluster-cidr=10.244.0.0/16")) == []


# --------------------------------------------------------------------------- repeated flags


@pytest.mark.parametrize("order", [("6444", "6443"), ("6443", "6444")])
def test_kubeadm_keeps_the_repeated_value_that_sorts_last(tmp_path: Path, order: tuple[str, str]) -> None:
    """cmd/kubeadm/app/util/arguments.go ArgumentsToCommand sorts the flags by name, then value: whatever the list order,
    --secure-port=6444 is written last and kube-apiserver keeps it (pflag sets a scalar flag again)."""
    entries = "".join(f"  - {{name: secure-port, value: '{value}'}}\n" for value in order)
    path = write(tmp_path, "c.yaml", V1BETA4 + "apiServer:\n  extraArgs:\n" + entries)
    [(line, rule, message)] = found(path)
    assert (line, rule) == (5 + order.index("6443"), "repeated-flag")
    assert f"keeps the value at apiServer.extraArgs[{order.index('6444')}].value" in message


def test_a_static_pod_keeps_the_last_value_and_gathers_lists(tmp_path: Path) -> None:
    """pflag: a bool is set again (the last wins); a string slice appends; the same value twice changes nothing."""
    pod = STATIC_POD.replace("    - --secure-port=six\n", "    - --profiling=false\n    - --profiling=true\n    - --anonymous-auth=false\n"
                             "    - --anonymous-auth=false\n    - --api-audiences=a\n    - --api-audiences=b\n")  # fmt: skip
    got = [(d["rule"], d["path"], d["severity"]) for d in diagnostics(write(tmp_path, "kube-apiserver.yaml", pod))]
    assert ("repeated-flag", "spec.containers[0].command[1]", "warning") in got
    assert ("repeated-list-flag", "spec.containers[0].command[6]", "info") in got
    assert not [entry for entry in got if entry[1] in ("spec.containers[0].command[2]", "spec.containers[0].command[3]")]


def test_a_file_mounted_from_a_config_map_is_mounted(tmp_path: Path) -> None:
    """kube-proxy's --config usually comes from a ConfigMap volume: the path is mounted, not a host file to read."""
    pod = proxy_pod(tmp_path, "--config=/var/lib/kube-proxy/config.conf").read_text(encoding="utf-8")
    mounted = (
        pod
        + "    volumeMounts: [{name: kube-proxy, mountPath: /var/lib/kube-proxy}]\n  volumes: [{name: kube-proxy, configMap: {name: kube-proxy}}]\n"
    )
    assert found(write(tmp_path, "mounted.yaml", mounted)) == []
    assert [rule for _line, rule, _message in found(write(tmp_path, "bare.yaml", pod))] == ["flag-file-not-mounted"]


# --------------------------------------------------------------------------- cloud-controller-manager

CCM_POD = pod_running("cloud-controller-manager", "/bin/cloud-controller-manager")


@pytest.mark.parametrize(("target", "rules"), [("1.26", ["unknown-flag"]), ("1.27", [])])
def test_the_cloud_controller_managers_webhook_flags_come_in_1_27(tmp_path: Path, target: str, rules: list[str]) -> None:
    """k8s.io/cloud-provider options/webhook.go first registers --webhook-secure-port at v0.27.0."""
    path = write(tmp_path, "ccm.yaml", CCM_POD + "    - --webhook-secure-port=10260\n")
    assert [d["rule"] for d in diagnostics(path, "--target-version", target)] == rules


@pytest.mark.parametrize(("target", "rule"), [("1.23", "deprecated-flag"), ("1.24", "removed-flag")])
def test_the_cloud_controller_managers_insecure_port_goes_in_1_24(tmp_path: Path, target: str, rule: str) -> None:
    """cloud-provider options.go calls InsecureServing.AddUnqualifiedFlags (--address, --port: "see --secure-port
    instead.") up to v0.23.0 and no longer at v0.24.0."""
    path = write(tmp_path, "ccm.yaml", CCM_POD + "    - --port=0\n")
    [finding] = diagnostics(path, "--target-version", target)
    assert finding["rule"] == rule


def test_the_go_registration_reader_reads_pflag_calls() -> None:
    text = (
        'const flagName = "feature-gates"\n'
        'fs.StringVar(&o.Master, "master", o.Master, "The address (overrides kubeconfig).")\n'
        'genericfs.Float32Var(&o.QPS, "kube-api-qps", o.QPS, "QPS")\n'
        'fs.Var(cliflag.NewNamedCertKeyArray(&s.SNICertKeys), "tls-sni-cert-key", "pairs")\n'
        'fs.Var(f, flagName, "gates")\n'
        'fs.BoolVar(&o.X, prefix+"log-text-split-stream", false, "split")\n'
        'fs.MarkDeprecated("master", "use " +\n  "--kubeconfig")\n'
    )
    assert flag_table.go_registrations(text) == {
        "master": ("string", "use --kubeconfig"),
        "kube-api-qps": ("float32", ""),
        "tls-sni-cert-key": ("namedCertKey", ""),
        "feature-gates": ("value", ""),
        "log-text-split-stream": ("", ""),
    }


def test_a_volume_name_that_is_not_a_string_is_no_mount(tmp_path: Path) -> None:
    pod = proxy_pod(tmp_path, "--config=/var/lib/kube-proxy/config.conf").read_text(encoding="utf-8")
    odd = pod + "    volumeMounts: [{name: [a], mountPath: /var/lib/kube-proxy}]\n  volumes: [{name: [a], configMap: {name: x}}]\n"
    assert [rule for _line, rule, _message in found(write(tmp_path, "odd.yaml", odd))] == ["flag-file-not-mounted"]


ETCD_36 = V1BETA4 + "etcd:\n  local:\n    extraArgs:\n    - name: experimental-enable-lease-checkpoint\n      value: 'true'\n"


def test_etcd_lease_checkpoint_moves_to_a_feature_gate_not_to_another_flag(tmp_path: Path) -> None:
    """etcd v3.6.0 server/etcdmain/help.go: --experimental-enable-lease-checkpoint is deprecated for
    `--feature-gates=LeaseCheckpoint=true`; --experimental-compaction-batch-limit for --compaction-batch-limit."""
    path = write(tmp_path, "kubeadm-config.yaml", ETCD_36)
    [(line, rule, message)] = found(path)
    assert (line, rule) == (6, "deprecated-flag")
    assert message.endswith("Use '--feature-gates=LeaseCheckpoint=true' instead.")
    run("migrate", "--no-config", "--write", str(path))
    assert path.read_text(encoding="utf-8") == ETCD_36  # no exact rename: a person moves it to the gate
    renamed = write(tmp_path, "batch.yaml", ETCD_36.replace("enable-lease-checkpoint", "compaction-batch-limit").replace("'true'", "'500'"))
    run("migrate", "--no-config", "--write", str(renamed))
    assert "    - name: compaction-batch-limit\n      value: '500'\n" in renamed.read_text(encoding="utf-8")
