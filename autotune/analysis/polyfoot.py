"""Distinct elements an array's accesses touch, counted by barvinok instead of enumerated.

For affine subscripts over affine loop bounds, the elements an access touches
are the integer points ``{ [e] : exists iterations in the nest : e = flat }``;
the union over the array's accesses is one Presburger set, and barvinok (the
counting library over isl, ``islpy-barvinok``) counts its points exactly, in a
time that does not grow with the sizes: PolyBench ``syr2k`` at EXTRALARGE was
tens of seconds of enumeration, and is a millisecond here.

Which iterations: all of them, a thread's chunks given as explicit runs of
iteration numbers (static and guided: few), or a thread's share of a cyclic
hand-out of fixed chunks (``static,c``, and ``dynamic,c`` as the analysis models
it) as one modular constraint, whatever the number of chunks. Anything else
(non-affine subscripts or bounds, data-dependent loops used by the subscript,
``collapse``) answers None and the enumerating path in ``footprint`` is used.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import islpy as isl

from autotune.analysis import countmemo, exprs

MAX_RUNS = 64  # explicit chunk lists longer than this go to the enumerating path
SPLIT_CHUNKS = 48  # a thread's cyclic chunks summed one by one up to this many (see _split)


@dataclass(frozen=True)
class Cyclic:
    """Thread ``thread`` of ``threads`` takes chunks ``thread, thread + threads, ...``
    of ``chunk`` iterations each (the loop's own bounds end the last one)."""

    chunk: int
    threads: int
    thread: int


Runs = list[tuple[int, int]]


ONE_RUN = "one run"  # ``which`` for one run of iterations, its first and length parameters


def elements(arr: dict, collapse: int, which: Runs | Cyclic | None = None) -> int | None:
    """Distinct elements of ``arr`` touched by the iterations ``which`` (None: all);
    None when the accesses are not all affine over affine bounds, or a subscript would
    make the count a projection barvinok is slow on (see ``_subscripts``). One run (a
    thread's static block) is counted once per array with its first iteration and
    length as parameters, and evaluated: ranking asks for many."""
    if isinstance(which, list) and len(which) > MAX_RUNS:
        return None
    if isinstance(which, list) and len(which) == 1:
        ((first, length),) = which
        card = _card(arr, collapse, ONE_RUN)
        return None if card is None else _at(card, {"_f": first, "_n": length})
    if isinstance(which, list):
        split = _split(arr, collapse)
        if split is not None:
            return _split_elements(*split, which)
    card = _card(arr, collapse, which)
    return None if card is None else _at(card, {})


def elements_per_thread(
    arr: dict, collapse: int, chunk: int, threads: int, chosen: list[int], trip: int
) -> list[int] | None:
    """Distinct elements of ``arr`` for each thread in ``chosen`` of a cyclic hand-out
    (``Cyclic``) of ``trip`` iterations: summed over the thread's chunks where the
    array splits (``_split``) and they are few, else from one count with the thread
    number as a parameter (one barvinok call per array, not per thread). None where
    ``elements`` would be None."""
    nchunks = -(-trip // chunk)
    if -(-nchunks // threads) <= SPLIT_CHUNKS:
        split = _split(arr, collapse)
        if split is not None:
            return [_split_elements(*split, _cyclic_runs(trip, chunk, threads, t)) for t in chosen]
    card = _card(arr, collapse, Cyclic(chunk, threads, -1))  # -1: the parameter _t
    return None if card is None else [_at(card, {"_t": t}) for t in chosen]


def _cyclic_runs(trip: int, chunk: int, threads: int, thread: int) -> Runs:
    """Thread ``thread``'s chunks of a cyclic hand-out, as runs of iteration numbers."""
    starts = range(thread * chunk, trip, threads * chunk)
    return [(s, min(chunk, trip - s)) for s in starts]


def _card(
    arr: dict, collapse: int, which: Runs | Cyclic | str | None, only: list[dict] | None = None
) -> isl.PwQPolynomial | None:
    """barvinok's count of the array's elements touched by ``which``, in the parameters
    ``which`` names (none, ``_t``, or ``_f`` and ``_n``); ``only``: these of its accesses."""
    texts = _set_texts(arr, collapse, which, only)
    return None if texts is None else _counted(*texts)


def _set_texts(
    arr: dict, collapse: int, which: Runs | Cyclic | str | None, only: list[dict] | None = None
) -> tuple[tuple[str, ...], tuple | None] | None:
    """The isl texts of the accesses' element sets (and the extents ``_counted`` checks
    tuples against); None where an access is not affine."""
    if collapse != 1 or not arr.get("accesses"):
        return None
    accesses = arr["accesses"] if only is None else only
    dims = arr.get("dims") or []
    tuples = len(dims) > 1 and all(
        len(a.get("index_exprs") or []) == len(dims) for a in arr["accesses"]
    )
    parts = []
    for acc in accesses:
        subs = _subscripts(acc, tuples)
        text = _access_set(acc, subs, which) if subs is not None else None
        if text is None:
            return None
        parts.append(text)
    params = "[_t] -> " if isinstance(which, Cyclic) and which.thread < 0 else ""
    params = "[_f, _n] -> " if which == ONE_RUN else params
    return tuple(params + t for t in parts), (tuple(dims) if tuples else None)


def _split_elements(shared: int, own: isl.PwQPolynomial | None, runs: Runs) -> int:
    """|S| (if any iteration runs) plus each run's own elements: see ``_split``."""
    busy = [(f, n) for f, n in runs if n > 0]
    if own is None:
        return shared if busy else 0
    return (shared if busy else 0) + sum(_at(own, {"_f": f, "_n": n}) for f, n in busy)


_SPLITS: dict[
    tuple[int, int], tuple[dict, tuple | None]
] = {}  # (id(arr), collapse) -> (arr, split)


def _split(arr: dict, collapse: int) -> tuple[int, isl.PwQPolynomial | None] | None:
    """``_find_split`` once per array: ranking asks for it for every variant and thread.
    Kept by the array's identity (checked: an id is reused only after its object dies)."""
    key = (id(arr), collapse)
    hit = _SPLITS.get(key)
    if hit is not None and hit[0] is arr:
        return hit[1]
    if len(_SPLITS) > 4096:
        _SPLITS.clear()
    found = _find_split(arr, collapse)
    _SPLITS[key] = (arr, found)
    return found


def _find_split(arr: dict, collapse: int) -> tuple[int, isl.PwQPolynomial | None] | None:
    """(|S|, count of O over one run) when the array's elements split into S, touched
    alike by every iteration of the worksharing loop, and O, of which each element is
    touched by one iteration only, S and O apart: a thread's elements over any runs
    are then |S| plus each run's own count, exactly, with no count per run list
    (guided chunks, a static thread's chunks). None where the split does not hold."""
    if collapse != 1 or not arr.get("accesses"):
        return None
    same = [a for a in arr["accesses"] if _same_for_every_iteration(a)]
    own = [a for a in arr["accesses"] if not _same_for_every_iteration(a)]
    if not own:  # every iteration touches the same elements (O is empty)
        texts = _set_texts(arr, collapse, None, same)
        card = None if texts is None else _counted(*texts)
        return None if card is None else (_at(card, {}), None)
    own_run = _set_texts(arr, collapse, ONE_RUN, own)
    own_all = _set_texts(arr, collapse, None, own)
    same_all = _set_texts(arr, collapse, None, same) if same else ((), None)
    if own_run is None or own_all is None or same_all is None:
        return None
    return _split_counts(own_run, own_all, same_all)


@functools.lru_cache(maxsize=256)
def _split_counts(
    own_run: tuple[tuple[str, ...], tuple | None],
    own_all: tuple[tuple[str, ...], tuple | None],
    same_all: tuple[tuple[str, ...], tuple | None],
) -> tuple[int, isl.PwQPolynomial] | None:
    """The checks and counts of ``_split``, kept by text (and between runs)."""
    return countmemo.memo().answer(
        ("split", own_run, own_all, same_all),
        lambda: _split_checked(own_run, own_all, same_all),
        lambda found: None if found is None else [found[0], countmemo.count_text(found[1])],
        _split_of,
    )


def _split_of(kept: object) -> tuple[int, isl.PwQPolynomial] | None | object:
    """A kept ``_split_checked`` answer read back (``countmemo.missing`` if unreadable)."""
    if kept is None:
        return None
    card = countmemo.count_of(kept[1])
    return countmemo.MISSING if card is None or countmemo.missing(card) else (int(kept[0]), card)


def _split_checked(
    own_run: tuple[tuple[str, ...], tuple | None],
    own_all: tuple[tuple[str, ...], tuple | None],
    same_all: tuple[tuple[str, ...], tuple | None],
) -> tuple[int, isl.PwQPolynomial] | None:
    try:
        once = _union(own_run[0])
        other = _union(tuple(t.replace("_f", "_g").replace("_n", "_m") for t in own_run[0]))
        apart = isl.Set("[_f, _n, _g, _m] -> { [] : _n = 1 and _m = 1 and _f < _g }")
        both = once.align_params(apart.get_space()).intersect(other.align_params(apart.get_space()))
        if not both.intersect_params(apart.params()).is_empty():
            return None  # two iterations touch one element of O
        if same_all[0] and not _union(same_all[0]).intersect(_union(own_all[0])).is_empty():
            return None
    except isl.Error:
        return None
    shared = _counted(*same_all) if same_all[0] else None
    card = _counted(*own_run)
    if card is None or (same_all[0] and shared is None):
        return None
    return (_at(shared, {}) if shared is not None else 0), card


def _union(parts: tuple[str, ...]) -> isl.Set:
    out = None
    for text in dict.fromkeys(parts):  # a[i] read and written: one set
        s = isl.Set(text)
        out = s if out is None else out.union(s)
    return out


def _same_for_every_iteration(acc: dict) -> bool:
    """The access touches the same elements whichever iteration of the outermost
    (worksharing) level runs: its subscripts and the inner levels' bounds do not
    mention that level's variable."""
    dom = acc.get("domain") or []
    first = next((lv for lv in dom if not lv.get("unknown")), None)
    var = first.get("var") if first else None
    if not var:
        return False
    texts = [*(acc.get("index_exprs") or []), acc.get("flat")]
    for lv in dom:
        if lv is not first:
            texts += [lv.get("start"), lv.get("limit")]
    for t in texts:
        if t is None:
            continue
        a = exprs.affine(t)
        if a is None or a.get(var):
            return False
    return True


@functools.lru_cache(maxsize=512)
def _counted(parts: tuple[str, ...], dims: tuple | None) -> isl.PwQPolynomial | None:
    """The count of the union of ``parts`` (kept by text: ranking's variants ask for the
    same sets again, and so does the next run: ``countmemo``); ``dims``: tuples are
    counted, whose inner subscripts must stay in their rows."""
    return countmemo.memo().answer(
        ("card", parts, dims),
        lambda: _count(parts, dims),
        countmemo.count_text,
        countmemo.count_of,
    )


def _count(parts: tuple[str, ...], dims: tuple | None) -> isl.PwQPolynomial | None:
    try:
        union = _union(parts)
        if dims is not None and not _inner_in_bounds(union, list(dims)):
            return None  # a[i][j+1] past its row aliases the next: the flat count differs
        # overlapping pieces (a[i-1], a[i], a[i+1]) merged first: barvinok then counts
        # one piece, not their disjoint parts (half the time of a stencil's count)
        return union.coalesce().card()
    except isl.Error:
        return None


def _at(card: isl.PwQPolynomial, values: dict[str, int]) -> int:
    """The count at the parameters' ``values`` (0 outside its pieces: no point)."""
    space = card.get_domain_space()
    point = isl.Point.zero(space)
    for i in range(space.dim(isl.dim_type.param)):
        name = space.get_dim_name(isl.dim_type.param, i)
        point = point.set_coordinate_val(isl.dim_type.param, i, values[name])
    val = card.eval(point)
    return int(val.to_python()) if val.is_int() else 0


def _subscripts(acc: dict, tuples: bool) -> list[dict[str, int]] | None:
    """Affine subscripts, one per dimension (``tuples``) or the flat one. Each may move
    with at most two loop variables: ``e = 12675*v0 + 975*v1 + 75*v2 + 6*v3`` (NPB BT's
    flattened 6-D ``lhs``) asks barvinok to count a projection, which it did not finish in
    minutes; counted per dimension the same accesses are trivial."""
    if acc.get("kind") != "affine":
        return None
    texts = acc["index_exprs"] if tuples else [acc["flat"]]
    out = []
    for t in texts:
        a = exprs.affine(t) if t is not None else None
        if a is None or sum(1 for v, c in a.items() if v and c) > 2:
            return None
        out.append(a)
    return out


def _inner_in_bounds(union: isl.Set, dims: list) -> bool:
    """Every subscript but the first stays in ``[0, extent)``: distinct tuples are then
    distinct elements."""
    n = len(dims)
    names = ", ".join(f"e{d}" for d in range(n))
    for d in range(1, n):
        extent = dims[d]
        if not isinstance(extent, int):
            return False
        outside = isl.Set(f"{{ [{names}] : e{d} < 0 or e{d} >= {extent} }}")
        if not union.intersect(outside.align_params(union.get_space())).is_empty():
            return False
    return True


def _access_set(acc: dict, subs: list[dict[str, int]], which: Runs | Cyclic | None) -> str | None:
    """``{ [e...] : exists loop variables : bounds and e = subscripts and which }``."""
    dom = acc["domain"]
    used = {v for a in subs for v, c in a.items() if v and c}
    names: dict[str, str] = {}
    conj: list[str] = []
    for k, lv in enumerate(dom):
        var = lv.get("var")
        if lv.get("unknown"):
            if var and var in used:
                return None
            continue
        if not var:
            return None
        names[var] = f"v{k}"
        bound = _level(lv, names)
        if bound is None:
            return None
        conj.append(bound)
    if any(v not in names for v in used):
        return None
    elems = [f"e{d}" for d in range(len(subs))]
    conj += [f"{e} = {_linear(a, names)}" for e, a in zip(elems, subs, strict=True)]
    if which is not None:
        first = next((lv for lv in dom if not lv.get("unknown")), None)
        it = _iteration_number(first, names) if first is not None else None
        if it is None:
            return None
        conj.append(_chosen(it, which))
    inner = ", ".join(names.values())
    body = " and ".join(conj)
    head = ", ".join(elems)
    return f"{{ [{head}] : exists ({inner} : {body}) }}" if inner else f"{{ [{head}] : {body} }}"


def _linear(coefs: dict[str, int], names: dict[str, str]) -> str:
    terms = [str(coefs.get("", 0))]
    terms += [f"{c}*{names[v]}" for v, c in coefs.items() if v and c]
    return " + ".join(terms)


def _level(lv: dict, names: dict[str, str]) -> str | None:
    """The values of one loop level, ``for (v = start; v op limit; v += step)``."""
    start, limit = exprs.affine(lv["start"]), exprs.affine(lv["limit"])
    step = lv.get("step")
    if start is None or limit is None or not isinstance(step, int) or step == 0:
        return None
    if any(v and v not in names for v in (*start, *limit)):
        return None  # a bound in a variable not of this nest (or its own): not affine here
    v = names[lv["var"]]
    s, lim = _linear(start, names), _linear(limit, names)
    op = lv["op"]
    if step > 0 and op in ("<", "<=", "!="):
        upper = f"{v} {'<=' if op == '<=' else '<'} {lim}"
        if op == "!=" and step != 1:
            return None
        out = f"{s} <= {v} and {upper}"
    elif step < 0 and op in (">", ">=", "!="):
        lower = f"{v} {'>=' if op == '>=' else '>'} {lim}"
        if op == "!=" and step != -1:
            return None
        out = f"{v} <= {s} and {lower}"
    else:
        return None
    if abs(step) > 1:
        out += f" and ({v} - ({s})) mod {abs(step)} = 0"
    return out


def _iteration_number(lv: dict, names: dict[str, str]) -> str | None:
    """The outermost level's iteration number 0, 1, ...: (v - start) / step."""
    start = exprs.affine(lv["start"])
    step = lv.get("step")
    if start is None or set(start) != {""} or not isinstance(step, int) or step == 0:
        return None
    v = names[lv["var"]]
    s = start[""]
    return f"floor(({v} - {s}) / {step})" if step > 0 else f"floor(({s} - {v}) / {-step})"


def _chosen(it: str, which: Runs | Cyclic) -> str:
    if isinstance(which, Cyclic):
        c, p, t = which.chunk, which.threads, which.thread
        if t < 0:  # the thread number is the parameter _t (elements_per_thread)
            return f"({it}) mod {c * p} >= {c} * _t and ({it}) mod {c * p} < {c} * _t + {c}"
        return f"({it}) mod {c * p} >= {c * t} and ({it}) mod {c * p} < {c * (t + 1)}"
    if which == ONE_RUN:
        return f"(_f <= {it} < _f + _n)"
    if not which:
        return "false"
    runs = [f"({first} <= {it} < {first + length})" for first, length in which if length > 0]
    return "(" + " or ".join(runs) + ")" if runs else "false"
