"""Write files/<area>/<id>.yaml from the tables, so every input is a file a reviewer can read and diff.

Usage: python -m tests.conformance.generate [--check]
--check exits 1 (listing the files) when the files on disk differ from what the tables say.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tests.conformance.table import FILES, Case, load_all

HEADER = "# {source}\n"


def content(case: Case) -> str:
    """The input file: a comment naming the upstream case, then the document as a user would write it."""
    return HEADER.format(source=case.source) + case.text


def wanted(cases: list[Case]) -> dict[Path, str]:
    return {case.file: content(case) for case in cases if case.text is not None}


def differences(cases: list[Case]) -> list[str]:
    """Files that are missing, stale or left over, relative to the tables."""
    files = wanted(cases)
    out = []
    for path, text in files.items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            out.append(f"stale or missing: {path.relative_to(FILES)}")
    for path in sorted(FILES.rglob("*.yaml")):
        if path not in files:
            out.append(f"not in any table: {path.relative_to(FILES)}")
    return out


def write(cases: list[Case]) -> int:
    files = wanted(cases)
    for path in sorted(FILES.rglob("*.yaml")):
        if path not in files:
            path.unlink()
    changed = 0
    for path, text in files.items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            changed += 1
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.conformance.generate", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report files that differ from the tables")
    args = parser.parse_args(argv)
    cases = load_all()
    if args.check:
        problems = differences(cases)
        print("\n".join(problems) or "files match the tables")
        return 1 if problems else 0
    print(f"{write(cases)} files written, {len(wanted(cases))} in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
