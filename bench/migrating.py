"""migrate against validate: a file of about 1 MB in which one document in ten needs a rewrite, the same file with nothing to convert.

Every tenth document is a kubeadm ClusterConfiguration: at kubeadm.k8s.io/v1beta3 with extraArgs
maps, which `migrate --deprecated` rewrites to v1beta4 (extraArgs become name/value lists: a
structural change, re-emitted through ruamel, not a splice), or already at v1beta4, which it leaves
alone. The other documents are of kinds with no older version to convert (scheduler, controller
manager, egress, tracing, audit, encryption, ordinary manifests). Each document is written from a
random generator of its own, so the two files differ only in the ClusterConfigurations.

In-process, on one core: `svcconf.migrate.migrate_bytes` (what `svcconf migrate` computes for a file;
nothing is written), the check `svcconf migrate` makes of a converted file (`migrate.verify`), and
`svcconf.validate` with one job on the same files.
"""

from __future__ import annotations

import random
from pathlib import Path

from corpusgen import all_kinds, bootstrap
from corpusgen.writer import Style, write_document
from timing import interleaved, median, ratio

OTHER_KINDS = ("scheduler", "controller-manager", "egress", "tracing", "audit", "encryption", "manifests")
OLD, NEW = "kubeadm.k8s.io/v1beta3", "kubeadm.k8s.io/v1beta4"
EVERY = 10  # one document in EVERY is a ClusterConfiguration


def file_text(documents: int, version: str, seed: int) -> str:
    """`documents` documents, the ClusterConfigurations at `version`."""
    parts = []
    for index in range(documents):
        rng = random.Random(f"{seed}:migrate:{index}")
        if index % EVERY == EVERY - 1:
            doc = bootstrap.cluster_configuration(
                rng, version, f"cluster-{index}", "10.244.0.0/16", "10.96.0.0/12", "cluster.local", "10.0.0.2"
            )
        else:
            doc = all_kinds.documents_of(rng, all_kinds.BY_NAME[rng.choice(OTHER_KINDS)], 1)[0]
        parts.append(("---\n" if index else "") + write_document(doc, Style(rng)))
    return "".join(parts)


def write_files(folder: Path, documents: int, seed: int) -> dict[str, str]:
    """The file to rewrite (`documents` documents), one of a tenth of its documents, and the file with nothing to convert."""
    folder.mkdir(parents=True, exist_ok=True)
    files = {}
    for name, count, version in (
        ("rewrite", documents, OLD),
        ("rewrite_tenth", max(documents // 10, EVERY), OLD),
        ("nothing", documents, NEW),
    ):
        path = folder / f"migrate-{name}-{count}.yaml"
        path.write_text(file_text(count, version, seed), encoding="utf-8")
        files[name] = str(path)
    return files


def measure(files: dict[str, str], repeats: int) -> dict:
    """Seconds of migrate on each file and of validate on the file with nothing to convert; MB/s and the ratios."""
    from svcconf.migrate import migrate_bytes
    from svcconf.migrate.verify import verify
    from svcconf.settings.options import MigrateOptions, ValidateOptions

    options = MigrateOptions(deprecated=True)
    checking = ValidateOptions(jobs=1, max_file_size=1 << 30)
    data = {name: Path(path).read_bytes() for name, path in files.items()}
    outcomes = {name: migrate_bytes(files[name], data[name], options) for name in files}  # untimed: imports, tables

    def migrate(name: str):
        return lambda: migrate_bytes(files[name], data[name], options)

    def validate(name: str):
        from svcconf import validate as run

        return lambda: run([files[name]], checking)

    samples = interleaved(
        {
            "migrate rewrite": migrate("rewrite"),
            "migrate rewrite_tenth": migrate("rewrite_tenth"),
            "migrate nothing": migrate("nothing"),
            "validate nothing": validate("nothing"),
            "verify rewrite": lambda: verify(outcomes["rewrite"], checking),
        },
        repeats,
    )
    seconds = {key: median(values) for key, values in samples.items()}
    megabytes = {name: len(content) / 1e6 for name, content in data.items()}
    rewritten = outcomes["rewrite"]
    return {
        "files": {name: {"path": path, "bytes": len(data[name]), "documents": outcomes[name].documents} for name, path in files.items()},
        "edits": {name: [edit.mode for edit in outcome.edits].count("rewrite") for name, outcome in outcomes.items()},
        "other_edits": sum(edit.mode != "rewrite" for outcome in outcomes.values() for edit in outcome.edits),
        "seconds": seconds,
        "rewrite_mb_per_s": ratio(megabytes["rewrite"], seconds["migrate rewrite"]),
        "command_mb_per_s": ratio(megabytes["rewrite"], seconds["migrate rewrite"] + seconds["verify rewrite"]),
        "nothing_over_validate": ratio(seconds["validate nothing"], seconds["migrate nothing"]),
        "growth": ratio(seconds["migrate rewrite"], seconds["migrate rewrite_tenth"]),
        "growth_documents": ratio(outcomes["rewrite"].documents, outcomes["rewrite_tenth"].documents),
        "rewritten_documents": len(rewritten.edits),
        "changed": rewritten.changed and not outcomes["nothing"].changed,
    }
