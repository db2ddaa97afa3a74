"""Stores to a local pointer made through its address by the functions it is passed to.

``alloc_vector(&x, n)`` with ``*out = malloc(...)`` inside, ``generate_matrix(..., &x,
&b)``, ``read_input(path, &grid, &n)``: the usual way C returns a second result. Taking a
pointer's address used to make it point anywhere. Where every ``&x`` is an argument of a
program function whose parameter is only dereferenced (``*out = ...``, ``out[0] = ...``,
``(*out)[i]``, ``if (!out)``) or handed on the same way (to ``posix_memalign``, a new
block), the stores through it are all the stores to ``x`` besides its own assignments.
An address a library function only reads (``memcpy``'s source) stores nothing. Anything
else (the address kept, indexed, given to another library function) leaves the pointer
unknown.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.allocators import STORES_FRESH
from autotune.analysis.proof.library import read_only_args
from autotune.analysis.proof.program import Program, Site, param_names
from autotune.analysis.symbols import Scope, file_info

MAX_DEPTH = 3  # wrappers handing the address on: ``make_grid(&g)`` -> ``alloc2d(out)``


def address_stores(prog: Program, decl: c_ast.Decl, site: Site) -> list[Site] | None:
    """Every store to the local pointer ``decl`` (seen from ``site``'s function) made
    through its address, each as the site of the value stored (the whole assignment for
    a compound one, ``*out += k``, which moves it); None: an address that goes where the
    proof cannot follow."""
    if site.func is None or "static" in (decl.storage or []):
        return None
    key = ("address stores", id(decl))
    if key not in prog.memo:
        prog.memo[key] = _address_stores(prog, decl, site.func, site.ast)
    return prog.memo[key]


def _address_stores(
    prog: Program, decl: c_ast.Decl, func: c_ast.FuncDef, ast: c_ast.FileAST
) -> list[Site] | None:
    scope = Scope(func, ast)
    parents = file_info(ast).parents
    out: list[Site] = []
    for node, user, _ast in prog.uses(decl.name):
        if user is not func or scope.find_decl(decl.name, node)[0] is not decl:
            continue
        up = _up(parents, node)
        if not (isinstance(up, c_ast.UnaryOp) and up.op == "&"):
            continue  # a use of its value
        call, k = _argument_of(parents, up)
        name = call.name.name if call is not None and isinstance(call.name, c_ast.ID) else ""
        if call is None:
            return None  # ``h = &x``: the address kept, stored through where it goes
        if STORES_FRESH.get(name, -1) == k:
            continue  # ``posix_memalign(&x, ...)``: the program walk counts the store
        if name not in prog.funcs and k in read_only_args(name):
            continue  # ``memcpy(&bits, &x, sizeof x)``: the library only reads x
        stores = _param_stores(prog, name, k, 0) if name in prog.funcs else None
        if stores is None:
            return None
        out += stores
    return out


def _up(parents: dict[int, c_ast.Node], node: c_ast.Node) -> c_ast.Node | None:
    """The node's parent, past casts."""
    up = parents.get(id(node))
    while isinstance(up, c_ast.Cast):
        up = parents.get(id(up))
    return up


def _argument_of(
    parents: dict[int, c_ast.Node], node: c_ast.Node
) -> tuple[c_ast.FuncCall | None, int]:
    """The call ``node`` (or a cast of it) is an argument of, and its position."""
    arg = node
    up = parents.get(id(arg))
    while isinstance(up, c_ast.Cast):
        arg, up = up, parents.get(id(up))
    if not isinstance(up, c_ast.ExprList):
        return None, -1
    call = parents.get(id(up))
    if not isinstance(call, c_ast.FuncCall) or call.args is not up:
        return None, -1
    return call, next(k for k, e in enumerate(up.exprs) if e is arg)


def _param_stores(prog: Program, fname: str, k: int, depth: int) -> list[Site] | None:
    """The stores a function makes through its ``k``-th parameter, a pointer to a
    pointer, when it only dereferences it or hands it on so (None otherwise)."""
    func, ast = prog.funcs[fname]
    names = param_names(func)
    if depth > MAX_DEPTH or k < 0 or k >= len(names) or not names[k]:
        return None
    param = names[k]
    scope = Scope(func, ast)
    decl, kind = scope.find_decl(param, func.body)
    if kind != "param" or decl is None:
        return None
    parents = file_info(ast).parents
    out: list[Site] = []
    for node, user, _ast in prog.uses(param):
        if user is not func or scope.find_decl(param, node)[0] is not decl:
            continue
        up = _up(parents, node)
        if (isinstance(up, c_ast.UnaryOp) and up.op == "*") or _first_element(up, node):
            store = _store_through(parents, up, func, ast)
            if store is False:
                return None
            if store is not None:
                out.append(store)
            continue
        if _tested(up, node):
            continue
        call, j = _argument_of(parents, node)
        name = call.name.name if call is not None and isinstance(call.name, c_ast.ID) else ""
        if call is not None and STORES_FRESH.get(name, -1) == j:
            out.append(Site(call, func, ast))  # ``posix_memalign((void **)out, ...)``
            continue
        handed = _param_stores(prog, name, j, depth + 1) if name in prog.funcs else None
        if handed is None:
            return None  # assigned, indexed, kept or given away: not followed
        out += handed
    return out


def _store_through(
    parents: dict[int, c_ast.Node], deref: c_ast.UnaryOp, func: c_ast.FuncDef, ast
) -> Site | None | bool:
    """What ``*out`` does: a store to the pointer (its site), a use of its value (None),
    or its address taken again (False)."""
    up = _up(parents, deref)
    if isinstance(up, c_ast.Assignment) and _bare(up.lvalue) is deref:
        return Site(up.rvalue if up.op == "=" else up, func, ast)
    if isinstance(up, c_ast.UnaryOp) and up.op in ("++", "--", "p++", "p--"):
        return Site(up, func, ast)
    if isinstance(up, c_ast.UnaryOp) and up.op == "&":
        return False
    return None


def _first_element(up: c_ast.Node | None, node: c_ast.Node) -> bool:
    """``out[0]``: the same object as ``*out``."""
    if not isinstance(up, c_ast.ArrayRef) or _bare(up.name) is not node:
        return False
    sub = up.subscript
    return isinstance(sub, c_ast.Constant) and sub.type == "int" and sub.value in ("0", "0L")


def _bare(node: c_ast.Node) -> c_ast.Node:
    while isinstance(node, c_ast.Cast):
        node = node.expr
    return node


def _tested(up: c_ast.Node | None, node: c_ast.Node) -> bool:
    """``out`` only compared or tested (``if (!out)``, ``out == NULL``)."""
    if isinstance(up, c_ast.UnaryOp) and up.op == "!":
        return True
    if isinstance(up, c_ast.BinaryOp) and up.op in ("==", "!=", "&&", "||"):
        return True
    return isinstance(up, c_ast.If | c_ast.While | c_ast.DoWhile | c_ast.TernaryOp) and (
        up.cond is node
    )
