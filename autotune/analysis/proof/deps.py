"""Dependences carried by the worksharing loop, decided exactly by isl.

For two references to a common object, at least one a write, the question is
whether two different iterations of the distributed loop(s) can touch the same
element: ``{ [I, x, I', x'] : I in D, I' in D, index(I, x) = index'(I', x'),
I != I' }`` non-empty for some value of the size parameters. isl (the integer
set library under GCC Graphite and LLVM Polly) answers exactly over the
integers. Subscripts like ``i*n + j`` with ``0 <= j < n`` are delinearised
into ``[i, j]`` first (proved in range by isl too); anything else that is not
affine counts as a dependence.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import islpy as isl
from pycparser import c_ast

from autotune.analysis.proof import budget, conditions, poly
from autotune.analysis.proof.facts import Bound, Ref, Segment
from autotune.analysis.proof.isltext import Names, domain_text
from autotune.analysis.proof.rows import leaves_array, leaves_row
from autotune.analysis.proof.segments import segment_constraints
from autotune.analysis.proof.syntax import PARAM_TEXTS, member_path

Index = list[poly.Poly]


@dataclass
class Conflict:
    """Why two references may make the loop's result depend on the schedule."""

    a: Ref
    b: Ref
    why: str  # "carried" | "unanalysable"

    def reason(self) -> str:
        what = "writes" if "w" in (self.a.kind, self.b.kind) else "updates"
        name = self.a.name or self.b.name or reference_root(self.a) or reference_root(self.b)
        name = name or "memory"
        if self.why == "shapes":
            return (
                f"{what} {name} through rows of {self.a.inner} ({self.a.at}: "
                f"{self.a.text}) and of {self.b.inner} ({self.b.at}: {self.b.text}): "
                "one object seen in two shapes, whose subscripts do not compare"
            )
        if self.why == "sizes":
            return (
                f"{what} {name} as {self.a.size}-byte elements ({self.a.at}: "
                f"{self.a.text}) and as {self.b.size}-byte elements ({self.b.at}: "
                f"{self.b.text}): one object in two element types, whose subscripts do not "
                "compare"
            )
        if self.why == "overflow":
            r = self.a if leaves_row(self.a) else self.b
            return (
                f"{what} {name} ({r.at}: {r.text}) with a subscript that leaves its "
                "row (C calls it undefined; the memory is a neighbouring row's): "
                "the proof compares subscripts row by row and cannot here"
            )
        if self.why == "outside":
            what = {"r": "reads", "w": "writes"}.get(self.a.kind, "updates")
            return (
                f"{what} {name} ({self.a.at}: {self.a.text}) outside the "
                f"{self.a.outer} elements it is declared with (C calls it undefined; the "
                "memory is another object's, which the proof cannot name)"
            )
        if self.why == "unanalysable":
            w, o = (self.a, self.b) if self.a.kind != "r" else (self.b, self.a)
            if w.name and o.name and w.name != o.name:  # ``writes out ... and reads in``
                verb = "reads" if o.kind == "r" else "writes" if o.kind == "w" else "updates"
                return (
                    f"{what} {w.name} ({w.at}: {w.text}) and {verb} {o.name} ({o.at}: "
                    f"{o.text}) at places the proof cannot tell apart between iterations"
                )
            return (
                f"{what} {name} ({self.a.at}: {self.a.text}; {self.b.at}: "
                f"{self.b.text}) at places the proof cannot tell apart between iterations"
            )
        if _reads_unknown(self.a) or _reads_unknown(self.b):
            places = f"{self.a.at}: {self.a.text}"
            if not (self.a is self.b or (self.a.at, self.a.text) == (self.b.at, self.b.text)):
                places += f"; {self.b.at}: {self.b.text}"
            return (
                f"may {'write' if what == 'writes' else 'update'} the same element of {name} "
                f"from different iterations ({places}): the place depends on a value the "
                "proof does not know (one read from memory, or set through a pointer)"
            )
        ra, rb = reference_root(self.a), reference_root(self.b)
        if ra and rb and ra != rb and None in (self.a.objects, self.b.objects):
            return (
                f"{ra} ({self.a.at}: {self.a.text}) and {rb} ({self.b.at}: {self.b.text}) "
                "would touch the same element in different iterations if they point into "
                "one array, which the proof cannot rule out (where they point is not known)"
            )
        if self.a is self.b or (self.a.at == self.b.at and self.a.text == self.b.text):
            return (
                f"{what} the same element of {name} from different iterations "
                f"({self.a.at}: {self.a.text}): a dependence carried by the loop"
            )
        return (
            f"a dependence carried by the loop on {name}: {self.a.at} ({self.a.text}) "
            f"and {self.b.at} ({self.b.text}) touch the same element in different "
            "iterations"
        )


def reference_root(r: Ref) -> str:
    """The variable a reference is made through (``in`` of ``in[i - 1]``), '' when its text
    is no plain subscript or dereference of one."""
    node = getattr(r.text, "node", None)
    while isinstance(node, c_ast.ArrayRef | c_ast.UnaryOp | c_ast.Cast):
        node = node.name if isinstance(node, c_ast.ArrayRef) else node.expr
    if isinstance(node, c_ast.StructRef) and node is not getattr(r.text, "node", None):
        path = member_path(node)  # ``at->x[i]``: through the pointer member ``at->x``
        return path[0] if path else ""
    return node.name if isinstance(node, c_ast.ID) else ""


def _reads_unknown(r: Ref) -> bool:
    """A subscript holds a value the walk did not know (a load: ``box[l].offset``; a
    counter a helper moves through its address): any value in each iteration, so a
    conflict found is possible, not shown."""
    return any(
        p is not None and any(s.startswith("u") for s in poly.symbols(p)) for p in r.index or []
    )


def conflicts(refs: list[Ref], distributed: int, limit: int = 3) -> list[Conflict]:
    """Pairs of shared references that may carry a dependence across iterations (the
    first ``limit``: a verdict names three)."""
    unique = _dedupe(refs)
    pins = {id(r): _pins(r) for r in unique}
    spills = {id(r) for r in unique if leaves_row(r)}
    out = [Conflict(r, r, "outside") for r in unique if leaves_array(r)][:limit]
    if len(out) >= limit:
        return out
    for i, a in enumerate(unique):
        for b in unique[i:]:
            if not _may_interact(a, b):
                continue
            ra, rb = reference_root(a), reference_root(b)
            if conditions.assumed_apart(ra, rb):
                continue  # behind a run-time test that their ranges do not overlap
            if conditions.assumed_equal(ra, rb):
                moved = rebased(b, a)  # the test's other case: the two hold one address
                if moved is None:
                    out.append(Conflict(a, b, "unanalysable"))
                    if len(out) >= limit:
                        return out
                    continue
                if leaves_row(moved):
                    spills.add(id(moved))
                pins[id(moved)] = _pins(moved)
                b = moved
            if a.ordered and b.ordered:
                continue  # both in the ordered region: in the iterations' order, any schedule
            if _reshaped(a, b):
                out.append(Conflict(a, b, "shapes"))  # one object seen with two row sizes
                if len(out) >= limit:
                    return out
                continue
            if a.size and b.size and a.size != b.size and (a.index or b.index):
                out.append(Conflict(a, b, "sizes"))  # one object in two element types
                if len(out) >= limit:
                    return out
                continue
            if id(a) in spills or id(b) in spills:
                out.append(Conflict(a, b, "overflow"))
                if len(out) >= limit:
                    return out
                continue
            if _pinned_by(a, b, pins[id(a)], pins[id(b)], distributed):
                continue
            why = _pair(a, b, distributed)
            if why:
                out.append(Conflict(a, b, why))
                if len(out) >= limit:
                    return out
    return out


def rebased(b: Ref, a: Ref) -> Ref | None:
    """``b`` as made through ``a``'s pointer, where the two pointers hold one address: its
    subscripts less its own pointer's place plus ``a``'s (None: a place not known, or
    elements or rows of other sizes, which do not compare)."""
    if a.start is None or b.start is None or b.index is None or a.size != b.size:
        return None
    if len(a.start) != len(b.start) or len(b.index) < len(b.start) or not a.size:
        return None
    if None in a.start or None in b.start:
        return None
    if [_length_key(x) if x is not None else None for x in a.inner] != [
        _length_key(x) if x is not None else None for x in b.inner
    ]:
        return None
    moved = [  # the pointer's place is given for the leading dimensions (a row's)
        None if p is None else poly.add(poly.add(p, sb, -1), sa, 1)
        for p, sb, sa in zip(b.index, b.start, a.start, strict=False)
    ]
    return replace(b, index=moved + b.index[len(moved) :], start=list(a.start))


def _reshaped(a: Ref, b: Ref) -> bool:
    """Both references index one object by rows whose declared sizes differ (a
    ``double (*b)[50]`` over a ``double a[N][100]``): ``b[i][j]`` and ``a[i][j]`` are not
    the same element, so the subscripts cannot be compared dimension by dimension."""
    if not a.inner or not b.inner or len(a.inner) != len(b.inner):
        return False
    return any(
        x is not None and y is not None and _length_key(x) != _length_key(y)
        for x, y in zip(a.inner, b.inner, strict=True)
    )


def _length_key(length: int | poly.Poly) -> tuple:
    """A row length in one comparable form: 100 and the polynomial 100 are one length."""
    return _key(poly.const(length) if isinstance(length, int) else length) or ()


def _dedupe(refs: list[Ref]) -> list[Ref]:
    seen: dict[tuple, Ref] = {}
    for r in refs:
        key = (
            r.objects,
            None if r.index is None else tuple(_key(p) for p in r.index),
            r.kind,
            r.op,
            r.value,
            r.group,
            tuple(None if x is None else _length_key(x) for x in r.inner),
            r.size,
            tuple((b.sym, _key(b.lower), _key(b.upper)) for b in r.domain),
            tuple(_bound_key(b) for b in r.given),  # a branch's test is the reference's own
            r.outer,
            r.member,
        )
        seen.setdefault(key, r)
    return list(seen.values())


def _bound_key(b: Bound) -> tuple:
    defined = b.defined and (b.defined[0], _key(b.defined[1]), _key(b.defined[2]))
    return (b.sym, _key(b.lower), _key(b.upper), b.step, _key(b.start), defined, _key(b.stride))


def _key(p: poly.Poly | None) -> tuple | None:
    return None if p is None else tuple(sorted(p.items()))


def _may_interact(a: Ref, b: Ref) -> bool:
    if a.kind == "r" and b.kind == "r":
        return False
    if a.kind == b.kind == "w" and a.value is not None and a.value == b.value:
        return False  # every writer leaves the same constant, and nothing reads it here
    if a.kind == "u" and b.kind == "u" and a.op == b.op and a.op is not None:
        # commutative updates made atomically: any order gives one result; under two
        # different locks (an atomic and a critical, two names) they may run at once
        if a.lock == b.lock:
            return False
    # an access through a pointer the points-to finds no object for (never stored, or
    # a load it did not follow) is taken as one that may touch anything
    oa, ob = a.objects or None, b.objects or None
    if oa is not None and ob is not None and not (oa & ob):
        return False
    if a.member and b.member and a.member[0] == b.member[0] and a.member[1] != b.member[1]:
        if _one_grid(a, b):
            return False  # two members of one struct type: their bytes never meet
    if (oa is None and b.hidden) or (ob is None and a.hidden):
        return False  # a pointer of unknown target never reaches a variable whose address
        # is never taken (a kernel's by-value ``beta``, its bound ``m``)
    if a.group and b.group and a.group[0] == b.group[0] and a.group[1] != b.group[1]:
        return False  # two pointers of one double buffer: never the same object at once
    return True


def _one_grid(a: Ref, b: Ref) -> bool:
    """Both references (tagged with one struct type, so both count its elements) count
    from one anchor: the object's start, or the same pointer whose place the proof does
    not know. Through two pointers whose distance is not known (``q = (struct P *)((char
    *)p + 8)``) a member of one element may lie on another member of another element."""
    if a.index is None or b.index is None:
        return False
    return _anchors(a) == _anchors(b)


def _anchors(r: Ref) -> set[str]:
    """The unknown pointer places in a reference's subscripts (``&q``'s parameter)."""
    return {
        s
        for p in r.index
        if p is not None
        for s in poly.symbols(p)
        if PARAM_TEXTS.get(s, "").startswith("&")
    }


def _pair(a: Ref, b: Ref, distributed: int) -> str:
    """Why two references may conflict ('' when they cannot); the subscripts as written
    were already compared by ``conflicts`` (``_pinned_by``)."""
    if a.index is not None and b.index is not None and len(a.index) != len(b.index):
        a, b = _as_elements(a), _as_elements(b)  # a part of an element against all of it
    if a.index is None or b.index is None or len(a.index) != len(b.index):
        return "unanalysable"
    dims = delinearise(a, b, same_parameters=True)
    if _pinned(a, b, dims, distributed) or _independent(a, b, dims, distributed):
        return ""
    known = all(p is not None and poly.is_affine(p) for p in a.index + b.index)
    return "carried" if known else "unanalysable"


def _as_elements(r: Ref) -> Ref:
    """A member access (``q->x[c]``: element i, then c) as the whole element it lies in
    (``[i]``): what it touches is within what that touches."""
    if r.element_rank is None or r.index is None:
        return r
    return replace(r, index=r.index[: r.element_rank], element_rank=None)


def _pins(r: Ref) -> dict[int, tuple[tuple, str]]:
    """Per subscript: (its polynomial, its one moving variable) where it has one."""
    out: dict[int, tuple[tuple, str]] = {}
    for k, p in enumerate(r.index or []):
        if p is None or not poly.is_affine(p):
            continue
        moving = [x for x in poly.symbols(p) if not x.startswith("P")]
        if len(moving) == 1:
            out[k] = (_key(p), moving[0])
    return out


def _pinned_by(a: Ref, b: Ref, pa: dict, pb: dict, distributed: int) -> bool:
    """``_pinned`` on the subscripts as written, from each reference's ``_pins``."""
    if a.index is None or b.index is None or len(a.index) != len(b.index):
        return False
    iters = [bd.sym for bd in a.domain[:distributed]]
    if [bd.sym for bd in b.domain[:distributed]] != iters or len(iters) != distributed:
        return False
    pinned = {pa[k][1] for k in pa.keys() & pb.keys() if pa[k] == pb[k] and pa[k][1] in iters}
    return pinned == set(iters)


def _pinned(a: Ref, b: Ref, dims: list, distributed: int) -> bool:
    """The common case without isl: a subscript that is the same expression of one
    distributed variable (and sizes) in both, like ``x[i][j]`` against ``x[i][j+1]``:
    equal elements need equal iterations."""
    iters = [bd.sym for bd in a.domain[:distributed]]
    if [bd.sym for bd in b.domain[:distributed]] != iters or len(iters) != distributed:
        return False
    pinned = set()
    for pa, pb in dims:
        if pa is None or pa != pb or not poly.is_affine(pa):
            continue
        syms = poly.symbols(pa)
        moving = [x for x in syms if not x.startswith("P")]
        if len(moving) == 1 and moving[0] in iters:
            pinned.add(moving[0])
    return pinned == set(iters)


def delinearise(
    a: Ref, b: Ref, same_parameters: bool = False
) -> list[tuple[poly.Poly | None, poly.Poly | None]]:
    """Pairs of affine subscripts, splitting ``P*A + B`` (0 <= B < P) into A and B; a
    subscript that stays unknown is any value (None), which only adds solutions.

    ``same_parameters``: the two references are read with one value of every parameter
    (two iterations of one execution of a loop), so a term of parameters alone that both
    subscripts add alike leaves their equality as it is, and is set aside before the
    split: Rodinia's lud indexes ``a[i*size + j]`` through a pointer its caller got from
    an allocating helper, at an offset the proof does not know, and ``off + i*size + j``
    splits only without ``off``."""
    out: list[tuple[poly.Poly | None, poly.Poly | None]] = []
    for pa, pb in zip(a.index, b.index, strict=True):
        out_dims = None
        if pa is not None and pb is not None:
            if same_parameters and not (poly.is_affine(pa) and poly.is_affine(pb)):
                pa, pb = _without_common_parameters(pa, pb)
            out_dims = _split(pa, pb, a, b)
        out.extend(out_dims if out_dims is not None else [(None, None)])
    return out


def _without_common_parameters(pa: poly.Poly, pb: poly.Poly) -> tuple[poly.Poly, poly.Poly]:
    """Both less the terms made of parameters (and constants) that both hold alike."""
    common = {m for m, c in pa.items() if pb.get(m) == c and all(s.startswith("P") for s in m)}
    if not common:
        return pa, pb
    return (
        {m: c for m, c in pa.items() if m not in common},
        {m: c for m, c in pb.items() if m not in common},
    )


def _split(pa: poly.Poly, pb: poly.Poly, a: Ref, b: Ref, depth: int = 0):
    if poly.is_affine(pa) and poly.is_affine(pb):
        return [(pa, pb)]
    if depth > 3:
        return None
    candidates = sorted(
        {s for p in (pa, pb) for m in p if len(m) > 1 for s in m if s.startswith("P")}
    )
    for param in candidates:
        sa, sb = split_by_size(pa, param), split_by_size(pb, param)
        if sa is None or sb is None:
            continue
        (qa, ra), (qb, rb) = sa, sb
        if not (in_row(ra, param, a) and in_row(rb, param, b)):
            continue
        head = _split(qa, qb, a, b, depth + 1)
        if head is None or not (poly.is_affine(ra) and poly.is_affine(rb)):
            continue
        return head + [(ra, rb)]
    return None


def split_by_size(p: poly.Poly, param: str) -> tuple[poly.Poly, poly.Poly] | None:
    """p = param * q + r with r free of param (None when param appears squared)."""
    q: poly.Poly = {}
    r: poly.Poly = {}
    for m, c in p.items():
        if m.count(param) > 1:
            return None
        if param in m:
            rest = list(m)
            rest.remove(param)
            q = poly.add(q, {tuple(rest): c})
        else:
            r = poly.add(r, {m: c})
    return q, r


def in_row(r: poly.Poly, param: str, ref: Ref) -> bool:
    """0 <= r <= param - 1 at every point of the reference's domain."""
    budget.check()
    names = Names("")
    dom = domain_text(ref.domain, names, ref.given)
    if dom is None:
        return False
    expr = poly.to_isl(r, names)
    p = names(param)
    outside = f"({expr} < 0 or {expr} > {p} - 1)"
    text = set_text(names, [c for c in [dom, outside] if c])
    try:
        empty = isl.Set(text).is_empty()
    except isl.Error:
        return False
    if not empty:
        conditions.failed(text)
    return empty


def set_text(names: Names, conjuncts: list[str], other: Names | None = None) -> str:
    params = sorted(names.params | (other.params if other else set()) | conditions.assumed_params())
    dims = names.dims + (other.dims if other else [])
    conjuncts = [*conjuncts, *conditions.assumed_conjuncts()]
    body = " and ".join(conjuncts) if conjuncts else "true"
    return f"[{', '.join(params)}] -> {{ [{', '.join(dims)}] : {body} }}"


def _independent(
    a: Ref,
    b: Ref,
    dims: list[tuple[poly.Poly | None, poly.Poly | None]],
    distributed: int,
    any_iterations: bool = False,
) -> bool:
    budget.check()
    na, nb = Names("_a"), Names("_b")
    conj = []
    for ref, names in ((a, na), (b, nb)):
        dom = domain_text(ref.domain, names, ref.given)
        if dom:
            conj.append(dom)
    for pa, pb in dims:
        if pa is None or pb is None or not (poly.is_affine(pa) and poly.is_affine(pb)):
            continue  # any value on either side: no constraint
        conj.append(f"{poly.to_isl(pa, na)} = {poly.to_isl(pb, nb)}")
    if not any_iterations:  # rows of one layout, read in one execution of the loop
        conj += [
            segment_constraints(sa, sb, na, nb)
            for sa in _segments(a)
            for sb in _segments(b)
            if sa.param == sb.param
        ]
        iters_a = [na(bd.sym) for bd in a.domain[:distributed]]
        iters_b = [nb(bd.sym) for bd in b.domain[:distributed]]
        if len(iters_a) < distributed or len(iters_b) < distributed:
            return False
        differ = " or ".join(
            _apart(x, y, bd.stride, na)
            for x, y, bd in zip(iters_a, iters_b, a.domain[:distributed], strict=False)
        )
        conj.append(f"({differ})")
    text = set_text(na, conj, nb)
    if text not in _EMPTY:
        try:
            _EMPTY[text] = isl.Set(text).is_empty()
        except isl.Error:
            _EMPTY[text] = False
    if not _EMPTY[text]:
        conditions.failed(text)
    return _EMPTY[text]


def _segments(r: Ref) -> list[Segment]:
    return [bd.segment for bd in r.domain if bd.segment is not None]


def two_iterations(domain: list[Bound], distributed: int) -> bool:
    """Two different iterations of the distributed loops exist at some sizes the current
    assumptions allow (an assumption under which the loop runs once at most frees
    nothing worth a test)."""
    loops = domain[:distributed]
    if len(loops) < distributed:
        return True
    na, nb = Names("_a"), Names("_b")
    conj = [t for t in (domain_text(loops, na), domain_text(loops, nb)) if t]
    differ = " or ".join(_apart(na(bd.sym), nb(bd.sym), bd.stride, na) for bd in loops)
    text = set_text(na, [*conj, f"({differ})"], nb)
    try:
        return not isl.Set(text).is_empty()
    except isl.Error:
        return True


def _apart(x: str, y: str, stride: poly.Poly | None, names: Names) -> str:
    """Two different iterations' values of one loop: at least its step apart when the
    step is known only at run time (``ii += tile``: the tiles do not overlap)."""
    if stride is None or not poly.is_affine(stride):
        return f"{x} < {y} or {x} > {y}"
    s = poly.to_isl(stride, names)
    return f"({s} >= 1 and ({x} <= {y} - {s} or {x} >= {y} + {s}))"


_EMPTY: dict[str, bool] = {}  # isl's answers by set text (loops repeat their patterns)


def shared_pairs(first: list[Ref], second: list[Ref]):
    """(a, b): a shared reference of one loop and one of another that may touch one
    object, one of them writing."""
    for a in _dedupe([r for r in first if r.owner == "shared"]):
        for b in _dedupe([r for r in second if r.owner == "shared"]):
            if _may_interact(a, b) and not a.kind == b.kind == "r":
                yield a, b


def loops_conflict(first: list[Ref], second: list[Ref]) -> bool:
    """Whether some iteration of one loop and some iteration of another may touch the
    same shared element, one of them writing (no constraint on which iterations)."""
    for a, b in shared_pairs(first, second):
        if a.index is None or b.index is None or len(a.index) != len(b.index):
            return True
        dims = delinearise(a, b)
        if not _independent(a, b, dims, 0, any_iterations=True):
            return True
    return False
