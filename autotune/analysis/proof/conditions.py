"""Sizes a proof may take for granted, and the sizes at which a question fails.

Real codes often hold a dependence only at sizes nobody runs: NPB BT's
boundary planes ``i = 1`` and ``i = grid_points[0] - 3`` are the same plane
only when ``grid_points[0] == 4``. A proof that fails there keeps the loop as
written for every size. Instead, the isl questions that fail say at which
parameter values they fail; when those values are all small (every failure is
bounded above in some size), the loop is proved again assuming sizes above
them, and a variant runs only behind a run-time test of that assumption
(loop versioning, as compilers do for aliasing): ``if (grid_points[0] >= 6)``
the tuned loop, ``else`` the loop as written.

The state is per analysis and single-threaded: ``collecting()`` and
``assuming()`` are entered by the gate around one file's proof.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import islpy as isl

from autotune.analysis.proof.scans import SCANS, is_scan, is_sorted_scan

SMALL = 64  # a failure only at sizes up to this is a corner case worth a run-time test


# an affine literal ``sum(c * P) + k >= 0``: (coefficients by parameter, k)
Literal = tuple[tuple[tuple[str, int], ...], int]


@dataclass(frozen=True)
class Relation:
    """A condition between sizes a proof may assume behind a run-time test: a
    conjunction of clauses, each a disjunction of affine literals (the complement of the
    sizes at which a question failed: ``m <= ld`` for ``a[i * ld + j]`` with ``j < m``)."""

    clauses: tuple[tuple[Literal, ...], ...]

    def params(self) -> set[str]:
        return {p for clause in self.clauses for coeffs, _ in clause for p, _ in coeffs}

    def isl(self) -> str:
        return " and ".join(
            "(" + " or ".join(f"{_affine(c, k, str)} >= 0" for c, k in clause) + ")"
            for clause in self.clauses
        )

    def c_text(self, texts: dict[str, str]) -> str:
        """The test in C over the sizes' own texts: ``(n <= 0 || m <= 0 || ld >= m)``."""
        return " && ".join(
            "(" + " || ".join(_c_literal(c, k, texts) for c, k in clause) + ")"
            for clause in self.clauses
        )

    def holds(self, values: dict[str, int]) -> bool | None:
        """Its truth at these parameter values (None: one of them is not known)."""
        if not self.params() <= set(values):
            return None
        return all(
            any(sum(v * values[p] for p, v in c) + k >= 0 for c, k in clause)
            for clause in self.clauses
        )


@dataclass
class _State:
    assume: dict[str, int] = field(default_factory=dict)  # param -> lower bound
    relations: tuple[Relation, ...] = ()
    failures: list[isl.Set] | None = None
    # pairs of pointers whose reaches a run-time test keeps apart (``overlap``)
    apart: frozenset[frozenset[str]] = frozenset()
    # pairs of pointers the same test finds equal instead (``w == x``: an update in place)
    equal: frozenset[frozenset[str]] = frozenset()


_STATE = _State()


@contextmanager
def collecting() -> Iterator[list[isl.Set]]:
    """Record the parameter values at which each failed isl question fails."""
    saved = _STATE.failures
    _STATE.failures = []
    try:
        yield _STATE.failures
    finally:
        _STATE.failures = saved


@contextmanager
def assuming(bounds: dict[str, int], relations: tuple[Relation, ...] = ()) -> Iterator[None]:
    """Answer every isl question only for parameters at these lower bounds or above,
    and where these relations between them hold."""
    saved = _STATE.assume, _STATE.relations
    _STATE.assume, _STATE.relations = dict(bounds), tuple(relations)
    try:
        yield
    finally:
        _STATE.assume, _STATE.relations = saved


@contextmanager
def assuming_apart(
    pairs: frozenset[frozenset[str]], equal: frozenset[frozenset[str]] = frozenset()
) -> Iterator[None]:
    """Answer the dependence questions as if the memory reached through each pair of
    pointers did not overlap (a run-time test of their address ranges stands before
    the variant: ``overlap``), and as if each pair in ``equal`` held one address (the
    test's other case: ``waxpby(n, 1.0, r, beta, p, p)``)."""
    saved = _STATE.apart, _STATE.equal
    _STATE.apart, _STATE.equal = pairs, equal
    try:
        yield
    finally:
        _STATE.apart, _STATE.equal = saved


def assumed_apart(a: str, b: str) -> bool:
    return bool(a and b and a != b and frozenset((a, b)) in _STATE.apart)


def assumed_equal(a: str, b: str) -> bool:
    return bool(a and b and a != b and frozenset((a, b)) in _STATE.equal)


def assumed_params() -> set[str]:
    return set(_STATE.assume).union(*(r.params() for r in _STATE.relations))


def assumed_conjuncts() -> list[str]:
    """isl constraints of the current assumption (parameters must be declared)."""
    bounds = [f"{p} >= {k}" for p, k in sorted(_STATE.assume.items())]
    return bounds + [r.isl() for r in _STATE.relations]


def listening() -> bool:
    """Someone collects failures (the first pass of a file's gate)."""
    return _STATE.failures is not None


def failed(text_or_set: str | isl.Set) -> None:
    """A question failed: keep where (its set's parameter values), if anyone listens."""
    if _STATE.failures is None:
        return
    try:
        s = isl.Set(text_or_set) if isinstance(text_or_set, str) else text_or_set
        _STATE.failures.append(s.params())
    except isl.Error:
        _STATE.failures.append(isl.Set("{ : }"))  # unknown: fails everywhere


def param_names(failure: isl.Set) -> list[str]:
    """The size parameters a failure set is stated in."""
    n = failure.get_space().dim(isl.dim_type.param)
    return [failure.get_dim_name(isl.dim_type.param, pos) for pos in range(n)]


def lower_bounds(failures: list[isl.Set], usable: set[str]) -> dict[str, int]:
    """One lower bound per failure that is bounded above, at most ``SMALL``, in some
    usable parameter: sizes above every such bound avoid all of those failures.
    Failures at any size (or only in parameters a run-time test cannot read) are
    left out; they keep their loops as written whatever is assumed."""
    out: dict[str, int] = {}
    for f in failures:
        best: tuple[int, str] | None = None
        for pos, name in enumerate(param_names(f)):
            if name not in usable or is_scan(name):
                continue  # a scan's value is no size (``relations`` reads it)
            top = _max_of(f, pos)
            if top is not None and top <= SMALL and (best is None or top < best[0]):
                best = (top, name)
        if best is not None:
            top, name = best
            out[name] = max(out.get(name, top + 1), top + 1)
    return out


def _max_of(params: isl.Set, pos: int) -> int | None:
    """The largest value parameter ``pos`` takes in ``params`` (None: unbounded, empty)."""
    try:
        moved = isl.Set.from_params(params).move_dims(
            isl.dim_type.set, 0, isl.dim_type.param, pos, 1
        )
        val = moved.dim_max_val(0)
    except isl.Error:
        return None
    if val.is_infty() or val.is_neginfty() or val.is_nan() or not val.is_int():
        return None
    return int(val.to_python())


MAX_COEFFICIENT = 64  # a relation a reader can check by eye: small coefficients only
MAX_CLAUSES = 3
MAX_LITERALS = 4


def satisfiable(relations: tuple[Relation, ...]) -> bool:
    """Some sizes satisfy every relation at once (an assumption no size meets would
    prove anything, behind a test that is never true)."""
    params = sorted(set().union(*(r.params() for r in relations)))
    text = f"[{', '.join(params)}] -> {{ : {' and '.join(r.isl() for r in relations)} }}"
    try:
        return not isl.Set(text).is_empty()
    except isl.Error:
        return False


def relations(
    failures: list[isl.Set], usable: set[str], measured: dict[str, int]
) -> list[Relation]:
    """For each failure stated in usable parameters that a relation between two or more
    of them avoids, that relation: the complement of the failure's sizes (Polly's
    run-time assumptions). One false at the sizes a profile run measured is left out:
    its variant would never run there."""
    out: list[Relation] = []
    for f in failures:
        rel = _complement(f, usable)
        if rel is None or rel in out:
            continue
        if not any(_between_sizes(c, k) for clause in rel.clauses for c, k in clause):
            continue  # one size alone: small sizes are ``lower_bounds``'; large ones, none
        if rel.holds(measured) is False:
            continue
        out.append(rel)
    return out


def _between_sizes(coeffs: tuple[tuple[str, int], ...], k: int) -> bool:
    """A literal worth a test: two sizes or more, the largest of the counts a scan
    measures kept at or below a positive bound (``max nAtoms[iBox] <= 64``; at most 0
    would run the variant only where every cell is empty), or row offsets found sorted."""
    if len(coeffs) > 1:
        return True
    ((param, v),) = coeffs
    if is_sorted_scan(param):
        return v > 0 and k == -1  # the offsets do not decrease: the scan's 1
    return is_scan(param) and v < 0 and k >= 1


def _complement(failure: isl.Set, usable: set[str]) -> Relation | None:
    """The sizes outside ``failure``, as clauses of negated constraints (one clause per
    piece of the failure); None when it has none, or it needs a parameter a test cannot
    read, an existential, or large coefficients."""
    if failure.is_empty():
        return None
    names = param_names(failure)
    clauses: list[tuple[Literal, ...]] = []
    for piece in failure.get_basic_sets():
        if piece.dim(isl.dim_type.div):
            return None
        literals: list[Literal] = []
        for con in piece.get_constraints():
            coeffs = {}
            for pos, name in enumerate(names):
                v = con.get_coefficient_val(isl.dim_type.param, pos).to_python()
                if v:
                    coeffs[name] = int(v)
            k = int(con.get_constant_val().to_python())
            if not coeffs:
                continue
            if not set(coeffs) <= usable or max(map(abs, coeffs.values())) > MAX_COEFFICIENT:
                return None
            neg = (tuple(sorted((p, -v) for p, v in coeffs.items())), -k - 1)
            literals.append(neg)  # not (e >= 0): -e - 1 >= 0
            if con.is_equality():  # not (e == 0): also e - 1 >= 0
                literals.append((tuple(sorted(coeffs.items())), k - 1))
        if not literals:
            return None  # a piece that holds at every size: nothing avoids it
        clause = tuple(dict.fromkeys(literals))
        if len(clause) > MAX_LITERALS:
            return None
        if clause not in clauses:
            clauses.append(clause)
    if not clauses or len(clauses) > MAX_CLAUSES:
        return None
    return Relation(tuple(clauses))


def _affine(coeffs: tuple[tuple[str, int], ...], k: int, name) -> str:
    terms = [
        name(p) if v == 1 else f"-{name(p)}" if v == -1 else f"{v}{name(p)}" for p, v in coeffs
    ]
    return " + ".join([*terms, str(k)])


def _c_literal(coeffs: tuple[tuple[str, int], ...], k: int, texts: dict[str, str]) -> str:
    """``e >= 0`` as a comparison of positive terms with negative ones: ``ld >= m``; a
    sorted scan's 1 in a message, as what it says (``rowptr[r] <= rowptr[r + 1] at every
    r``)."""
    if len(coeffs) == 1 and coeffs[0][1] == 1 and k == -1 and is_sorted_scan(coeffs[0][0]):
        shown = SCANS[coeffs[0][0]].shown()
        if texts.get(coeffs[0][0]) == shown:
            return shown

    def side(terms: list[tuple[str, int]], const: int) -> str:
        parts = [f"{v} * ({texts[p]})" if v != 1 else f"({texts[p]})" for p, v in terms]
        if const or not parts:
            parts.append(str(const))
        return " + ".join(parts)

    left = [(p, v) for p, v in coeffs if v > 0]
    right = [(p, -v) for p, v in coeffs if v < 0]
    big, small = side(left, max(k, 0)), side(right, max(-k, 0))
    return f"{small} <= 0" if big == "0" else f"{big} >= {small}"
