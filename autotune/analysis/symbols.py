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

from autotune.analysis import exprs
from autotune.analysis.exprs import Expr, Symbolic

BASE_SIZES = {"char": 1, "short": 2, "int": 4, "long": 8, "float": 4, "double": 8,
              "_Bool": 1, "void": 1, "signed": 4, "unsigned": 4, "__int128": 16}
ALLOC_FUNCS = {"malloc": (0,), "calloc": (0, 1), "realloc": (1,), "aligned_alloc": (1,),
               "_mm_malloc": (0,), "valloc": (0,)}
# Resolve a parameter from the calls in the unit when they all pass one constant.
# Off by default: the function may be called from other files, and users expect
# a parameter bound to be reported as symbolic (docs/analysis.md).
PARAMS_FROM_CALLS = False
_TP = re.compile(r"^\s*omp\s+threadprivate\s*\(([^)]*)\)")


@dataclass
class FileInfo:
    """Whole-unit tables: typedefs, structs, globals, functions, writes, calls."""

    typedefs: dict[str, c_ast.Node] = field(default_factory=dict)
    structs: dict[str, c_ast.Node] = field(default_factory=dict)
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
        elif isinstance(ext, c_ast.FuncDef):
            info.funcs[ext.decl.name] = ext
    _walk(ast, None, None, info)
    return info


def _walk(node: c_ast.Node, parent: c_ast.Node | None, func: c_ast.FuncDef | None,
          info: FileInfo) -> None:
    """One pass: parents, struct/enum definitions, writes, assignments, calls, pragmas."""
    stack = [(node, parent, func)]
    while stack:
        n, par, fn = stack.pop()
        if par is not None:
            info.parents[id(n)] = par
        if isinstance(n, c_ast.FuncDef):
            fn = n
            info.func_writes.setdefault(n.decl.name, Counter())
        if isinstance(n, (c_ast.Struct, c_ast.Union)) and n.name and n.decls is not None:
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
        elif isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) and fn is not None:
            info.calls.setdefault(n.name.name, []).append((fn, n))
        for _, child in n.children():
            stack.append((child, n, fn))


def _note_write(lv: c_ast.Node, fn: c_ast.FuncDef | None, info: FileInfo,
                assign: c_ast.Assignment | None) -> None:
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
                value = exprs.build(e.value, lambda n: info.enums[n] if n in info.enums
                                    else _raise(n))
            except (Symbolic, KeyError):
                value = 0
        info.enums[e.name] = int(value)
        value = int(value) + 1


def _raise(name: str) -> Expr:
    raise Symbolic(name)


@dataclass
class ArrayInfo:
    """How an array name is laid out: derivations, element size, extent."""

    name: str
    derivs: list[tuple[str, int | None]]  # ("array"|"ptr", count) outermost first
    sizes: list[int | None]  # sizes[k]: bytes of the object after k subscripts
    extent: int | None = None  # elements of the innermost type in the whole object
    note: str = ""


class Scope:
    """Name lookup for one function: lexical scoping, constants, array layout."""

    def __init__(self, func: c_ast.FuncDef, ast: c_ast.FileAST) -> None:
        self.func = func
        self.ast = ast
        self.info = file_info(ast)

    # ---- declarations --------------------------------------------------------
    def find_decl(self, name: str, at: c_ast.Node | None) -> tuple[c_ast.Decl | None, str]:
        """Nearest visible declaration of ``name`` from ``at``: (decl, local|param|global)."""
        node = at
        parents = self.info.parents
        while node is not None:
            if isinstance(node, c_ast.Compound):
                for item in node.block_items or []:
                    if isinstance(item, c_ast.Decl) and item.name == name:
                        return item, "local"
            elif isinstance(node, c_ast.For) and isinstance(node.init, c_ast.DeclList):
                for d in node.init.decls:
                    if d.name == name:
                        return d, "local"
            elif isinstance(node, c_ast.FuncDef):
                for p in _params(node):
                    if p.name == name:
                        return p, "param"
                break
            node = parents.get(id(node))
        if name in self.info.globals:
            return self.info.globals[name], "global"
        return None, "none"

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
            fn, node = next(((f, a) for f, a in self.info.assigns.get(name, [])
                             if isinstance(a, c_ast.Assignment) and a.op == "="
                             and (kind == "global" or f is self.func)), (None, None))
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
        return exprs.build(node, lambda n: self.constant(n, at), self.sizeof)

    # ---- types ---------------------------------------------------------------
    def resolve_typedef(self, t: c_ast.Node) -> c_ast.Node:
        seen = 0
        while (isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType)
               and len(t.type.names) == 1 and t.type.names[0] in self.info.typedefs and seen < 50):
            t = self.info.typedefs[t.type.names[0]]
            seen += 1
        return t

    def type_size(self, t: c_ast.Node) -> int | None:
        t = self.resolve_typedef(t)
        if isinstance(t, c_ast.Typename):
            return self.type_size(t.type)
        if isinstance(t, c_ast.PtrDecl):
            return 8
        if isinstance(t, c_ast.ArrayDecl):
            inner = self.type_size(t.type)
            n = self.dim(t.dim, t)
            return None if inner is None or n is None else inner * n
        if isinstance(t, c_ast.TypeDecl):
            return self._base_size(t.type)
        return None

    def _base_size(self, t: c_ast.Node) -> int | None:
        if isinstance(t, c_ast.IdentifierType):
            names = [n for n in t.names if n not in ("const", "volatile", "restrict")]
            if len(names) == 1 and names[0] in self.info.typedefs:
                return self.type_size(self.info.typedefs[names[0]])
            if "double" in names:
                size = 16 if "long" in names else 8
            elif "float" in names:
                size = 4
            elif names.count("long") >= 1:
                size = 8
            else:
                size = max((BASE_SIZES.get(n, 0) for n in names), default=0) or None
            return size * 2 if size and "_Complex" in names else size
        if isinstance(t, c_ast.Enum):
            return 4
        if isinstance(t, (c_ast.Struct, c_ast.Union)):
            decls = t.decls if t.decls is not None else getattr(
                self.info.structs.get(t.name), "decls", None)
            if decls is None:
                return None
            sizes = [self.type_size(d.type) for d in decls]
            if any(s is None for s in sizes):
                return None
            if isinstance(t, c_ast.Union):
                return max(sizes, default=0)
            return _struct_layout([(s, self._align(d.type)) for s, d in zip(sizes, decls,
                                                                             strict=True)])
        return None

    def _align(self, t: c_ast.Node) -> int:
        t = self.resolve_typedef(t)
        while isinstance(t, c_ast.ArrayDecl):
            t = self.resolve_typedef(t.type)
        if isinstance(t, c_ast.TypeDecl) and isinstance(t.type, (c_ast.Struct, c_ast.Union)):
            decls = t.type.decls or getattr(self.info.structs.get(t.type.name), "decls", None)
            return max((self._align(d.type) for d in decls or []), default=1)
        return min(self.type_size(t) or 8, 16)

    def dim(self, node: c_ast.Node | None, at: c_ast.Node) -> int | None:
        if node is None:
            return None
        try:
            value = self.build(node, at)
        except Symbolic:
            return None
        return int(value) if isinstance(value, (int, float)) else None

    def sizeof(self, node: c_ast.Node) -> int | None:
        """``sizeof(type)`` or ``sizeof expr`` for names and subscripted names."""
        if isinstance(node, c_ast.Typename):
            return self.type_size(node.type)
        depth = 0
        while isinstance(node, c_ast.ArrayRef):
            node, depth = node.name, depth + 1
        if isinstance(node, c_ast.UnaryOp) and node.op == "*":
            node, depth = node.expr, depth + 1
        if isinstance(node, c_ast.ID):
            decl, _ = self.find_decl(node.name, node)
            if decl is None:
                return None
            t = self.resolve_typedef(decl.type)
            for _ in range(depth):
                if not isinstance(t, (c_ast.ArrayDecl, c_ast.PtrDecl)):
                    return None
                t = self.resolve_typedef(t.type)
            return self.type_size(t)
        return None

    # ---- arrays --------------------------------------------------------------
    def array(self, name: str, at: c_ast.Node) -> ArrayInfo | None:
        decl, kind = self.find_decl(name, at)
        if decl is None:
            return None
        return self.array_from_type(name, decl.type, decl, kind)

    def array_from_type(self, name: str, t: c_ast.Node, decl: c_ast.Node | None,
                        kind: str) -> ArrayInfo | None:
        derivs: list[tuple[str, int | None]] = []
        nodes = []
        t = self.resolve_typedef(t)
        while isinstance(t, (c_ast.ArrayDecl, c_ast.PtrDecl)):
            nodes.append(t)
            if isinstance(t, c_ast.ArrayDecl):
                derivs.append(("array", self.dim(t.dim, decl or t)))
            else:
                derivs.append(("ptr", None))
            t = self.resolve_typedef(t.type)
        if not derivs:
            return None
        sizes = [self.type_size(n) for n in nodes] + [self.type_size(t)]
        arr = ArrayInfo(name, derivs, sizes)
        if derivs[0][0] == "ptr" or derivs[0][1] is None:
            count, note = self._allocated(name, decl, kind, sizes[1])
            derivs[0] = (derivs[0][0], count)
            arr.note = note
        arr.extent = _extent(arr)
        return arr

    def _allocated(self, name: str, decl: c_ast.Node | None, kind: str,
                   pointee: int | None) -> tuple[int | None, str]:
        """Element count of a pointer from malloc/calloc in this function or the unit."""
        if pointee is None or decl is None:
            return None, ""
        candidates = []
        if isinstance(decl, c_ast.Decl) and decl.init is not None:
            candidates.append((self.func, decl.init, decl))
        for fn, node in self.info.assigns.get(name, []):
            if isinstance(node, c_ast.Assignment) and node.op == "=":
                if kind == "global" or fn is self.func:
                    candidates.append((fn, node.rvalue, node))
        if kind == "param" and not candidates:
            return self._param_array(name, decl, pointee)
        counts = set()
        for fn, rhs, at in candidates:
            nbytes = self._alloc_bytes(rhs, fn, at)
            if nbytes is None:
                return None, f"{name}: allocation size unknown"
            counts.add(nbytes // pointee)
        if len(counts) == 1:
            return counts.pop(), f"{name}: size from its allocation"
        if counts:
            return None, f"{name}: allocated with different sizes"
        return None, f"{name}: size unknown"

    def _alloc_bytes(self, rhs: c_ast.Node, fn: c_ast.FuncDef | None, at: c_ast.Node) -> int | None:
        while isinstance(rhs, c_ast.Cast):
            rhs = rhs.expr
        if not (isinstance(rhs, c_ast.FuncCall) and isinstance(rhs.name, c_ast.ID)
                and rhs.name.name in ALLOC_FUNCS and rhs.args):
            return None
        scope = self if fn is None or fn is self.func else Scope(fn, self.ast)
        total = 1
        for i in ALLOC_FUNCS[rhs.name.name]:
            try:
                v = scope.build(rhs.args.exprs[i], at)
            except (Symbolic, IndexError):
                return None
            if not isinstance(v, (int, float)):
                return None
            total *= int(v)
        return total

    def _param_array(self, name: str, decl: c_ast.Node, pointee: int) -> tuple[int | None, str]:
        fname = self.func.decl.name
        index = [p.name for p in _params(self.func)].index(name)
        counts = set()
        for caller, call in self.info.calls.get(fname, []):
            args = call.args.exprs if call.args else []
            arg = args[index] if index < len(args) else None
            while isinstance(arg, c_ast.Cast):
                arg = arg.expr
            if not isinstance(arg, c_ast.ID):
                return None, f"{name}: size unknown (parameter)"
            other = Scope(caller, self.ast).array(arg.name, call)
            if other is None or other.extent is None or not other.sizes[-1]:
                return None, f"{name}: size unknown (parameter)"
            counts.add(other.extent * other.sizes[-1] // pointee)
        if len(counts) == 1:
            return counts.pop(), f"{name}: size from the argument at the call"
        return None, f"{name}: size unknown (parameter)"


def _extent(arr: ArrayInfo) -> int | None:
    """Elements of the final element type in the whole contiguous object."""
    total = 1
    for i, (kind, n) in enumerate(arr.derivs):
        if n is None or (kind == "ptr" and i > 0):
            return None
        total *= n
    return total


def _struct_layout(members: list[tuple[int, int]]) -> int:
    offset, align_max = 0, 1
    for size, align in members:
        align = max(1, align)
        offset = (offset + align - 1) // align * align + size
        align_max = max(align_max, align)
    return (offset + align_max - 1) // align_max * align_max


def _params(func: c_ast.FuncDef) -> list[c_ast.Decl]:
    args = func.decl.type.args
    if args is None:
        return []
    return [p for p in args.params if isinstance(p, c_ast.Decl) and p.name]


def struct_member_type(scope: Scope, t: c_ast.Node, member: str) -> c_ast.Node | None:
    """Type node of ``member`` in the struct type ``t`` (pointer to struct allowed)."""
    t = scope.resolve_typedef(t)
    if isinstance(t, c_ast.PtrDecl):
        t = scope.resolve_typedef(t.type)
    if not (isinstance(t, c_ast.TypeDecl) and isinstance(t.type, (c_ast.Struct, c_ast.Union))):
        return None
    decls = t.type.decls or getattr(scope.info.structs.get(t.type.name), "decls", None)
    for d in decls or []:
        if d.name == member:
            return d.type
    return None
