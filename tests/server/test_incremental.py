"""The server's document-by-document check gives validate's diagnostics, and after a change checks only what changed."""

from __future__ import annotations

import pytest

from svcconf.lint.check import check_bytes
from svcconf.server.incremental import OpenFile, pieces
from svcconf.settings.options import ValidateOptions
from tests.conftest import FIXTURES

FILES = sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".yaml", ".json") and not p.name.endswith(".migrated.yaml"))


def _validate(name: str, text: str, options: ValidateOptions) -> list:
    return check_bytes(name, text.encode("utf-8"), options).diagnostics


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_every_fixture_gets_validates_diagnostics(path) -> None:
    text = path.read_bytes().decode("utf-8", "replace")
    options = ValidateOptions()
    assert OpenFile(str(path), options).check(text) == _validate(str(path), text, options)


BOOTSTRAP = """\
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
---
apiVersion: audit.k8s.io/v1
kind: Policy
omitManagedFields: yes
rules:
  - level: Metadata
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
networking:
  podSubnet: 10.244.0.0/16
"""


def test_a_change_checks_only_its_document_and_those_that_read_the_others() -> None:
    options = ValidateOptions()
    file = OpenFile("cluster.yaml", options)
    file.check(BOOTSTRAP)
    assert file.checked == 3
    changed = BOOTSTRAP.replace("level: Metadata", "level: Request")
    assert file.check(changed) == _validate("cluster.yaml", changed, options)
    # the audit Policy, and the two kubeadm documents, whose rules read the file's other documents
    assert file.checked == 3 and file.cross == {1, 3}
    unrelated = changed.replace("omitManagedFields: yes", "omitManagedFields: true")
    inserted = unrelated.replace("rules:", "# a comment\nrules:")  # every later line moves down
    assert file.check(inserted) == _validate("cluster.yaml", inserted, options)
    assert file.checked == 3
    policy_only = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: None\n---\n" + changed.split("---\n")[1]
    file = OpenFile("audit.yaml", options)
    file.check(policy_only)
    assert file.check(policy_only.replace("level: None", "level: Metadata")) == _validate(
        "audit.yaml", policy_only.replace("level: None", "level: Metadata"), options
    )
    assert file.checked == 1


@pytest.mark.parametrize(
    "text",
    [
        "%YAML 1.1\n---\na: 1\n",  # a directive
        "a: &x [1]\nb: *x\n",  # an alias
        "apiVersion: v1\r\nkind: Pod\rx: 1\n",  # a lone carriage return
        "a: 1\n---\nb: [\n",  # a syntax error
    ],
)
def test_text_the_pieces_could_read_otherwise_is_read_whole(text: str) -> None:
    options = ValidateOptions()
    file = OpenFile("x.yaml", options)
    assert file.check(text) == _validate("x.yaml", text, options)
    assert file.source is None


def test_pieces_start_at_document_markers_only() -> None:
    text = "a: |\n  ---x\n---\nb: 1\n... \n--- # c\nc: 2\n---x: 3\n"
    assert pieces(text) == [(0, "a: |\n  ---x\n"), (2, "---\nb: 1\n"), (4, "... \n"), (5, "--- # c\nc: 2\n---x: 3\n")]


def test_a_lone_surrogate_is_reported_as_validate_reports_undecodable_text() -> None:
    file = OpenFile("x.yaml", ValidateOptions())
    assert [d.rule for d in file.check("a: '\ud800'\n")] == ["encoding-error"]


@pytest.mark.parametrize(
    ("text", "alias"),
    [
        ("a: *x\n", True),
        ("- *x\n", True),
        ("*x: 1\n", True),
        ("  *x : 1\n", True),
        ("a: [1, *x]\n", True),
        ("a: {b: *x}\n", True),
        ("? *x\n: 1\n", True),
        ("a: '*'\n", False),
        ("a: /readyz*\n", False),
        ('a: ["*", "-x"]\n', False),
        ("a: b *c\n", False),
        ("a:*x\n", False),
    ],
)
def test_an_alias_is_found_where_libyaml_would_read_one(text: str, alias: bool) -> None:
    from svcconf.server.incremental import may_hold_alias

    assert may_hold_alias(text) is alias


def test_looking_for_aliases_is_linear_in_the_text() -> None:
    import time

    from svcconf.server.incremental import may_hold_alias

    def seconds(text: str) -> float:
        started = time.process_time()
        may_hold_alias(text)
        return time.process_time() - started

    for unit in ("a *", " " * 50 + "b*", "x: y*\n"):
        small, large = seconds(unit * 10_000), seconds(unit * 100_000)
        assert large < max(0.05, 30 * small), unit


def test_documents_repeated_in_a_file_get_validates_diagnostics_once_each() -> None:
    # three copies of the same kubeadm documents: every copy after the first is refused, once per document
    text = "---\n".join([BOOTSTRAP.split("---\n")[0], BOOTSTRAP.split("---\n")[2]] * 3)
    options = ValidateOptions()
    found = OpenFile("cluster.yaml", options).check(text)
    assert found == _validate("cluster.yaml", text, options)
    assert [(d.rule, d.document) for d in found] == [("duplicate-bootstrap-kind", n) for n in (3, 4, 5, 6)]


def test_a_view_of_the_whole_file_is_built_once_per_check(monkeypatch) -> None:
    # a cross-document rule's view built for each document would make a file of n documents cost n * n
    from svcconf.rules.bootstrap import cross

    built = []
    real = cross.BootstrapFile.__init__

    def counting(self, *args) -> None:
        built.append(1)
        real(self, *args)

    monkeypatch.setattr(cross.BootstrapFile, "__init__", counting)
    text = "---\n".join(BOOTSTRAP.split("---\n")[0::2] * 20)
    OpenFile("cluster.yaml", ValidateOptions()).check(text)
    assert len(built) == 1
