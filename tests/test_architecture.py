"""The package's shape, as the README's Contributing section draws it.

Floors, from the command line down (a module imports its own folder and the floors below it,
never one above; folders on one floor do not import each other, but for the command line's):

    svcconf (the library API), __main__, cli, commands   parse flags, call the library, pick exit codes
    server, explain                                       the language server; what the server does with a request
    report                                                output formats (validate's and migrate's)
    migrate                                               conversions, rewriting, atomic writes through load
    lint, defaults, claims                                paths -> diagnostics; printed defaults; JWT claims
    rules                                                 rule functions; only `svcconf.rules` (the registry) is imported from outside
    settings                                              configuration file and flags -> options
    load                                                  files in and out: discovery, documents with positions
    known                                                 what svcconf knows as data: catalog, naming, docs, tables
    cel, go                                               CEL; Go and Kubernetes value parsing (cel over go)
    model, escape                                         plain data and readers; output escaping (model over escape)

`lint` reaches `migrate` (which sits above it) only through the seam `lint/conversion.py`, which
the package root fills. The package root's `__version__` may be read from anywhere.

Imports are read from the source, function-level ones included (a cycle hidden in a function is
still a cycle in the design); imports under `if TYPE_CHECKING:` are checked as well, in a graph
of their own, since a type-only cycle still ties the modules together for a reader.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import svcconf
from svcconf.known.docs import all_rule_docs
from tests.conftest import UNDER_MUTMUT
from tests.rule_ids import emitted_rule_ids

# mutmut's copy of a module holds every mutant of it: sizes and rule ids are read from the module as written.
AS_WRITTEN = pytest.mark.skipif(UNDER_MUTMUT, reason="reads the source, which mutmut's copy holds mutated")

PACKAGE = Path(svcconf.__file__).parent
FLOORS = (
    ("svcconf", "__main__", "cli", "commands"),
    ("server", "explain"),
    ("report",),
    ("migrate",),
    ("lint", "defaults", "claims"),
    ("rules",),
    ("settings",),
    ("load",),
    ("known",),
    ("cel",),
    ("go",),
    ("model",),
    ("escape",),
)
FLOOR = {folder: level for level, folders in enumerate(FLOORS) for folder in folders}
REGISTRY = "svcconf.rules"
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _imports(name: str, path: Path) -> tuple[set[str], set[str]]:
    """The svcconf modules `name` imports anywhere in its source: (run, for type checking only)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
        for inner in ast.walk(node)
    }
    run: set[str] = set()
    typing: set[str] = set()
    for node in ast.walk(tree):
        found = typing if id(node) in typing_only else run
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
                if source == "svcconf" and alias.name == "__version__":
                    continue
                submodule = f"{source}.{alias.name}"
                found.add(submodule if submodule in MODULES else source)
    return ({m for m in run if m in MODULES and m != name}, {m for m in typing if m in MODULES and m != name})


_READ = {name: _imports(name, path) for name, path in MODULES.items()}
GRAPH = {name: run for name, (run, _typing) in _READ.items()}
TYPED_GRAPH = {name: run | typing for name, (run, typing) in _READ.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
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
        for target in graph[node]:
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

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return components


def _folder(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def test_there_is_no_import_cycle_inside_svcconf() -> None:
    assert _cycles(GRAPH) == []


def test_there_is_no_import_cycle_even_through_imports_for_type_checking() -> None:
    assert _cycles(TYPED_GRAPH) == []


def test_every_folder_has_a_floor() -> None:
    assert sorted({_folder(m) for m in MODULES} - set(FLOOR)) == []


def _pointing_up(graph: dict[str, set[str]]) -> list[str]:
    wrong = []
    for module, targets in sorted(graph.items()):
        here = _folder(module)
        for target in sorted(targets):
            there = _folder(target)
            sideways_on_the_command_line = FLOOR[here] == FLOOR[there] == 0
            if here != there and FLOOR[there] <= FLOOR[here] and not sideways_on_the_command_line:
                wrong.append(f"{module} -> {target}")
    return wrong


def _rule_modules_named(graph: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        if _folder(module) != "rules"
        for target in targets
        if target.startswith(f"{REGISTRY}.")
    )


def test_no_import_points_up_or_sideways() -> None:
    assert _pointing_up(TYPED_GRAPH) == []


def test_a_rule_module_is_imported_from_outside_rules_only_through_the_registry() -> None:
    """Rule modules load by kind, through `rules_for`: the rest of svcconf never names one."""
    assert _rule_modules_named(TYPED_GRAPH) == []


def test_the_checks_see_an_arrow_that_points_the_wrong_way() -> None:
    graph = {**TYPED_GRAPH, "svcconf.model": {"svcconf.escape", "svcconf.report.text_format"}}
    graph["svcconf.explain.audit"] = {*TYPED_GRAPH["svcconf.explain.audit"], "svcconf.rules.apiserver.audit"}
    graph["svcconf.lint.check"] = {*TYPED_GRAPH["svcconf.lint.check"], "svcconf.lint.pipeline", "svcconf.rules"}
    assert _pointing_up(graph) == ["svcconf.model -> svcconf.report.text_format"]
    assert _rule_modules_named(graph) == ["svcconf.explain.audit -> svcconf.rules.apiserver.audit"]


# --------------------------------------------------------------------------- sizes


def _too_long() -> tuple[list[str], list[str]]:
    modules, functions = [], []
    for name, path in sorted(MODULES.items()):
        source = path.read_text(encoding="utf-8")
        if (lines := len(source.splitlines())) > MAX_MODULE_LINES:
            modules.append(f"{name}: {lines} lines")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    functions.append(f"{name}.{node.name}: {length} lines")
    return modules, functions


@AS_WRITTEN
def test_no_module_is_over_400_lines_and_no_function_over_60() -> None:
    assert _too_long() == ([], [])


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


@AS_WRITTEN
def test_every_rule_id_the_code_can_emit_has_a_doc() -> None:
    """Else a user cannot suppress the finding (`unknown-rule`) and `svcconf rules ID` exits 2."""
    undocumented = {rule_id: place for rule_id, place in EMITTED.ids.items() if rule_id not in all_rule_docs()}
    assert undocumented == {}


@AS_WRITTEN
def test_every_documented_rule_id_is_emitted_by_some_code() -> None:
    assert sorted(set(all_rule_docs()) - set(EMITTED.ids)) == []


@AS_WRITTEN
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
