"""The address ranges a loop reaches through a pointer, as C over the sizes at its
directive: isl's lowest and highest element offset of each reference (the subscripts
less the pointer's own place, flattened by the row lengths) over the loop's bounds,
printed from isl's AST expressions, for ``overlap``'s run-time tests."""

from __future__ import annotations

from dataclasses import dataclass

import islpy as isl

from autotune.analysis.proof import deps, poly
from autotune.analysis.proof.facts import Ref
from autotune.analysis.proof.isltext import Names, domain_text
from autotune.analysis.proof.sizes_read import HOLDER
from autotune.analysis.proof.syntax import PARAM_TEXTS


@dataclass(frozen=True)
class Reach:
    """The bytes a loop reaches through one pointer, as C over the sizes at the directive:
    ``base + lo * size`` up to (not including) ``base + hi * size``."""

    root: str
    size: int
    lo: str
    hi: str

    def start(self) -> str:
        return _address(self.root, self.lo, self.size)

    def end(self) -> str:
        return _address(self.root, self.hi, self.size)


def _address(root: str, elements: str, size: int) -> str:
    base = f"(__INTPTR_TYPE__){root}"
    if elements.lstrip("-").isdigit():
        bytes_ = int(elements) * size
        return base if not bytes_ else f"{base} + {bytes_}" if bytes_ > 0 else f"{base} - {-bytes_}"
    return f"{base} + {_wrap(elements)} * {size}"


def apart_text(x: Reach, y: Reach) -> str:
    """The C test that two reaches do not overlap."""
    return f"({x.end()} <= {y.start()} || {y.end()} <= {x.start()})"


def whole_struct(holder: str) -> Reach:
    """The bytes of a struct known by its address (``@at``: ``*at``), whose members the
    loop reads its pointers or sizes from."""
    address = holder[len(HOLDER) :]
    return Reach(address, 1, "0", f"(long)sizeof(*{address})")


def reaches(root: str, refs: list[Ref], usable) -> list[Reach] | None:
    """The reaches of every reference through ``root``, those of one element size with
    affine subscripts merged (isl's union of their minima and of their maxima)."""
    merged: dict[int, tuple[isl.PwAff, isl.PwAff]] = {}
    out: list[Reach] = []
    for r in refs:
        offset = _offset(r)
        got = _range(offset, r, usable) if offset is not None and r.size else None
        if got is None:
            return None
        lo, hi = got
        if isinstance(lo, str):
            out.append(Reach(root, r.size, lo, hi))
            continue
        if r.size in merged:
            was_lo, was_hi = merged[r.size]
            lo, hi = was_lo.union_min(lo).coalesce(), was_hi.union_max(hi).coalesce()
        merged[r.size] = (lo, hi)
    for size, (lo, hi) in sorted(merged.items()):
        texts = _c_of(lo, usable), _c_of(_plus_one(hi), usable)
        if None in texts:
            return None
        out.append(Reach(root, size, texts[0], texts[1]))
    return list(dict.fromkeys(out))


def _offset(r: Ref) -> poly.Poly | None:
    """The element a reference reaches, counted from its pointer: the subscripts
    (the index less the pointer's own place in its object, ``Ref.start``) flattened by
    the row lengths, as C's address arithmetic does."""
    index, start = r.index, r.start
    if not index or start is None or len(start) != 1 or start[0] is None:
        return None
    if any(p is None for p in index) or len(r.inner) != len(index) - 1:
        return None
    off = poly.add(index[0], start[0], -1)
    for length, p in zip(r.inner, index[1:], strict=True):
        if length is None:
            return None
        off = poly.mul(off, poly.const(length) if isinstance(length, int) else length)
        if off is None:
            return None
        off = poly.add(off, p)
    return off


def _range(offset: poly.Poly, r: Ref, usable) -> tuple | None:
    """(lowest, highest) offset over the reference's loops: isl piecewise affine
    functions of the sizes, or C texts (lowest, one past the highest) for a flattened
    ``n * q + j`` whose ``0 <= j < n`` isl proves."""
    if poly.is_affine(offset):
        return _extremes(offset, r)
    sizes = sorted({s for m in offset if len(m) > 1 for s in m if s.startswith("P")})
    for size in sizes:
        split = deps.split_by_size(offset, size)
        if split is None or size not in usable({size}):
            continue
        q, rest = split
        if not (poly.is_affine(q) and poly.is_affine(rest) and deps.in_row(rest, size, r)):
            continue
        got = _extremes(q, r)
        if got is None:
            continue
        lo, hi = _c_of(got[0], usable), _c_of(_plus_one(got[1]), usable)
        if lo is None or hi is None:
            continue
        n = _long(PARAM_TEXTS[size])
        return ("0" if lo == "0" else f"{n} * {lo}"), f"{n} * {hi}"
    return None


def _extremes(offset: poly.Poly, r: Ref) -> tuple[isl.PwAff, isl.PwAff] | None:
    """isl's minimum and maximum of an affine offset over the reference's loops (None:
    unbounded, as with a subscript that holds a value read from memory)."""
    names = Names("")
    dom = domain_text(r.domain, names)
    expr = poly.to_isl(offset, names)
    dims = [*names.dims, "offset__"]
    body = " and ".join(c for c in (dom, f"offset__ = {expr}") if c)
    text = f"[{', '.join(sorted(names.params))}] -> {{ [{', '.join(dims)}] : {body} }}"
    try:
        s = isl.Set(text).project_out(isl.dim_type.set, 0, len(dims) - 1)
        return s.dim_min(0).coalesce(), s.dim_max(0).coalesce()
    except isl.Error:
        return None


def _plus_one(pw: isl.PwAff) -> isl.PwAff:
    return pw.add_constant_val(isl.Val.one(pw.get_ctx())).coalesce()


def _long(text: str) -> str:
    """A size's text read as ``long`` (products of sizes past ``int``'s range)."""
    plain = text.replace("_", "a").isalnum() and not text[0].isdigit()
    return f"(long){text}" if plain else f"(long)({text})"


_BINARY = {
    "add": "+",
    "sub": "-",
    "mul": "*",
    "div": "/",
    "pdiv_q": "/",
    "pdiv_r": "%",
    "zdiv_r": "%",
    "le": "<=",
    "lt": "<",
    "ge": ">=",
    "gt": ">",
    "eq": "==",
    "and_": "&&",
    "and_then": "&&",
    "or_": "||",
    "or_else": "||",
}


def _c_of(pw: isl.PwAff, usable) -> str | None:
    """A piecewise affine function of the sizes as a C expression in ``long`` over their
    own texts (None: a size the test cannot read, or an operation it does not print)."""
    try:
        expr = isl.AstBuild.from_context(pw.domain()).expr_from_pw_aff(pw)
    except isl.Error:
        return None
    used: set[str] = set()
    text = _c_expr(expr, used)
    if text is None or used - usable(used):
        return None
    return text


def _c_expr(e: isl.AstExpr, used: set[str]) -> str | None:
    kind = e.get_type()
    if kind == isl.ast_expr_type.int:
        return str(e.get_val().to_python())
    if kind == isl.ast_expr_type.id:
        name = e.get_id().get_name()
        if name not in PARAM_TEXTS:
            return None
        used.add(name)
        return _long(PARAM_TEXTS[name])
    if kind != isl.ast_expr_type.op:
        return None
    op = e.get_op_type().name
    args = [_c_expr(e.get_op_arg(k), used) for k in range(e.get_op_n_arg())]
    if None in args:
        return None
    if op in _BINARY and len(args) == 2:
        return f"{_wrap(args[0])} {_BINARY[op]} {_wrap(args[1])}"
    if op == "minus" and len(args) == 1:
        return f"-{_wrap(args[0])}"
    if op in ("min", "max") and args:
        out = args[0]
        for a in args[1:]:
            out = f"({out} {'<' if op == 'min' else '>'} {a} ? {out} : {a})"
        return out
    if op == "fdiv_q" and len(args) == 2:  # floor division by a positive constant
        a, b = map(_wrap, args)
        return f"({a} >= 0 ? {a} / {b} : -((-{a} + {b} - 1) / {b}))"
    if op in ("cond", "select") and len(args) == 3:
        return f"({args[0]} ? {args[1]} : {args[2]})"
    return None


def _wrap(text: str) -> str:
    """An operand in parentheses unless it is one number or one cast size."""
    bare = text.lstrip("-").isdigit() or (text.startswith("(long)") and " " not in text)
    return text if bare else f"({text})"
