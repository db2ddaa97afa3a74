"""Types, sizes and array layout: what an array reference touches, in bytes.

A mixin of ``Scope`` (``symbols.py``): it needs the scope's lookups and
constant evaluation, and is kept apart because layout is its own concept
(C type sizes, struct padding, array extents from declarations or malloc).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pycparser import c_ast

from autotune.analysis.allocators import SIZED
from autotune.analysis.exprs import Symbolic
from autotune.frontend.vectortypes import vector_bytes

BASE_SIZES = {
    "char": 1,
    "short": 2,
    "int": 4,
    "long": 8,
    "float": 4,
    "double": 8,
    "_Bool": 1,
    "void": 1,
    "signed": 4,
    "unsigned": 4,
    "__int128": 16,
}


@dataclass
class ArrayInfo:
    """How an array name is laid out: derivations, element size, extent."""

    name: str
    derivs: list[tuple[str, int | None]]  # ("array"|"ptr", count) outermost first
    sizes: list[int | None]  # sizes[k]: bytes of the object after k subscripts
    extent: int | None = None  # elements of the innermost type in the whole object
    note: str = ""


class Layout:
    """Type sizes and array layout for a ``Scope`` (uses its info, build, find_decl)."""

    info: Any  # symbols.FileInfo
    func: c_ast.FuncDef
    ast: c_ast.FileAST

    # ---- types ---------------------------------------------------------------
    def resolve_typedef(self, t: c_ast.Node) -> c_ast.Node:
        seen = 0
        while (
            isinstance(t, c_ast.TypeDecl)
            and isinstance(t.type, c_ast.IdentifierType)
            and len(t.type.names) == 1
            and t.type.names[0] in self.info.typedefs
            and seen < 50
        ):
            t = self.info.typedefs[t.type.names[0]]
            seen += 1
        return t

    def type_size(self, t: c_ast.Node) -> int | None:
        vector = self.vector_size(t)
        if vector is not None:
            return vector
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

    def vector_size(self, t: c_ast.Node) -> int | None:
        """A GCC vector type's bytes (``__m256d``: 32), read from the typedef of its
        element that the front end names for them (``frontend.vectortypes``)."""
        for _ in range(50):
            if isinstance(t, c_ast.Typename):
                t = t.type
            if not (isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType)):
                return None
            names = [n for n in t.type.names if n not in ("const", "volatile", "restrict")]
            if len(names) != 1:
                return None
            size = vector_bytes(names[0])
            if size is not None or names[0] not in self.info.typedefs:
                return size
            t = self.info.typedefs[names[0]]
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
            elif "char" in names or "_Bool" in names:
                size = 1  # signed or unsigned: the modifier says nothing of the width
            elif "short" in names:
                size = 2
            else:
                size = max((BASE_SIZES.get(n, 0) for n in names), default=0) or None
            return size * 2 if size and "_Complex" in names else size
        if isinstance(t, c_ast.Enum):
            return 4
        if isinstance(t, (c_ast.Struct, c_ast.Union)):
            decls = (
                t.decls
                if t.decls is not None
                else getattr(self.info.structs.get(t.name), "decls", None)
            )
            if decls is None:
                return None
            sizes = [self.type_size(d.type) for d in decls]
            if any(s is None for s in sizes):
                return None
            if isinstance(t, c_ast.Union):
                return max(sizes, default=0)
            return _struct_layout(
                [(s, self._align(d.type)) for s, d in zip(sizes, decls, strict=True)]
            )
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

    def array_from_type(
        self, name: str, t: c_ast.Node, decl: c_ast.Node | None, kind: str
    ) -> ArrayInfo | None:
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

    def _allocated(
        self, name: str, decl: c_ast.Node | None, kind: str, pointee: int | None
    ) -> tuple[int | None, str]:
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
        if not (
            isinstance(rhs, c_ast.FuncCall)
            and isinstance(rhs.name, c_ast.ID)
            and rhs.name.name in SIZED
            and rhs.args
        ):
            return None
        scope = self if fn is None or fn is self.func else type(self)(fn, self.ast)
        total = 1
        for i in SIZED[rhs.name.name]:
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
            other = type(self)(caller, self.ast).array(arg.name, call)
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
    """The parameters in order; a K&R definition (``f(a, n) double *a; int n; {``)
    names them in the list and declares them before the body."""
    args = func.decl.type.args
    if args is None:
        return []
    declared = {d.name: d for d in (func.param_decls or []) if isinstance(d, c_ast.Decl)}
    out = []
    for p in args.params:
        if isinstance(p, c_ast.Decl) and p.name:
            out.append(p)
        elif isinstance(p, c_ast.ID) and p.name in declared:
            out.append(declared[p.name])
    return out


def struct_member_type(scope: Layout, t: c_ast.Node, member: str) -> c_ast.Node | None:
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
