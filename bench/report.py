"""The benchmark's printed report: figures, ratios, and each ratio against its target."""

from __future__ import annotations

import os

from targets import (
    DOCUMENT_GROWTH_MAX,
    FILE_GROWTH_MAX,
    FLOOR_MAX,
    LARGEST_FILE_MEMORY_MAX,
    NOISE,
    TREE_MEMORY_MAX_MB,
    judge,
)


def _num(value: float | None, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _ms(seconds: float | None) -> str:
    return "n/a" if seconds is None else f"{seconds * 1000:,.0f} ms"


def _mb(size: int) -> str:
    return f"{size / 1e6:,.1f} MB"


def _verdict(value: float | None, limit: float, at_most: bool = True) -> str:
    if value is None:
        return ""
    met = value <= limit if at_most else value >= limit
    outcome = "met" if met else "within noise" if abs(value - limit) <= NOISE * limit else "MISSED"
    return f"(target {'<=' if at_most else '>='} {limit:g}: {outcome})"


def print_report(r: dict) -> None:
    c, s = r["corpus"], r["settings"]
    generated = c.get("generated")
    print("svcconf benchmark: one run on a shared machine; read the ratios, the absolute figures move between runs")
    print(
        f"python {r['python']}, {r['cpus']} cores, PyYAML {r['pyyaml']}; corpus {c['path']}: {c['files']} files, "
        f"{c['documents']} documents, {_mb(c['bytes'])}"
        + (f" (generated {generated['corpus_kind']}, seed {generated['seed']}, in {generated['seconds']:.1f} s)" if generated else "")
    )
    print(
        f"in-process figures: median of {s['repeats']}; commands: median of {s['command_runs']} ({s['tree_runs']} on the trees); interleaved"
    )
    load = r.get("load_average") or {}
    if max(load.get("start") or 0, load.get("end") or 0) > r["cpus"]:
        print(
            f"note: the machine was busy (load average {load['start']:.1f} at the start, {load['end']:.1f} at the end, {r['cpus']} cores): "
            "other processes took CPU, so the speed-ups with 2 jobs understate what an idle machine gives"
        )
    _throughput(r)
    _kinds(r)
    _check(r["check"])
    _growth(r, s)
    _memory(r["memory"])
    _defaults(r["defaults"])
    _migrate(r["migrate"])
    _startup(r)
    _targets(r)
    print(f"\n(whole run {r['total_seconds']:.0f} s: " + ", ".join(f"{k} {v:.0f} s" for k, v in r["step_seconds"].items()) + ")")


def _throughput(r: dict) -> None:
    t = r["throughput"]
    print("\nthroughput on the whole corpus (in-process)")
    for key, label in (
        ("a", "a  compose, libyaml (CSafeLoader)"),
        ("b", "b  svcconf validate, jobs=1"),
        ("c", "c  svcconf validate, jobs=2"),
    ):
        x = t[key]
        print(
            f"  {label:<36} {x['docs_per_s']:>10,.0f} docs/s {x['median_s']:>8.2f} s  ({min(x['samples_s']):.2f}-{max(x['samples_s']):.2f} s)"
        )
    print(f"  b/a  svcconf throughput / bare composition  {_num(t['b_over_a'])}")
    print(f"  c/b  speed-up with 2 jobs                    {_num(t['c_over_b'])}")


def _kinds(r: dict) -> None:
    print("\nby kind: svcconf validate (jobs=1, in-process) on each sub-folder against bare composition of its files")
    print(
        f"  {'kind':<20} {'files':>6} {'docs':>6} {'MB':>6} {'compose/s':>10} {'svcconf/s':>10} {'ms/doc':>7} {'b/a':>6} {'time share':>10}"
    )
    for kind, k in sorted(r["kinds"].items(), key=lambda item: item[1]["b_over_a"] or 0):
        print(
            f"  {kind:<20} {k['files']:>6} {k['documents']:>6} {k['bytes'] / 1e6:>6.2f} {k['compose_docs_per_s'] or 0:>10,.0f} "
            f"{k['svcconf_docs_per_s'] or 0:>10,.0f} {_num(k['svcconf_ms_per_doc']):>7} {_num(k['b_over_a']):>6} "
            f"{_num(100 * (k['share_of_svcconf_time'] or 0), 0):>9}%"
        )


def _check(k: dict) -> None:
    print(
        f"\ncheck: svcconf read {k['documents_counted_by_svcconf']} documents (composition: {k['documents_composed']}); "
        f"{k['errors']} errors, {k['warnings']} warnings, {k['infos']} infos; jobs=2 report identical: {k['parallel_report_identical']}"
    )
    if "injected_mistakes" in k:
        print(
            f"       {k['mistakes_reported_as_expected']} of {k['injected_mistakes']} injected mistakes reported as expected; "
            f"{len(k['unexpected'])} documents with unexpected errors"
        )
        for line in (k["differing"] + k["unexpected"])[:10]:
            print(f"       ! {line}")


def _growth(r: dict, s: dict) -> None:
    n = s["growth_documents"]
    print(f"\ngrowth: one file of {n} documents against one of {10 * n} (svcconf jobs=1, in-process; compose for reference)")
    print(f"  {'kind':<20} {f'{n} docs':>10} {f'{10 * n} docs':>10} {'svcconf x':>10} {'compose x':>10}  {'10N MB':>7}")
    for kind, g in r["growth"].items():
        flag = "" if (g["svcconf_ratio"] or 0) <= DOCUMENT_GROWTH_MAX else f"  > {DOCUMENT_GROWTH_MAX:g}x"
        print(
            f"  {kind:<20} {_ms(g['svcconf_small_s']):>10} {_ms(g['svcconf_large_s']):>10} {_num(g['svcconf_ratio'], 1):>10} "
            f"{_num(g['compose_ratio'], 1):>10}  {g['large_bytes'] / 1e6:>7.2f}{flag}"
        )
    worst = max(r["growth"].items(), key=lambda item: item[1]["svcconf_ratio"] or 0)
    print(f"  worst: {worst[0]} {_num(worst[1]['svcconf_ratio'], 1)}x {_verdict(worst[1]['svcconf_ratio'], DOCUMENT_GROWTH_MAX)}")
    f = r["file_growth"]
    print(
        f"  {f['small_files']} files against {f['large_files']} (the same files {f['large_files'] // max(f['small_files'], 1)} times): "
        f"{f['small_s']:.2f} s, {f['large_s']:.2f} s: {_num(f['ratio'], 1)}x {_verdict(f['ratio'], FILE_GROWTH_MAX)}"
    )


def _memory(m: dict) -> None:
    print("\npeak memory (RSS) of svcconf validate --jobs 1, a fresh process each")
    print(f"  one small file (the constant)          {_mb(m['baseline_peak_bytes']):>10}")
    print(
        f"  largest file, {_mb(m['largest_file_bytes'])} ({os.path.basename(m['largest_file'])}) "
        f"{_mb(m['largest_peak_bytes']):>10}: (peak - constant) / file size {_num(m['largest_growth_over_file'], 1)} "
        f"{_verdict(m['largest_growth_over_file'], LARGEST_FILE_MEMORY_MAX)}"
    )
    print(
        f"  for reference, libyaml composition of the same files: {_mb(m['compose_baseline_peak_bytes'])} and "
        f"{_mb(m['compose_largest_peak_bytes'])}: (peak - constant) / file size {_num(m['compose_growth_over_file'], 1)}"
    )
    rate = m["tree_documents"] / m["tree_seconds"] if m["tree_seconds"] else 0
    print(
        f"  tree of {m['tree_documents']:,} documents in {m['tree_files']:,} files ({_mb(m['tree_bytes'])}) "
        f"{_mb(m['tree_peak_bytes']):>10} {_verdict(m['tree_peak_bytes'] / 1e6, TREE_MEMORY_MAX_MB)}; "
        f"{m['tree_seconds']:.1f} s, {rate:,.0f} docs/s"
    )


def _defaults(d: dict) -> None:
    print(
        "\ndefault (no --jobs) against --jobs 1, paired fresh processes (procs: those the default starts on idle cores; CPU: of them all)"
    )
    print(
        f"  {'size':<36} {'files':>7} {'procs':>5} {'--jobs 1':>9} {'default':>9} {'wall':>6} {'CPU 1':>9} {'CPU dflt':>9} {'CPU':>6} {'load':>5}"
    )
    for s in d["sizes"]:
        print(
            f"  {s['name']:<36} {s['files']:>7,} {s['default_processes'] or '?':>5} {_ms(s['jobs1_s']):>9} {_ms(s['default_s']):>9} "
            f"{_num(s['default_wall_ratio']):>6} "
            f"{_ms(s['jobs1_cpu_s']):>9} {_ms(s['default_cpu_s']):>9} {_num(s['default_cpu_ratio']):>6} {_num(s['load_average'], 1):>5}"
        )
    t = d.get("largest")
    if t:
        print(f"--jobs 2 against --jobs 1 on the {t['name']}; the parallel loop got {_num(d['cores_available'])} of 2 cores meanwhile")
        print(
            f"  {_ms(t['jobs1_s'])}, {_ms(t['jobs2_s'])}: speed-up {_num(t['jobs2_speedup'])}; "
            f"CPU {_ms(t['jobs1_cpu_s'])}, {_ms(t['jobs2_cpu_s'])}: {_num(t['jobs2_cpu_ratio'])}x"
        )


def _migrate(m: dict) -> None:
    f, sec = m["files"], m["seconds"]
    print("\nmigrate (in-process, one core): kubeadm ClusterConfigurations, one document in ten, rewritten from v1beta3 to v1beta4")
    for name, label in (
        ("rewrite", "migrate, a tenth rewritten"),
        ("rewrite_tenth", "migrate, a tenth of the documents"),
        ("nothing", "migrate, nothing to convert"),
    ):
        x = f[name]
        print(
            f"  {label:<36} {x['documents']:>6} docs {x['bytes'] / 1e6:>6.2f} MB {_ms(sec['migrate ' + name]):>9}  ({m['edits'][name]} rewritten)"
        )
    print(
        f"  {'validate, nothing to convert':<36} {f['nothing']['documents']:>6} docs {f['nothing']['bytes'] / 1e6:>6.2f} MB {_ms(sec['validate nothing']):>9}"
    )
    print(
        f"  {'the check of the rewritten file':<36} {'':>23} {_ms(sec['verify rewrite']):>9}  (migrate.verify: what svcconf migrate adds)"
    )
    print(
        f"  {_num(m['rewrite_mb_per_s'])} MB/s rewriting ({_num(m['command_mb_per_s'])} with the check); nothing to convert at "
        f"{_num(m['nothing_over_validate'])}x validate's speed; {_num(m['growth_documents'], 0)}x the documents: {_num(m['growth'], 1)}x the time"
    )
    if m["other_edits"] or not m["changed"]:
        print(f"  ! unexpected: {m['other_edits']} edits other than rewrites; files changed as expected: {m['changed']}")


def _targets(r: dict) -> None:
    print(f"\ntargets ({r['date']}, {r['machine']}, {r['cpus']} cores, load average {_loads(r)}):")
    for target in judge(r):
        print(f"  {target.line()}")


def _loads(r: dict) -> str:
    load = r.get("load_average") or {}
    return f"{_num(load.get('start'), 1)} at the start, {_num(load.get('end'), 1)} at the end"


def _startup(r: dict) -> None:
    st = r["startup"]
    print(f"\nstart-up: one small file, FILE = {st['file']} ({st['file_bytes']:,} bytes), a fresh process each")
    for key, label in (
        ("svcconf_file", "svcconf validate --jobs 1 FILE (the hook)"),
        ("floor", 'python -c "import yaml, jsonschema_rs"'),
        ("yamllint_file", "yamllint -d relaxed FILE"),
        ("svcconf_help", "svcconf --help"),
        ("python_pass", "python -c pass"),
    ):
        x = st[key]
        spread = f"({_ms(min(x['samples_s']))}-{_ms(max(x['samples_s']))})" if x else ""
        print(f"  {label:<44} {_ms(x['median_s'] if x else None):>8}  {spread}")
    ratios = st["ratios"]
    print(f"  svcconf FILE / the floor           {_num(ratios['svcconf_over_floor'])} {_verdict(ratios['svcconf_over_floor'], FLOOR_MAX)}")
    print(f"  svcconf FILE / yamllint FILE        {_num(ratios['svcconf_over_yamllint'])}")
    print(f"  svcconf FILE / svcconf --help       {_num(ratios['svcconf_file_over_help'])}")
    print(f"  svcconf --help / python -c pass     {_num(ratios['svcconf_help_over_python'])}")
    i = r["imports"]
    print(
        f"\nimports of python -X importtime -m svcconf validate --jobs 1 FILE: {i['total_us'] / 1000:.0f} ms over {i['modules']} modules "
        f"({i['svcconf_self_us'] / 1000:.0f} ms in svcconf's own); top {len(i['top'])} by cumulative time:"
    )
    print(f"  {'cumulative':>10} {'self':>8}  module")
    for row in i["top"]:
        print(f"  {row['cumulative_us'] / 1000:>7.1f} ms {row['self_us'] / 1000:>5.1f} ms  {'  ' * row['depth']}{row['module']}")
