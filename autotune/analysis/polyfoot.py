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
The texts are built by ``polysets``: a thread's share is asked as the elements of a
small set of iteration numbers under the array's access map, read once.
"""

from __future__ import annotations

import functools

import islpy as isl

from autotune.analysis import countmemo, exprs, polysets
from autotune.analysis.polysets import ONE_RUN, Cyclic, Runs

MAX_RUNS = 64  # explicit chunk lists longer than this go to the enumerating path
SPLIT_CHUNKS = 48  # a thread's cyclic chunks summed one by one up to this many (see _split)


__all__ = ["Cyclic", "ONE_RUN", "Runs", "elements", "elements_per_thread"]


def elements(arr: dict, collapse: int, which: Runs | Cyclic | None = None) -> int | None:
    """Distinct elements of ``arr`` touched by the iterations ``which`` (None: all);
    None when the accesses are not all affine over affine bounds, or a subscript would
    make the count a projection barvinok is slow on (see ``polysets.subscripts``). One run (a
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
    write = polysets.element_set if which is None else polysets.iteration_map
    if only is None:  # the whole array: asked again per variant and thread
        texts = _kept_for(arr, (write, collapse), lambda: _texts(arr, collapse, write))
    else:
        texts = _texts(arr, collapse, write, only)
    if texts is None:
        return None
    if which is None:
        return _counted(*texts)
    return _counted_chosen(texts[0], polysets.chosen_set(which), texts[1])


def _texts(
    arr: dict, collapse: int, write, only: list[dict] | None = None
) -> tuple[tuple[str, ...], tuple | None] | None:
    """The isl texts ``write`` gives for the accesses (``polysets.element_set`` or
    ``iteration_map``), and the extents ``_counted`` checks tuples against; None where
    an access is not affine."""
    if collapse != 1 or not arr.get("accesses"):
        return None
    accesses = arr["accesses"] if only is None else only
    dims = arr.get("dims") or []
    tuples = len(dims) > 1 and all(
        len(a.get("index_exprs") or []) == len(dims) for a in arr["accesses"]
    )
    parts = []
    for acc in accesses:
        subs = polysets.subscripts(acc, tuples)
        text = write(acc, subs) if subs is not None else None
        if text is None:
            return None
        parts.append(text)
    return tuple(parts), (tuple(dims) if tuples else None)


def _split_elements(shared: int, own: isl.PwQPolynomial | None, runs: Runs) -> int:
    """|S| (if any iteration runs) plus each run's own elements: see ``_split``."""
    busy = [(f, n) for f, n in runs if n > 0]
    if own is None:
        return shared if busy else 0
    return (shared if busy else 0) + sum(_at(own, {"_f": f, "_n": n}) for f, n in busy)


_KEPT: dict[tuple, tuple[object, object]] = {}  # (id(obj), what...) -> (obj, answer)


def _kept_for(obj: object, what: tuple, compute):
    """``compute()`` once per object (an array's record, a count) and ``what``: ranking
    asks the same of them for every variant and thread. Kept by the object's identity
    (checked: an id is reused only after its object dies)."""
    key = (id(obj), *what)
    hit = _KEPT.get(key)
    if hit is not None and hit[0] is obj:
        return hit[1]
    if len(_KEPT) > 65536:
        _KEPT.clear()
    found = compute()
    _KEPT[key] = (obj, found)
    return found


def _split(arr: dict, collapse: int) -> tuple[int, isl.PwQPolynomial | None] | None:
    """``_find_split`` once per array."""
    return _kept_for(arr, ("split", collapse), lambda: _find_split(arr, collapse))


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
        card = _card(arr, collapse, None, same)
        return None if card is None else (_at(card, {}), None)
    own_maps = _texts(arr, collapse, polysets.iteration_map, own)
    own_all = _texts(arr, collapse, polysets.element_set, own)
    same_all = _texts(arr, collapse, polysets.element_set, same) if same else ((), None)
    if own_maps is None or own_all is None or same_all is None:
        return None
    return _split_counts(own_maps, own_all, same_all)


@functools.lru_cache(maxsize=256)
def _split_counts(
    own_maps: tuple[tuple[str, ...], tuple | None],
    own_all: tuple[tuple[str, ...], tuple | None],
    same_all: tuple[tuple[str, ...], tuple | None],
) -> tuple[int, isl.PwQPolynomial] | None:
    """The checks and counts of ``_split``, kept by text (and between runs)."""
    return countmemo.memo().answer(
        ("split", own_maps, own_all, same_all),
        lambda: _split_checked(own_maps, own_all, same_all),
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
    own_maps: tuple[tuple[str, ...], tuple | None],
    own_all: tuple[tuple[str, ...], tuple | None],
    same_all: tuple[tuple[str, ...], tuple | None],
) -> tuple[int, isl.PwQPolynomial] | None:
    try:
        own = _map_union(own_maps[0])
        # iterations a < b that touch one element of O: the map joined with its inverse
        together = own.apply_range(own.reverse())
        if not together.intersect(isl.Map(_EARLIER)).is_empty():
            return None
        if same_all[0] and not _union(same_all[0]).intersect(_union(own_all[0])).is_empty():
            return None
    except isl.Error:
        return None
    shared = _counted(*same_all) if same_all[0] else None
    card = _counted_chosen(own_maps[0], polysets.chosen_set(ONE_RUN), own_maps[1])
    if card is None or (same_all[0] and shared is None):
        return None
    return (_at(shared, {}) if shared is not None else 0), card


_EARLIER = f"{{ [{polysets.ITERATION}] -> [later] : later > {polysets.ITERATION} }}"


def _union(parts: tuple[str, ...], read=isl.Set):
    """The union of the sets (or, ``read=isl.Map``, maps) the texts describe."""
    out = None
    for text in dict.fromkeys(parts):  # a[i] read and written: one piece
        piece = read(text)
        out = piece if out is None else out.union(piece)
    return out


@functools.lru_cache(maxsize=128)
def _map_union(maps: tuple[str, ...]) -> isl.Map:
    """The array's accesses as one map from iteration number to elements, merged
    (``a[i-1]``, ``a[i]``, ``a[i+1]``: one piece), read once for all its questions."""
    return _union(maps, isl.Map).coalesce()


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
        return _card_of(_union(parts), dims)
    except isl.Error:
        return None


@functools.lru_cache(maxsize=512)
def _counted_chosen(
    maps: tuple[str, ...], chosen: str, dims: tuple | None
) -> isl.PwQPolynomial | None:
    """The count of the elements the iterations ``chosen`` touch under ``maps`` (kept by
    text, as ``_counted``)."""
    return countmemo.memo().answer(
        ("chosen", maps, chosen, dims),
        lambda: _count_chosen(maps, chosen, dims),
        countmemo.count_text,
        countmemo.count_of,
    )


def _count_chosen(
    maps: tuple[str, ...], chosen: str, dims: tuple | None
) -> isl.PwQPolynomial | None:
    try:
        whole = _map_union(maps)
        if dims is not None and _all_in_bounds(maps, dims):
            dims = None  # every iteration's tuples stay in their rows: so do a share's
        return _card_of(whole.intersect_domain(isl.Set(chosen)).range(), dims)
    except isl.Error:
        return None


@functools.lru_cache(maxsize=128)
def _all_in_bounds(maps: tuple[str, ...], dims: tuple) -> bool:
    return polysets.inner_in_bounds(_map_union(maps).range(), list(dims))


def _card_of(union: isl.Set, dims: tuple | None) -> isl.PwQPolynomial | None:
    """barvinok's count of ``union``; None where tuples would not be distinct elements."""
    if dims is not None and not polysets.inner_in_bounds(union, list(dims)):
        return None  # a[i][j+1] past its row aliases the next: the flat count differs
    # overlapping pieces (a[i-1], a[i], a[i+1]) merged first: barvinok then counts
    # one piece, not their disjoint parts (half the time of a stencil's count)
    return union.coalesce().card()


def _at(card: isl.PwQPolynomial, values: dict[str, int]) -> int:
    """The count at the parameters' ``values`` (0 outside its pieces: no point); kept:
    ranking sums a thread's runs for every variant, and the same runs come back (a
    NAS-style kernel: 4107 evaluations, 1087 distinct)."""
    return _kept_for(card, ("at", *values.items()), lambda: _evaluate(card, values))


def _evaluate(card: isl.PwQPolynomial, values: dict[str, int]) -> int:
    space = card.get_domain_space()
    point = isl.Point.zero(space)
    for i in range(space.dim(isl.dim_type.param)):
        name = space.get_dim_name(isl.dim_type.param, i)
        point = point.set_coordinate_val(isl.dim_type.param, i, values[name])
    val = card.eval(point)
    return int(val.to_python()) if val.is_int() else 0
