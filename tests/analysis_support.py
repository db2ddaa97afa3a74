"""Helpers for the analysis tests: parse a snippet, analyse a loop, brute-force counts.

The brute-force side never looks at the analysis: it runs the loop nest in
Python (written by hand next to each C snippet) and collects every element
touched, so the tests compare two independent computations.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from pycparser import c_ast, c_parser

from autotune.analysis.loop import analyze_loop
from autotune.frontend.records import Clauses, Directive, LoopRecord


def find_loops(ast: c_ast.FileAST) -> list[tuple[c_ast.For, list[c_ast.For], c_ast.FuncDef, str]]:
    """(for, enclosing fors, function, pragma text) for each ``#pragma omp ... for``."""
    found = []

    def visit(node: c_ast.Node, func: c_ast.FuncDef | None, stack: list[c_ast.For]) -> None:
        if isinstance(node, c_ast.FuncDef):
            func = node
        if isinstance(node, c_ast.Compound):
            items = node.block_items or []
            for k, item in enumerate(items[:-1]):
                if (
                    isinstance(item, c_ast.Pragma)
                    and " for" in f" {item.string}"
                    and isinstance(items[k + 1], c_ast.For)
                ):
                    found.append((items[k + 1], list(stack), func, item.string))
        inner = stack + [node] if isinstance(node, c_ast.For) else stack
        for _, child in node.children():
            visit(child, func, inner)

    visit(ast, None, [])
    return found


def clauses_of(text: str) -> Clauses:
    c = Clauses()
    m = re.search(r"collapse\s*\(\s*(\d+)\s*\)", text)
    if m:
        c.collapse = int(m.group(1))
    m = re.search(r"schedule\s*\(\s*(\w+)\s*(?:,\s*([^)]+))?\)", text)
    if m:
        c.schedule, c.chunk = m.group(1), m.group(2)
    return c


def analyze(code: str, threads: int = 2, which: int = 0) -> LoopRecord:
    """Analyse the ``which``-th OpenMP loop of a C snippet (no preprocessing)."""
    ast = c_parser.CParser().parse(code)
    loops = find_loops(ast)
    for_node, enclosing, func, text = loops[which]
    d = Directive(text, "parallel for", "t.c", 1, clauses_of(text))
    line = for_node.coord.line if for_node.coord else 0
    record = LoopRecord(f"t.c:{line}", "t.c", line, func.decl.name, d, d)
    analyze_loop(record, for_node, enclosing, func, ast, threads)
    return record


Level = tuple[str, Callable[[dict], Iterable[int]]]
Touch = tuple[str, int, Callable[[dict], int]]  # (array, element size, flat index)


def brute(
    levels: list[Level],
    touches: list[Touch],
    collapse: int = 1,
    at_depth: dict[int, list[Touch]] | None = None,
) -> dict:
    """Run a nest: trip count, innermost iterations, and (iteration, array, index) touches.

    ``touches`` happen in the innermost body; ``at_depth[d]`` lists touches made
    in the body of level ``d`` before its inner loop (imperfect nests).
    """
    out = {"touched": [], "iterations": 0, "sizes": {}}
    dist: dict[tuple, int] = {}
    at_depth = at_depth or {}

    def rec(depth: int, env: dict) -> None:
        if depth == len(levels):
            out["iterations"] += 1
            emit(touches, env)
            return
        name, rng = levels[depth]
        for v in rng(env):
            env2 = {**env, name: v}
            if depth == collapse - 1:
                key = tuple(env2[n] for n, _ in levels[:collapse])
                dist.setdefault(key, len(dist))
                env2["__it"] = dist[key]
            emit(at_depth.get(depth, []), env2)
            rec(depth + 1, env2)

    def emit(ts: list[Touch], env: dict) -> None:
        for arr, size, fn in ts:
            out["sizes"][arr] = size
            out["touched"].append((env["__it"], arr, fn(env)))

    rec(0, {})
    out["trip"] = len(dist)
    return out


def distinct_bytes(res: dict, keep: Callable[[int], bool] = lambda it: True) -> int:
    seen = {(a, i) for it, a, i in res["touched"] if keep(it)}
    return sum(res["sizes"][a] for a, _ in seen)


def static_blocks(n: int, p: int) -> list[range]:
    """libgomp's static schedule without chunk: the first n % p threads get one more."""
    q, r = divmod(n, p)
    out, first = [], 0
    for t in range(p):
        size = q + (1 if t < r else 0)
        out.append(range(first, first + size))
        first += size
    return out


def per_thread_static(res: dict, p: int) -> int:
    return max(distinct_bytes(res, lambda it, b=b: it in b) for b in static_blocks(res["trip"], p))


def array(record: LoopRecord, name: str) -> dict:
    return next(a for a in record.arrays if a["name"] == name)
