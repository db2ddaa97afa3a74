"""What a pointer expression points at, as the walk of an iteration sees it.

``pointer_value`` gives objects (from the points-to, or the loop's own: an array, a
private copy, an allocation made in the iteration) and the index the pointer stands
at (``y0[i]`` is ``[i, 0]``, ``x - 1`` is ``[-1]``); an index of None means "somewhere
in those objects". A pointer the loop or a called function moves loses its place.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.allocators import REALLOCATORS, RETURNS_FRESH
from autotune.analysis.names import call_name
from autotune.analysis.proof import poly
from autotune.analysis.proof.access import access_of, derivs_of
from autotune.analysis.proof.castunits import in_units, moved
from autotune.analysis.proof.contexts import param_base
from autotune.analysis.proof.decls import access_type, derivations, is_fresh
from autotune.analysis.proof.fieldswaps import swapped_members
from autotune.analysis.proof.library import RETURNS_INTO, library_name
from autotune.analysis.proof.lifetimes import unset_block
from autotune.analysis.proof.localmembers import member_slot
from autotune.analysis.proof.memberblocks import member_block
from autotune.analysis.proof.members import expression_type
from autotune.analysis.proof.outparams import address_stores
from autotune.analysis.proof.ownflow import member_array_dims, member_chain
from autotune.analysis.proof.program import Site
from autotune.analysis.proof.refs import IterationWalker
from autotune.analysis.proof.sizes_read import holder_marker
from autotune.analysis.proof.swaps import swap_group
from autotune.analysis.proof.syntax import chain, member_path
from autotune.analysis.proof.threadblocks import thread_block
from autotune.analysis.proof.walkstate import PtrVal
from autotune.analysis.symbols import Scope


def pointer_value(w: IterationWalker, node: c_ast.Node) -> PtrVal | None:
    """What a pointer (or array) expression points at."""
    while isinstance(node, c_ast.Cast):
        node = node.expr
    if isinstance(node, c_ast.ID):
        return _named_pointer(w, node)
    if isinstance(node, c_ast.UnaryOp) and node.op == "&":
        return _address(w, node.expr)
    if isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-"):
        for ptr_side, int_side in ((node.left, node.right), (node.right, node.left)):
            if node.op == "-" and ptr_side is node.right:
                continue
            if is_pointer(w, ptr_side):
                pv = pointer_value(w, ptr_side)
                w._read_only(int_side)
                # ``(char *)p + 8 * i`` moves 8 * i chars: i of p's doubles
                off = in_units(w, ptr_side, w.value(int_side))
                return moved(pv, off, -1 if node.op == "-" else 1)
        return PtrVal(None, None)
    if isinstance(node, c_ast.FuncCall):
        name = call_name(node)
        args = node.args.exprs if node.args is not None else []
        if library_name(name or "") in RETURNS_INTO and name not in w.ctx.prog.funcs:
            k = RETURNS_INTO[library_name(name or "")]
            return _found_in(pointer_value(w, args[k])) if k < len(args) else PtrVal(None, None)
        if name in RETURNS_FRESH or (name in w.ctx.prog.funcs and is_fresh(node, w.ctx.prog)):
            # a new block at each call: the iteration's own, as any local
            if not is_fresh(node, w.ctx.prog, filled=True):
                unset_block(w, node, "", name or "")
            return PtrVal(frozenset({f"local:{id(node)}"}), [poly.const(0)], owner="local")
        objs = w.ctx.pointsto.objects(node, w.site(node))
        return PtrVal(objs, None)
    if isinstance(node, c_ast.ArrayRef):
        got = access_of(w, node)
        if got is None:
            return PtrVal(None, None)
        objects, index, owner, name, group = got
        root, subs = chain(node)
        derivs = derivs_of(w, root)
        level = len(subs)
        if derivs is not None and level < len(derivs) and derivs[level] == "array":
            base = None if index is None else index + [poly.const(0)]
            return PtrVal(objects, base, owner, name, group)
        rows = w.ctx.pointsto.contents(objects, 0) if objects is not None else None
        fresh = objects is not None and w.ctx.pointsto.fresh_rows(objects)
        if fresh and index is not None and index and None not in index:
            return PtrVal(rows, [*index, poly.const(0)], "shared", name)
        return PtrVal(rows, None, "shared", name)
    if isinstance(node, c_ast.StructRef):
        slot = member_slot(w, node)
        if slot is not None and slot in w.env_ptr:  # ``cu.at`` of the iteration's ``cu``
            return w.env_ptr[slot]
        own = _own_member(w, node, value=True)
        if own is not None:
            return own
        objs = w.ctx.pointsto.objects(node, w.site(node))
        block = member_block(w, node, objs)
        if block is not None:  # ``boxes[b].data``: the block of that box alone
            return block
        swapped = swapped_members(w, node) if objs else None
        if swapped is not None:  # one of a struct's two swapped grids: never the other's
            return PtrVal(objs, [poly.const(0)], "shared", "", swapped)
        if _zero_based_field(w, node):
            return PtrVal(objs, [poly.const(0)])
        field_at = _field_offset(w, node) if objs else None
        if field_at is not None:
            return PtrVal(objs, [poly.const(field_at)])
        sym = _steady_member(w, node)
        return PtrVal(objs, None if sym is None else [poly.symbol(sym)])
    if isinstance(node, c_ast.UnaryOp) and node.op == "*":
        objs = w.ctx.pointsto.objects(node, w.site(node))
        return PtrVal(objs, None)
    if isinstance(node, c_ast.UnaryOp) and node.op in ("++", "--", "p++", "p--"):
        if isinstance(node.expr, c_ast.ID):  # ``*q++ = x``: where q stands before its step
            stepped = w.stepped_pointer(node)
            if stepped is not None:
                return stepped
    if isinstance(node, c_ast.Constant):
        return PtrVal(frozenset(), None)
    return PtrVal(None, None)


def _found_in(pv: PtrVal | None) -> PtrVal:
    """What a search of the object ``pv`` points into returns: a place in the same
    object, in the same row of a declared ``char names[N][16]`` (C's string functions
    stay in the array object they are given), anywhere along it."""
    if pv is None:
        return PtrVal(None, None)
    base = None if pv.base is None or len(pv.base) < 2 else [*pv.base[:-1], None]
    return PtrVal(pv.objects, base, pv.owner, pv.name, pv.group)


def is_pointer(w: IterationWalker, node: c_ast.Node) -> bool:
    while isinstance(node, c_ast.Cast):
        if isinstance(node.to_type.type, c_ast.PtrDecl):
            return True
        node = node.expr
    if isinstance(node, c_ast.ID):
        decl, _ = w._decl(node.name, node)
        return decl is not None and bool(derivations(w.frame.scope, decl.type))
    if isinstance(node, c_ast.UnaryOp) and node.op == "&":
        return True
    if isinstance(node, c_ast.BinaryOp) and node.op == "-":  # p - q of two is a number
        return is_pointer(w, node.left) and not is_pointer(w, node.right)
    if isinstance(node, c_ast.BinaryOp) and node.op == "+":
        return is_pointer(w, node.left) or is_pointer(w, node.right)
    if isinstance(node, c_ast.ArrayRef):
        root, subs = chain(node)
        derivs = derivs_of(w, root)
        return derivs is not None and len(subs) < len(derivs)
    return isinstance(node, c_ast.FuncCall | c_ast.StructRef)


def _named_pointer(w: IterationWalker, node: c_ast.ID) -> PtrVal | None:
    name = node.name
    key = w._key(name)
    if key in w.env_ptr:
        return w.env_ptr[key]
    decl, kind = w._decl(name, node)
    if kind == "param" and name in w.frame.ptrs:
        bound = w.frame.ptrs[name]
        if bound.base is None and w.frame.top and _steady(w, name, node):
            base = [poly.symbol(w._param(f"&{name}"))]
            return PtrVal(bound.objects, base, bound.owner, bound.name, bound.group)
        return bound
    if decl is None:
        return PtrVal(None, None)
    derivs = derivations(w.frame.scope, decl.type)
    cls = w._class(name, node)
    if derivs and derivs[0] == "array" and kind != "param":
        if cls == "local":
            return PtrVal(frozenset({f"local:{id(decl)}"}), [poly.const(0)], "local", name)
        if cls == "private" and w.frame.top or (cls == "private" and kind == "global"):
            return PtrVal(frozenset({f"priv:{name}"}), [poly.const(0)], "private", name)
        return PtrVal(frozenset({w.key_of(decl, kind)}), [poly.const(0)], "shared", name)
    if cls == "private" and w.frame.top and key not in w.env and name not in w.ctx.written:
        if thread_block(w.ctx, name):  # each thread's own block, made in the region
            return PtrVal(frozenset({f"priv:{name}"}), [poly.const(0)], "private", name)
    if cls == "local" or (cls == "private" and w.frame.top):
        # a pointer set inside the iteration on a path the walk could not follow,
        # or a private pointer: its target is not known here
        if key in w.env:
            return PtrVal(None, None)
        if kind == "param" and not w.frame.top:
            return PtrVal(None, None)
    objs = w.ctx.pointsto.objects(node, w.site(node))
    if kind == "param" and w.frame.top:
        objs = None if name not in w.frame.ptrs else objs
        restrict = "restrict" in (getattr(decl.type, "quals", None) or [])
        if objs is None and restrict:
            return PtrVal(frozenset({f"restrict:{w.frame.func.decl.name}:{name}"}), [poly.const(0)])
    if w.frame.top and name in w.ctx.written:
        return PtrVal(objs, None, "shared", name)  # it moves during the loop
    group = None
    if kind == "local":
        gid = swap_group(w.ctx.pointsto, w.frame.func, w.frame.ast, name)
        if gid is not None:
            group = (id(w.frame.func) * 64 + gid, name)
    zero = objs is not None and zero_based(w, name, decl, kind, group is not None)
    if zero:
        return PtrVal(objs, [poly.const(0)], "shared", name, group)
    off = start_offset(w, name, decl, kind) if objs is not None and group is None else None
    if off is not None:
        return PtrVal(objs, [off], "shared", name)
    if w.frame.top and _steady(w, name, node):
        # unknown, but the same place throughout the loop: two accesses through it
        # still compare (a[i] and a[i + 1]); through two such pointers they may meet
        return PtrVal(objs, [poly.symbol(w._param(f"&{name}"))], "shared", name, group)
    return PtrVal(objs, None, "shared", name, group)


def _steady(w: IterationWalker, name: str, node: c_ast.Node) -> bool:
    """The pointer keeps its value for the whole loop (never set in it, address never
    taken)."""
    return name not in w.ctx.written and not w.ctx.prog.address_taken_var(
        name, node, w.frame.func, w.frame.ast
    )


def _address(w: IterationWalker, node: c_ast.Node) -> PtrVal | None:
    """``&x``, ``&a[i]``, ``&s.f``."""
    while isinstance(node, c_ast.Cast):
        node = node.expr
    if isinstance(node, c_ast.ID):
        decl, kind = w._decl(node.name, node)
        if decl is None:
            return PtrVal(frozenset(), None)
        cls = w._class(node.name, node)
        if cls == "local":
            return PtrVal(frozenset({f"local:{id(decl)}"}), [], "local", node.name)
        if cls in ("private", "reduction") and w.frame.top:
            return PtrVal(frozenset({f"priv:{node.name}"}), [], "private", node.name)
        derivs = derivations(w.frame.scope, decl.type)
        base = [poly.const(0)] if derivs else []
        return PtrVal(frozenset({w.key_of(decl, kind)}), base, "shared", node.name)
    if isinstance(node, c_ast.ArrayRef):
        got = access_of(w, node)
        if got is None:
            return PtrVal(None, None)
        objects, index, owner, name, group = got
        return PtrVal(objects, index, owner, name, group)
    if isinstance(node, c_ast.StructRef):
        if node.type == "->":
            pv = pointer_value(w, node.name)
            size = _lone_member(w, node)
            if pv is not None and pv.base is not None and size:
                return PtrVal(pv.objects, list(pv.base), pv.owner, pv.name, pv.group, size)
            return PtrVal(pv.objects if pv else None, None)
        own = _own_member(w, node)
        if own is not None:
            return own
        size = _lone_member(w, node) if isinstance(node.name, c_ast.ArrayRef) else None
        if size:  # ``&p[i].seed``: inside element i
            pv = _address(w, node.name)
            if pv is not None and pv.base is not None:
                return PtrVal(pv.objects, pv.base, pv.owner, pv.name, pv.group, size)
        return _address(w, node.name) if isinstance(node.name, c_ast.ID) else PtrVal(None, None)
    if isinstance(node, c_ast.UnaryOp) and node.op == "*":
        return pointer_value(w, node.expr)
    return PtrVal(None, None)


def _lone_member(w: IterationWalker, node: c_ast.StructRef) -> int | None:
    """The bytes of the struct element holding ``node`` (``q->seed``, ``p[i].state``), a
    member that is no array: its address may stand for the element's own, since no valid
    arithmetic leaves it (one past a scalar is no place to read), and what a store
    through it touches lies in that element. None when not so, or not known."""
    scope = w.frame.scope
    t = expression_type(w, node)
    if t is None or derivations(scope, t):
        return None
    holder = expression_type(w, node.name)
    if holder is not None and node.type == "->":
        holder = scope.resolve_typedef(holder)
        holder = holder.type if isinstance(holder, c_ast.PtrDecl | c_ast.ArrayDecl) else None
    if holder is None or derivations(scope, holder):
        return None
    return scope.type_size(holder) or None


def _own_member(w: IterationWalker, node: c_ast.StructRef, value: bool = False) -> PtrVal | None:
    """A member of a thread's own struct or union (``&s.f`` of a private ``s``; as a
    value, ``u.v`` of an array member, which is its address): somewhere inside that one
    copy, so a store through it sets no whole variable and a read through it sees the
    copy, not the shared original. A pointer member's value is what it holds (``v.data``
    of a private view points at shared data): not the copy."""
    members = member_chain(node)
    if members is None or not w.frame.top:
        return None
    var = members[0]
    if w._class(var.name, var) not in ("private", "reduction"):
        return None
    if value and not member_array_dims(w, var, members[1]):
        return None
    return PtrVal(frozenset({f"priv:{var.name}"}), None, "private", var.name)


def zero_based(
    w: IterationWalker, name: str, decl: c_ast.Decl, kind: str, swapped: bool = False
) -> bool:
    """Every store to this pointer puts the start of an object in it (an allocation,
    an array's name, ``&a[0]``): its index 0 is the object's first element. A pointer
    of a double buffer also takes the others' values, which start objects too."""
    stores = [
        s
        for s in w.ctx.prog.var_stores.get(name, [])
        if (kind == "global" or s.func is w.frame.func)
    ]
    if w.ctx.prog.address_taken_var(name, decl, w.frame.func, w.frame.ast):
        through = address_stores(w.ctx.prog, decl, Site(decl, w.frame.func, w.frame.ast))
        if through is None or kind != "local":
            return False
        stores += through  # ``alloc_vector(&x, n)``: what its ``*out = ...`` stores
    if not stores:
        return False
    for s in stores:
        if swapped and isinstance(s.node, c_ast.ID):
            gid = swap_group(w.ctx.pointsto, w.frame.func, w.frame.ast, name)
            other = swap_group(w.ctx.pointsto, w.frame.func, w.frame.ast, s.node.name)
            if gid is not None and (other == gid or _is_temp_of(w, s.node.name, name)):
                continue
        if not _starts_object_at(s, w, 0):
            return False
    return True


def start_offset(w: IterationWalker, name: str, decl: c_ast.Decl, kind: str) -> poly.Poly | None:
    """A pointer stored once, to an object's start moved by a value fixed for the whole
    function (``result = vector + n``, ``hi = &buf[N]``: the upper half of one block):
    its index 0 is that element of the object, so references through it and through the
    object's own name compare. None where any of that is not so."""
    if kind != "local" or "static" in (decl.storage or []):
        return None
    if w.ctx.prog.address_taken_var(name, decl, w.frame.func, w.frame.ast):
        return None  # stored through its address as well
    if derivations(w.frame.scope, decl.type) != ["ptr"]:
        return None
    stores = [s for s in w.ctx.prog.var_stores.get(name, []) if s.func is w.frame.func]
    if len(stores) != 1:
        return None
    rhs = stores[0].node
    while isinstance(rhs, c_ast.Cast):
        rhs = rhs.expr
    if isinstance(rhs, c_ast.UnaryOp) and rhs.op == "&" and isinstance(rhs.expr, c_ast.ArrayRef):
        base, moved, sign = rhs.expr.name, rhs.expr.subscript, 1
    elif isinstance(rhs, c_ast.BinaryOp) and rhs.op in ("+", "-"):
        base, moved, sign = rhs.left, rhs.right, 1 if rhs.op == "+" else -1
        if rhs.op == "+" and not is_pointer(w, base):
            base, moved = moved, base
    else:
        return None
    if not isinstance(base, c_ast.ID) or is_pointer(w, moved) or not _one_level(w, base):
        return None
    if not _same_elements(w, decl, base):
        return None  # ``(struct P *)(d + 1)``: moved in doubles, indexed in records
    if not (_starts_object(base, w) or _zero_based_pointer(w, base)):
        return None
    if not _fixed_in_function(w, moved):
        return None
    off = w.value(moved)
    if off is None or not poly.is_affine(off):
        return None
    if not all(sym.startswith("P") for sym in poly.symbols(off)):
        return None  # a value the walk does not know here
    return poly.add({}, off, sign)


def _same_elements(w: IterationWalker, decl: c_ast.Decl, base: c_ast.ID) -> bool:
    """The pointer and the object it is moved along count elements of one size."""
    scope = w.frame.scope
    found, _ = scope.find_decl(base.name, base)
    if found is None:
        return False
    mine = scope.resolve_typedef(decl.type)
    theirs = scope.resolve_typedef(found.type)
    if not isinstance(mine, c_ast.PtrDecl) or not isinstance(
        theirs, c_ast.PtrDecl | c_ast.ArrayDecl
    ):
        return False
    a, b = scope.type_size(mine.type), scope.type_size(theirs.type)
    return a is not None and a == b


def _zero_based_pointer(w: IterationWalker, base: c_ast.ID) -> bool:
    """``base`` is a local pointer every store of which starts an object."""
    found, kind = w.frame.scope.find_decl(base.name, base)
    return found is not None and kind == "local" and zero_based(w, base.name, found, kind)


def _one_level(w: IterationWalker, base: c_ast.ID) -> bool:
    """``base`` is a one-dimensional object (``double *v``, ``double a[N]``)."""
    found, _ = w.frame.scope.find_decl(base.name, base)
    return found is not None and len(derivations(w.frame.scope, found.type)) == 1


def _fixed_in_function(w: IterationWalker, expr: c_ast.Node) -> bool:
    """Every variable ``expr`` reads keeps one value throughout the function: a parameter
    never stored to, or a local stored only by its declaration, whose address is never
    taken (so its value where the pointer was set is its value in the loop)."""
    from autotune.analysis.names import names_in

    func = w.frame.func
    for var in names_in(expr).names:
        decl, kind = w.frame.scope.find_decl(var, expr)
        if decl is None or kind == "global" or "static" in (decl.storage or []):
            return False
        if w.ctx.prog.address_taken_var(var, expr, func, w.frame.ast):
            return False
        stores = [s for s in w.ctx.prog.var_stores.get(var, []) if s.func is func]
        if any(s.node is not decl.init for s in stores):
            return False
    return True


def _is_temp_of(w: IterationWalker, tmp: str, name: str) -> bool:
    """``tmp`` only ever holds copies of the double buffer's pointers."""
    stores = [
        s
        for s in w.ctx.prog.var_stores.get(tmp, [])
        if s.func is w.frame.func and _stores_pointer(w, tmp, s.node)
    ]
    gid = swap_group(w.ctx.pointsto, w.frame.func, w.frame.ast, name)
    return bool(stores) and all(
        isinstance(s.node, c_ast.ID)
        and swap_group(w.ctx.pointsto, w.frame.func, w.frame.ast, s.node.name) == gid
        for s in stores
    )


def _stores_pointer(w: IterationWalker, name: str, at: c_ast.Node) -> bool:
    """The store at ``at`` sets a pointer called ``name``, not another variable of that
    name (hotspot3D's ``int ... t;`` index beside its ``float *t`` swap temporary)."""
    decl, _ = w.frame.scope.find_decl(name, at)
    return decl is None or bool(derivations(w.frame.scope, decl.type))


def _starts_object(rhs: c_ast.Node, w: IterationWalker) -> bool:
    """``rhs``, written in the function the walk is in, puts an object's start in a
    pointer (a parameter by the binding of this call)."""
    return _starts_object_at(Site(rhs, w.frame.func, w.frame.ast), w, 0)


def _starts_object_at(at: Site, w: IterationWalker, depth: int) -> bool:
    """The value a store puts in a pointer is an object's start (an allocation, an
    array's name, ``&a[0]``, a parameter every caller binds to one), its names read where
    the store is written: in another function or file ``a`` may not be the kernel's."""
    rhs = at.node
    while isinstance(rhs, c_ast.Cast):
        rhs = rhs.expr
    if isinstance(rhs, c_ast.FuncCall):
        name = call_name(rhs)
        if name in RETURNS_FRESH or name in REALLOCATORS:  # realloc: its block, or a new one
            return True
        return is_fresh(rhs, w.ctx.prog)
    if isinstance(rhs, c_ast.UnaryOp) and rhs.op == "&":
        root, zeros = rhs.expr, 0
        while isinstance(root, c_ast.ArrayRef) and _is_zero(root.subscript):
            root, zeros = root.name, zeros + 1
        if not zeros or not isinstance(root, c_ast.ID):
            return False
        if zeros == 1:  # &a[0] is a's value, whatever a is
            return _starts_object_at(Site(root, at.func, at.ast), w, depth)
        decl, _ = _scope_at(at, w).find_decl(root.name, root)
        derivs = derivations(_scope_at(at, w), decl.type) if decl is not None else []
        return len(derivs) >= zeros and all(d == "array" for d in derivs[:zeros])
    if isinstance(rhs, c_ast.ID):
        scope = _scope_at(at, w)
        decl, kind = scope.find_decl(rhs.name, rhs)
        if decl is None:
            return False
        if kind == "param":
            return _param_starts_object(at, rhs.name, w, depth)
        derivs = derivations(scope, decl.type) or ["?"]
        if derivs[0] == "ptr" and kind == "local" and at.func is not w.frame.func:
            return _local_starts_object(at, rhs, decl, w, depth)
        return derivs[0] == "array"
    return isinstance(rhs, c_ast.Constant)


def _local_starts_object(
    at: Site, var: c_ast.ID, decl: c_ast.Decl, w: IterationWalker, depth: int
) -> bool:
    """A local pointer of another function (``double *x = malloc(...); p->x = x;``)
    every store of which, there, puts an object's start in it; never ``static``, its
    address never taken (no store through ``&x`` unseen)."""
    prog = w.ctx.prog
    if depth >= 3 or "static" in (decl.storage or []):
        return False
    if prog.address_taken_var(var.name, var, at.func, at.ast):
        return False
    stores = [s for s in prog.var_stores.get(var.name, []) if s.func is at.func]
    return bool(stores) and all(_starts_object_at(s, w, depth + 1) for s in stores)


def _is_zero(sub: c_ast.Node) -> bool:
    return isinstance(sub, c_ast.Constant) and sub.value in ("0", "0L", "0UL", "0u", "0U")


def _scope_at(at: Site, w: IterationWalker) -> Scope:
    if at.func is w.frame.func and at.ast is w.frame.ast:
        return w.frame.scope
    return Scope(at.func, at.ast)


def _param_starts_object(at: Site, name: str, w: IterationWalker, depth: int) -> bool:
    """A parameter holds an object's start: in the walk's own frame by this call's
    binding; elsewhere where the function never moves it and every one of its callers
    (all seen, none through a pointer) passes one."""
    if at.func is w.frame.func and at.ast is w.frame.ast:
        bound = w.frame.ptrs.get(name)
        return bound is not None and bound.base == [poly.const(0)]
    prog = w.ctx.prog
    if at.func is None or any(s.func is at.func for s in prog.var_stores.get(name, [])):
        return False
    if prog.address_taken_var(name, at.node, at.func, at.ast):
        return False
    return param_base(at.func, name, w.ctx.pointsto, depth) == [poly.const(0)]


def _steady_member(w: IterationWalker, node: c_ast.StructRef) -> str | None:
    """A pointer member (``at->x``, ``s.x``) read through a variable the loop never
    moves: the same place throughout the loop, as a pointer variable's is (two accesses
    through it compare), so long as no store of the loop reaches the struct that holds
    it: a parameter checked after the walk (``sizes_read``), the struct's objects where
    the points-to knows them, else any store not tested apart from its address."""
    path = member_path(node, nested=True)
    if path is None or not w.frame.top:
        return None
    text, var, holder = path
    decl, kind = w._decl(var, node)
    if decl is None or not _steady(w, var, node):
        return None
    outer = holder not in (var, f"&{var}")  # ``s->boxes->nAtoms``: held by *s->boxes
    if not outer and derivations(w.frame.scope, decl.type)[:1] != (
        ["ptr"] if holder == var else []
    ):
        return None
    read = access_type(w.frame.scope, node, decl.type)
    if read is None or derivations(w.frame.scope, read)[:1] != ["ptr"]:
        return None
    if outer:
        held = _held_through(w, node)
        if held is None:
            return None
    elif holder == var:  # ``f->u``: what f points at, its callers' objects included
        base = node.name if isinstance(node.name, c_ast.ID) else c_ast.ID(var, coord=node.coord)
        pv = w.pointer(base)
        held = pv.objects if pv is not None and pv.objects else frozenset()
    else:
        held = frozenset({w.key_of(decl, kind)})
    sym = w._param(f"&{text}")
    w.facts.sizes_read.setdefault(sym, set()).update({*held, holder_marker(holder)})
    return sym


def _held_through(w: IterationWalker, node: c_ast.StructRef) -> frozenset[str] | None:
    """The objects of the struct a nested member lives in (``*s->boxes`` for
    ``s->boxes->nAtoms``), where the pointer to it is itself a steady member (its own
    holders checked after the walk); None where it is not."""
    step = node
    while isinstance(step, c_ast.StructRef) and step.type != "->":
        step = step.name
    inner = step.name if isinstance(step, c_ast.StructRef) else None
    if not isinstance(inner, c_ast.StructRef) or _steady_member(w, inner) is None:
        return None
    objs = w.ctx.pointsto.objects(inner, w.site(inner))
    return objs if objs else frozenset()


def _field_offset(w: IterationWalker, node: c_ast.StructRef) -> int | None:
    """The one constant every store of the member adds to the start of an object
    (``{.data = a + 1}``): its index 0 is that element, so references through it and
    through the object's own name compare. None where any store is otherwise."""
    stores = w.ctx.prog.field_stores.get(node.field.name, [])
    if not stores or w.ctx.prog.opaque_inits:
        return None
    seen = set()
    for store in stores:
        rhs = store.node
        while isinstance(rhs, c_ast.Cast):
            rhs = rhs.expr
        if not (isinstance(rhs, c_ast.BinaryOp) and rhs.op in ("+", "-")):
            return None
        base, moved = rhs.left, rhs.right
        if rhs.op == "+" and isinstance(base, c_ast.Constant):
            base, moved = moved, base
        if not isinstance(moved, c_ast.Constant) or not _array_at(store, base):
            return None
        try:
            k = int(moved.value.rstrip("uUlL"), 0)
        except ValueError:
            return None
        seen.add(k if rhs.op == "+" else -k)
    return seen.pop() if len(seen) == 1 else None


def _array_at(store, base: c_ast.Node) -> bool:
    """``base`` names an array (not a parameter) where the store is written: read in the
    store's own function, not the kernel's, where another ``a`` may be in scope."""
    if not isinstance(base, c_ast.ID) or store.func is None:
        return False  # a file-scope initializer: left to the steady member's test
    decl, kind = Scope(store.func, store.ast).find_decl(base.name, base)
    return decl is not None and kind != "param" and isinstance(decl.type, c_ast.ArrayDecl)


def _zero_based_field(w: IterationWalker, node: c_ast.StructRef) -> bool:
    """Every store of the member puts an object's start in it, read where it is written."""
    stores = w.ctx.prog.field_stores.get(node.field.name, [])
    return bool(stores) and all(_starts_object_at(s, w, 0) for s in stores)
