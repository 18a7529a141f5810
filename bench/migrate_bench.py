#!/usr/bin/env python3
"""svcconf migrate benchmark: throughput on a corpus where one document in ten uses an old API version.

    python bench/migrate_bench.py [--documents N] [--seed S] [--json FILE]

The corpus is bench/make_corpus.py's audit-encryption corpus, then every tenth document is moved back to an old version:
audit Policies to audit.k8s.io/v1beta1 and EncryptionConfigurations to the legacy
`v1 EncryptionConfig` (scalar splices), ClusterRoles to rbac v1beta1 (a splice) and Deployments to
extensions/v1beta1 (a structural rewrite through ruamel). Both figures are measured in-process on
one core, on the same files, as the median of 3 interleaved repetitions:

- migrate: read every file and compute its migrated bytes (`svcconf.migrate.migrate_bytes`; nothing is written);
- validate: `svcconf.validate([corpus], ValidateOptions(jobs=1))`.

Printed: documents per second of each and migrate/validate. The target is >= 1,000 docs/s for migrate.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import make_corpus

REPEATS = 3
OLD = {
    "audit.k8s.io/v1": "audit.k8s.io/v1beta1",
    "apiserver.config.k8s.io/v1": "v1",
    "rbac.authorization.k8s.io/v1": "rbac.authorization.k8s.io/v1beta1",
    "apps/v1": "extensions/v1beta1",
}
_API_VERSION = re.compile(r"(?m)^(apiVersion:[ \t]*)([^\s#]+)")
_KIND = re.compile(r"(?m)^kind:[ \t]*([\"']?)EncryptionConfiguration\1")


def age(corpus: Path, every: int = 10) -> tuple[int, int]:
    """Move one document in `every` (the next one of a kind that has an old version) back; return (documents, aged)."""
    seen = aged = 0
    for path in sorted(corpus.rglob("*.y*ml")):
        chunks = re.split(r"(?m)^(?=---)", path.read_text(encoding="utf-8"))
        for number, chunk in enumerate(chunks):
            match = _API_VERSION.search(chunk)
            if not match:
                continue
            seen += 1
            if aged >= seen // every or match.group(2) not in OLD:
                continue
            aged += 1
            chunk = chunk[: match.start(2)] + OLD[match.group(2)] + chunk[match.end(2) :]
            chunks[number] = _KIND.sub(r"kind: \1EncryptionConfig\1", chunk, count=1)
        path.write_text("".join(chunks), encoding="utf-8")
    return seen, aged


def measure_migrate(files: list[Path]) -> tuple[float, int, int]:
    from svcconf.migrate import migrate_bytes

    start = time.perf_counter()
    changed = documents = 0
    for path in files:
        outcome = migrate_bytes(str(path), path.read_bytes())
        documents += outcome.documents
        changed += len(outcome.edits)
    return time.perf_counter() - start, documents, changed


def measure_validate(corpus: Path) -> tuple[float, int]:
    from timing import validate

    start = time.perf_counter()
    report = validate([str(corpus)])
    return time.perf_counter() - start, report.documents


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=make_corpus.DEFAULT_DOCUMENTS)
    parser.add_argument("--seed", type=int, default=make_corpus.DEFAULT_SEED)
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="svcconf-migrate-bench-") as folder:
        corpus = Path(folder) / "corpus"
        make_corpus.generate(corpus, args.documents, args.seed, corpus_kind="audit-encryption")
        documents, aged = age(corpus)
        files = sorted(p for p in corpus.rglob("*") if p.suffix in (".yaml", ".yml"))
        measure_migrate(files[:1])  # imports and table loading, untimed
        measure_validate(corpus)
        migrate_times, validate_times = [], []
        changed = migrated_docs = validated_docs = 0
        for _ in range(REPEATS):
            seconds, migrated_docs, changed = measure_migrate(files)
            migrate_times.append(seconds)
            seconds, validated_docs = measure_validate(corpus)
            validate_times.append(seconds)
    migrate_rate = migrated_docs / statistics.median(migrate_times)
    validate_rate = validated_docs / statistics.median(validate_times)
    figures = {
        "documents": documents,
        "old_documents": aged,
        "documents_changed": changed,
        "migrate_docs_per_s": round(migrate_rate),
        "validate_docs_per_s": round(validate_rate),
        "migrate_over_validate": round(migrate_rate / validate_rate, 2),
    }
    print(f"corpus: {documents} documents, {aged} moved to an old version ({aged / documents:.0%}); migrate converted {changed}")
    print(f"migrate:  {migrate_rate:8.0f} docs/s (target >= 1,000)")
    print(f"validate: {validate_rate:8.0f} docs/s")
    print(f"migrate/validate: {migrate_rate / validate_rate:.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
