"""Coverage: every element a thread's own data is read at was written before in the
same iteration (so nothing a previous iteration left is seen), decided by isl.

A private array that each iteration fills before reading (NPB MG's scratch rows, srad's
neighbours) keeps its mapping-free meaning; a read the writes before it do not cover sees
what the thread's previous iteration left, which depends on the schedule.
"""

from __future__ import annotations

import islpy as isl

from autotune.analysis.proof import conditions, poly
from autotune.analysis.proof.facts import Ref
from autotune.analysis.proof.isltext import Names, domain_text


def covered(r: Ref, writes: list[Ref], texts: dict | None = None) -> bool:
    """Every element ``r`` reads is written earlier in the same iteration (for all sizes)
    by ``writes``: the value a thread's copy held before cannot be seen. A write counts
    where it comes first in program order; inside loops both share, only for the same
    values of those loops' variables. ``texts``: a write's set by the loops of the read
    it is stated over, kept across the reads of one object (unrolled passes ask the
    same writes again and again)."""
    before = [w for w in writes if w.path < r.path and _affine_ref(w) and _exact_own(w, r)]
    if not before or not _affine_ref(r):
        return False
    if any(len(w.index) != len(r.index) for w in before):
        return False
    texts = {} if texts is None else texts
    syms = tuple(b.sym for b in r.domain)
    for w in before:
        if (id(w), syms) not in texts:
            texts[(id(w), syms)] = _write_set(w, r)
    key = (_read_set(r), tuple(sorted({texts[(id(w), syms)] for w in before})))
    if key not in _SUBSET:
        _SUBSET[key] = _read_written(*key)
    pair = _SUBSET[key]
    if pair is None:
        conditions.failed("{ : }")
        return False
    read, written = pair
    if read.is_subset(written):
        return True
    if conditions.listening():
        conditions.failed(read.subtract(written))
    return False


def string_covered(r: Ref, refs: list[Ref], sure: list[Ref]) -> bool:
    """A read of a C string (``strlen(key)``, ``%s``) stops at its terminator: it sees
    only bytes this iteration wrote when the last write to the object before it (of
    ``refs``, the object's) is a ``sure`` one that put a string at the same place
    (``snprintf(key, ...)``, ``strcpy``), in no loop the read is outside of. A store
    after it (``key[2] = 'x'`` over the terminator) may extend the string into bytes an
    earlier iteration left."""
    if r.string is None:
        return False
    # a terminator stored anywhere (``*colon = '\0'``) only ends the string sooner
    before = [w for w in refs if w.kind != "r" and w.path < r.path and not _terminator(w)]
    if not before:
        return False
    at = max(w.path for w in before)
    last = [w for w in before if w.path == at]  # the last statement's writes
    sure_ids = {id(w) for w in sure}
    put = next((w for w in last if id(w) in sure_ids and w.string is not None), None)
    if put is None or put.string[0] != r.string[0]:
        return False
    loops = put.string[1]
    if r.string[1][: len(loops)] != loops:
        return False
    return all(w.string is not None or w.line == put.line for w in last)


def _terminator(w: Ref) -> bool:
    """A plain store of a zero byte: it cuts a string short, never lengthens one."""
    return w.kind == "w" and w.size == 1 and w.value in ("0", "'\\0'", "'\\x00'", "'\\000'")


# isl's sets by their texts: (what is read, what was written before), None if unreadable
_SUBSET: dict[tuple[str, tuple[str, ...]], tuple[isl.Set, isl.Set] | None] = {}


# one isl set per text: the writes before one read are mostly the writes before the next
_SETS: dict[str, isl.Set] = {}


def _parsed(text: str) -> isl.Set:
    if text not in _SETS:
        _SETS[text] = isl.Set(text)
    return _SETS[text]


def _read_written(read_text: str, write_texts: tuple[str, ...]) -> tuple[isl.Set, isl.Set] | None:
    try:
        read = _parsed(read_text)
        written = None
        for text in write_texts:
            s = _parsed(text)
            written = s if written is None else written.union(s)
        return _align(read, written)
    except isl.Error:
        return None


def _exact_own(w: Ref, r: Ref) -> bool:
    """Every loop of ``w`` that ``r`` is not also in has known values: otherwise which
    elements ``w`` surely writes is not known (a bound it could not read, a stride)."""
    shared = 0
    for a, b in zip(w.domain, r.domain, strict=False):
        if a.sym != b.sym:
            break
        shared += 1
    return all(b.exact for b in w.domain[shared:])


def _affine_ref(r: Ref) -> bool:
    return r.index is not None and all(p is not None and poly.is_affine(p) for p in r.index)


def _dims(r: Ref) -> list[str]:
    return [b.sym for b in r.domain]


def _read_set(r: Ref) -> str:
    """``[params] -> { [loops of r, e] : r's domain, e = r's index }``."""
    names = Names("")
    dims = [names(s) for s in _dims(r)]
    elems = [f"e{k}" for k in range(len(r.index))]
    conj = [c for c in [domain_text(r.domain, names, r.given)] if c]
    conj += [f"{e} = {poly.to_isl(p, names)}" for e, p in zip(elems, r.index, strict=True)]
    return _quantified(names, dims + elems, conj)


def _write_set(w: Ref, r: Ref) -> str:
    """What ``w`` writes before ``r``, over ``r``'s loop variables: the loops they share
    are the same point; ``w``'s own deeper loops are quantified away."""
    shared = 0
    for a, b in zip(w.domain, r.domain, strict=False):
        if a.sym != b.sym:
            break
        shared += 1
    mine = {b.sym for b in w.domain[shared:]}
    names = Names("")
    rename = _Renamed(names, mine)
    dims = [names(s) for s in _dims(r)]
    elems = [f"e{k}" for k in range(len(w.index))]
    conj = [c for c in [domain_text(w.domain, rename, w.given)] if c]
    conj += [f"{e} = {poly.to_isl(p, rename)}" for e, p in zip(elems, w.index, strict=True)]
    return _quantified(names, dims + elems, conj, extra=rename.inner)


class _Renamed(Names):
    """Symbols of ``inner`` loops (and unknowns) get a suffix and are quantified."""

    def __init__(self, outer: Names, inner: set[str]) -> None:
        super().__init__("")
        self.outer = outer
        self.params = outer.params
        self.inner_syms = inner
        self.inner: list[str] = []

    def __call__(self, sym: str) -> str:
        if sym.startswith("P"):
            self.params.add(sym)
            return sym
        if sym in self.inner_syms or sym.startswith(("u", "q")):  # unknowns, quotients
            name = f"{sym}_w"
            if name not in self.inner:
                self.inner.append(name)
            return name
        return self.outer(sym)


def _quantified(names: Names, dims: list[str], conj: list[str], extra: list[str] = ()) -> str:
    exist = [d for d in names.dims if d not in dims] + list(extra)
    conj = [*conj, *conditions.assumed_conjuncts()]
    body = " and ".join(conj) if conj else "true"
    if exist:
        body = f"exists ({', '.join(exist)} : {body})"
    params = sorted(names.params | conditions.assumed_params())
    return f"[{', '.join(params)}] -> {{ [{', '.join(dims)}] : {body} }}"


def _align(a: isl.Set, b: isl.Set) -> tuple[isl.Set, isl.Set]:
    return a.align_params(b.get_space()), b.align_params(a.get_space())
