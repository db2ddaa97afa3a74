"""Which loops of a specialised proof are walked pass by pass, and with which values.

At measured sizes a loop over passes (``for (l = 1; l <= m; l += 2)`` calling
``fftz2(..., l, ...)``) has a handful of constant values; walked once per value, each
pass's subscripts are affine again (``2 << (l - 2)`` is a number). Only loops whose
variable meets a shift, division or remainder (in the body, or in the function it is
passed to) are unrolled, at most ``UNROLL_MAX`` passes each and ``WALK_BUDGET`` pass
walks per proof, and only when the body's jumps are ``if (...) break;`` at its top
(decided per pass, since ``l`` is known there).
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.astutil import walk
from autotune.analysis.names import names_in
from autotune.analysis.proof import poly
from autotune.analysis.proof.resolve import WalkNames
from autotune.analysis.proof.specialise import UNROLL_MAX, WALK_BUDGET
from autotune.analysis.proof.syntax import assigned

NON_AFFINE_OPS = frozenset({"<<", ">>", "/", "%"})
_NESTED = (c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.Switch)


def walk_unrolled(w: WalkNames, node: c_ast.For) -> bool:
    """Walk a short loop of constant bounds once per value of its variable (a pass
    loop at measured sizes) with the walker ``w`` (``refs.IterationWalker``, which
    imports this module); False, having walked nothing, where it does not apply."""
    header = w._header(node)
    if header is None:
        return False
    var, lo_node, hi_node, op, step = header
    if step is None or not wants_unroll(node.stmt, var, w.ctx.prog.funcs):
        return False
    moved = assigned(node.stmt)
    bound = names_in(hi_node).names
    if var in moved or bound & moved or any(w.address_taken(n, node) for n in bound):
        return False  # the body moves the counter or the bound the test reads again
    breaks = top_breaks(node.stmt)
    lo, hi = w.value(lo_node), w.value(hi_node)
    lo_c = poly.constant_of(lo) if lo is not None else None
    hi_c = poly.constant_of(hi) if hi is not None else None
    if breaks is None or lo_c is None or hi_c is None:
        return False
    values = pass_values(lo_c, hi_c, op, step)
    if values is None or w.pass_walks + len(values) > WALK_BUDGET:
        return False
    w.pass_walks += len(values)
    w._read_only(lo_node)
    w._read_only(hi_node)
    w.breaks |= breaks
    w.break_depth.append(w.cond_depth)
    w.path.append(0)
    for t, v in enumerate(values):
        w.path[-1] = t
        w.env[w._key(var)] = poly.const(v)
        w._define(var, node)
        w.visit(node.stmt)
        if w.broke:
            break
    w.broke = False
    w.path.pop()
    w.break_depth.pop()
    w.breaks -= breaks  # walked again without unrolling, they are plain breaks
    w._kill({var})
    return True


def wants_unroll(body: c_ast.Node | None, var: str, funcs: dict) -> bool:
    """``var`` is used with a shift, division or remainder, in the body or, passed as an
    argument, by the function called (``funcs``: name -> (definition, file)): a value
    only its number makes affine. A variable that only indexes is left a symbol."""
    from autotune.analysis.names import call_name

    for n in _walk(body):
        if isinstance(n, c_ast.BinaryOp) and n.op in NON_AFFINE_OPS and _operand(n, var):
            return True
        if isinstance(n, c_ast.FuncCall) and n.args is not None:
            entry = funcs.get(call_name(n) or "")
            if entry is None:
                continue
            params = _param_names(entry[0])
            for param, arg in zip(params, n.args.exprs, strict=False):
                if param and _names(arg, var) and _non_affine_use(entry[0].body, param):
                    return True
    return False


def has_pass_loop(node: c_ast.Node, funcs: dict, depth: int = 6) -> bool:
    """Some canonical loop in ``node`` or a function it calls (``depth`` calls deep) would
    be unrolled (a cheap look before a second proof is tried)."""
    from autotune.analysis.names import call_name
    from autotune.analysis.proof.syntax import for_header

    seen: set[str] = set()
    todo = [(node, depth)]
    while todo:
        here, left = todo.pop()
        for n in _walk(here):
            if isinstance(n, c_ast.For) and n is not node:
                header = for_header(n)
                if header is not None and wants_unroll(n.stmt, header[0], funcs):
                    return True
            if isinstance(n, c_ast.FuncCall) and left > 0:
                name = call_name(n) or ""
                if name in funcs and name not in seen:
                    seen.add(name)
                    todo.append((funcs[name][0].body, left - 1))
    return False


def _param_names(func: c_ast.FuncDef) -> list[str | None]:
    args = getattr(func.decl.type, "args", None)
    return [getattr(p, "name", None) for p in (args.params if args is not None else [])]


def _non_affine_use(body: c_ast.Node, name: str) -> bool:
    return any(
        isinstance(n, c_ast.BinaryOp) and n.op in NON_AFFINE_OPS and _operand(n, name)
        for n in _walk(body)
    )


def top_breaks(body: c_ast.Node | None) -> set[int] | None:
    """ids of the loop's own ``break`` statements when each is the whole branch of an
    ``if`` in the body's top block, and the loop has no other jump; else None."""
    items = (body.block_items or []) if isinstance(body, c_ast.Compound) else [body]
    allowed: set[int] = set()
    for item in items:
        if isinstance(item, c_ast.If) and item.iffalse is None:
            b = item.iftrue
            if isinstance(b, c_ast.Compound) and b.block_items and len(b.block_items) == 1:
                b = b.block_items[0]
            if isinstance(b, c_ast.Break):
                allowed.add(id(b))
    for n in _own(body):
        if isinstance(n, c_ast.Continue | c_ast.Return | c_ast.Goto | c_ast.Label):
            return None
        if isinstance(n, c_ast.Break) and id(n) not in allowed:
            return None
    return allowed


def pass_values(lo: int, hi: int, op: str, step: int) -> list[int] | None:
    """The values a canonical header takes, or None past ``UNROLL_MAX`` or for a step
    that does not move toward the bound."""
    tests = {
        "<": lambda v: v < hi,
        "<=": lambda v: v <= hi,
        ">": lambda v: v > hi,
        ">=": lambda v: v >= hi,
        "!=": lambda v: v != hi,
    }
    test = tests.get(op)
    if test is None or step == 0:
        return None
    out: list[int] = []
    v = lo
    while test(v):
        out.append(v)
        if len(out) > UNROLL_MAX:
            return None
        v += step
    return out


def _operand(op: c_ast.BinaryOp, var: str) -> bool:
    """``var`` is part of the operator's arithmetic (not only of a subscript or a call
    inside it: ``1.0 / u[i]`` divides by an element, not by ``i``)."""
    stack: list[c_ast.Node] = [op.left, op.right]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.ID) and n.name == var:
            return True
        if isinstance(n, c_ast.ArrayRef | c_ast.FuncCall | c_ast.StructRef):
            continue
        stack.extend(c for _, c in n.children())
    return False


def _names(node: c_ast.Node, var: str) -> bool:
    return any(isinstance(n, c_ast.ID) and n.name == var for n in _walk(node))


def _own(node: c_ast.Node | None):
    """Nodes of ``node`` outside loops and switches nested in it (whose breaks and
    continues are their own); returns and gotos anywhere still count."""
    stack = [node] if node is not None else []
    while stack:
        n = stack.pop()
        yield n
        for _, c in n.children():
            if isinstance(c, _NESTED):
                yield from (x for x in _walk(c) if isinstance(x, c_ast.Return | c_ast.Goto))
                continue
            stack.append(c)


def _walk(node: c_ast.Node | None):
    return walk(node) if node is not None else iter(())
