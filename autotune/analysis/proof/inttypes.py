"""The C integer type of an expression: where arithmetic wraps and a conversion changes
a value.

The proof reads integer expressions as mathematical polynomials. That is C's meaning
for signed arithmetic (an overflow is undefined, gcc assumes none), not for unsigned:
``unsigned h = i * 2654435761u`` is ``i * 2654435761 mod 2^32``, and ``h % N`` of a
multiplicative hash sends two iterations to one slot that the mathematical product
keeps apart. A conversion to a type that cannot hold the value (``(int)`` of a
``long``, ``int`` to ``unsigned``) wraps too. This module gives each expression its
type after the usual arithmetic conversions (LP64, as gcc on x86-64 and AArch64 Linux);
``poly.PolyBuilder`` wraps where the type says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from autotune.analysis.names import FLOAT_TYPES
from autotune.analysis.proof.decls import access_type
from autotune.analysis.symbols import Scope


@dataclass(frozen=True)
class IntType:
    """An integer type's width in bits and whether it is signed."""

    bits: int
    signed: bool

    def holds(self, other: IntType) -> bool:
        """Every value of ``other`` is a value of this type."""
        if self.signed == other.signed:
            return other.bits <= self.bits
        return self.signed and other.bits < self.bits


INT = IntType(32, True)
UINT = IntType(32, False)
LONG = IntType(64, True)
ULONG = IntType(64, False)


def declared(scope: Scope, t: c_ast.Node | None) -> IntType | None:
    """The integer type a declaration's type names (None: not an integer, or unknown)."""
    if isinstance(t, c_ast.Typename | c_ast.Decl):
        t = t.type
    if t is None:
        return None
    t = scope.resolve_typedef(t)
    if not isinstance(t, c_ast.TypeDecl):
        return None
    if isinstance(t.type, c_ast.Enum):
        return INT
    if not isinstance(t.type, c_ast.IdentifierType):
        return None
    names = set(t.type.names)
    if names & FLOAT_TYPES:
        return None
    size = scope.type_size(t)
    if not size:
        return None
    return IntType(8 * size, not ({"unsigned", "_Bool"} & names))


def promoted(t: IntType) -> IntType:
    """Integer promotion: anything narrower than ``int`` computes as ``int``."""
    return INT if t.bits < 32 else t


def common(a: IntType, b: IntType) -> IntType:
    """The usual arithmetic conversions of two integer operands."""
    a, b = promoted(a), promoted(b)
    if a.signed == b.signed:
        return a if a.bits >= b.bits else b
    unsigned, signed = (a, b) if not a.signed else (b, a)
    if unsigned.bits >= signed.bits:
        return unsigned
    return signed  # a wider signed type holds every unsigned value


def constant_type(node: c_ast.Constant, value: int) -> IntType:
    """C's type of an integer literal: the first of its list that holds the value."""
    text = node.value.lower()
    if node.type == "char" or text.startswith("'"):
        return INT
    suffix = text[len(text.rstrip("ul")) :]
    decimal = not text.startswith("0") or text.rstrip("ul") == "0"
    order: list[IntType]
    if "u" in suffix:
        order = [ULONG] if "l" in suffix else [UINT, ULONG]
    elif "l" in suffix:
        order = [LONG] if decimal else [LONG, ULONG]
    else:
        order = [INT, LONG] if decimal else [INT, UINT, LONG, ULONG]
    for t in order:
        top = 1 << (t.bits - 1 if t.signed else t.bits)
        if value < top:
            return t
    return order[-1]


class ExprTypes:
    """The integer type of an expression read in ``scope`` (None: not an integer, or a
    type the walk cannot tell: a call, a pointer difference)."""

    def __init__(self, scope: Scope) -> None:
        self.scope = scope

    def of(self, node: c_ast.Node | None) -> IntType | None:
        if isinstance(node, c_ast.Constant):
            return self._constant(node)
        if isinstance(node, c_ast.ID):
            decl, _ = self.scope.find_decl(node.name, node)
            if decl is None:
                return INT if node.name in self.scope.info.enums else None
            return declared(self.scope, decl.type)
        if isinstance(node, c_ast.Cast):
            return declared(self.scope, node.to_type)
        if isinstance(node, c_ast.ArrayRef | c_ast.StructRef):
            return self._element(node)
        if isinstance(node, c_ast.UnaryOp):
            return self._unary(node)
        if isinstance(node, c_ast.BinaryOp):
            return self._binary(node)
        if isinstance(node, c_ast.TernaryOp):
            a, b = self.of(node.iftrue), self.of(node.iffalse)
            return common(a, b) if a is not None and b is not None else None
        return None

    def _constant(self, node: c_ast.Constant) -> IntType | None:
        from autotune.analysis.exprs import Symbolic, parse_constant

        try:
            value = parse_constant(node)
        except Symbolic:
            return None
        return constant_type(node, value) if isinstance(value, int) else None

    def _element(self, node: c_ast.Node) -> IntType | None:
        root = node
        while isinstance(root, c_ast.ArrayRef | c_ast.StructRef):
            root = root.name
        if not isinstance(root, c_ast.ID):
            return None
        decl, _ = self.scope.find_decl(root.name, root)
        if decl is None:
            return None
        return declared(self.scope, access_type(self.scope, node, decl.type))

    def _unary(self, node: c_ast.UnaryOp) -> IntType | None:
        if node.op == "sizeof":
            return ULONG
        if node.op == "!":
            return INT
        inner = self.of(node.expr)
        if inner is None:
            return None
        if node.op in ("-", "+", "~"):
            return promoted(inner)
        if node.op in ("++", "--", "p++", "p--"):
            return inner
        return None

    def _binary(self, node: c_ast.BinaryOp) -> IntType | None:
        if node.op in ("<", "<=", ">", ">=", "==", "!=", "&&", "||"):
            return INT
        a, b = self.of(node.left), self.of(node.right)
        if node.op in ("<<", ">>"):
            return promoted(a) if a is not None else None
        if a is None or b is None:
            return None
        return common(a, b)

    def operands(self, node: c_ast.BinaryOp) -> IntType | None:
        """The type a binary operator converts its operands to (a shift: its left one)."""
        a = self.of(node.left)
        if node.op in ("<<", ">>"):
            return promoted(a) if a is not None else None
        b = self.of(node.right)
        return common(a, b) if a is not None and b is not None else None
