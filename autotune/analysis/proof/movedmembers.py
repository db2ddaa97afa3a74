"""Pointer members a loop may move: stores to a struct's pointer member in the loop's
text or in a function it calls (transitively).

An iteration that stores another pointer in a member others reach memory through
(``if (i == n / 2) g.cells = spare``, ``h->cells = spare`` in a helper) changes what
the later iterations touch: the load of the member is then a read the proof must set
against that store. Members no code of the loop stores keep their value for the whole
loop, and their loads need no reference of their own (the overlap test and the stores
through unknown pointers that ``sizes_read`` finds cover the rest). Stores whose member
cannot be named (a whole struct assigned or copied by a library call, a member's
address taken, a call through a pointer) move any member: None."""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.astutil import walk
from autotune.analysis.names import call_name
from autotune.analysis.proof.library import written_args
from autotune.analysis.proof.program import Program
from autotune.analysis.symbols import Scope

Moved = frozenset[str] | None


def moved_members(prog: Program, loop: c_ast.Node, scope: Scope) -> Moved:
    """The member names the loop (and what it calls) may store a pointer in."""
    key = ("moved members", id(loop))
    if key not in prog.memo:
        prog.memo[key] = _moved(prog, loop, scope)
    return prog.memo[key]


def _moved(prog: Program, loop: c_ast.Node, scope: Scope) -> Moved:
    out: set[str] = set()
    seen: set[str] = set()
    todo: list[tuple[c_ast.Node, Scope]] = [(loop, scope)]
    while todo:
        node, where = todo.pop()
        for n in walk(node):
            if isinstance(n, c_ast.Assignment):
                if isinstance(n.lvalue, c_ast.StructRef):
                    out.add(n.lvalue.field.name)
                elif _whole_struct(n.lvalue, where):
                    return None
            elif isinstance(n, c_ast.UnaryOp) and n.op == "&":
                inner = n.expr
                if isinstance(inner, c_ast.StructRef):
                    out.add(inner.field.name)  # stored through its address, maybe
                elif _whole_struct(inner, where):
                    return None
            elif isinstance(n, c_ast.FuncCall):
                name = call_name(n)
                if name is None:
                    return None
                args = n.args.exprs if n.args is not None else []
                if any(_whole_struct(_target(a), where) for a in written_args(name, args)):
                    return None
                if name in prog.funcs and name not in seen:
                    seen.add(name)
                    func, ast = prog.funcs[name]
                    todo.append((func.body, Scope(func, ast)))
                elif name not in prog.funcs:
                    decl, _kind = where.find_decl(name, n)
                    if decl is not None and not isinstance(decl.type, c_ast.FuncDecl):
                        return None  # through a function pointer variable
    return frozenset(out)


def _target(arg: c_ast.Node) -> c_ast.Node:
    """``&g`` -> ``g``; ``h`` (a pointer to the struct) stays ``*h``."""
    while isinstance(arg, c_ast.Cast):
        arg = arg.expr
    if isinstance(arg, c_ast.UnaryOp) and arg.op == "&":
        return arg.expr
    return c_ast.UnaryOp("*", arg)


def _whole_struct(lv: c_ast.Node, scope: Scope) -> bool:
    """``lv`` may be a whole struct (or union): a variable, an element or a pointee of
    one whose declared type ends in a struct (cautious where it cannot be told)."""
    levels = 0
    node = lv
    while isinstance(node, c_ast.ArrayRef | c_ast.UnaryOp | c_ast.Cast):
        if isinstance(node, c_ast.UnaryOp) and node.op != "*":
            return False
        if not isinstance(node, c_ast.Cast):
            levels += 1
        node = node.name if isinstance(node, c_ast.ArrayRef) else node.expr
    if isinstance(node, c_ast.StructRef):  # a member that may be a struct (``a.in = b.in``)
        members = [
            d
            for struct in scope.info.struct_defs
            for d in struct.decls or []
            if d.name == node.field.name
        ]
        return not members or any(_ends_in_struct(d.type, levels, scope) for d in members)
    if not isinstance(node, c_ast.ID):
        return True
    decl, _kind = scope.find_decl(node.name, node)
    if decl is None:
        return False  # an enum constant or a function
    return _ends_in_struct(decl.type, levels, scope)


def _ends_in_struct(t: c_ast.Node, levels: int, scope: Scope) -> bool:
    """Subscripted or dereferenced ``levels`` times, a value of type ``t`` is a struct."""
    t = scope.resolve_typedef(t)
    for _ in range(levels):
        if not isinstance(t, c_ast.PtrDecl | c_ast.ArrayDecl):
            return False  # the store reaches a number, not what a pointer points at
        t = scope.resolve_typedef(t.type)
    return isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.Struct | c_ast.Union)
