"""Calls through a function pointer: the functions the pointer may hold.

In a whole program (its ``main`` and every file read), a function pointer can
only hold the address of a function the program names outside a call (``f =
smooth``, ``{.apply = relax}``, ``qsort(..., cmp)``, ``apply(v, n, sqrt)``):
those are its possible targets, narrowed to the ones that take as many
arguments as the call passes (calling through a pointer of another type is
undefined). A program that fetches functions at run time (``dlsym``) or a
program not seen whole leaves the targets unknown. The call is then walked as
a choice among its targets, each from the same state, as the branches of a
``switch`` are.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.proof.program import Program
from autotune.analysis.symbols import file_info

# library calls that hand the program function addresses it never named
FUNCTION_SOURCES = frozenset("dlsym dlvsym dlfunc signal sysv_signal bsd_signal".split())
MAX_TARGETS = 8  # more candidates than this: the call stays unknown (the walk is per target)


def pointer_targets(prog: Program, nargs: int) -> list[str] | None:
    """The functions a pointer called with ``nargs`` arguments may hold, by name (the
    program's, then the library's); None when they cannot be known, or are too many."""
    if not prog.whole or _hands_out_functions(prog):
        return None
    names = sorted(n for n in prog.address_taken if _takes(_program_decl(prog, n), nargs))
    names += sorted(
        n for n in prog.library_values - prog.address_taken if _takes(_library_decl(prog, n), nargs)
    )
    return names if len(names) <= MAX_TARGETS else None


def named_targets(prog: Program, expr: c_ast.Node, nargs: int) -> list[str] | None:
    """The functions an argument that is called (``qsort``'s comparison) may be: a named
    function, either of a ``?:``'s, or any a pointer may hold; None when unknown."""
    while isinstance(expr, c_ast.Cast) or (isinstance(expr, c_ast.UnaryOp) and expr.op == "&"):
        expr = expr.expr
    if isinstance(expr, c_ast.TernaryOp):
        sides = [named_targets(prog, e, nargs) for e in (expr.iftrue, expr.iffalse)]
        if any(s is None for s in sides):
            return None
        return sorted(set(sides[0]) | set(sides[1]))  # type: ignore[arg-type]
    if isinstance(expr, c_ast.ID) and (expr.name in prog.funcs or expr.name in prog.library_values):
        return [expr.name]
    return pointer_targets(prog, nargs)


def target_call(
    prog: Program, node: c_ast.FuncCall, name: str, args: list[c_ast.Node]
) -> c_ast.FuncCall:
    """``name(args)`` at ``node``'s place: the call the walk follows for one target (kept
    in the program's memo, so the references made at it live as long as the program)."""
    key = ("pointer target", id(node), name)
    call = prog.memo.get(key)
    if call is None:
        call = c_ast.FuncCall(
            c_ast.ID(name, coord=node.coord), c_ast.ExprList(list(args)), coord=node.coord
        )
        prog.memo[key] = call
    return call


def _hands_out_functions(prog: Program) -> bool:
    """The program calls a function outside it that may return a function's address
    (``dlsym``, or any declared to return a function pointer): a pointer may then hold a
    function the program never names."""
    key = "hands out functions"
    if key not in prog.memo:
        prog.memo[key] = any(
            name in FUNCTION_SOURCES or _returns_function(prog, _library_decl(prog, name))
            for name in prog.calls
            if name not in prog.funcs
        )
    return prog.memo[key]


def _returns_function(prog: Program, decl: c_ast.Node | None) -> bool:
    """``decl`` declares a function whose result is a function pointer (written out or
    through a typedef, as ``sighandler_t``)."""
    if decl is None:
        return False
    typ = decl.type.type  # the result's declarator
    for _ in range(16):  # typedefs of typedefs, never a cycle in valid C
        if isinstance(typ, c_ast.PtrDecl | c_ast.ArrayDecl):
            typ = typ.type
            if isinstance(typ, c_ast.FuncDecl):
                return True
        elif isinstance(typ, c_ast.TypeDecl) and isinstance(typ.type, c_ast.IdentifierType):
            named = _typedef(prog, typ.type.names[-1])
            if named is None:
                return False
            typ = named
        else:
            return False
    return False


def _typedef(prog: Program, name: str) -> c_ast.Node | None:
    for unit in prog.units:
        found = file_info(unit).typedefs.get(name)
        if found is not None:
            return found
    return None


def _program_decl(prog: Program, name: str) -> c_ast.Node | None:
    entry = prog.funcs.get(name)
    return entry[0].decl if entry is not None else None


def _library_decl(prog: Program, name: str) -> c_ast.Node | None:
    for unit in prog.units:
        decl = file_info(unit).globals.get(name)
        if decl is not None and isinstance(decl.type, c_ast.FuncDecl):
            return decl
    return None


def _takes(decl: c_ast.Node | None, nargs: int) -> bool:
    """A function declared as ``decl`` may be called with ``nargs`` arguments (an
    unprototyped or variadic one with at least its named ones)."""
    if decl is None or not isinstance(decl.type, c_ast.FuncDecl):
        return False
    if decl.type.args is None:
        return True  # ``double f()``: any count
    params = decl.type.args.params
    if any(isinstance(p, c_ast.EllipsisParam) for p in params):
        return nargs >= len(params) - 1
    named = _params_of(decl)
    return len(named) == nargs


def _params_of(decl: c_ast.Decl) -> list:
    """The named parameters of a declaration; ``(void)`` is none."""
    params = decl.type.args.params if decl.type.args is not None else []
    if len(params) == 1 and _is_void(params[0]):
        return []
    return list(params)


def _is_void(param: c_ast.Node) -> bool:
    typ = getattr(param, "type", None)
    return (
        isinstance(typ, c_ast.TypeDecl)
        and isinstance(typ.type, c_ast.IdentifierType)
        and typ.type.names == ["void"]
        and not getattr(param, "name", None)
    )
