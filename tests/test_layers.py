"""The package is a pipeline whose imports only go down (docs/architecture.md).

Every import of every module (function-local ones included) is read from the
source: an import from a higher layer, or a cycle between modules, fails.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "autotune"
# Lower numbers are lower layers; a module may import its own layer and below.
# errors, textfile and render are neutral helpers every stage may use.
LAYERS = {
    "errors": 0,
    "textfile": 0,
    "render": 0,
    "frontend": 1,
    "analysis": 2,
    "variants": 3,
    "measure": 4,
    "models": 5,
    "skeletons": 5,
    "structure": 5,
    "tuning": 6,
    "campaign": 7,
    "report": 7,
    "api": 7,
    "cli": 8,
    "buildhook": 8,
    "__main__": 9,
    "__init__": 9,
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def imports() -> dict[str, set[str]]:
    """Module -> the autotune modules it imports (``from autotune import x`` names x)."""
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        out: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                # ``from pkg import sub`` imports the submodule; ``from m import name``, m
                targets = [
                    f"{node.module}.{a.name}"
                    if f"{node.module}.{a.name}" in modules
                    else node.module
                    for a in node.names
                ]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            for t in targets:
                # the longest prefix that is a module of ours
                while t and t not in modules:
                    t = t.rpartition(".")[0]
                if t and t != name and t != "autotune":
                    out.add(t)
        graph[name] = out
    return graph


def layer(module: str) -> int:
    parts = module.split(".")
    return LAYERS[parts[1] if len(parts) > 1 else "__init__"]


def test_every_top_level_module_has_a_layer():
    tops = {
        module_name(p).split(".")[1] for p in PACKAGE.rglob("*.py") if module_name(p) != "autotune"
    }
    assert tops <= set(LAYERS), tops - set(LAYERS)


def test_imports_only_go_down():
    upward = sorted(f"{m} -> {t}" for m, ts in imports().items() for t in ts if layer(t) > layer(m))
    assert not upward, "imports from a higher layer:\n" + "\n".join(upward)


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
