"""Double buffers: pointers that only ever exchange their targets through a temporary.

``t = a; a = b; b = t;`` (and nothing else storing into ``a`` or ``b`` but one initial
store each, of distinct objects) keeps ``a`` and ``b`` pointing at distinct objects at
every moment, although each may point at either: the Jacobi grids swapped every time
step. The points-to, being flow-insensitive, sees only that both may reach both; this
module gives the pair a group so the proof can tell them apart.
"""

from __future__ import annotations

import weakref

from pycparser import c_ast

from autotune.analysis.astutil import walk
from autotune.analysis.proof.decls import derivations
from autotune.analysis.proof.pointsto import PointsTo
from autotune.analysis.proof.program import Site
from autotune.analysis.proof.uniform import swap_is_uniform
from autotune.analysis.symbols import Scope

_GROUPS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # PointsTo -> cache


def swap_group(pts: PointsTo, func: c_ast.FuncDef, ast: c_ast.FileAST, name: str) -> int | None:
    """The double-buffer group ``name`` belongs to in ``func`` (None: none)."""
    cache = _GROUPS.setdefault(pts, {})
    if id(func) not in cache:
        cache[id(func)] = _swap_groups(func, Site(func.body, func, ast), pts)
    return cache[id(func)].get(name)


def _swap_groups(func: c_ast.FuncDef, site: Site, pts: PointsTo) -> dict[str, int]:
    """Rotating pointers of ``func``: name -> group id (temporaries left out)."""
    triples: list[tuple[str, str, str]] = []
    heads: list[c_ast.Node] = []  # the statement each triple starts at (its scope)
    stack: list[c_ast.Node] = [func.body]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Compound):
            items = n.block_items or []
            for k in range(len(items) - 2):
                t = _copy_of(items[k])
                a = _copy_of(items[k + 1])
                b = _copy_of(items[k + 2])
                if t and a and b and t[1] == a[0] and a[1] == b[0] and b[1] == t[0]:
                    triples.append((t[0], a[0], b[0]))
                    heads.append(items[k])
        stack.extend(c for _, c in n.children())
    if not triples:
        return {}
    inits: dict[str, list[c_ast.Node]] = {}
    scope = Scope(func, site.ast)

    def is_array(name: str, at: c_ast.Node) -> bool:
        decl, kind = scope.find_decl(name, at)
        return (
            decl is not None and kind != "param" and derivations(scope, decl.type)[:1] == ["array"]
        )

    copies: dict[str, list[c_ast.Node]] = {}  # a = b between plain names: a -> [b]
    addressed: set[str] = set()
    for n in walk(func.body):
        pair = _copy_of(n)
        if pair is not None and is_array(pair[1], n):
            pair = None  # ``double (*a)[N] = g0;``: the start of an array, not a copy
        if pair is not None:
            copies.setdefault(pair[0], []).append(n.init if isinstance(n, c_ast.Decl) else n.rvalue)
        elif isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, c_ast.ID):
            inits.setdefault(n.lvalue.name, []).append(n.rvalue)
        elif isinstance(n, c_ast.Decl) and n.init is not None and n.name:
            inits.setdefault(n.name, []).append(n.init)
        elif isinstance(n, c_ast.UnaryOp) and n.op == "&" and isinstance(n.expr, c_ast.ID):
            addressed.add(n.expr.name)  # set through its address: anything
    out: dict[str, int] = {}
    for gid, (tmp, a, b) in enumerate(triples):
        # each copy among a, b and tmp is part of one such triple; a and b have one store
        # besides (their start: ``T *a = in;`` copies a parameter in, it does not rotate),
        # and start at distinct objects (tmp may start anywhere, ``T *tmp = NULL``: each
        # triple sets it right before b takes it)
        names = {a, b, tmp}
        uses = sum(1 for t in triples if names == set(t))
        if names & addressed:
            continue
        rotating = {x: [c for c in copies.get(x, []) if c.name in names] for x in names}
        starts = {
            x: inits.get(x, []) + [c for c in copies.get(x, []) if c.name not in names]
            for x in names
        }
        if any(len(rotating[x]) != uses for x in names):
            continue
        if len(starts[a]) != 1 or len(starts[b]) != 1:
            continue
        oa = pts.objects(starts[a][0], site)
        ob = pts.objects(starts[b][0], site)
        if oa is None or ob is None or not oa or not ob or oa & ob:
            continue
        if not swap_is_uniform(pts.prog, func, site.ast, heads[gid], [a, b]):
            continue  # threads' own copies that may have swapped unequally often
        for name in (a, b):  # declared where the swap sees them (a region's own locals)
            decl, kind = scope.find_decl(name, heads[gid])
            if kind == "local":
                out[name] = gid
    return out


def _copy_of(n: c_ast.Node) -> tuple[str, str] | None:
    """``a = b`` (or ``T *a = b;``) between two plain names: (a, b)."""
    if isinstance(n, c_ast.Decl) and n.name and isinstance(n.init, c_ast.ID):
        return n.name, n.init.name
    if (
        isinstance(n, c_ast.Assignment)
        and n.op == "="
        and isinstance(n.lvalue, c_ast.ID)
        and isinstance(n.rvalue, c_ast.ID)
    ):
        return n.lvalue.name, n.rvalue.name
    return None
