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
from typing import TYPE_CHECKING

from pycparser import c_ast

from autotune.analysis.exprs import Symbolic, parse_constant

if TYPE_CHECKING:
    from autotune.analysis.proof.inttypes import ExprTypes, IntType

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
        types: ExprTypes | None = None,
        recombine: Callable[[Poly], Poly] | None = None,
        stepped: Callable[[c_ast.UnaryOp], Poly | None] | None = None,
    ) -> None:
        self.lookup = lookup
        self.element = element  # ``d[2]``, ``s.n``: a value read from memory
        self.narrow = narrow
        self.define = define  # ``k / M``, min, max as a symbol the caller defines
        self.size_of = size_of  # bytes of ``sizeof(double)``, ``sizeof *p`` (None: unknown)
        self.types = types  # C integer types: where unsigned arithmetic and conversions wrap
        self.recombine = recombine  # ``(a / b) * b + a % b`` back to ``a`` (run-time b)
        self.stepped = stepped  # ``k++``'s value, once the walk has made its step

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
            if inner is None or self.types is None:
                return inner
            return self.convert(inner, self.types.of(node.expr), self.types.of(node))
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

    def wrap(self, value: Poly, t: IntType) -> Poly | None:
        """``value`` reduced to the range of ``t`` as gcc's two's complement does: the value
        less a multiple of ``2^bits`` pinned by a floor (None: not affine, or no way to
        define the multiple)."""
        span = 1 << t.bits
        c = constant_of(value)
        if c is not None:
            r = c % span
            return const(r - span if t.signed and r >= span >> 1 else r)
        if self.define is None or not is_affine(value):
            return None
        shift = const(span >> 1) if t.signed else {}
        q = self.define("fdiv", add(value, shift), const(span))
        return None if q is None else add(value, mul(q, const(span)) or {}, -1)

    def convert(
        self, value: Poly | None, src: IntType | None, dst: IntType | None, exact: bool = False
    ) -> Poly | None:
        """``value`` of type ``src`` converted to ``dst`` (a cast, an assignment, an
        argument): unchanged where ``dst`` holds every value of ``src``, wrapped where it
        may not. A 64-bit unsigned value is wrapped only where ``exact`` asks (before a
        division, a remainder, a shift or a mask): as an index or a bound a wrapped
        64-bit value would reach outside any object the address space holds."""
        if value is None or dst is None or (src is not None and dst.holds(src)):
            return value
        if dst.bits >= 64 and not dst.signed and not exact:
            return value
        if dst.bits >= 64 and dst.signed and src is not None and not src.signed and not exact:
            return value
        return self.wrap(value, dst)

    def _ring(self, value: Poly | None, node: c_ast.Node) -> Poly | None:
        """The result of ``+ - * <<`` or a folded constant in the type C computes it in:
        ``unsigned`` (32-bit) arithmetic is modulo ``2^32``."""
        if value is None or self.types is None:
            return value
        t = self.types.of(node)
        if t is None or t.signed or t.bits >= 64:
            return value
        return self.wrap(value, t)

    def _operands(self, node: c_ast.BinaryOp, a: Poly, b: Poly) -> tuple[Poly | None, Poly | None]:
        """Operands of ``/ % >> << &`` (and of any operator on constants) converted to the
        type the operation computes in, exactly: a hash ``h % N`` sees the wrapped ``h``.
        A value the operation could not use anyway is left as it is (no symbol defined)."""
        if self.types is None:
            return a, b
        t = self.types.operands(node)
        if t is None:
            return a, b
        useful = node.op in ("/", "%", ">>", "<<", "&") and (
            constant_of(b) is not None or (node.op == "&" and constant_of(a) is not None)
        )
        sides = [(a, node.left)] if node.op in ("<<", ">>") else [(a, node.left), (b, node.right)]
        out = []
        for value, side in sides:
            if constant_of(value) is None and not useful:
                out.append(value)
                continue
            src = self.types.of(side)
            if t.bits < 64 or t.signed:
                out.append(self.convert(value, src, t, exact=True))
            elif src is not None and not src.signed and src.bits < 64:
                out.append(value)  # a narrower unsigned value is already in its range
            else:  # 64-bit unsigned values are reduced only here (see ``convert``)
                out.append(self.wrap(value, t))
        return out[0], out[1] if len(out) > 1 else b

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
            return None if inner is None else self._ring(add({}, inner, -1), node)
        if node.op in ("!", "~"):
            inner = self.build(node.expr)
            value = constant_of(inner) if inner is not None else None
            if value is None:
                return None
            return const(int(not value)) if node.op == "!" else self._ring(const(~value), node)
        if node.op == "sizeof":
            size = self.size_of(node.expr) if self.size_of is not None else None
            return const(size) if size else None
        if node.op in ("++", "--", "p++", "p--") and self.stepped is not None:
            return self.stepped(node)
        return None

    def _binary(self, node: c_ast.BinaryOp) -> Poly | None:
        a = self.build(node.left)
        b = self.build(node.right)
        if a is None or b is None:
            return None
        if node.op in ("+", "-"):
            total = add(a, b, 1 if node.op == "+" else -1)
            if self.recombine is not None:
                total = self.recombine(total)
            return self._ring(total, node)
        if node.op == "*":
            return self._ring(mul(a, b), node)
        a, b = self._operands(node, a, b)
        if a is None or b is None:
            return None
        ca, cb = constant_of(a), constant_of(b)
        if ca is None or cb is None:
            if node.op == "<<" and cb is not None and 0 <= cb < 31:
                return self._ring(mul(a, const(1 << cb)), node)
            bits = _bits_op(node.op, a, b, ca, cb)
            if bits is not None and self.define is not None:
                return self._floor_bits(*bits)
            if node.op in ("/", "%") and cb is not None and cb > 0 and self.define is not None:
                q = self.define("div", a, const(cb)) if is_affine(a) else None
                if q is None or node.op == "/":
                    return q
                return add(a, mul(q, const(cb)) or {}, -1)  # C: a % d == a - d * (a / d)
            if node.op in ("/", "%") and cb is None and self._exact_pair(node, a, b):
                return self._by_variable(node.op, a, b)
            return None
        return self._ring(_fold(node.op, ca, cb), node)

    def _exact_pair(self, node: c_ast.BinaryOp, a: Poly, b: Poly) -> bool:
        """``a / b`` and ``a % b`` by a run-time ``b`` satisfy C's identity
        ``(a / b) * b + a % b == a`` on the values written (b is nonzero, or the program
        traps either way): so where the operation converts no signed operand to an
        unsigned type, which would change the ``a`` the identity holds for."""
        if self.define is None or self.types is None or not (is_affine(a) and is_affine(b)):
            return False
        t = self.types.operands(node)
        if t is None:
            return False
        if t.signed:
            return True
        sides = (self.types.of(node.left), self.types.of(node.right))
        return all(s is not None and not s.signed for s in sides)

    def _by_variable(self, op: str, a: Poly, b: Poly) -> Poly | None:
        """The quotient as a symbol left free, the remainder as a symbol in its range (as
        C gives it: the dividend's sign, below the divisor in magnitude); a sum in which
        ``q * b + r`` of one pair appears is ``a`` again (``recombine``: a block index
        and its offset, ``blk * bs + off``, are the index they came from)."""
        return self.define("vdiv" if op == "/" else "vmod", a, b)


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
