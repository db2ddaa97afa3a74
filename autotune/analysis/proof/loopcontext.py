"""The context a loop's iteration is walked in: how each name of its function is
classified (private, firstprivate, reduction, copied in), what the iteration writes
(its calls included), the values set just before the loop, and the bounds the
sequential loops around it put on its sizes."""

from __future__ import annotations

import functools
from collections.abc import Callable

from pycparser import c_ast

from autotune.analysis.astutil import decl_ids, lvalues, team_shared, walk
from autotune.analysis.names import call_name
from autotune.analysis.proof import poly
from autotune.analysis.proof.decls import narrows
from autotune.analysis.proof.enclosing import enclosing_bounds
from autotune.analysis.proof.facts import LoopSite, clause_names, linear_steps, reduction_items
from autotune.analysis.proof.pointsto import PointsTo
from autotune.analysis.proof.program import Program, param_names
from autotune.analysis.proof.syntax import assigned, element_text, param_symbol
from autotune.analysis.proof.walkstate import LoopContext
from autotune.analysis.symbols import Scope


def loop_context(site: LoopSite, prog: Program, pointsto: PointsTo) -> LoopContext:
    cl = site.clauses
    rc = site.region_clauses
    private = set(clause_names(cl.private + cl.firstprivate + cl.lastprivate))
    linear = linear_steps(cl.linear) if cl.collapse <= 1 else {}
    private |= set(linear)  # linear(j: s): the thread's own j, s per iteration from entry
    firstprivate = set(clause_names(cl.firstprivate))
    if rc is not None:
        private |= set(clause_names(rc.private + rc.firstprivate))
        firstprivate |= set(clause_names(rc.firstprivate))
    inner = decl_ids(site.for_node)
    if site.region_node is not None:
        private |= {n.name for n in _decls(site.region_node) if id(n) not in inner and n.name}
    if site.orphaned:  # every thread calls the function: its locals are the thread's own
        private |= {n.name for n in _decls(site.func.body) if id(n) not in inner and n.name}
        private |= {n for n in param_names(site.func) if n}
    reductions = {}
    for op, name in reduction_items(cl.reduction + (rc.reduction if rc is not None else [])):
        reductions[name] = {"-": "+"}.get(op, op)
    written = _written(site.for_node, prog) | _lanes_written(site)
    element_roots = _element_roots(site.for_node, prog)
    copyin = set(clause_names(cl.copyin + (rc.copyin if rc is not None else [])))
    region = site.region_node if site.region_node is not None else site.for_node
    copied_in = copyin - _written(region, prog) if copyin else set()
    return LoopContext(
        given=_given(site, prog),
        array_written=element_roots,
        entry=_entry_values(site, written, element_roots),
        prog=prog,
        pointsto=pointsto,
        func=site.func,
        ast=site.ast,
        loop=site.for_node,
        collapse=max(1, cl.collapse),
        local=inner,
        private=private,
        firstprivate=firstprivate,
        reductions=reductions,
        written=written,
        linear=linear,
        copied_in=copied_in,
        region=site.region_node if not site.orphaned else site.func.body,
        region_private=set(clause_names(rc.private)) if rc is not None else set(),
    )


def _decls(node: c_ast.Node) -> list[c_ast.Decl]:
    """The variables ``node`` declares that each thread has its own copy of (not a
    ``static`` or ``extern`` one)."""
    out = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Decl) and not isinstance(n.type, c_ast.FuncDecl):
            if not team_shared(n):
                out.append(n)
        if isinstance(n, c_ast.FuncDef):
            continue
        stack.extend(c for _, c in n.children())
    return out


def _given(site: LoopSite, prog: Program) -> tuple:
    """Bounds the enclosing sequential loops put on the loop's parameters."""
    if site.func is None:
        return ()
    return tuple(
        enclosing_bounds(
            site.func.body,
            site.for_node,
            lambda node: _written(node, prog),
            lambda name, at: prog.address_taken_var(name, at, site.func, site.ast),
            functools.partial(narrows, Scope(site.func, site.ast)),
        )
    )


def _lanes_written(site: LoopSite) -> set[str]:
    """Vector variables the loop sets a lane of (``acc[1] = x``, ``++v[0]``): a scalar
    to the proof (its type is one value), written though no plain assignment names it."""
    scope = Scope(site.func, site.ast)
    out = set()
    for lv in lvalues(site.for_node):
        if not isinstance(lv, c_ast.ArrayRef):
            continue
        root = lv.name
        while isinstance(root, c_ast.Cast):
            root = root.expr
        if isinstance(root, c_ast.ID):
            decl, _ = scope.find_decl(root.name, root)
            if decl is not None and scope.vector_size(decl.type) is not None:
                out.add(root.name)
    return out


def _written(node: c_ast.Node, prog: Program) -> set[str]:
    """Names assigned in ``node``, and the globals the functions it calls assign
    (transitively; a callee's own locals and parameters are not the caller's)."""
    key = ("written", id(node))
    if key not in prog.memo:
        prog.memo[key] = _written_in(node, prog, set())[0]
    return prog.memo[key]


def _written_in(node: c_ast.Node, prog: Program, seen: set[str]) -> tuple[set[str], bool]:
    """(names, complete): complete unless a call was cut short by recursion. A callee's
    complete answer is kept (NPB BT's solvers call the same helpers from every loop)."""
    out = assigned(node)
    complete = True
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.FuncCall):
            name = call_name(n)
            if name and name in prog.funcs:
                names, done = _callee_written(name, prog, seen)
                out |= names
                complete = complete and done
        stack.extend(c for _, c in n.children())
    return out, complete


def _callee_written(name: str, prog: Program, seen: set[str]) -> tuple[set[str], bool]:
    key = ("callee-written", name)
    if key in prog.memo:
        return prog.memo[key], True
    if name in seen:
        return set(), False
    seen.add(name)  # on the call stack: a recursive call is cut short
    func = prog.funcs[name][0]
    own = set(filter(None, param_names(func))) | {d.name for d in _decls(func.body)}
    names, complete = _written_in(func.body, prog, seen)
    seen.discard(name)
    names -= own
    if complete:
        prog.memo[key] = names
    return names, complete


def _narrow_var(scope: Scope, name: str, at: c_ast.Node) -> bool:
    """The variable is of an integer type narrower than ``int`` (its value wraps)."""
    decl, _ = scope.find_decl(name, at)
    return decl is None or narrows(scope, decl.type)


def _entry_value(
    rhs: c_ast.Node,
    written: set[str],
    arrays: set[str],
    narrow: Callable[[c_ast.Node], bool] | None = None,
) -> poly.Poly | None:
    """``rhs`` over values the loop does not change, named as the walk names them."""

    def name(n: str, _node: c_ast.Node) -> poly.Poly | None:
        return None if n in written else poly.symbol(param_symbol(n))

    def element(node: c_ast.Node) -> poly.Poly | None:
        root = node
        while isinstance(root, c_ast.ArrayRef):
            root = root.name
        if not isinstance(root, c_ast.ID) or root.name in arrays:
            return None
        text = element_text(node, builder.build)
        return poly.symbol(param_symbol(text)) if text else None

    builder = poly.PolyBuilder(name, element, narrow)
    return builder.build(rhs)


def _entry_values(site: LoopSite, written: set[str], arrays: set[str]) -> dict[str, poly.Poly]:
    """``i = 1;`` (or ``i = n - 3;``) in the statements just before the loop, in its
    block: the value ``i`` has in every iteration when the loop does not change it."""
    parent = _parent_block(site.func.body, site.for_node)
    if parent is None:
        return {}
    items = parent.block_items or []
    k = next(
        (i for i, it in enumerate(items) if it is site.for_node or _holds(it, site.for_node)),
        None,
    )
    out: dict[str, poly.Poly] = {}
    scope = Scope(site.func, site.ast)
    for item in reversed(items[: k or 0]):
        if isinstance(item, c_ast.Pragma):
            continue
        if not (
            isinstance(item, c_ast.Assignment)
            and item.op == "="
            and isinstance(item.lvalue, c_ast.ID)
        ):
            break
        name = item.lvalue.name
        if name in out or name in written or _narrow_var(scope, name, item):
            continue
        value = _entry_value(item.rvalue, written, arrays, functools.partial(narrows, scope))
        if value is not None:
            out[name] = value
    return out


def _parent_block(root: c_ast.Node, target: c_ast.Node) -> c_ast.Compound | None:
    for n in walk(root):
        if isinstance(n, c_ast.Compound) and any(
            it is target or _holds(it, target) for it in n.block_items or []
        ):
            return n
    return None


def _holds(item: c_ast.Node, target: c_ast.Node) -> bool:
    """``item`` is ``target`` wrapped in braces (a directive's statement)."""
    while isinstance(item, c_ast.Compound) and item.block_items and len(item.block_items) == 1:
        item = item.block_items[0]
    return item is target


def _element_roots(node: c_ast.Node, prog: Program, seen: set[str] | None = None) -> set[str]:
    """Names whose elements ``node`` (or a function it calls) assigns."""
    from autotune.analysis.names import written_root

    seen = seen if seen is not None else set()
    out: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        lv = None
        if isinstance(n, c_ast.Assignment):
            lv = n.lvalue
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
            lv = n.expr
        if lv is not None and not isinstance(lv, c_ast.ID):
            root = written_root(lv)
            if root:
                out.add(root)
        if isinstance(n, c_ast.FuncCall):
            name = call_name(n)
            if name and name in prog.funcs and name not in seen:
                seen.add(name)
                out |= _element_roots(prog.funcs[name][0].body, prog, seen)
        stack.extend(c for _, c in n.children())
    return out
