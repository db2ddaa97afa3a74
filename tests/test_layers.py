"""The package is a pipeline whose imports only go down (docs/architecture.md).

Every import of every module (function-local ones included) is read from the
source: an import from a higher layer, or a cycle between modules, fails.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "autotune"
# Lower numbers are lower layers; a module may import its own layer and below.
# errors, textfile, render, cachedir, numpyload (numpy's BLAS on one thread) and
# modelshape (the models' common protocol) are neutral helpers every stage may use.
LAYERS = {
    "errors": 0,
    "cachedir": 0,
    "numpyload": 0,
    "textfile": 0,
    "render": 0,
    "modelshape": 0,
    "frontend": 1,
    "analysis": 2,
    "variants": 3,
    "measure": 4,
    "models": 5,
    "skeletons": 5,
    "structmodels": 5,  # composition, hypercube D&C, isoefficiency: no C program needed
    "structure": 6,  # a program's structure, predicted with the skeletons and structmodels
    "tuning": 7,
    "campaign": 8,
    "report": 8,
    "api": 9,
    "buildhook": 10,
    "cli": 11,  # report-build reads the build hook's log; the hook never imports the CLI
    "__main__": 12,
    "__init__": 12,
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def sources() -> dict[str, str]:
    """Module name -> its source, for every module of the package."""
    return {module_name(p): p.read_text() for p in PACKAGE.rglob("*.py")}


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The module a relative ``from .x import y`` names, seen from ``module``."""
    base = module.split(".") if is_package else module.split(".")[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _targets(node: ast.AST, name: str, packages: set[str], modules: set[str]) -> list[str]:
    """The module names one import statement (or importlib call) brings in."""
    if isinstance(node, ast.ImportFrom):
        mod = node.module or ""
        if node.level:
            mod = _absolute(name, name in packages, node)
        # ``from pkg import sub`` imports the submodule; ``from m import name``, m
        return [f"{mod}.{a.name}" if f"{mod}.{a.name}" in modules else mod for a in node.names]
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute | ast.Name)
        and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return [node.args[0].value]
    return []


def edges(code: dict[str, str], packages: set[str] | None = None) -> dict[str, set[str]]:
    """Module -> the autotune modules it imports: plain, relative and function-local
    imports, and ``importlib.import_module("autotune....")`` with a literal name."""
    modules = set(code)
    packages = packages if packages is not None else {m for m in modules if _is_package(m)}
    graph: dict[str, set[str]] = {}
    for name, text in code.items():
        out: set[str] = set()
        for node in ast.walk(ast.parse(text)):
            for t in _targets(node, name, packages, modules):
                while t and t not in modules:  # the longest prefix that is a module of ours
                    t = t.rpartition(".")[0]
                if t and t != name and t != "autotune":
                    out.add(t)
        graph[name] = out
    return graph


def _is_package(module: str) -> bool:
    return (PACKAGE.parent / module.replace(".", "/") / "__init__.py").exists()


def imports() -> dict[str, set[str]]:
    return edges(sources())


def layer(module: str) -> int:
    parts = module.split(".")
    return LAYERS[parts[1] if len(parts) > 1 else "__init__"]


def test_every_top_level_module_has_a_layer():
    tops = {
        module_name(p).split(".")[1] for p in PACKAGE.rglob("*.py") if module_name(p) != "autotune"
    }
    assert tops <= set(LAYERS), tops - set(LAYERS)


def upward(graph: dict[str, set[str]]) -> list[str]:
    """Imports from a higher layer, and between two packages of one layer (cli and
    buildhook, models and structure: neither may lean on the other)."""
    out = []
    for m, ts in graph.items():
        for t in ts:
            same_layer_other = layer(t) == layer(m) and _top(t) != _top(m)
            neutral = layer(m) == 0  # errors, textfile, render: helpers of one level
            if layer(t) > layer(m) or (same_layer_other and not neutral):
                out.append(f"{m} -> {t}")
    return sorted(out)


def _top(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_imports_only_go_down():
    found = upward(imports())
    assert not found, "imports from a higher layer or a sibling:\n" + "\n".join(found)


@pytest.mark.slow
def test_each_rule_catches_its_mutation():
    """The checker itself: each way of importing upward, planted in a copy of the real
    sources, is found (a rule that cannot fail is no rule)."""
    real = sources()
    plants = {
        "plain": "from autotune.cli.main import main\n",
        "relative": "from ..cli import main\n",
        "function-local": "def f():\n    import autotune.tuning.pipeline\n",
        "importlib": "import importlib\nimportlib.import_module('autotune.buildhook.wrapper')\n",
    }
    for what, code in plants.items():
        mutated = {**real, "autotune.frontend.planted": code}
        assert any(e.startswith("autotune.frontend.planted ->") for e in upward(edges(mutated))), (
            what
        )
    sibling = {**real, "autotune.models.planted": "from autotune.skeletons import skeleton\n"}
    assert any(e.startswith("autotune.models.planted ->") for e in upward(edges(sibling)))
    assert upward(imports()) == []  # and the real package passes


def test_no_import_cycles():
    graph = imports()
    cycles: list[str] = []
    state: dict[str, int] = {}  # 1 on the stack, 2 done

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join(stack[stack.index(nxt) :] + [nxt]))
            elif nxt not in state:
                visit(nxt, [*stack, nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert not cycles, "import cycles:\n" + "\n".join(cycles)
