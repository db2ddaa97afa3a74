"""Integer polynomials over named symbols: subscripts and bounds as the proof sees them.

A ``Poly`` maps a monomial (a sorted tuple of symbol names, ``()`` for the
constant) to an integer coefficient. Affine polynomials go to isl as they are;
products of a size parameter and a loop variable (``i*n + j``) are delinearised
by ``deps``. Division and ``%`` of an affine value by a positive constant, and the
least or greatest of two affine values (``a < b ? a : b``, a ``MIN`` macro), become
a symbol the walker defines by constraints (``Bound.defined``: ``i = k / M`` of a
flattened index, a tile's ``MIN(ii + BS, n)``). Anything else (division by a
variable, shifts of variables, floating values) is not a ``Poly``: the builder
returns None and the reference counts as not analysable, which can only keep a
loop as written.
"""

from __future__ import annotations

from collections.abc import Callable

from pycparser import c_ast

from autotune.analysis.exprs import Symbolic, parse_constant

Monomial = tuple[str, ...]
Poly = dict[Monomial, int]
MAX_DEGREE = 3


def const(value: int) -> Poly:
    return {(): int(value)} if value else {}


def symbol(name: str) -> Poly:
    return {(name,): 1}


def add(a: Poly, b: Poly, sign: int = 1) -> Poly:
    out = dict(a)
    for m, c in b.items():
        v = out.get(m, 0) + sign * c
        if v:
            out[m] = v
        else:
            out.pop(m, None)
    return out


def mul(a: Poly, b: Poly) -> Poly | None:
    out: Poly = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            m = tuple(sorted(ma + mb))
            if len(m) > MAX_DEGREE:
                return None
            v = out.get(m, 0) + ca * cb
            if v:
                out[m] = v
            else:
                out.pop(m, None)
    return out


def constant_of(p: Poly) -> int | None:
    """The value when ``p`` has no symbol."""
    if all(m == () for m in p):
        return p.get((), 0)
    return None


def symbols(p: Poly) -> set[str]:
    return {s for m in p for s in m}


def is_affine(p: Poly) -> bool:
    return all(len(m) <= 1 for m in p)


def to_isl(p: Poly, names: Callable[[str], str]) -> str:
    """isl text of an affine ``p`` (``names`` maps symbols to isl identifiers)."""
    terms = []
    for m, c in sorted(p.items()):
        if not m:
            terms.append(str(c))
        else:
            terms.append(f"{c}*{names(m[0])}")
    return " + ".join(terms) if terms else "0"


def text(p: Poly) -> str:
    if not p:
        return "0"
    parts = []
    for m, c in sorted(p.items()):
        parts.append("*".join([str(c)] + list(m)) if m else str(c))
    return " + ".join(parts)


class PolyBuilder:
    """C expression -> Poly, names resolved by ``lookup`` (None: not a polynomial).

    ``lookup(name, node)`` returns the name's Poly (a loop symbol, a parameter,
    a value substituted from an earlier assignment) or None when unknown. A cast to
    an integer type narrower than ``int`` wraps, so it is no polynomial of its
    operand: ``narrow(type)`` says which (``decls.narrows``, from the layout's sizes);
    without it every cast is taken as one that may wrap.
    """

    def __init__(
        self,
        lookup: Callable[[str, c_ast.Node], Poly | None],
        element: Callable[[c_ast.Node], Poly | None] | None = None,
        narrow: Callable[[c_ast.Node], bool] | None = None,
        define: Callable[[str, Poly, Poly], Poly | None] | None = None,
        size_of: Callable[[c_ast.Node], int | None] | None = None,
    ) -> None:
        self.lookup = lookup
        self.element = element  # ``d[2]``, ``s.n``: a value read from memory
        self.narrow = narrow
        self.define = define  # ``k / M``, min, max as a symbol the caller defines
        self.size_of = size_of  # bytes of ``sizeof(double)``, ``sizeof *p`` (None: unknown)

    def build(self, node: c_ast.Node | None) -> Poly | None:
        if node is None:
            return None
        if isinstance(node, c_ast.Constant):
            if node.type in ("string",):
                return None
            try:
                v = parse_constant(node)
            except Symbolic:
                return None
            return const(v) if isinstance(v, int) else None
        if isinstance(node, c_ast.ID):
            return self.lookup(node.name, node)
        if isinstance(node, c_ast.Cast):
            inner = self.build(node.expr)
            if inner is not None and (self.narrow is None or self.narrow(node.to_type)):
                return None  # wraps: only a constant could be folded, and none needs it
            return inner
        if isinstance(node, c_ast.ArrayRef | c_ast.StructRef) and self.element is not None:
            return self.element(node)
        if isinstance(node, c_ast.UnaryOp):
            return self._unary(node)
        if isinstance(node, c_ast.BinaryOp):
            return self._binary(node)
        if isinstance(node, c_ast.TernaryOp):
            cond = self.build(node.cond)
            value = constant_of(cond) if cond is not None else None
            if value is None:
                return self._min_max(node)
            return self.build(node.iftrue if value else node.iffalse)
        return None

    def _floor_bits(self, op: str, value: Poly, k: int) -> Poly | None:
        """``value >> k`` and ``value & (2^k - 1)`` on two's complement integers (gcc's):
        the floor of ``value / 2^k`` and what is left, also for a negative value (the
        colour of a red-black sweep, ``(i + colour) & 1``)."""
        if not is_affine(value):
            return None
        q = self.define("fdiv", value, const(1 << k))
        if q is None or op == ">>":
            return q
        return add(value, mul(q, const(1 << k)) or {}, -1)

    def _min_max(self, node: c_ast.TernaryOp) -> Poly | None:
        """``a < b ? a : b`` (a ``MIN`` macro) and the like over two affine values."""
        cond = node.cond
        if self.define is None or not isinstance(cond, c_ast.BinaryOp):
            return None
        if cond.op not in ("<", "<=", ">", ">="):
            return None
        left, right = self.build(cond.left), self.build(cond.right)
        yes, no = self.build(node.iftrue), self.build(node.iffalse)
        if any(p is None or not is_affine(p) for p in (left, right, yes, no)):
            return None
        less = cond.op in ("<", "<=")
        if (yes, no) == (left, right):
            return self.define("min" if less else "max", left, right)
        if (yes, no) == (right, left):
            return self.define("max" if less else "min", left, right)
        return None

    def _unary(self, node: c_ast.UnaryOp) -> Poly | None:
        if node.op == "+":
            return self.build(node.expr)
        if node.op == "-":
            inner = self.build(node.expr)
            return None if inner is None else add({}, inner, -1)
        if node.op in ("!", "~"):
            inner = self.build(node.expr)
            value = constant_of(inner) if inner is not None else None
            if value is None:
                return None
            return const(int(not value) if node.op == "!" else ~value)
        if node.op == "sizeof":
            size = self.size_of(node.expr) if self.size_of is not None else None
            return const(size) if size else None
        return None

    def _binary(self, node: c_ast.BinaryOp) -> Poly | None:
        a = self.build(node.left)
        b = self.build(node.right)
        if a is None or b is None:
            return None
        if node.op == "+":
            return add(a, b)
        if node.op == "-":
            return add(a, b, -1)
        if node.op == "*":
            return mul(a, b)
        ca, cb = constant_of(a), constant_of(b)
        if ca is None or cb is None:
            if node.op == "<<" and cb is not None and 0 <= cb < 31:
                return mul(a, const(1 << cb))
            bits = _bits_op(node.op, a, b, ca, cb)
            if bits is not None and self.define is not None:
                return self._floor_bits(*bits)
            if node.op in ("/", "%") and cb is not None and cb > 0 and self.define is not None:
                q = self.define("div", a, const(cb)) if is_affine(a) else None
                if q is None or node.op == "/":
                    return q
                return add(a, mul(q, const(cb)) or {}, -1)  # C: a % d == a - d * (a / d)
            return None
        return _fold(node.op, ca, cb)


def _bits_op(
    op: str, a: Poly, b: Poly, ca: int | None, cb: int | None
) -> tuple[str, Poly, int] | None:
    """``x >> k`` or ``x & (2^k - 1)`` (either side) with ``x`` not a constant: the
    operation, ``x`` and ``k``."""
    if op == ">>" and ca is None and cb is not None and 0 < cb < 31:
        return ">>", a, cb
    if op != "&":
        return None
    for x, mask in ((a, cb), (b, ca)):
        if mask is not None and constant_of(x) is None and 0 < mask < (1 << 30):
            if mask & (mask + 1) == 0:
                return "&", x, (mask + 1).bit_length() - 1
    return None


def _fold(op: str, a: int, b: int) -> Poly | None:
    """C integer arithmetic on two constants (truncating division)."""
    if op in ("/", "%"):
        if b == 0:
            return None
        q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
        return const(q if op == "/" else a - q * b)
    table = {
        "<<": lambda: a << b if 0 <= b < 63 else None,
        ">>": lambda: a >> b if 0 <= b < 63 else None,
        "&": lambda: a & b,
        "|": lambda: a | b,
        "^": lambda: a ^ b,
        "<": lambda: int(a < b),
        "<=": lambda: int(a <= b),
        ">": lambda: int(a > b),
        ">=": lambda: int(a >= b),
        "==": lambda: int(a == b),
        "!=": lambda: int(a != b),
        "&&": lambda: int(bool(a) and bool(b)),
        "||": lambda: int(bool(a) or bool(b)),
    }
    fn = table.get(op)
    if fn is None:
        return None
    value = fn()
    return None if value is None else const(value)


def literal(node: c_ast.Node | None) -> Poly | None:
    """``node`` as a polynomial of constants alone (a name makes it None): an array
    dimension, a constant initializer, a literal subscript."""
    return PolyBuilder(lambda _name, _at: None).build(node)
