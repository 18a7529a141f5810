"""The package's shape: no import cycles inside svcconf, and a core that names no rule module.

Imports are read from the source (function-level ones included: a cycle hidden in a function
is still a cycle in the design; imports for type checking only are not run and do not count).
"""

from __future__ import annotations

import ast
from pathlib import Path

import svcconf
from svcconf.known.docs import all_rule_docs
from tests.rule_ids import emitted_rule_ids

PACKAGE = Path(svcconf.__file__).parent
CORE = (
    "svcconf.lint.pipeline",
    "svcconf.lint.document",
    "svcconf.known.schema",
    "svcconf.load.source",
    "svcconf.load.construct",
    "svcconf.known.catalog",
)


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _imports(name: str, path: Path) -> set[str]:
    """Every svcconf module `name` imports, anywhere in its source."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
        for inner in ast.walk(node)
    }
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                found.add(submodule if submodule in MODULES else source)
    return {module for module in found if module in MODULES and module != name}


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _cycles() -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in GRAPH[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for name in sorted(GRAPH):
        if name not in index:
            visit(name)
    return components


def test_there_is_no_import_cycle_inside_svcconf() -> None:
    assert _cycles() == []


def test_the_core_imports_no_rule_module_by_name() -> None:
    for core in CORE:
        named = sorted(m for m in GRAPH[core] if m.startswith("svcconf.rules."))
        assert named == [], f"{core} imports {named}"


# --------------------------------------------------------------------------- rule ids <-> docs
# Where code hands on the id of a finding it already holds (a finding placed again, a load problem
# turned into a diagnostic), or probes a rule id read from a baseline file: no new id is emitted.
PASSED_ON = {
    "lint/after_migration.py": ("finding.rule",),
    "lint/baseline.py": ("key[1]",),
    "lint/check.py": ("problem.rule", "finding.rule"),
    "migrate/engine.py": ("problem.rule",),
    "rules/apiserver/imagepolicy.py": ("finding.rule",),
}
EMITTED = emitted_rule_ids(PACKAGE)


def test_every_rule_id_the_code_can_emit_has_a_doc() -> None:
    """Else a user cannot suppress the finding (`unknown-rule`) and `svcconf rules ID` exits 2."""
    undocumented = {rule_id: place for rule_id, place in EMITTED.ids.items() if rule_id not in all_rule_docs()}
    assert undocumented == {}


def test_every_documented_rule_id_is_emitted_by_some_code() -> None:
    assert sorted(set(all_rule_docs()) - set(EMITTED.ids)) == []


def test_every_emitted_rule_id_can_be_read_from_the_source() -> None:
    """A finding's id is a literal or a constant at the call, so that the two tests above see it."""
    unreadable = []
    for site in EMITTED.unresolved:
        place, _, expression = site.partition(" ")
        if expression not in PASSED_ON.get(place.rpartition(":")[0], ()):
            unreadable.append(site)
    assert unreadable == []


def test_the_scan_finds_an_id_passed_through_a_helper(tmp_path: Path) -> None:
    (tmp_path / "rule.py").write_text(
        "from svcconf.model import Finding\n"
        "def advice(rule, path, message):\n"
        "    return Finding(rule, path, message)\n"
        "def invalid(path, value, detail, rule='made-up-default'):\n"
        "    return Finding(rule, path, detail)\n"
        "MISSING = 'made-up-missing'\n"
        "def helper(path, rule_id):\n"
        "    return invalid(path, 1, 'bad', rule_id)\n"
        "def check(doc, ctx):\n"
        "    yield helper((), 'made-up-invalid')\n"
        "    yield advice(MISSING if doc else 'made-up-advice', (), 'words')\n"
        "    yield advice(doc['id'], (), 'words')\n",
        encoding="utf-8",
    )
    emitted = emitted_rule_ids(tmp_path)
    assert set(emitted.ids) == {"made-up-default", "made-up-missing", "made-up-invalid", "made-up-advice"}
    assert emitted.unresolved == ["rule.py:12 doc['id']"]
