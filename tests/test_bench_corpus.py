"""The benchmark's generated corpora: valid documents of every kind, errors exactly where a mistake was put, the same bytes every time."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import yaml

import svcconf
from svcconf.model import Severity

CHECKOUT = Path(__file__).resolve().parent.parent
BENCH = CHECKOUT / "bench"


@pytest.fixture(scope="module")
def make_corpus():
    sys.path.insert(0, str(BENCH))
    try:
        import make_corpus

        yield make_corpus
    finally:
        sys.path.remove(str(BENCH))


@pytest.fixture(scope="module")
def all_kinds(make_corpus, tmp_path_factory) -> Path:
    corpus = tmp_path_factory.mktemp("bench") / "all-kinds"
    make_corpus.generate(corpus, documents=800, seed=3, check=True, corpus_kind="all-kinds")
    return corpus


def errors_by_document(corpus: Path) -> dict[tuple[str, int], set[str]]:
    errors: dict[tuple[str, int], set[str]] = {}
    for d in svcconf.validate([str(corpus)]).diagnostics:
        if d.severity == Severity.ERROR:
            errors.setdefault((Path(d.file).relative_to(corpus).as_posix(), d.document), set()).add(d.rule)
    return errors


def expected_errors(make_corpus, corpus: Path) -> dict[tuple[str, int], set[str]]:
    return {(path, document): set(rules) for path, document, _kind, _what, rules in make_corpus.load_mistakes(corpus)}


def test_all_kinds_errors_exactly_at_the_mistakes(make_corpus, all_kinds):
    expected = expected_errors(make_corpus, all_kinds)
    assert len(expected) == 40  # 5% of 800 documents
    assert errors_by_document(all_kinds) == expected


def test_audit_encryption_errors_exactly_at_the_mistakes(make_corpus, tmp_path):
    make_corpus.generate(tmp_path / "c", documents=200, seed=5, check=True, corpus_kind="audit-encryption")
    expected = expected_errors(make_corpus, tmp_path / "c")
    assert len(expected) == 10
    assert errors_by_document(tmp_path / "c") == expected


def test_all_kinds_holds_every_kind_with_a_schema(make_corpus, all_kinds):
    found: set[str] = set()

    def collect(node) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("apiVersion"), str) and isinstance(node.get("kind"), str):
                found.add(node["kind"])
            for value in node.values():
                collect(value)
        elif isinstance(node, list):
            for value in node:
                collect(value)

    for folder, _dirs, names in os.walk(all_kinds):
        for name in names:
            if name.endswith((".yaml", ".yml")):
                with open(os.path.join(folder, name), encoding="utf-8") as handle:
                    for doc in yaml.load_all(handle, Loader=yaml.CSafeLoader):
                        collect(doc)
    # schemas/<group>/<version>/<Kind>.json: every kind svcconf has a schema for.
    assert {path.stem for path in (CHECKOUT / "schemas").glob("*/*/*.json")} - found == set()
    assert set(os.listdir(all_kinds)) == {kind.name for kind in make_corpus.all_kinds.KINDS} | {"MISTAKES.tsv"}


def test_same_bytes_for_the_same_seed(make_corpus, tmp_path):
    def tree(root: Path) -> dict[str, bytes]:
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}

    for kind in make_corpus.CORPUS_KINDS:
        make_corpus.generate(tmp_path / kind / "a", documents=150, seed=9, corpus_kind=kind)
        make_corpus.generate(tmp_path / kind / "b", documents=150, seed=9, corpus_kind=kind)
        assert tree(tmp_path / kind / "a") == tree(tmp_path / kind / "b")
    make_corpus.generate(tmp_path / "other-seed", documents=150, seed=10)
    assert tree(tmp_path / "other-seed") != tree(tmp_path / "all-kinds" / "a")


def test_migrate_files_rewrite_one_document_in_ten_and_nothing_else(make_corpus, tmp_path):
    """bench/migrating.py's premise: one document in ten is rewritten (a structural change, not a splice); the twin file is left alone."""
    import migrating

    from svcconf.migrate import migrate_bytes
    from svcconf.settings.options import MigrateOptions

    files = migrating.write_files(tmp_path, 40, seed=5)
    options = MigrateOptions(deprecated=True)
    rewritten = migrate_bytes(files["rewrite"], Path(files["rewrite"]).read_bytes(), options)
    assert [(edit.document, edit.mode) for edit in rewritten.edits] == [(n, "rewrite") for n in range(10, 41, 10)]
    assert {edit.target for edit in rewritten.edits} == {"kubeadm.k8s.io/v1beta4 ClusterConfiguration"}
    nothing = Path(files["nothing"]).read_bytes()
    assert migrate_bytes(files["nothing"], nothing, options).output is None
    # The twins differ only in the ClusterConfigurations: every other document is the same text.
    old_documents = Path(files["rewrite"]).read_text(encoding="utf-8").split("\n---\n")
    new_documents = nothing.decode("utf-8").split("\n---\n")
    differing = [n + 1 for n, (a, b) in enumerate(zip(old_documents, new_documents)) if a != b]
    assert len(old_documents) == len(new_documents) == 40 and differing == [10, 20, 30, 40]
