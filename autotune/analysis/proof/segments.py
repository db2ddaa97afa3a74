"""Rows of a compressed layout: an inner loop from ``A[r]`` to ``A[r + 1]``.

Compressed sparse rows (a matrix's ``rowptr``, a graph's offsets, NPB CG's ``rowstr``)
keep row ``r``'s entries in ``[A[r], A[r + 1])`` of one array: iteration ``r`` of
``for (k = A[r]; k < A[r + 1]; k++) val[k] *= d[r];`` writes its own entries only, a
fact of the data (the offsets do not decrease), not of the code. The walk gives the two
offsets values of the iteration's own (``Segment``); the dependence test knows that two
iterations reading one offset read one value, and, where a parameter says the offsets
do not decrease over the loop's rows, that rows of different ``r`` do not overlap. A
question failing only without that becomes a relation (``conditions``) the variant runs
behind, with the parameter computed by a scan of the offsets at the directive, as
Polly checks its assumptions at run time.

The scan reads what the loop reads: both offsets at each of its iterations, in an inner
loop every iteration reaches before any branch, call or jump, from an array no store of
the loop reaches (``sizes_read`` checks that after the walk).
"""

from __future__ import annotations

from pycparser import c_ast, c_generator

from autotune.analysis.proof import poly
from autotune.analysis.proof.facts import Segment
from autotune.analysis.proof.scans import (
    SCANS,
    Scan,
    array_root,
    counts_array,
    held_with_path,
    read_first,
    scan_header,
    scan_text,
)


def segment_bounds(
    w, loop: c_ast.For, lo_node: c_ast.Node, hi_node: c_ast.Node, op: str, step: int | None
) -> tuple[poly.Poly, poly.Poly, Segment] | None:
    """The bounds of ``for (k = A[r + c]; k < A[r + c + 1]; k += s)`` (or ``k <= A[r + c
    + 1] - 1``, or ``<=`` the next offset itself) directly in the worksharing loop of
    counter ``r``: the lower bound, the upper one, and the row they make (None: another
    loop)."""
    if step is None or step <= 0 or op not in ("<", "<="):
        return None
    inclusive_end = 0 if op == "<=" else -1
    if op == "<=" and _minus_one(hi_node) is not None:
        hi_node, inclusive_end = _minus_one(hi_node), -1
    if not (isinstance(lo_node, c_ast.ArrayRef) and isinstance(hi_node, c_ast.ArrayRef)):
        return None
    gen = c_generator.CGenerator()
    base = gen.visit(lo_node.name)
    if gen.visit(hi_node.name) != base:
        return None
    header = scan_header(w)
    if header is None:
        return None
    at = w.value_quietly(lo_node.subscript)
    nxt = w.value_quietly(hi_node.subscript)
    if at is None or nxt is None or poly.constant_of(poly.add(nxt, at, -1)) != 1:
        return None
    offset = poly.constant_of(poly.add(at, poly.symbol(w.domain[0].sym), -1))
    if offset is None:
        return None  # rows not one per iteration: a scan of the counter's range misses some
    holder = counts_array(w, lo_node.name, lo_node)
    if holder is None or not all(
        read_first(w.ctx.loop, n, w.frame.ast) for n in (lo_node, hi_node)
    ):
        return None
    held = held_with_path(w, lo_node.name, holder)
    scan = Scan(base, array_root(lo_node.name), header[0], "sorted", offset, held)
    sym = w._param(scan_text(scan, header))
    SCANS[sym] = scan
    w.facts.sizes_read.setdefault(sym, set()).update(holder)
    lo, hi = w._fresh("u"), w._fresh("u")
    upper = poly.add(poly.symbol(hi), poly.const(inclusive_end))
    return poly.symbol(lo), upper, Segment(sym, at, lo, hi)


def _minus_one(node: c_ast.Node) -> c_ast.Node | None:
    """``e`` of ``e - 1``."""
    if isinstance(node, c_ast.BinaryOp) and node.op == "-":
        if isinstance(node.right, c_ast.Constant) and node.right.value in ("1", "1L", "1l"):
            return node.left
    return None


def segment_constraints(a: Segment, b: Segment, na, nb) -> str:
    """isl constraints between two iterations' rows of one layout: one offset, one
    value; where the offsets do not decrease (the scan's parameter at least 1), an
    earlier row ends at or before a later one starts."""
    xa, xb = poly.to_isl(a.at, na), poly.to_isl(b.at, nb)
    la, ha, lb, hb = na(a.lo), na(a.hi), nb(b.lo), nb(b.hi)
    sorted_ = na(a.param)
    same = f"({xa} < {xb} or {xa} > {xb} or ({la} = {lb} and {ha} = {hb}))"
    apart = f"(({xa} >= {xb} or {ha} <= {lb}) and ({xb} >= {xa} or {hb} <= {la}))"
    return f"{same} and ({sorted_} <= 0 or {apart})"
