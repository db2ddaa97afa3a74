"""Declarations, types and constant values of the names a loop uses.

Built once per translation unit (cached on the ``FileAST``) because the
front end calls the analysis once per loop and the unit holds every
system header declaration.
"""

from __future__ import annotations

import re
import weakref
from collections import Counter
from dataclasses import dataclass, field

from pycparser import c_ast

from autotune.analysis import cexpr
from autotune.analysis.exprs import Expr, Symbolic
from autotune.analysis.layout import ArrayInfo, Layout, _params, struct_member_type

__all__ = ["ArrayInfo", "FileInfo", "Scope", "file_info", "struct_member_type", "_params"]

# Resolve a parameter from the calls in the unit when they all pass one constant
# (PolyBench passes every size this way). A non-static function could be called
# from another file too; the value only steers ranking, never correctness.
PARAMS_FROM_CALLS = True
_TP = re.compile(r"^\s*omp\s+threadprivate\s*\(([^)]*)\)")


@dataclass
class FileInfo:
    """Whole-unit tables: typedefs, structs, globals, functions, writes, calls."""

    typedefs: dict[str, c_ast.Node] = field(default_factory=dict)
    structs: dict[str, c_ast.Node] = field(default_factory=dict)
    # every struct or union defined with members, the anonymous ones of a typedef too
    # (``typedef struct { int keys[8]; } knode;``, Rodinia b+tree's nodes)
    struct_defs: list[c_ast.Node] = field(default_factory=list)
    enums: dict[str, int] = field(default_factory=dict)
    globals: dict[str, c_ast.Decl] = field(default_factory=dict)
    funcs: dict[str, c_ast.FuncDef] = field(default_factory=dict)
    threadprivate: set[str] = field(default_factory=set)
    writes: Counter = field(default_factory=Counter)  # name -> writes anywhere in the unit
    func_writes: dict[str, Counter] = field(default_factory=dict)
    assigns: dict[str, list[tuple[c_ast.FuncDef | None, c_ast.Node]]] = field(default_factory=dict)
    calls: dict[str, list[tuple[c_ast.FuncDef, c_ast.FuncCall]]] = field(default_factory=dict)
    parents: dict[int, c_ast.Node] = field(default_factory=dict)
    consts: dict[int, Expr] = field(default_factory=dict)  # id(decl) -> constant value
    busy: set[int] = field(default_factory=set)  # decls being evaluated (cycle guard)
    # id(block) -> the names it declares (first declaration wins), built on first lookup:
    # name lookups are the proof's hottest path on programs like NAS BT
    scopes: dict[int, dict[str, tuple[c_ast.Decl, str]]] = field(default_factory=dict)
    # id(node) -> the innermost block, for header or function around it (itself included)
    scope_of: dict[int, c_ast.Node | None] = field(default_factory=dict)
    found: dict[tuple[str, int], tuple[c_ast.Decl | None, str]] = field(default_factory=dict)
    # id(call) -> the element loop a memcpy/memset performs (analysis/copies.py), kept so
    # that its nodes' ids, entered in ``parents``, stay theirs
    copy_loops: dict[int, c_ast.For | None] = field(default_factory=dict)


_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def file_info(ast: c_ast.FileAST) -> FileInfo:
    info = _CACHE.get(ast)
    if info is None:
        info = _build_info(ast)
        _CACHE[ast] = info
    return info


def _build_info(ast: c_ast.FileAST) -> FileInfo:
    info = FileInfo()
    for ext in ast.ext:
        if isinstance(ext, c_ast.Typedef):
            info.typedefs[ext.name] = ext.type
        elif isinstance(ext, c_ast.Decl) and ext.name:
            info.globals[ext.name] = ext
            if isinstance(ext.type, c_ast.FuncDecl):
                continue  # a prototype (most of a system header): nothing to learn
        elif isinstance(ext, c_ast.FuncDef):
            info.funcs[ext.decl.name] = ext
        info.parents[id(ext)] = ast
        _walk(ext, ast, None, info)
    return info


def _walk(
    node: c_ast.Node, parent: c_ast.Node | None, func: c_ast.FuncDef | None, info: FileInfo
) -> None:
    """One pass: parents, struct/enum definitions, writes, assignments, calls, pragmas.

    An explicit stack rather than a ``NodeVisitor``: this walks every node of the
    file, and a generated expression of thousands of terms (``a + b + ...``) is a
    left-deep tree deeper than Python's recursion limit.
    """
    stack = [(node, parent, func)]
    while stack:
        n, par, fn = stack.pop()
        if par is not None:
            info.parents[id(n)] = par
        if isinstance(n, c_ast.FuncDef):
            fn = n
            info.func_writes.setdefault(n.decl.name, Counter())
        if isinstance(n, (c_ast.Struct, c_ast.Union)) and n.decls is not None:
            info.struct_defs.append(n)
            if n.name:
                info.structs[n.name] = n
        elif isinstance(n, c_ast.Enum) and n.values is not None:
            _enum_values(n, info)
        elif isinstance(n, c_ast.Pragma):
            m = _TP.match(n.string or "")
            if m:
                info.threadprivate |= {v.strip() for v in m.group(1).split(",") if v.strip()}
        elif isinstance(n, c_ast.Assignment):
            _note_write(n.lvalue, fn, info, n)
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&"):
            _note_write(n.expr, fn, info, None)
        elif isinstance(n, c_ast.Decl) and n.name and n.init is not None and fn is not None:
            info.assigns.setdefault(n.name, []).append((fn, n))
        if isinstance(n, c_ast.Decl) and n.name and "_Thread_local" in (n.storage or []):
            info.threadprivate.add(n.name)  # ``__thread``: one copy per thread, as threadprivate
        elif isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) and fn is not None:
            info.calls.setdefault(n.name.name, []).append((fn, n))
        for _, child in n.children():
            stack.append((child, n, fn))


def _note_write(
    lv: c_ast.Node, fn: c_ast.FuncDef | None, info: FileInfo, assign: c_ast.Assignment | None
) -> None:
    if isinstance(lv, c_ast.ID):
        info.writes[lv.name] += 1
        if fn is not None:
            info.func_writes[fn.decl.name][lv.name] += 1
        if assign is not None:
            info.assigns.setdefault(lv.name, []).append((fn, assign))


def _enum_values(node: c_ast.Enum, info: FileInfo) -> None:
    value = 0
    for e in node.values.enumerators:
        if e.value is not None:
            try:
                value = cexpr.build(
                    e.value, lambda n: info.enums[n] if n in info.enums else _raise(n)
                )
            except (Symbolic, KeyError):
                value = 0
        info.enums[e.name] = int(value)
        value = int(value) + 1


def _raise(name: str) -> Expr:
    raise Symbolic(name)


class Scope(Layout):
    """Name lookup for one function: lexical scoping, constants, array layout."""

    def __init__(self, func: c_ast.FuncDef, ast: c_ast.FileAST) -> None:
        self.func = func
        self.ast = ast
        self.info = file_info(ast)

    # ---- declarations --------------------------------------------------------
    def find_decl(self, name: str, at: c_ast.Node | None) -> tuple[c_ast.Decl | None, str]:
        """Nearest visible declaration of ``name`` from ``at``: (decl, local|param|global).
        Answers are kept per (name, innermost scope): lookups are the proof's hot path."""
        scope = self._scope_of(at)
        key = (name, id(scope))
        if key not in self.info.found:
            self.info.found[key] = self._lookup(name, scope)
        return self.info.found[key]

    def _scope_of(self, at: c_ast.Node | None) -> c_ast.Node | None:
        if at is None:
            return None
        key = id(at)
        if key not in self.info.scope_of:
            node = at
            while node is not None and not isinstance(
                node, c_ast.Compound | c_ast.For | c_ast.FuncDef
            ):
                node = self.info.parents.get(id(node))
            self.info.scope_of[key] = node
        return self.info.scope_of[key]

    def _lookup(self, name: str, scope: c_ast.Node | None) -> tuple[c_ast.Decl | None, str]:
        node = scope
        while node is not None:
            found = self._declared_in(node).get(name)
            if found is not None:
                return found
            if isinstance(node, c_ast.FuncDef):
                break
            node = self._scope_of(self.info.parents.get(id(node)))
        if name in self.info.globals:
            return self.info.globals[name], "global"
        return None, "none"

    def _declared_in(self, node: c_ast.Node) -> dict[str, tuple[c_ast.Decl, str]]:
        """The names a block, a for header or a function's parameters declare."""
        table = self.info.scopes.get(id(node))
        if table is not None:
            return table
        table = {}
        if isinstance(node, c_ast.Compound):
            items = [i for i in node.block_items or [] if isinstance(i, c_ast.Decl)]
            kind = "local"
        elif isinstance(node, c_ast.For):
            items = node.init.decls if isinstance(node.init, c_ast.DeclList) else []
            kind = "local"
        else:
            items, kind = _params(node), "param"
        for d in items:
            if d.name is not None:
                table.setdefault(d.name, (d, kind))
        self.info.scopes[id(node)] = table
        return table

    def writes(self, name: str, kind: str, func: c_ast.FuncDef | None = None) -> int:
        if kind == "global":
            return self.info.writes[name]
        fn = func or self.func
        return self.info.func_writes.get(fn.decl.name, Counter())[name]

    # ---- constants -----------------------------------------------------------
    def constant(self, name: str, at: c_ast.Node | None, func: c_ast.FuncDef | None = None) -> Expr:
        """Value of a name that is constant for the whole program run, else Symbolic."""
        if name in self.info.enums:
            return self.info.enums[name]
        fn = func or self.func
        scope = self if fn is self.func else Scope(fn, self.ast)
        decl, kind = scope.find_decl(name, at if at is not None else fn)
        if decl is None:
            raise Symbolic(f"{name} unknown")
        key = id(decl)
        cached = self.info.consts.get(key)
        if isinstance(cached, Symbolic):
            raise cached
        if key in self.info.consts:
            return cached
        if key in self.info.busy:
            raise Symbolic(f"{name} (recursive definition)")
        self.info.busy.add(key)
        try:
            value = scope._constant_of(decl, kind)
        except Symbolic as exc:
            self.info.consts[key] = exc
            raise
        finally:
            self.info.busy.discard(key)
        self.info.consts[key] = value
        return value

    def _constant_of(self, decl: c_ast.Decl, kind: str) -> Expr:
        name = decl.name
        if not isinstance(decl.type, c_ast.TypeDecl):
            raise Symbolic(f"{name} is not a scalar")
        nwrites = self.writes(name, kind)
        if kind == "param":
            if nwrites:
                raise Symbolic(f"{name} (parameter, modified)")
            return self._param_value(decl)
        if decl.init is not None and nwrites == 0:
            return self.build(decl.init, decl)
        if decl.init is None and nwrites == 1:
            fn, node = next(
                (
                    (f, a)
                    for f, a in self.info.assigns.get(name, [])
                    if isinstance(a, c_ast.Assignment)
                    and a.op == "="
                    and (kind == "global" or f is self.func)
                ),
                (None, None),
            )
            if node is not None:
                scope = self if fn is self.func or fn is None else Scope(fn, self.ast)
                return scope.build(node.rvalue, node)
        if decl.init is None and nwrites == 0 and kind == "global":
            return 0
        raise Symbolic(f"{name} unknown")

    def _param_value(self, decl: c_ast.Decl) -> Expr:
        """A parameter is constant when every call in the unit passes the same constant."""
        fname = self.func.decl.name
        if not PARAMS_FROM_CALLS:
            raise Symbolic(f"{decl.name} unknown: parameter of {fname}()")
        index = [p.name for p in _params(self.func)].index(decl.name)
        values = set()
        for caller, call in self.info.calls.get(fname, []):
            args = call.args.exprs if call.args else []
            if index >= len(args):
                raise Symbolic(f"{decl.name} unknown")
            values.add(Scope(caller, self.ast).build(args[index], call))
        if len(values) != 1:
            why = "no call in this file" if not values else "differs between calls"
            raise Symbolic(f"{decl.name} unknown: parameter of {fname}(), {why}")
        return values.pop()

    def build(self, node: c_ast.Node, at: c_ast.Node) -> Expr:
        """Expr of ``node`` using only program constants (no loop variables)."""
        return cexpr.build(node, lambda n: self.constant(n, at), self.sizeof)
