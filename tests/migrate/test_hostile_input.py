"""svcconf migrate on hostile input: bounded time, and documents it cannot convert safely left as they are."""

from __future__ import annotations

import difflib
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

# --------------------------------------------------------------------------- the line matcher


def _apply(a: list[str], b: list[str]) -> list[str]:
    from svcconf.migrate.match import opcodes

    out: list[str] = []
    for tag, i1, i2, j1, j2 in opcodes(a, b):
        if tag == "equal":
            assert a[i1:i2] == b[j1:j2]
            out.extend(a[i1:i2])
        else:
            out.extend(b[j1:j2])
    return out


@pytest.mark.parametrize(
    "a,b",
    [
        ([], []),
        (["x"], []),
        ([], ["x"]),
        (list("abcdef"), list("abXdef")),
        (list("abcabc"), list("cbacba")),
        (["- a"] * 50, ["- a"] * 49 + ["- b"]),
        (list("aaaaxbbbb"), list("bbbbxaaaa")),
    ],
)
def test_opcodes_rebuild_the_second_sequence(a: list[str], b: list[str]) -> None:
    assert _apply(a, b) == b


def test_opcodes_match_as_many_lines_as_a_longest_match_on_ordinary_edits() -> None:
    from svcconf.migrate.match import opcodes

    a = [f"line {i}" for i in range(200)]
    b = a[:50] + ["inserted"] + a[50:120] + a[130:]
    matched = sum(i2 - i1 for tag, i1, i2, _j1, _j2 in opcodes(a, b) if tag == "equal")
    assert matched == sum(block.size for block in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks())


def test_a_large_structural_rewrite_finishes(tmp_path: Path) -> None:
    # 28,000 equal list lines in a 110 KB Deployment that must be re-emitted (selector and defaults
    # written): a quadratic matcher needs minutes here. The limit only catches a hang.
    head = "apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata:\n  name: big\nspec:\n  template:\n    metadata:\n      labels: {app: big}\nextra:\n"
    path = tmp_path / "big.yaml"
    path.write_text(head + "- a\n" * 28_000)
    assert path.stat().st_size > 110_000
    process = subprocess.run(
        [sys.executable, "-m", "svcconf", "migrate", "--check", str(path)], capture_output=True, cwd=ROOT, check=False, timeout=90
    )
    assert process.returncode == 1
    assert b"extensions/v1beta1 Deployment -> apps/v1 Deployment [rewrite]" in process.stdout


# --------------------------------------------------------------------------- documents migrate cannot convert safely

DEPLOYMENT = "apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata:\n  name: web\n{extra}spec:\n  template:\n    metadata:\n      labels: {{app: web}}\n"

NOT_CONVERTIBLE = {
    # name: (document, line:column, path, words of the reason)
    "duplicate-key": (DEPLOYMENT.format(extra="  name: api\n"), "5:3", "metadata.name", 'duplicate field "name"'),
    "duplicate-apiVersion": (
        "apiVersion: extensions/v1beta1\nkind: Ingress\napiVersion: networking.k8s.io/v1beta1\nmetadata: {name: x}\n",
        "3:1",
        "apiVersion",
        'duplicate field "apiVersion"',
    ),
    "omap": (DEPLOYMENT.format(extra="  labels: !!omap [{app: web}]\n"), "5:11", "metadata.labels", "the tag !!omap"),
    "set": (DEPLOYMENT.format(extra="  annotations: !!set {a}\n"), "5:16", "metadata.annotations", "the tag !!set"),
    "binary": (DEPLOYMENT.format(extra="  annotations: {b: !!binary aGk=}\n"), "5:20", "metadata.annotations.b", "the tag !!binary"),
    "custom-tag": (DEPLOYMENT.format(extra="  annotations: {b: !vault secret/x}\n"), "5:20", "metadata.annotations.b", "the tag !vault"),
    "int-1e5": (DEPLOYMENT.format(extra="  generation: !!int 1e5\n"), "5:15", "metadata.generation", '!!int "1e5" is not an integer'),
    "bool-maybe": (DEPLOYMENT.format(extra="  annotations: {b: !!bool maybe}\n"), "5:20", "metadata.annotations.b", "is not a boolean"),
    "tag-handle": (
        "%TAG !e! tag:example.com,2000:\n---\n" + DEPLOYMENT.format(extra="  annotations: {b: !e!x y}\n"),
        "7:20",
        "metadata.annotations.b",
        "the tag tag:example.com,2000:x",
    ),
    "tagged-apiVersion": ("apiVersion: !old batch/v1beta1\nkind: CronJob\n", "1:13", "apiVersion", "the tag !old"),
    # Found by the fuzz campaign: the plan reads a number past every Go type as infinite, ruamel as
    # an int of thousands of digits that Python refuses to print in a message.
    "huge-binary": (
        "apiVersion: rbac.authorization.k8s.io/v1alpha1\nkind: RoleBinding\nsubjects:\n- kind: User\n  apiVersion: 0b" + "1" * 20000 + "\n",
        "5:15",
        "subjects[0].apiVersion",
        "(20002 characters) is larger than any field holds",
    ),
    "huge-hex": (
        DEPLOYMENT.format(extra="  generation: 0x" + "f" * 2600 + "\n"),
        "5:15",
        "metadata.generation",
        "larger than any field holds",
    ),
    "huge-decimal": (DEPLOYMENT.format(extra="  generation: !!int " + "9" * 3100 + "\n"), "5:15", "metadata.generation", "larger than"),
    "bad-timestamp": (
        DEPLOYMENT.format(extra="  annotations: {at: 2001-13-45}\n"),
        "1:1",
        "-",
        "the round-trip reader cannot read a value",
    ),
}


@pytest.mark.parametrize("name", list(NOT_CONVERTIBLE))
def test_a_document_migrate_cannot_convert_safely_is_left_with_its_reason(name: str) -> None:
    from svcconf.migrate import migrate_bytes

    text, where, path, reason = NOT_CONVERTIBLE[name]
    outcome = migrate_bytes("x.yaml", text.encode())
    assert outcome.output is None and outcome.edits == []
    [review] = [d for d in outcome.diagnostics if d.rule == "migration-needs-review"]
    assert (f"{review.line}:{review.column}", review.path_text or "-") == (where, path)
    assert reason in review.message and review.message.endswith("file left unchanged")
    assert {d.rule for d in outcome.diagnostics} == {"migration-needs-review"}


def test_standard_tags_readers_agree_on_convert() -> None:
    from svcconf.migrate import migrate_bytes

    text = DEPLOYMENT.format(extra="  generation: !!int 3\n  annotations: {a: !!str 1, b: !!float 2, c: !!bool true}\n")
    outcome = migrate_bytes("x.yaml", text.encode())
    assert outcome.output is not None and b"generation: !!int 3\n" in outcome.output
    assert [e.target for e in outcome.edits] == ["apps/v1 Deployment"]


def test_a_duplicated_apiversion_is_never_reported_converted(tmp_path: Path) -> None:
    from tests.helpers import run

    path = tmp_path / "ingress.yaml"
    data = NOT_CONVERTIBLE["duplicate-apiVersion"][0].encode()
    path.write_bytes(data)
    result = run("migrate", "--write", str(path))
    assert result.code == 1
    assert path.read_bytes() == data
    assert "[migration-needs-review] apiVersion: duplicate field" in result.out
    assert "\n0 documents in 0 of 1 file rewritten\n" in result.out


def test_one_unconvertible_document_leaves_the_whole_file_unchanged() -> None:
    # The ClusterConfiguration's timeout moves into the InitConfiguration: converting only one of
    # them would lose it, so a duplicate key in either keeps both as they are.
    from svcconf.migrate import MigrateOptions, migrate_bytes

    text = (
        "apiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration\nnodeRegistration: {name: a, name: b}\n---\n"
        "apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\napiServer:\n  timeoutForControlPlane: 8m0s\n"
    )
    outcome = migrate_bytes("kubeadm.yaml", text.encode(), MigrateOptions(deprecated=True))
    assert outcome.output is None and outcome.edits == []
    assert [(d.line, d.document, d.rule) for d in outcome.diagnostics] == [(3, 1, "migration-needs-review")]


def _nested(levels: int) -> bytes:
    """A scheduler configuration whose deepest value sits `levels` maps and lists below the top."""
    head = "apiVersion: kubescheduler.config.k8s.io/v1beta2\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: x\n"
    lists = levels - 5  # below profiles, [0], pluginConfig, [0] and args
    return (head + "  pluginConfig:\n  - name: Custom\n    args: {a: " + "[" * lists + "]" * lists + "}\n").encode()


def test_nesting_up_to_the_limit_converts_and_deeper_nesting_is_reported() -> None:
    from svcconf.migrate import migrate_bytes
    from svcconf.migrate.guard import MAX_DEPTH

    assert migrate_bytes("x.yaml", _nested(MAX_DEPTH)).changed
    outcome = migrate_bytes("x.yaml", _nested(MAX_DEPTH + 1))
    assert outcome.output is None
    [review] = outcome.diagnostics
    assert review.rule == "migration-needs-review" and f"nested more than {MAX_DEPTH} levels" in review.message
    assert (review.line, review.column) == (7, 15 + MAX_DEPTH + 1 - 6)  # the first list too deep


def _hostile_variants(text: str, rng) -> list[str]:
    """The text with a few lines given a tag, duplicated, re-indented or extended with odd scalars."""
    import re

    variants = []
    lines = text.split("\n")
    for _ in range(8):
        changed = list(lines)
        for _edit in range(rng.randint(1, 3)):
            index = rng.randrange(len(changed))
            line = changed[index]
            key = re.match(r"^(\s*(?:- )?[\w.-]+:)( .*)?$", line)
            dice = rng.random()
            if key and dice < 0.5:
                tag = rng.choice(["!!omap", "!!set", "!!binary", "!x", "!!int", "!!float", "!!bool", "!!null", "!!str", "&a", "*a", "? "])
                changed[index] = f"{key.group(1)} {tag}{key.group(2) or ''}"
            elif key and dice < 0.7:
                changed.insert(index + 1, line)
            elif dice < 0.85:
                changed[index] = "  " * rng.randint(1, 3) + line
            else:
                changed[index] = line + " " + rng.choice(["2001-13-45", "1e5", "<<: *a", "{", "]", "'"])
        variants.append("\n".join(changed))
    return variants


def test_no_input_reaches_the_internal_error_path() -> None:
    import random

    from svcconf.load.source import parse
    from svcconf.migrate import migrate_bytes
    from tests.conftest import FIXTURES

    rng = random.Random(20261125)
    failures, unclaimed = [], []
    cases = sorted(p for p in (FIXTURES / "migrate").glob("*.yaml") if not p.name.endswith(".migrated.yaml"))
    for case in cases:
        for text in _hostile_variants(case.read_text(encoding="utf-8"), rng):
            outcome = migrate_bytes(case.name, text.encode("utf-8"))
            failures += [f"{case.name}: {d.message}" for d in outcome.diagnostics if d.rule == "internal-error"]
            source = parse(case.name, text)
            duplicated = {d.index + 1 for d in source.documents if d.problems}
            unclaimed += [f"{case.name}: document {e.document}" for e in outcome.edits if e.document in duplicated]
    assert failures == []
    assert unclaimed == []  # a document with a duplicate key is never converted


def test_a_flow_style_yaml_document_that_is_not_json_converts() -> None:
    from svcconf.migrate import migrate_bytes

    data = b"{apiVersion: extensions/v1beta1, kind: Deployment, spec: {template: {metadata: {labels: {app: x}}}}}\n"
    outcome = migrate_bytes("flow.yaml", data)
    assert outcome.output == (
        b"{apiVersion: apps/v1, kind: Deployment, spec: {selector: {matchLabels: {app: x}}, strategy: {rollingUpdate: {maxSurge: 1, "
        b"maxUnavailable: 1}}, revisionHistoryLimit: 2147483647, progressDeadlineSeconds: 2147483647, template: {metadata: {labels: "
        b"{app: x}}}}}\n"
    )


def test_a_service_port_of_other_scripts_digits_is_a_port_name_not_a_crash() -> None:
    # str.isdigit() is true for "²", which int() refuses; Go's digits are ASCII.
    ingress = (
        b"apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: web}\n"
        b'spec:\n  backend:\n    serviceName: web\n    servicePort: "\xc2\xb2"\n'
    )
    from svcconf.migrate import MigrateOptions, migrate_bytes

    outcome = migrate_bytes("ingress.yaml", ingress, MigrateOptions())
    assert [d.rule for d in outcome.diagnostics if d.rule == "internal-error"] == []
    assert b'name: "\xc2\xb2"' in (outcome.output or b"") or b"name: \xc2\xb2" in (outcome.output or b"")


def test_a_service_port_of_thousands_of_digits_is_a_port_name_not_a_crash() -> None:
    # Found by the fuzz campaign: int() refuses strings of over 4,300 digits.
    digits = b"9" * 5000
    ingress = (
        b"apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: web}\n"
        b'spec:\n  backend:\n    serviceName: web\n    servicePort: "' + digits + b'"\n'
    )
    from svcconf.migrate import MigrateOptions, migrate_bytes

    outcome = migrate_bytes("ingress.yaml", ingress, MigrateOptions())
    assert [d.message for d in outcome.diagnostics if d.rule == "internal-error"] == []
    assert b'name: "' + digits + b'"' in (outcome.output or b"")


@pytest.mark.parametrize("score", ["{disabled: 1.5}", "{enabled: x}", "[]", "{enabled: off}", "{disabled: [], enabled: false}"])
def test_scheduler_plugin_lists_of_the_wrong_type_leave_weights_alone(score: str) -> None:
    from svcconf.migrate import MigrateOptions, migrate_bytes

    text = f"apiVersion: kubescheduler.config.k8s.io/v1beta1\nkind: KubeSchedulerConfiguration\nprofiles:\n  - plugins:\n      score: {score}\n"
    outcome = migrate_bytes("scheduler.yaml", text.encode(), MigrateOptions(deprecated=True))
    assert [d.message for d in outcome.diagnostics if d.rule == "internal-error"] == []


def test_scheduler_plugin_names_of_the_wrong_type_are_no_names() -> None:
    # A list as a plugin's name (found by the fuzz campaign) names no plugin: the conversion goes on.
    from svcconf.migrate import MigrateOptions, migrate_bytes

    text = (
        "apiVersion: kubescheduler.config.k8s.io/v1beta2\nkind: KubeSchedulerConfiguration\nprofiles:\n- plugins:\n"
        "    score:\n      disabled:\n      - name: [x]\n      enabled:\n      - name: []\n        weight: 2\n"
    )
    outcome = migrate_bytes("scheduler.yaml", text.encode(), MigrateOptions())
    assert [d.message for d in outcome.diagnostics if d.rule == "internal-error"] == []
    assert (outcome.output or b"").startswith(b"apiVersion: kubescheduler.config.k8s.io/v1\n")


def test_a_second_byte_order_mark_does_not_shift_the_splice() -> None:
    from svcconf.migrate import MigrateOptions, migrate_bytes

    bom = "\ufeff".encode()
    data = bom + bom + b"kind: EncryptionConfig\napiVersion: v1\nresources: []\n"
    outcome = migrate_bytes("enc.yaml", data, MigrateOptions(deprecated=True))
    assert outcome.output == bom + bom + b"kind: EncryptionConfiguration\napiVersion: apiserver.config.k8s.io/v1\nresources: []\n"


@pytest.mark.parametrize("field", ["versions: 3", "additionalPrinterColumns: 3"])
def test_crd_lists_of_the_wrong_type_are_no_lists(field: str) -> None:
    # Found by the fuzz campaign: an int where the CRD has a list was iterated.
    from svcconf.migrate import MigrateOptions, migrate_bytes

    text = (
        "apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata: {name: crontabs.example.com}\n"
        "spec:\n  group: example.com\n  version: v1\n  names: {plural: crontabs, kind: CronTab}\n"
        f"  {field}\n"
    )
    outcome = migrate_bytes("crd.yaml", text.encode(), MigrateOptions())
    assert [d.message for d in outcome.diagnostics if d.rule == "internal-error"] == []
