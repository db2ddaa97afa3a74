"""Blocks a thread allocates for itself: ``double *w = malloc(...)`` in a region.

Real codes give each thread a scratch buffer by declaring a pointer inside the
``parallel`` region (or naming it ``private``) and allocating it there, once per
thread, before the worksharing loop. Each thread's pointer then holds a block no
other thread reaches, exactly as a region-local array would, so the loop's accesses
through it are the thread's own and are judged as such (set before they are read in
each iteration, or only accumulated). That holds when:

- every store to the pointer in the region is a fresh allocation (``malloc``, an
  allocating helper) made by a statement every thread runs: an item of the region's
  own block, not one under ``single``, ``master``, a test or the loop itself;
- its address is never taken and no ``copyprivate`` hands one thread's value to all;
- its value goes nowhere: it is only subscripted, dereferenced, moved by an offset
  that is then dereferenced, compared with NULL, freed, or passed to a library
  function that keeps nothing (``memset``) or a function of the program whose
  parameter obeys the same rules. A copy stored anywhere could let another thread,
  or the program after the region, reach the block (or see its address, which
  differs between threads), so the pointer is then taken as the shared block the
  points-to names by its allocation site.
"""

from __future__ import annotations

import re

from pycparser import c_ast

from autotune.analysis.astutil import walk
from autotune.analysis.names import call_name
from autotune.analysis.proof.decls import derivations, is_fresh
from autotune.analysis.proof.program import Program, param_names
from autotune.analysis.proof.walkstate import LoopContext
from autotune.analysis.symbols import Scope

# library functions that read or write through a pointer argument and keep no copy of
# it: those that return no pointer may be used anywhere, the others (which return
# their first argument) only as a statement of their own
KEEPS_NOTHING = frozenset(
    "free memcmp strlen strnlen strcmp strncmp qsort bzero explicit_bzero".split()
)
RETURNS_ARGUMENT = frozenset("memset memcpy memmove strcpy strncpy strcat strncat".split())
MAX_DEPTH = 3  # functions the pointer is passed through, one into another


class _Uses(c_ast.NodeVisitor):
    """Every mention of one name under a node, each with the chain of its parents."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.stack: list[c_ast.Node] = []
        self.found: list[tuple[c_ast.ID, tuple[c_ast.Node, ...]]] = []

    def visit_ID(self, node: c_ast.ID) -> None:
        if node.name == self.name:
            self.found.append((node, tuple(self.stack)))

    def generic_visit(self, node: c_ast.Node) -> None:
        self.stack.append(node)
        for _, child in node.children():
            self.visit(child)
        self.stack.pop()


def thread_block(ctx: LoopContext, name: str) -> bool:
    """``name``, a pointer private to each thread of the loop's region, holds a block
    each thread allocated for itself and that only it reaches (see the module's note)."""
    if ctx.region is None:
        return False
    key = ("thread_block", id(ctx.region), id(ctx.loop), name)
    if key not in ctx.prog.memo:
        ctx.prog.memo[key] = _thread_block(ctx, name)
    return ctx.prog.memo[key]


def _thread_block(ctx: LoopContext, name: str) -> bool:
    prog, func, ast, loop = ctx.prog, ctx.func, ctx.ast, ctx.loop
    scope = Scope(func, ast)
    decl, kind = scope.find_decl(name, loop)
    if decl is None or kind != "local" or {"static", "extern"} & set(decl.storage or []):
        return False
    if derivations(scope, decl.type) != ["ptr"]:
        return False
    if prog.address_taken_var(name, loop, func, ast) or _copied_out(ctx.region, name):
        return False
    items = ctx.region.block_items if isinstance(ctx.region, c_ast.Compound) else None
    if not items:
        return False
    inner = [d for d in walk(ctx.region) if isinstance(d, c_ast.Decl) and d.name == name]
    if any(d not in items for d in inner):
        return False  # a declaration nested in the region: another variable of the name
    if decl not in inner and name not in ctx.region_private:
        return False  # the region's threads share it
    allocations = _allocations(items, name, prog)
    if allocations is None:
        return False
    uses = _Uses(name)
    uses.visit(ctx.region)
    stores = [node for node, parents in uses.found if _is_store(node, parents)]
    if any(id(s) not in allocations for s in stores):
        return False
    if not allocations:
        return False
    return all(
        _is_store(node, parents) or _keeps_nothing(node, parents, prog, 0)
        for node, parents in uses.found
    )


def _copied_out(region: c_ast.Node, name: str) -> bool:
    """A ``copyprivate`` clause in the region names the pointer: one thread's block is
    handed to every thread."""
    pattern = re.compile(rf"copyprivate\s*\([^)]*\b{re.escape(name)}\b")
    stack = [region]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Pragma) and pattern.search(n.string or ""):
            return True
        stack.extend(c for _, c in n.children())
    return False


def _allocations(items: list[c_ast.Node], name: str, prog: Program) -> set[int] | None:
    """The ids of the lvalues that the region's own statements set to fresh blocks (a
    declaration's store counts as its own node); None where a declaration of the name
    in the region's block starts it with anything else."""
    out: set[int] = set()
    for item in items:
        if isinstance(item, c_ast.Decl) and item.name == name:
            if item.init is None:
                continue
            if not is_fresh(item.init, prog):
                return None
            out.add(id(item))
        elif (
            isinstance(item, c_ast.Assignment)
            and item.op == "="
            and isinstance(item.lvalue, c_ast.ID)
            and item.lvalue.name == name
            and is_fresh(item.rvalue, prog)
        ):
            out.add(id(item.lvalue))
    return out


def _is_store(node: c_ast.ID, parents: tuple[c_ast.Node, ...]) -> bool:
    if not parents:
        return False
    p = parents[-1]
    if isinstance(p, c_ast.Assignment) and p.lvalue is node:
        return True
    return isinstance(p, c_ast.UnaryOp) and p.op in ("++", "--", "p++", "p--")


def _keeps_nothing(
    node: c_ast.Node, parents: tuple[c_ast.Node, ...], prog: Program, depth: int
) -> bool:
    """The pointer's value at ``node`` is used only to reach the block (see the module's
    note); ``parents`` is the chain above it."""
    k = len(parents) - 1
    while k >= 0 and isinstance(parents[k], c_ast.Cast):
        node, k = parents[k], k - 1
    if k < 0:
        return False
    p = parents[k]
    if isinstance(p, c_ast.ArrayRef) and p.name is node:
        return True
    if isinstance(p, c_ast.StructRef) and p.name is node and p.type == "->":
        return True
    if isinstance(p, c_ast.UnaryOp) and p.op in ("*", "!"):
        return True
    if isinstance(p, c_ast.BinaryOp):
        other = p.right if p.left is node else p.left
        if p.op in ("==", "!=") and _is_null(other):
            return True
        if p.op in ("+", "-") and p.left is node:  # own + k: reaches the block if used so
            return _keeps_nothing(p, parents[:k], prog, depth)
        return p.op == "+" and p.right is node and _keeps_nothing(p, parents[:k], prog, depth)
    if isinstance(p, c_ast.ExprList) and k >= 1 and isinstance(parents[k - 1], c_ast.FuncCall):
        call = parents[k - 1]
        position = next(j for j, e in enumerate(p.exprs) if e is node)
        return _argument_kept_nowhere(call, position, parents[: k - 1], prog, depth)
    return False


def _argument_kept_nowhere(
    call: c_ast.FuncCall, position: int, above: tuple[c_ast.Node, ...], prog: Program, depth: int
) -> bool:
    name = call_name(call) or ""
    if name in KEEPS_NOTHING:
        return True
    if name in RETURNS_ARGUMENT:
        return bool(above) and isinstance(above[-1], c_ast.Compound)  # its value unused
    entry = prog.funcs.get(name)
    if entry is None or depth >= MAX_DEPTH:
        return False
    callee, _ = entry
    params = param_names(callee)
    if position >= len(params) or params[position] is None or callee.body is None:
        return False
    if _variadic(callee):
        return False
    uses = _Uses(params[position])
    uses.visit(callee.body)
    return all(_keeps_nothing(n, ps, prog, depth + 1) for n, ps in uses.found)


def _variadic(func: c_ast.FuncDef) -> bool:
    args = getattr(func.decl.type, "args", None)
    return any(isinstance(p, c_ast.EllipsisParam) for p in (args.params if args else []))


def _is_null(node: c_ast.Node) -> bool:
    while isinstance(node, c_ast.Cast):
        node = node.expr
    return isinstance(node, c_ast.Constant) and node.value in ("0", "0L", "0UL")
