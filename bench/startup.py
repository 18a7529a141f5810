"""Start-up cost: a pre-commit-like run on one small file against the floor of its imports and yamllint, and where svcconf's import time goes."""

from __future__ import annotations

import subprocess
import sys

from timing import COMMAND_ENV, find_script, interleaved, median, ratio, run_command

FLOOR = "import yaml, jsonschema_rs"  # PyYAML (libyaml) to read and jsonschema-rs to check: what no run can do without


def measure_commands(svcconf_bin: str, file: str, cwd: str, runs: int) -> dict:
    """Wall time of fresh processes on one small config file: svcconf as the pre-commit hook runs it, yamllint, and the floors."""
    yamllint_bin = find_script("yamllint")
    commands = {
        # The hook's entry (.pre-commit-hooks.yaml): configuration discovery included, as in a repository.
        "svcconf_file": ([svcconf_bin, "validate", "--jobs", "1", file], (0, 1)),
        "yamllint_file": ([yamllint_bin, "-d", "relaxed", file], (0, 1)) if yamllint_bin else None,
        "svcconf_help": ([svcconf_bin, "--help"], (0,)),
        # The floor: the interpreter with the two libraries every run needs, and nothing of svcconf.
        "floor": ([sys.executable, "-c", FLOOR], (0,)),
        "python_pass": ([sys.executable, "-c", "pass"], (0,)),
    }
    present = {key: value for key, value in commands.items() if value}
    for argv, ok in present.values():  # untimed: byte-code and page caches
        run_command(argv, cwd, ok)
    samples = interleaved({key: lambda argv=argv, ok=ok: run_command(argv, cwd, ok) for key, (argv, ok) in present.items()}, runs)
    figures: dict = {
        key: {"argv": present[key][0], "median_s": median(samples[key]), "samples_s": samples[key]} if key in present else None
        for key in commands
    }

    def med(key: str) -> float | None:
        return figures[key]["median_s"] if figures[key] else None

    figures["ratios"] = {
        "svcconf_over_floor": ratio(med("svcconf_file"), med("floor")),
        "svcconf_over_yamllint": ratio(med("svcconf_file"), med("yamllint_file")),
        "svcconf_file_over_help": ratio(med("svcconf_file"), med("svcconf_help")),
        "svcconf_help_over_python": ratio(med("svcconf_help"), med("python_pass")),
    }
    return figures


def parse_importtime(stderr: str) -> list[tuple[str, int, int, int]]:
    """(module, depth, self µs, cumulative µs) from `python -X importtime` output, in import order."""
    rows = []
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        self_us, cumulative_us, name = line[len("import time:") :].split("|", 2)
        if not self_us.strip().isdigit():  # the header line
            continue
        depth = (len(name) - len(name.lstrip(" ")) - 1) // 2
        rows.append((name.strip(), depth, int(self_us), int(cumulative_us)))
    return rows


def measure_imports(file: str, cwd: str, top: int = 10) -> dict:
    """`python -X importtime -m svcconf validate --jobs 1 FILE`, second run (caches warm): totals and the top modules by cumulative time."""
    argv = [sys.executable, "-X", "importtime", "-m", "svcconf", "validate", "--jobs", "1", file]
    for _ in range(2):
        done = subprocess.run(argv, check=False, cwd=cwd, env=COMMAND_ENV, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    rows = parse_importtime(done.stderr)
    if not rows:
        raise SystemExit(f"bench: no import times from {' '.join(argv)}:\n{done.stderr[-2000:]}")
    ranked = sorted(rows, key=lambda row: -row[3])[:top]
    return {
        "argv": argv,
        "total_us": sum(row[2] for row in rows),
        "svcconf_self_us": sum(row[2] for row in rows if row[0] == "svcconf" or row[0].startswith("svcconf.")),
        "modules": len(rows),
        "top": [{"module": name, "depth": depth, "self_us": own, "cumulative_us": cumulative} for name, depth, own, cumulative in ranked],
    }
