"""A loop's step fixed for the loop but known only at run time (``ii += tile``): what
the iteration walk takes its values to be (``refs``), and what the dependence test
keeps them apart by (``Bound.stride``, ``deps._apart``)."""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.names import names_in
from autotune.analysis.proof import poly
from autotune.analysis.proof.inttypes import declared
from autotune.analysis.proof.syntax import assigned, for_header


def run_time_step(w, node: c_ast.For) -> poly.Poly | None:  # an IterationWalker
    """``for (v = lo; v < hi; v += s)`` over a signed ``v`` with ``s`` fixed for the
    loop and known only at run time (a tile's width): ``s``'s value, else None.
    The values stay in ``[lo, hi)`` and differ by at least ``s``, which is positive in
    a conforming OpenMP loop, and in any sequential one that ends."""
    nxt = node.next
    if not (
        isinstance(nxt, c_ast.Assignment) and nxt.op == "+=" and isinstance(nxt.lvalue, c_ast.ID)
    ):
        return None
    shape = for_header(node, lambda _e: 1)
    if shape is None or shape[0] != nxt.lvalue.name or shape[3] not in ("<", "<="):
        return None
    if names_in(nxt.rvalue).names & assigned(node.stmt) or w.address_taken(shape[0], node):
        return None
    decl, _ = w._decl(shape[0], node)
    t = declared(w.frame.scope, decl.type) if decl is not None else None
    if t is None or not t.signed:
        return None  # an unsigned counter wraps below its start
    stride = w.value(nxt.rvalue)
    if stride is None or not poly.is_affine(stride) or poly.constant_of(stride) is not None:
        return None
    if not all(sym.startswith("P") for sym in poly.symbols(stride)):
        return None
    return stride
