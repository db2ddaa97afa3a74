"""What declarations and allocations are, for the proof: a type's derivations (pointer,
array), the one name of a variable across files, and whether a value is a new object."""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.allocators import FILLED, FRESH
from autotune.analysis.layout import struct_member_type
from autotune.analysis.names import call_name
from autotune.analysis.proof.program import Program, returns
from autotune.analysis.symbols import Scope


def derivations(scope: Scope, t: c_ast.Node | None) -> list[str]:
    """``float **p`` -> ["ptr", "ptr"]; ``double a[N][M]`` -> ["array", "array"]."""
    out: list[str] = []
    for _ in range(16):
        if t is None:
            break
        if isinstance(t, c_ast.TypeDecl):
            inner = scope.resolve_typedef(t.type) if hasattr(scope, "resolve_typedef") else t.type
            if isinstance(inner, c_ast.IdentifierType | c_ast.Struct | c_ast.Union | c_ast.Enum):
                alias = _typedef_target(scope, t.type)
                if alias is None:
                    break
                t = alias
                continue
            t = inner
        elif isinstance(t, c_ast.PtrDecl):
            out.append("ptr")
            t = t.type
        elif isinstance(t, c_ast.ArrayDecl):
            out.append("array")
            t = t.type
        elif isinstance(t, c_ast.Typename | c_ast.Decl):
            t = t.type
        else:
            break
    return out


def narrows(scope: Scope, t: c_ast.Node | None) -> bool:
    """A value converted to this type wraps: an integer type narrower than ``int``
    (``(unsigned char)i`` is ``i mod 256``), or one whose size the layout does not know.
    Pointers, structs and enums are no narrowing conversion."""
    if isinstance(t, c_ast.Typename | c_ast.Decl):
        t = t.type
    t = scope.resolve_typedef(t)
    if isinstance(t, c_ast.PtrDecl | c_ast.ArrayDecl):
        return False
    if isinstance(t, c_ast.TypeDecl) and isinstance(
        t.type, c_ast.Struct | c_ast.Union | c_ast.Enum
    ):
        return False
    size = scope.type_size(t)
    return size is None or size < 4


def access_type(scope: Scope, node: c_ast.Node, t: c_ast.Node | None) -> c_ast.Node | None:
    """The type of what ``node`` (``a[i]``, ``g->dt``, ``s.f[2]``) reads, from its root's
    declared type ``t``; None where a step cannot be followed."""
    steps = []
    while isinstance(node, c_ast.ArrayRef | c_ast.StructRef):
        steps.append(node)
        node = node.name
    for step in reversed(steps):
        if t is None:
            return None
        if isinstance(step, c_ast.ArrayRef):
            t = scope.resolve_typedef(t)
            t = t.type if isinstance(t, c_ast.PtrDecl | c_ast.ArrayDecl) else None
        else:
            t = struct_member_type(scope, t, step.field.name)
    return t


def _typedef_target(scope: Scope, t: c_ast.Node) -> c_ast.Node | None:
    if isinstance(t, c_ast.IdentifierType) and len(t.names) == 1:
        target = scope.info.typedefs.get(t.names[0])
        if isinstance(target, c_ast.PtrDecl | c_ast.ArrayDecl):
            return target
        if isinstance(target, c_ast.TypeDecl):
            return _typedef_target(scope, target.type) or None
    return None


def var_key(decl: c_ast.Decl, kind: str, func: c_ast.FuncDef | None) -> str:
    """One name per variable across files: globals by name (a block-scope ``extern``
    declaration names the global too), statics by function."""
    if kind == "global" or "extern" in (decl.storage or []):
        return f"var:{decl.name}"
    fname = func.decl.name if func is not None else ""
    if "static" in (decl.storage or []):
        return f"var:{fname}:{decl.name}"
    return f"var:{fname}:{decl.name}:{id(decl)}"


def is_fresh(rhs: c_ast.Node, prog: Program, depth: int = 0, filled: bool = False) -> bool:
    """A call that returns a new object each time: an allocator (``realloc`` may return
    its argument's block, so it is none), or a program function every path of which
    returns NULL or such a call, directly or through an automatic local (a checked
    ``xmalloc`` that exits on failure; a helper over ``posix_memalign``). A helper that
    keeps its buffer in a ``static`` or global pointer hands the same block to every
    caller, so it is no allocator; nor is one too deep to follow (recursion).
    ``filled``: and the block's bytes are set (``calloc``'s zeros, ``strdup``'s copy, or
    a helper's over one of them)."""
    while isinstance(rhs, c_ast.Cast):
        rhs = rhs.expr
    if not isinstance(rhs, c_ast.FuncCall):
        return False
    name = call_name(rhs)
    if name in FRESH:
        return name in FILLED or not filled
    entry = prog.funcs.get(name or "")
    if entry is None or depth >= MAX_HELPER_DEPTH:
        return False
    func, ast = entry
    rets = returns(func)
    return bool(rets) and all(
        returns_fresh(r.expr, func, ast, prog, depth + 1, filled) for r in rets
    )


MAX_HELPER_DEPTH = 4  # helpers over helpers over an allocator; deeper is taken as none


def returns_fresh(
    e: c_ast.Node | None,
    func: c_ast.FuncDef,
    ast,
    prog: Program,
    depth: int = 0,
    filled: bool = False,
) -> bool:
    """A returned value that is NULL or a new object at each call of ``func``: a local
    whose address is never taken (``reuse(&p)`` may store any block in it), every store
    of which is NULL or such a call."""
    while isinstance(e, c_ast.Cast):
        e = e.expr
    if isinstance(e, c_ast.Constant):
        return True  # NULL: no object at all
    if isinstance(e, c_ast.FuncCall):
        return is_fresh(e, prog, depth, filled)
    if not isinstance(e, c_ast.ID):
        return False
    decl, kind = Scope(func, ast).find_decl(e.name, e)
    if decl is None or kind != "local" or {"static", "extern"} & set(decl.storage or []):
        return False  # a static or global pointer outlives the call: the same block again
    if prog.address_taken_var(e.name, e, func, ast):
        return False
    stores = [s for s in prog.var_stores.get(e.name, []) if s.func is func]
    fresh = [s for s in stores if not _is_null(s.node)]
    return bool(fresh) and all(is_fresh(s.node, prog, depth, filled) for s in fresh)


def _is_null(node: c_ast.Node) -> bool:
    """``NULL``, ``0``, ``((void *)0)``: no object at all."""
    while isinstance(node, c_ast.Cast):
        node = node.expr
    return isinstance(node, c_ast.Constant)
