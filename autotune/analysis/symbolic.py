"""A loop's footprint as formulas in the program's sizes, counted by barvinok.

``analysis.formulas`` gives the trip count and iterations of a nest whose bounds
name sizes the source leaves open (``n`` read from argv, a kernel's parameter
``n``, ``g->nx``). This module adds the data: the distinct elements of each array
the loop touches, their bytes in total, and the bytes the first and the last
thread of a static schedule touch (thread ``t`` of ``p`` takes iterations
``t*q + min(t, r)`` on, ``q = T / p``, ``r = T % p``, as libgomp does), each a
piecewise quasi-polynomial in the sizes (``islpy-barvinok``). A user sees how a
loop grows without running it; an evaluation gives the figure at any size.

What may stand for a size: a name in a bound or subscript as the source writes it
(after macro expansion) that is not a loop variable and not declared inside the
nest. Where the analysis knows the sizes (the source fixes them, or a profile run
measured them) every formula is evaluated there and must give the analysis's own
figure, which the tests check against enumeration; one that does not is left out.
Subscripts must be affine in loop variables and sizes, and an inner subscript
outside its row would alias the next row: the formula is defined only for the
sizes where every inner subscript stays in bounds.
"""

from __future__ import annotations

from fractions import Fraction

import islpy as isl

from autotune.analysis.footprint import footprint, thread_chunks
from autotune.analysis.formulas import (
    NotAffine,
    affine_node,
    evaluate,
    isl_name,
    nest_formulas,
    value_at,
)
from autotune.analysis.formulasizes import WORD, Sizes, consistent, parse, written_subscripts
from autotune.frontend.records import LoopRecord

_ISL_WORDS = {"and", "or", "not", "exists", "floor", "mod"}


def loop_formulas(record: LoopRecord, per_thread: bool = False) -> dict:
    """``trip_count`` and ``iterations`` (``analysis.formulas``), ``weighted_ops`` where
    every bound is affine, and where every access is too: ``footprint_elements`` per
    array, ``footprint_bytes``, and ``footprint_bytes_per_thread`` (static, first and
    last thread of ``threads``, when ``per_thread``: the costly part); ``sizes``: the
    values the analysis knows."""
    sizes = Sizes(record)
    named = {w for lv in record.nest for w in WORD.findall(f"{lv.lower} {lv.upper}")}
    if not sizes.usable(named):
        return {}  # a bound the body changes (or declares) is no size
    out = _counts(record, sizes, per_thread)
    if out and sizes.values:
        out["sizes"] = dict(sorted(sizes.values.items()))
    return out


def _counts(record: LoopRecord, sizes: Sizes, per_thread: bool) -> dict:
    collapse = max(1, record.directive.clauses.collapse or 1)
    out: dict = dict(nest_formulas(record.nest, collapse))
    if collapse != 1 or not sizes.open:
        return out
    ops = _weighted_ops(record, sizes)
    if ops is not None:
        out["weighted_ops"] = str(ops)
    whole = _footprint(record, sizes, None) if record.arrays else None
    if whole is None:
        return out
    elements, total = whole
    out["footprint_elements"] = {name: str(qp) for name, qp in elements.items()}
    out["footprint_bytes"] = str(total)
    threads = _thread_formulas(record, sizes) if per_thread else None
    if threads is not None:
        out["footprint_bytes_per_thread"] = threads
    return out


def _thread_formulas(record: LoopRecord, sizes: Sizes) -> dict | None:
    """The first and the last thread's bytes under a static schedule, as formulas."""
    first, last = 0, max(1, record.threads) - 1
    threads = {}
    for t in dict.fromkeys((first, last)):
        part = _footprint(record, sizes, t)
        if part is None:
            return None
        threads[t] = part[1]
    if not _per_thread_agrees(record, sizes, threads):
        return None
    return {
        "schedule": "static",
        "threads": max(1, record.threads),
        **{("first" if t == first else "last"): str(qp) for t, qp in threads.items()},
    }


def _footprint(
    record: LoopRecord, sizes: Sizes, thread: int | None
) -> tuple[dict[str, isl.PwQPolynomial], isl.PwQPolynomial] | None:
    """Per-array element counts and the byte total, for every iteration or for static
    thread ``thread``; None when an access or bound is not affine, or a formula evaluated
    at the known sizes disagrees with the analysis's own count."""
    counts: dict[str, isl.PwQPolynomial] = {}
    total = None
    for arr in record.arrays:
        size = arr.get("elem_size")
        if not size or not arr.get("accesses"):
            return None
        card = _array_card(arr, record, sizes, thread)
        if card is None:
            return None
        if thread is None and not _agrees(card, sizes, arr.get("distinct_elements")):
            return None
        counts[arr["name"]] = card
        scaled = card.scale_val(isl.Val(int(size)))
        total = scaled if total is None else total.add(scaled)
    if total is None or (thread is None and not _agrees(total, sizes, record.footprint_bytes)):
        return None
    return counts, total


def _weighted_ops(record: LoopRecord, sizes: Sizes) -> isl.PwQPolynomial | None:
    """Sum over the loop's bodies of their weighted ops per execution times the count of
    their executions (the points of the loops around them, times a branch factor);
    None when a bound is not affine or the sum at the known sizes is not the
    analysis's ``weighted_ops``."""
    total = None
    for body in record.op_bodies:
        nest = _nest(body["levels"], sizes)
        if nest is None:
            return None
        conj, dims = nest
        text = " and ".join(conj)
        params = sorted(set(WORD.findall(text)) - set(dims) - _ISL_WORDS)
        try:
            card = isl.Set(f"[{', '.join(params)}] -> {{ [{', '.join(dims)}] : {text} }}").card()
        except isl.Error:
            return None
        weight = Fraction(body["weighted"] * body["factor"]).limit_denominator(10**6)
        scaled = card.scale_val(isl.Val(f"{weight.numerator}/{weight.denominator}"))
        total = scaled if total is None else total.add(scaled)
    if total is None:
        return None
    figure = record.weighted_ops
    if figure is not None:
        value = _rational(total, sizes.values)
        if value is None or abs(float(value) - figure) > 1e-6 * max(1.0, abs(figure)):
            return None
    return total.coalesce()


def _rational(qp: isl.PwQPolynomial, values: dict[str, int]) -> Fraction | None:
    """The formula's value at ``values`` as a fraction (None: a size has no value)."""
    value = value_at(qp, values)
    return None if value is None else Fraction(str(value))


def _agrees(qp: isl.PwQPolynomial, sizes: Sizes, figure: int | None) -> bool:
    """The formula gives the analysis's figure at the known sizes (nothing to compare
    when the analysis has no figure: its sizes are unknown until a profile run)."""
    return figure is None or evaluate(str(qp), sizes.values) == figure


def _per_thread_agrees(record: LoopRecord, sizes: Sizes, threads: dict) -> bool:
    """Each thread's formula gives what counting that thread's iterations gives."""
    if record.trip_count is None or record.footprint_bytes is None:
        return True
    p = max(1, record.threads)
    chunks = thread_chunks(record.trip_count, p, "static", None)
    for t, qp in threads.items():
        starts, lengths = chunks[t]
        runs = [(int(a), int(n)) for a, n in zip(starts, lengths, strict=True)]
        figure, _ = footprint(record.arrays, 1, runs)
        if figure is None or evaluate(str(qp), sizes.values) != figure:
            return False
    return True


def _params(qp: isl.PwQPolynomial) -> set[str]:
    space = qp.get_domain_space()
    return {space.get_dim_name(isl.dim_type.param, i) for i in range(space.dim(isl.dim_type.param))}


def _array_card(
    arr: dict, record: LoopRecord, sizes: Sizes, thread: int | None
) -> isl.PwQPolynomial | None:
    dims = arr.get("dims") or []
    union = None
    for acc in arr["accesses"]:
        text = _access_set(acc, len(dims), record, sizes, thread)
        if text is None:
            return None
        try:
            s = isl.Set(text)
        except isl.Error:
            return None
        union = s if union is None else union.union(s)
    if union is None:
        return None
    return union.card().coalesce()


def _access_set(
    acc: dict, ndims: int, record: LoopRecord, sizes: Sizes, thread: int | None
) -> str | None:
    """``[sizes] -> { [e...] : exists loop variables : bounds and e = subscripts }``."""
    if acc.get("kind") not in ("affine", "whole"):  # whole: perhaps only the sizes unknown
        return None
    subs = _subscripts(acc["text"], ndims, acc.get("index_exprs") or [], sizes)
    if subs is None:
        return None
    nest = _nest(acc["domain"], sizes)
    if nest is None:
        return None
    conj, inner = nest
    if thread is not None:
        chosen = _static_thread(acc["domain"][0], record, thread, sizes)
        if chosen is None:
            return None
        conj.append(chosen)
    elems = [f"_e{d}" for d in range(len(subs))]
    conj += [f"{e} = {s}" for e, s in zip(elems, subs, strict=True)]
    body = " and ".join(conj)
    params = sorted(set(WORD.findall(body)) - {*inner, *elems, "_it", "_q"} - _ISL_WORDS)
    head = f"[{', '.join(params)}] -> " if params else ""
    exists = f"exists ({', '.join(inner)} : {body})" if inner else body
    return f"{head}{{ [{', '.join(elems)}] : {exists} }}"


def _nest(levels: list[dict], sizes: Sizes) -> tuple[list[str], list[str]] | None:
    """(constraints, loop variables' isl names) of loops from the outermost in."""
    conj: list[str] = []
    names: list[str] = []
    for lv in levels:
        level = _level(lv, sizes)
        if level is None:
            return None
        conj += level
        names.append(isl_name(lv["var"]))
    return conj, names


def _level(lv: dict, sizes: Sizes) -> list[str] | None:
    """One level's constraints from its bounds as written, each checked against the
    analysis's value where both are known."""
    step, op = lv.get("step"), lv.get("op")
    if not isinstance(step, int) or step == 0 or not lv.get("var"):
        return None
    var = isl_name(lv["var"])
    bounds = []
    for key, resolved in (("lower", lv.get("start")), ("upper", lv.get("limit"))):
        text = _bound(lv.get(key) or "", resolved, sizes)
        if text is None:
            return None
        bounds.append(text)
    lo, hi = bounds
    if step > 0 and op in ("<", "<="):
        out = [f"{var} >= {lo}", f"{var} {op} {hi}"]
    elif step < 0 and op in (">", ">="):
        out = [f"{var} <= {lo}", f"{var} {op} {hi}"]
    else:
        return None
    if abs(step) > 1:
        out.append(f"({var} - ({lo})) mod {abs(step)} = 0")
    return out


def _bound(text: str, resolved, sizes: Sizes) -> str | None:
    try:
        node = parse(text)
        isl_text = affine_node(node)
    except NotAffine:
        return None
    if not consistent(node, resolved, sizes):
        return None
    return isl_text


def _subscripts(text: str, ndims: int, resolved: list, sizes: Sizes) -> list[str] | None:
    """The access's subscripts as written (one per dimension, or one flat subscript of a
    one-dimensional array), each affine and consistent with the analysis's subscript."""
    subs = written_subscripts(text)
    if subs is None or len(subs) != max(1, ndims) or len(resolved) != len(subs):
        return None
    out = []
    for sub, res in zip(subs, resolved, strict=True):
        try:
            isl_text = affine_node(sub)
        except NotAffine:
            return None
        if not consistent(sub, res, sizes):
            return None
        out.append(isl_text)
    return out


def _static_thread(outer: dict, record: LoopRecord, thread: int, sizes: Sizes) -> str | None:
    """libgomp's static block of the first or the last thread, in iteration numbers of
    the outer level: the first ``ceil(T / p)`` iterations (``p * it < T``), the last
    ``floor(T / p)`` (the last thread is never one of the ``T % p`` that get one more)."""
    if outer.get("var") != (record.nest[0].var if record.nest else None):
        return None
    step, op = outer.get("step"), outer.get("op")
    lo = _bound(outer.get("lower") or "", outer.get("start"), sizes)
    hi = _bound(outer.get("upper") or "", outer.get("limit"), sizes)
    if lo is None or hi is None or not isinstance(step, int) or step == 0:
        return None
    s = abs(step)
    span = f"({hi}) - ({lo})" if step > 0 else f"({lo}) - ({hi})"
    trips = {"<": f"{span} + {s - 1}", ">": f"{span} + {s - 1}"}
    trips |= {"<=": f"{span} + {s}", ">=": f"{span} + {s}"}
    if op not in trips:
        return None
    p = max(1, record.threads)
    trip = trips[op] if s == 1 else f"floor(({trips[op]}) / {s})"
    var = isl_name(outer["var"])
    where = f"{var} = {lo} + {s} * _it" if step > 0 else f"{var} = {lo} - {s} * _it"
    if thread == 0:
        return f"exists (_it : {where} and {p} * _it < {trip})"
    if thread == p - 1:
        last = f"{p} * _q <= {trip} < {p} * _q + {p} and _it + _q >= {trip}"
        return f"exists (_it, _q : {where} and {last})"
    return None
