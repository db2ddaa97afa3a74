"""Calls of the C library met in an iteration: what each reads and writes.

The library's code is not among the program's files, so a call is walked by what
``library`` says the function does: copies write their destination and read their
source, pure functions read their arguments and the objects their pointer parameters
point at and store through their out-parameters, a generator with its state in its
argument reads and writes that state, and a gcc builtin is the function it stands for.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from pycparser import c_ast

from autotune.analysis.allocators import STORES_FRESH
from autotune.analysis.copies import element_layout
from autotune.analysis.ops import math_name
from autotune.analysis.proof import poly
from autotune.analysis.proof.decls import access_type, derivations
from autotune.analysis.proof.facts import Bound, Ref
from autotune.analysis.proof.formats import (
    FORMAT_FUNCS,
    FORMATTERS,
    SCANNERS,
    format_text,
    printed_addresses,
    printf_stores,
    scanned,
)
from autotune.analysis.proof.library import (
    BUILTIN,
    BYTE_COUNT,
    OUT_PARAMS,
    POINTS_INTO,
    READS_POINTEES,
    SETS_GLOBAL,
    STRING_COPIES,
    STRING_READS,
    VALUE_BUILTINS,
    library_name,
    sets_errno,
)
from autotune.analysis.proof.lifetimes import argument_store, own_object, string_mark, unset_block
from autotune.analysis.proof.pointers import is_pointer, pointer_value
from autotune.analysis.proof.refs import IterationWalker
from autotune.analysis.proof.syntax import where
from autotune.analysis.proof.threadstate import errno_read
from autotune.analysis.proof.walkstate import COPY_FUNCS, LIBRARY_FUNCS, PtrVal

__all__ = [
    "BUILTIN",
    "FORMAT_FUNCS",
    "builtin_call",
    "copy_call",
    "format_call",
    "fresh_out_call",
    "is_pointer",
    "is_stream",
    "pointee",
    "pure_call",
    "read_args",
    "state_arg_call",
]


def read_args(w: IterationWalker, args: list[c_ast.Node]) -> None:
    for a in args:
        if isinstance(a, c_ast.UnaryOp) and a.op == "&":
            w._address_operands(a.expr)
        else:
            w._read_only(a)


def copy_call(w: IterationWalker, node: c_ast.FuncCall, name: str, args: list[c_ast.Node]) -> None:
    """memcpy and friends: write the destination, read the source. ``memcpy``,
    ``memmove`` and ``memset`` of a byte count that is a whole number of elements, at a
    known place of a flat array (``memset(&c[i * m], 0, m * sizeof(double))``), touch
    exactly those elements; anything else touches the object at an unknown index."""
    dst, src = COPY_FUNCS[name]
    read_args(w, args)  # what the arguments compute on the way (a call returning the source)
    nbytes = w.value(args[2]) if name in BYTE_COUNTED and len(args) > 2 else None
    strings = name in STRING_COPIES
    if name == "strcat" and args:  # appends to the string already there
        pointee(w, node, f"{name}()", args[dst], None, "r", string=True)
    for pos, kind in ((dst, "w"), (src, "r")):
        if pos is not None and pos < len(args):
            pointee(w, node, f"{name}()", args[pos], nbytes, kind, string=strings and kind == "r")
    if strings and args:
        string_put(w, node, f"{name}()", args[dst])
    if src is not None and src < len(args):
        _copied_address(w, node, args[src])


def _copied_address(w: IterationWalker, node: c_ast.FuncCall, src: c_ast.Node) -> None:
    """``memcpy(&bits, &p, sizeof p)`` copies the address ``p`` holds as bytes: a use of
    that address as a value (``refs._thread_address``)."""
    while isinstance(src, c_ast.Cast):
        src = src.expr
    if isinstance(src, c_ast.UnaryOp) and src.op == "&" and isinstance(src.expr, c_ast.ID):
        if is_pointer(w, src.expr):
            w._thread_address(src.expr, node)


def pointee(
    w: IterationWalker,
    node: c_ast.FuncCall,
    text: str,
    arg: c_ast.Node,
    nbytes: poly.Poly | None,
    kind: str,
    string: bool = False,
) -> None:
    """Record that a library call reads or writes (``kind``) what ``arg`` points at:
    ``nbytes`` bytes from there when they are a whole number of elements within the
    pointer's row; without a count (a string), the rest of the row of a declared
    ``char names[N][16]`` it points into (C's string functions stay in their array
    object); else the object at an unknown index."""
    if _constant(arg):
        return  # a string literal or a null pointer: no object of the program
    if kind == "w":
        argument_store(w, arg)
    member = _member_array(w, arg)
    if member is not None:
        _struct_member(w, node, text, member, kind)
        return
    pv = pointer_value(w, arg)
    if pv is None or (pv.owner == "local" and not own_object(w, pv.objects)):
        return
    line = node.coord.line if node.coord else 0
    mark = string_mark(w, pv) if string else None
    count = _elements(w, arg, nbytes) if nbytes is not None else _row_rest(w, arg, pv.base)
    if count is None or not _in_row(w, arg, pv.base, count):
        ref = Ref(pv.objects, None, kind, line, text, owner=pv.owner, name=pv.name)
        ref.string = mark
        w.record(ref)
        return
    record_run(w, pv, count, kind, line, text, mark)


def string_put(w: IterationWalker, node: c_ast.FuncCall, text: str, arg: c_ast.Node) -> None:
    """``strcpy(dst, ...)``, ``strcat``: a string ends in ``dst``'s object, and its first
    byte is written whatever the source (the terminator, for an empty one)."""
    if _constant(arg):
        return
    pv = pointer_value(w, arg)
    mark = string_mark(w, pv) if pv is not None else None
    if mark is None or (pv.owner == "local" and not own_object(w, pv.objects)):
        return
    ref = Ref(pv.objects, list(pv.base), "w", node.coord.line if node.coord else 0, text)
    ref.owner, ref.name, ref.string = pv.owner, pv.name, mark
    w.record(ref)


def _member_array(w: IterationWalker, arg: c_ast.Node) -> c_ast.StructRef | None:
    """``s.name``, ``recs[i].name`` where that member is an array: what a call reaches
    through it stays inside that one struct (C's string and memory functions stay in the
    array object they are given)."""
    while isinstance(arg, c_ast.Cast):
        arg = arg.expr
    if not (isinstance(arg, c_ast.StructRef) and arg.type == "."):
        return None
    root = arg.name
    while isinstance(root, c_ast.ArrayRef | c_ast.StructRef):
        root = root.name
    if not isinstance(root, c_ast.ID):
        return None
    decl, _ = w._decl(root.name, root)
    t = access_type(w.frame.scope, arg, decl.type if decl is not None else None)
    t = w.frame.scope.resolve_typedef(t) if t is not None else None
    return arg if isinstance(t, c_ast.ArrayDecl) else None


def _struct_member(
    w: IterationWalker, node: c_ast.FuncCall, text: str, member: c_ast.StructRef, kind: str
) -> None:
    """A call's access through an array member: one access of the struct it is in, as a
    member's own subscript is (``recs[i].name`` is ``recs[i]``; an iteration's own local
    struct is nobody else's)."""
    pv = pointer_value(w, c_ast.UnaryOp("&", member.name, member.coord))
    if pv is None or pv.owner == "local":
        return
    line = node.coord.line if node.coord else 0
    index = pv.base if pv.base is not None and None not in pv.base else None
    w.record(Ref(pv.objects, index, kind, line, text, owner=pv.owner, name=pv.name))


def record_run(
    w: IterationWalker,
    pv: PtrVal,
    count: poly.Poly,
    kind: str,
    line: int,
    text: object,
    string: tuple[str, tuple[str, ...]] | None = None,
) -> None:
    """Record ``count`` consecutive elements from where ``pv`` points, as a loop of
    ``count`` steps the dependence test sees (a copy's bytes, a vector's lanes)."""
    sym = w._fresh("v")  # the element touched: a loop of count steps
    w.domain.append(Bound(sym, {}, poly.add(count, poly.const(-1))))
    index = [*pv.base[:-1], poly.add(pv.base[-1], poly.symbol(sym))]
    ref = Ref(pv.objects, index, kind, line, text, owner=pv.owner, name=pv.name)
    ref.string = string
    w.record(ref)
    w.domain.pop()


def pure_call(w: IterationWalker, node: c_ast.FuncCall, name: str, args: list[c_ast.Node]) -> None:
    """A library function without hidden state: it reads its arguments, the objects
    its pointer parameters point at (``READS_POINTEES``), and stores one object through
    each out-parameter (``frexp(x, &e)`` sets ``e``; a null end pointer sets nothing)."""
    outs = OUT_PARAMS.get(name, ())
    read_args(w, [a for i, a in enumerate(args) if i not in outs])
    count = BYTE_COUNT.get(name)
    nbytes = w.value(args[count]) if count is not None and count < len(args) else None
    for i in READS_POINTEES.get(name, ()):
        if i < len(args):
            pointee(w, node, f"{name}()", args[i], nbytes, "r", string=name in STRING_READS)
    for i in outs:
        if i >= len(args) or _constant(args[i]):
            continue  # NULL: no object to store through
        target = store_one(w, node, args[i])
        if isinstance(target, c_ast.ID):
            into = POINTS_INTO.get(name)
            pv = pointer_value(w, args[into[1]]) if into and into[0] == i else None
            if pv is not None:
                w.env_ptr[w._key(target.name)] = PtrVal(pv.objects, None, pv.owner, pv.name)
    _errno_and_globals(w, node, name)


def fresh_out_call(
    w: IterationWalker, node: c_ast.FuncCall, name: str, args: list[c_ast.Node]
) -> None:
    """``posix_memalign(&p, align, size)`` reads its sizes and stores a new block in
    ``p``: the iteration's own, as ``malloc``'s result is (on failure ``p`` keeps what it
    held, a value the walk no longer knows)."""
    out = STORES_FRESH[name]
    read_args(w, [a for i, a in enumerate(args) if i != out])
    if out >= len(args) or _constant(args[out]):
        return
    arg = args[out]
    while isinstance(arg, c_ast.Cast):  # ``(void **)&row``
        arg = arg.expr
    target = store_one(w, node, arg)
    if isinstance(target, c_ast.ID):
        block = PtrVal(frozenset({f"local:{id(node)}"}), [poly.const(0)], owner="local")
        w.env_ptr[w._key(target.name)] = block
        unset_block(w, node, target.name, name)


def store_one(w: IterationWalker, node: c_ast.FuncCall, arg: c_ast.Node) -> c_ast.Node:
    """A library call stores one object through ``arg`` (``&e``, ``&x[i]``, ``p``): a
    write of ``e``, of ``x[i]``, of ``*p``; the value it held is lost. The target."""
    target = arg
    if isinstance(target, c_ast.UnaryOp) and target.op == "&":
        w._address_operands(target.expr)
        target = target.expr
    else:
        w._read_only(target)
        target = c_ast.UnaryOp("*", target, node.coord)
    w._touch(target, "w", node)
    if isinstance(target, c_ast.ID):
        w._kill({target.name})
    return target


@contextlib.contextmanager
def may_store(w: IterationWalker) -> Iterator[None]:
    """Stores a call may leave undone (``sscanf``'s target of a field its input lacks,
    the bytes of ``snprintf``'s buffer past the text): writes for every conflict, a
    definition for none, so a read after them may see what an earlier iteration left."""
    before = set(w.defined) if w.defined is not None else None
    w.cond_depth += 1
    try:
        yield
    finally:
        w.cond_depth -= 1
        w.defined = before


def format_call(
    w: IterationWalker, node: c_ast.FuncCall, name: str, args: list[c_ast.Node]
) -> None:
    """``sprintf``/``snprintf`` write their destination (a counted block, else the rest
    of its row) and read the strings their arguments point at; ``sscanf`` reads its
    source and stores through each argument a conversion consumes (``formats``)."""
    read_args(w, args)
    text = f"{name}()"
    if name in FORMATTERS:
        dst, count, fmt = FORMATTERS[name]
        if len(args) <= fmt:
            return
        nbytes = w.value(args[count]) if count is not None else None
        # the bytes up to the terminator are the output's: its first byte is written on
        # every call (a count of 0 aside), the rest only as far as the text reaches, so
        # a read of the whole buffer may see what an earlier call left there
        if nbytes is None or poly.constant_of(nbytes) != 0:
            pointee(w, node, text, args[dst], poly.const(1), "w", string=True)
        with may_store(w):
            pointee(w, node, text, args[dst], nbytes, "w")
        stores = printf_stores(format_text(args[fmt]))
        shown = printed_addresses(format_text(args[fmt]))
        for k, a in enumerate(args[fmt + 1 :]):
            if shown is None or (k < len(shown) and shown[k]):
                w._thread_address(a, node)  # ``%p``: the address as text
            if is_pointer(w, a):
                pointee(w, node, text, a, None, "r", string=True)  # %s: up to its end
                if stores:  # %n, or a format the proof cannot read
                    pointee(w, node, text, a, None, "w")
    else:
        src, fmt = SCANNERS[name]
        if len(args) <= fmt:
            return
        pointee(w, node, text, args[src], None, "r", string=True)  # up to its end
        kinds = scanned(format_text(args[fmt]))
        targets = args[fmt + 1 :]
        with may_store(w):  # a field the input lacks leaves its target as it was
            for i, a in enumerate(targets):
                kind = kinds[i] if kinds is not None and i < len(kinds) else "string"
                if kind == "one":
                    store_one(w, node, a)
                else:
                    pointee(w, node, text, a, None, "w")
    _errno_and_globals(w, node, name)


def _errno_and_globals(w: IterationWalker, node: c_ast.FuncCall, name: str) -> None:
    """What a library call does beyond its arguments: errno, read after the loop by
    the master thread; a global it sets that the program reads."""
    read_at = errno_read(w.ctx.prog) if sets_errno(name) else ""
    if read_at:
        w.facts.effect(
            f"calls {name}() at {w.place(node)}, which may set errno, and the program reads "
            f"errno at {read_at}: which thread's errno a failing call sets follows the schedule"
        )
    sets = SETS_GLOBAL.get(name)
    if sets is not None and w.ctx.prog.uses(sets):
        w.facts.effect(
            f"calls {name}() at {w.place(node)}, which sets the global {sets} the program "
            "reads: what it reads follows the order of the calls"
        )


def builtin_call(
    w: IterationWalker, node: c_ast.FuncCall, name: str, args: list[c_ast.Node]
) -> str | None:
    """The library function a gcc builtin stands for, to be walked as that function;
    None when this call is done with (a builtin that only computes a value, or one whose
    effect on memory the proof does not know)."""
    base = library_name(name)
    if base in VALUE_BUILTINS:
        read_args(w, args)
        return None
    if base in FORMAT_FUNCS and name.endswith("_chk"):
        return "printf"  # _FORTIFY_SOURCE's sprintf: its arguments in another order
    if base in LIBRARY_FUNCS or base in OUT_PARAMS or base in FORMAT_FUNCS or math_name(base):
        return base
    w.facts.effect(
        f"kept as written: a call of {name}() at {where(node)}, a compiler builtin whose "
        "effect on memory the proof does not know"
    )
    read_args(w, args)
    return None


def is_stream(w: IterationWalker, node: c_ast.Node) -> bool:
    """A ``FILE *`` variable (``stderr``, a file opened before the loop): the stream's
    buffer is the library's, ordered by the ordered region, not the program's memory."""
    if not isinstance(node, c_ast.ID):
        return False
    decl, _ = w._decl(node.name, node)
    t = decl.type if decl is not None else None
    if not isinstance(t, c_ast.PtrDecl) or not isinstance(t.type, c_ast.TypeDecl):
        return False
    names = getattr(t.type.type, "names", None) or []
    return names == ["FILE"]


def _constant(node: c_ast.Node) -> bool:
    """A string literal or a null pointer constant, through casts (either one a
    conditional picks: ``i % 2 ? "odd" : "even"``)."""
    while isinstance(node, c_ast.Cast):
        node = node.expr
    if isinstance(node, c_ast.TernaryOp):
        return _constant(node.iftrue) and _constant(node.iffalse)
    return isinstance(node, c_ast.Constant)


BYTE_COUNTED = frozenset({"memcpy", "memmove", "memset"})


def _in_row(w: IterationWalker, arg: c_ast.Node, base: list | None, count: poly.Poly) -> bool:
    """The copied elements are subscripts of the pointer's last dimension: a flat array
    (one derivation, any count), or a row of a declared ``a[N][M]`` the copy does not
    leave (a constant start and count within M: ``memcpy(a[i], b[j], sizeof a[i])``). A
    byte copy may run on into the next row, which row-by-row subscripts could not say."""
    if base is None or any(p is None for p in base):
        return False
    if len(base) == 1:  # flat: ``a + i`` of a 2-D ``a`` moves by rows, not elements
        root = root_variable(arg)
        decl, _ = w._decl(root.name, root) if root is not None else (None, "")
        return len(derivations(w.frame.scope, decl.type if decl is not None else None)) == 1
    start, n, size = poly.constant_of(base[-1]), poly.constant_of(count), _row_size(w, arg, base)
    return None not in (start, n, size) and 0 <= start and start + n <= size


def _row_rest(w: IterationWalker, arg: c_ast.Node, base: list | None) -> poly.Poly | None:
    """The elements from where ``arg`` points to the end of its row of a declared
    ``a[N][M]``; None for a flat array or an unknown place."""
    if base is None or len(base) < 2 or any(p is None for p in base):
        return None
    start, size = poly.constant_of(base[-1]), _row_size(w, arg, base)
    if start is None or size is None or not 0 <= start < size:
        return None
    return poly.const(size - start)


def _row_size(w: IterationWalker, arg: c_ast.Node, base: list) -> int | None:
    """The declared length of the last dimension of the array ``arg`` points into."""
    root = root_variable(arg)
    decl, _ = w._decl(root.name, root) if root is not None else (None, "")
    t = decl.type if decl is not None else None
    for _ in range(len(base) - 1):
        t = w.frame.scope.resolve_typedef(t)
        t = t.type if isinstance(t, c_ast.ArrayDecl) else None
    t = w.frame.scope.resolve_typedef(t)
    row = poly.literal(t.dim) if isinstance(t, c_ast.ArrayDecl) else None
    return poly.constant_of(row) if row is not None else None


def root_variable(node: c_ast.Node) -> c_ast.ID | None:
    """The variable a pointer expression starts from (``&c[i * m]``, ``c + k``): None
    through a cast, which changes the element."""
    while True:
        if isinstance(node, c_ast.UnaryOp) and node.op == "&":
            node = node.expr
        elif isinstance(node, c_ast.ArrayRef):
            node = node.name
        elif isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-"):
            node = node.left
        else:
            return node if isinstance(node, c_ast.ID) else None


def _elements(w: IterationWalker, arg: c_ast.Node, nbytes: poly.Poly | None) -> poly.Poly | None:
    """``nbytes`` in elements of what ``arg`` points into (its declared element type,
    found through ``&``, subscripts and pointer arithmetic; a cast changes the element:
    unknown): None unless every term divides exactly."""
    if nbytes is None or not poly.is_affine(nbytes):
        return None
    node = root_variable(arg)
    if node is None:
        return None
    decl, _ = w._decl(node.name, node)
    _, size = element_layout(w.frame.scope, decl.type if decl is not None else None)
    if not size or any(c % size for c in nbytes.values()):
        return None
    return {m: c // size for m, c in nbytes.items()}


def state_arg_call(w: IterationWalker, node: c_ast.FuncCall, name: str, args: list) -> None:
    """``rand_r(&seed)``: reads the state its argument points at, then writes it back,
    as ``*p = f(*p)`` would: the same accesses a walked callee's would be."""
    read_args(w, args[1:])
    target = c_ast.UnaryOp("*", args[0], node.coord)
    w._touch(target, "r", node)
    w._touch(target, "w", node)
