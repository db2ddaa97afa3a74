"""The isl texts ``polyfoot`` counts: an access's elements, and the iterations chosen.

An affine access over an affine nest is written two ways. Over all iterations it is
the set of elements it touches, ``{ [e...] : exists loop variables : bounds and e =
subscripts }``. For a thread's share it is a map from the worksharing loop's
iteration number to the elements, ``{ [it] -> [e...] : ... }``, and the share is a
small set of iteration numbers (``chosen_set``): the map is read and merged once
per array, and each schedule's question is then the short text of its iterations
(isl takes a third of a millisecond to read a set with a disjunction; a stencil's
ranking asked for fifty such sets, each with the whole nest repeated per access).
"""

from __future__ import annotations

from dataclasses import dataclass

import islpy as isl

from autotune.analysis import exprs

ITERATION = "it"  # the map's domain: the worksharing loop's iteration number 0, 1, ...


@dataclass(frozen=True)
class Cyclic:
    """Thread ``thread`` of ``threads`` takes chunks ``thread, thread + threads, ...``
    of ``chunk`` iterations each (the loop's own bounds end the last one); ``thread``
    -1: the thread number is the parameter ``_t``."""

    chunk: int
    threads: int
    thread: int


Runs = list[tuple[int, int]]

ONE_RUN = "one run"  # one run of iterations, its first and length the parameters _f, _n


def subscripts(acc: dict, tuples: bool) -> list[dict[str, int]] | None:
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


def element_set(acc: dict, subs: list[dict[str, int]]) -> str | None:
    """``{ [e...] : exists loop variables : bounds and e = subscripts }``."""
    nest = _nest(acc, subs)
    if nest is None:
        return None
    names, conj = nest
    head = ", ".join(f"e{d}" for d in range(len(subs)))
    inner = ", ".join(names.values())
    body = " and ".join(conj)
    return f"{{ [{head}] : exists ({inner} : {body}) }}" if inner else f"{{ [{head}] : {body} }}"


def iteration_map(acc: dict, subs: list[dict[str, int]]) -> str | None:
    """``{ [it] -> [e...] : exists loop variables : bounds and e = subscripts and it =
    the outermost level's iteration number }``; None where that number is not affine."""
    nest = _nest(acc, subs)
    if nest is None:
        return None
    names, conj = nest
    first = next((lv for lv in acc["domain"] if not lv.get("unknown")), None)
    number = _iteration_number(first, names) if first is not None else None
    if number is None:
        return None
    head = ", ".join(f"e{d}" for d in range(len(subs)))
    body = " and ".join([*conj, f"{ITERATION} = {number}"])
    inner = ", ".join(names.values())
    return f"{{ [{ITERATION}] -> [{head}] : exists ({inner} : {body}) }}"


def chosen_set(which: Runs | Cyclic | str) -> str:
    """The iteration numbers ``which`` names, with its parameters."""
    it = ITERATION
    if isinstance(which, Cyclic):
        c, p, t = which.chunk, which.threads, which.thread
        if t < 0:
            return (
                f"[_t] -> {{ [{it}] : {it} mod {c * p} >= {c} * _t"
                f" and {it} mod {c * p} < {c} * _t + {c} }}"
            )
        return f"{{ [{it}] : {it} mod {c * p} >= {c * t} and {it} mod {c * p} < {c * (t + 1)} }}"
    if which == ONE_RUN:
        return f"[_f, _n] -> {{ [{it}] : _f <= {it} < _f + _n }}"
    runs = [f"({first} <= {it} < {first + length})" for first, length in which if length > 0]
    return f"{{ [{it}] : {' or '.join(runs) if runs else 'false'} }}"


def inner_in_bounds(union: isl.Set, dims: list) -> bool:
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


def _nest(acc: dict, subs: list[dict[str, int]]) -> tuple[dict[str, str], list[str]] | None:
    """The nest's variables renamed ``v0, v1, ...`` and the conjunction of its bounds and
    ``e = subscripts``; None where a bound is not affine or a subscript uses a level
    that is not analysed."""
    used = {v for a in subs for v, c in a.items() if v and c}
    names: dict[str, str] = {}
    conj: list[str] = []
    for k, lv in enumerate(acc["domain"]):
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
    conj += [f"e{d} = {_linear(a, names)}" for d, a in enumerate(subs)]
    return names, conj


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
