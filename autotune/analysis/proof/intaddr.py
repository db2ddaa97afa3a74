"""Addresses held as integers: which objects a pointer made from a number may reach.

C lets a program turn a pointer into an integer and back (``(double *)(((uintptr_t)buf
+ 63) & ~63)``, PARSEC's blackscholes aligning its arrays by hand). A pointer made so
reaches the object of the pointer its number was computed from: the analysis assumes,
as GCC's and LLVM's points-to do, that integer arithmetic on an address (adding an
offset, masking low bits) keeps it inside the objects it was computed from; the union
of every pointer a number was computed from is taken (``(uintptr_t)c + ((uintptr_t)a -
(uintptr_t)c)`` may reach ``a`` and ``c``). A number read from a variable, memory or a
call may hold any address once the program has turned one into a number anywhere: then
nothing is known (None). A constant is no object (``(T *)0``)."""

from __future__ import annotations

from collections.abc import Callable

from pycparser import c_ast

from autotune.analysis.proof.decls import derivations
from autotune.analysis.proof.program import Program, Site
from autotune.analysis.symbols import Scope

Objects = frozenset[str] | None
PointerObjects = Callable[[c_ast.Node, Site], Objects]


def to_pointer(scope: Scope, to_type: c_ast.Node) -> bool:
    """A cast's type is a pointer (through typedefs too: ``(real_ptr)x``)."""
    return bool(derivations(scope, to_type))


def integer_valued(scope: Scope, e: c_ast.Node) -> bool:
    """``e`` is surely a number, not a pointer (an integer variable, a cast to one, bit
    operations, a numeric constant)."""
    if isinstance(e, c_ast.Constant):
        return e.type != "string"
    if isinstance(e, c_ast.Cast):
        return not to_pointer(scope, e.to_type) and not _void(e.to_type)
    if isinstance(e, c_ast.BinaryOp):
        if e.op in ("+", "-"):
            return integer_valued(scope, e.left) and integer_valued(scope, e.right)
        return True  # &, |, ^, <<, >>, *, /, %, comparisons: numbers only
    if isinstance(e, c_ast.UnaryOp):
        if e.op in ("-", "~", "!", "sizeof", "+"):
            return True
        if e.op in ("++", "--", "p++", "p--"):
            return integer_valued(scope, e.expr)
        return False
    if isinstance(e, c_ast.TernaryOp):
        return integer_valued(scope, e.iftrue) and integer_valued(scope, e.iffalse)
    if isinstance(e, c_ast.ID):
        decl, _kind = scope.find_decl(e.name, e)
        if decl is None or isinstance(decl.type, c_ast.FuncDecl):
            return False
        return not derivations(scope, decl.type) and not _aggregate(scope, decl.type)
    return False


def integer_origin(
    e: c_ast.Node, site: Site, prog: Program, objects: PointerObjects, scope: Scope
) -> Objects:
    """The objects a number may be the address of (see the module's docstring)."""
    if isinstance(e, c_ast.Constant):
        return frozenset()
    if isinstance(e, c_ast.Cast):
        if to_pointer(scope, e.to_type) or not integer_valued(scope, e.expr):
            return objects(e.expr, site)  # (uintptr_t)buf: buf's objects
        return integer_origin(e.expr, site, prog, objects, scope)
    if isinstance(e, c_ast.BinaryOp):
        if e.op in ("==", "!=", "<", ">", "<=", ">=", "&&", "||"):
            return frozenset()  # a truth value
        return _union(
            integer_origin(e.left, site, prog, objects, scope),
            integer_origin(e.right, site, prog, objects, scope),
        )
    if isinstance(e, c_ast.UnaryOp):
        if e.op in ("sizeof", "!"):
            return frozenset()
        if e.op in ("-", "~", "+"):
            return integer_origin(e.expr, site, prog, objects, scope)
    if isinstance(e, c_ast.TernaryOp):
        return _union(
            integer_origin(e.iftrue, site, prog, objects, scope),
            integer_origin(e.iffalse, site, prog, objects, scope),
        )
    if not integer_valued(scope, e):
        return objects(e, site)  # a pointer after all: (uintptr_t) of p + 1
    return None if exposes_addresses(prog) else frozenset()


def exposes_addresses(prog: Program) -> bool:
    """Some code of the program turns a pointer into a number (a cast to an integer type
    of something that is not surely a number): a number read back may be an address."""
    key = ("exposes addresses",)
    if key not in prog.memo:
        prog.memo[key] = any(_exposes(func, ast) for func, ast in prog.funcs.values()) or any(
            _exposes(ext, ast)
            for ast in prog.units
            for ext in ast.ext
            if isinstance(ext, c_ast.Decl)
        )
    return prog.memo[key]


def _exposes(node: c_ast.Node, ast: c_ast.FileAST) -> bool:
    func = node if isinstance(node, c_ast.FuncDef) else None
    scope = Scope(func, ast) if func is not None else None
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Cast) and scope is not None:
            if not to_pointer(scope, n.to_type) and not _void(n.to_type):
                if not integer_valued(scope, n.expr) and not _floating(n.to_type):
                    return True
        elif isinstance(n, c_ast.Cast) and scope is None:
            return True  # a file-scope initializer's cast: not read further
        stack.extend(c for _, c in n.children())
    return False


def _void(to_type: c_ast.Node) -> bool:
    t = getattr(to_type, "type", None)
    t = getattr(t, "type", None)
    return isinstance(t, c_ast.IdentifierType) and t.names == ["void"]


def _floating(to_type: c_ast.Node) -> bool:
    t = getattr(getattr(to_type, "type", None), "type", None)
    return isinstance(t, c_ast.IdentifierType) and bool({"float", "double"} & set(t.names))


def _aggregate(scope: Scope, t: c_ast.Node) -> bool:
    inner = getattr(t, "type", None)
    return isinstance(inner, c_ast.Struct | c_ast.Union)


def _union(a: Objects, b: Objects) -> Objects:
    if a is None or b is None:
        return None
    return a | b
