"""The rule ids svcconf's code can emit, read from the source (no registration to trust).

An id is emitted where a finding or diagnostic is built: `Finding(rule, ...)`, `Diagnostic(file,
line, column, rule, ...)`, the load problems (`FileProblem`, `KeyProblem`), the error shapes of
`svcconf/rules/__init__.py`, and any function that passes one of its parameters on to one of those
(found by a fixed point: `too_many(..., rule_id)` in authn, `recommended(rule_id, ...)` in
bootstrap). At each such call the id must be readable: a string literal, a module constant, a local
variable assigned from those, or a conditional between them. A call whose id the scan cannot read
is returned as unresolved, so that a new way of emitting ids cannot slip past the binding test.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import NamedTuple

# Constructors of a finding, diagnostic or problem -> the position of the rule id among their arguments.
CONSTRUCTORS = {"Finding": 0, "Diagnostic": 3, "FileProblem": 0, "KeyProblem": 0}
RULE_PARAMETERS = ("rule", "rule_id", "unknown_rule")
_Function = ast.FunctionDef | ast.AsyncFunctionDef


class Emitted(NamedTuple):
    ids: dict[str, str]  # id -> the first place that emits it (module path:line)
    unresolved: list[str]  # "module path:line expression" of calls whose id cannot be read


def _name(func: ast.expr) -> str | None:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _strings(node: ast.expr, known: dict[str, set[str]]) -> set[str] | None:
    """The strings an expression can be, or None when they cannot be read."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        body, orelse = _strings(node.body, known), _strings(node.orelse, known)
        return None if body is None or orelse is None else body | orelse
    if isinstance(node, ast.Name):
        return known.get(node.id)
    return None


def _constants(body: list[ast.stmt]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for node in body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            strings = _strings(node.value, found)
            if strings:
                found[node.targets[0].id] = strings
    return found


def _rule_argument(call: ast.Call, positions: dict[str, int]) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg in RULE_PARAMETERS:
            return keyword.value
    index = positions.get(_name(call.func) or "")
    if index is None or len(call.args) <= index or any(isinstance(a, ast.Starred) for a in call.args[: index + 1]):
        return None
    return call.args[index]


def _parameters(function: _Function) -> tuple[list[str], set[str]]:
    positional = [a.arg for a in function.args.posonlyargs + function.args.args]
    return positional, set(positional) | {a.arg for a in function.args.kwonlyargs}


def _defaults(function: _Function) -> list[tuple[str, ast.expr]]:
    """(parameter, default) for the parameters that have one."""
    named = function.args.posonlyargs + function.args.args
    pairs = list(zip([a.arg for a in named[len(named) - len(function.args.defaults) :]], function.args.defaults))
    return pairs + [(a.arg, d) for a, d in zip(function.args.kwonlyargs, function.args.kw_defaults) if d is not None]


def _calls(function: _Function) -> list[ast.Call]:
    return [node for node in ast.walk(function) if isinstance(node, ast.Call)]


class _Module(NamedTuple):
    path: str
    functions: list[_Function]
    constants: dict[str, set[str]]
    imports: dict[str, tuple[str, str]]  # a name -> (the package module it comes from, its name there)


def _imports(tree: ast.Module, path: str, package: Path) -> dict[str, tuple[str, str]]:
    """Names imported from modules of the package (relative, or absolute under the package's name)."""
    here = path.split("/")[:-1]
    found = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = here[: len(here) - node.level + 1] + (node.module.split(".") if node.module else [])
        elif (node.module or "").split(".")[0] == package.name:
            base = node.module.split(".")[1:]  # type: ignore[union-attr]
        else:
            continue
        for candidate in ("/".join(base) + ".py", "/".join([*base, "__init__.py"])):
            if (package / candidate).is_file():
                found.update({alias.asname or alias.name: (candidate, alias.name) for alias in node.names})
                break
    return found


def _positions(module: _Module, shared: dict[str, int], own: dict[str, dict[str, int]]) -> dict[str, int]:
    """Emitters as this module sees them: its own functions, then what it imports from the package, then any other."""
    defined = {function.name for function in module.functions}
    positions = {name: index for name, index in shared.items() if name not in defined and name not in module.imports}
    for name, (source, original) in module.imports.items():
        index = own.get(source, {}).get(original, CONSTRUCTORS.get(original))
        if index is not None:
            positions[name] = index
    return {**positions, **own[module.path]}


def emitted_rule_ids(package: Path) -> Emitted:
    modules = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        functions = [node for node in ast.walk(tree) if isinstance(node, _Function)]
        relative = path.relative_to(package).as_posix()
        modules.append(_Module(relative, functions, _constants(tree.body), _imports(tree, relative, package)))
    shared, own = _emitters(modules)
    ids: dict[str, str] = {}
    unresolved: list[str] = []
    for module in modules:
        positions = _positions(module, shared, own)
        for function in module.functions:
            _scan(module, function, positions, ids, unresolved)
    return Emitted(ids, unresolved)


def _emitters(modules: list[_Module]) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    """Functions that pass a parameter on as a rule id, and that parameter's position (a fixed point)."""
    shared = dict(CONSTRUCTORS)
    own: dict[str, dict[str, int]] = {module.path: {} for module in modules}
    changed = True
    while changed:
        changed = False
        for module in modules:
            positions = _positions(module, shared, own)
            for function in module.functions:
                positional, every = _parameters(function)
                for call in _calls(function):
                    argument = _rule_argument(call, positions)
                    if isinstance(argument, ast.Name) and argument.id in every:
                        index = positional.index(argument.id) if argument.id in positional else -1
                        if own[module.path].get(function.name) != index:
                            own[module.path][function.name] = index
                            shared.setdefault(function.name, index)
                            changed = True
    return shared, own


def _scan(module: _Module, function: _Function, positions: dict[str, int], ids: dict[str, str], unresolved: list[str]) -> None:
    _, every = _parameters(function)
    for parameter, default in _defaults(function):
        if parameter in RULE_PARAMETERS:
            for rule_id in _strings(default, module.constants) or ():
                ids.setdefault(rule_id, f"{module.path}:{function.lineno}")
    local = _constants(list(ast.walk(function)))  # type: ignore[arg-type]
    known = {**module.constants, **local}
    for call in _calls(function):
        argument = _rule_argument(call, positions)
        if argument is None or (isinstance(argument, ast.Name) and argument.id in every):
            continue  # no id here, or one passed on: the callers are scanned
        strings = _strings(argument, known)
        if strings is None:
            unresolved.append(f"{module.path}:{call.lineno} {ast.unparse(argument)}")
            continue
        for rule_id in strings:
            ids.setdefault(rule_id, f"{module.path}:{call.lineno}")
