"""Small serialisable integer expressions built from pycparser nodes.

Loop bounds and array subscripts are turned into ``Expr`` trees that hold
only loop variables and numbers, so they survive JSON (``record.arrays``)
and can be evaluated vectorised over numpy arrays of iteration points.

An ``Expr`` is an ``int``, a ``float``, a ``str`` (a loop variable) or a
list ``[op, arg, ...]``; ``op`` is a C operator ("+", "/", "<", "?" for the
conditional, "neg", "!", "~", "int" for an integer cast).  Integer division
and ``%`` follow C (truncation toward zero), not Python.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pycparser import c_ast

Expr = Any  # int | float | str | list


class Symbolic(Exception):
    """An expression depends on something we cannot evaluate statically."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


BINARY = {
    "+",
    "-",
    "*",
    "/",
    "%",
    "<<",
    ">>",
    "&",
    "|",
    "^",
    "<",
    "<=",
    ">",
    ">=",
    "==",
    "!=",
    "&&",
    "||",
}


def parse_constant(node: c_ast.Constant) -> int | float:
    """Value of a C literal (integer suffixes, hex, octal, chars, floats)."""
    try:
        return _literal(node)
    except (ValueError, IndexError):
        raise Symbolic(f"literal {node.value}") from None


def _literal(node: c_ast.Constant) -> int | float:
    text = node.value
    if node.type == "char" or text.startswith("'"):
        body = text.strip("'")
        if body.startswith("\\"):
            esc = {"n": 10, "t": 9, "0": 0, "r": 13, "\\": 92, "'": 39}
            return esc.get(body[1:2], 0)
        return ord(body[0]) if body else 0
    if node.type == "string":
        raise Symbolic("string literal")
    low = text.lower()
    is_hex = low.startswith("0x")
    if is_hex and "p" in low:
        return float.fromhex(low.rstrip("fl"))
    if not is_hex and ("." in low or "e" in low):
        return float(low.rstrip("fl"))
    low = low.rstrip("ul")
    if low.startswith("0x"):
        return int(low, 16)
    if low.startswith("0b"):
        return int(low, 2)
    if len(low) > 1 and low.startswith("0"):
        return int(low, 8)
    return int(low)


def c_div(a: Any, b: Any) -> Any:
    """C division: truncation toward zero for integers."""
    if isinstance(a, int) and isinstance(b, int):
        if b == 0:
            raise Symbolic("division by zero")
        q = abs(a) // abs(b)
        return q if (a >= 0) == (b >= 0) else -q
    return a / b


def c_mod(a: Any, b: Any) -> Any:
    if isinstance(a, int) and isinstance(b, int):
        if b == 0:
            raise Symbolic("modulo by zero")
        return a - b * c_div(a, b)
    return float(np.fmod(a, b))


def fold(op: str, args: list) -> Expr:
    """Apply ``op`` to numbers (C semantics) or keep the tree."""
    if not all(isinstance(a, (int, float)) for a in args):
        return [op, *args]
    if op in BINARY:
        return binary_value(op, args[0], args[1])
    a = args[0]
    if op == "neg":
        return -a
    if op == "!":
        return int(not a)
    if op == "~":
        return ~int(a)
    if op == "int":
        return int(a)
    if op == "?":
        return args[1] if args[0] else args[2]
    raise Symbolic(f"operator {op}")


def binary_value(op: str, a: Any, b: Any) -> Any:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        return c_div(a, b)
    if op == "%":
        return c_mod(a, b)
    if op == "<<":
        return int(a) << int(b)
    if op == ">>":
        return int(a) >> int(b)
    if op == "&":
        return int(a) & int(b)
    if op == "|":
        return int(a) | int(b)
    if op == "^":
        return int(a) ^ int(b)
    return int(
        {
            "<": a < b,
            "<=": a <= b,
            ">": a > b,
            ">=": a >= b,
            "==": a == b,
            "!=": a != b,
            "&&": bool(a) and bool(b),
            "||": bool(a) or bool(b),
        }[op]
    )


def to_c_node(node: c_ast.Node) -> str:
    from pycparser import c_generator

    return c_generator.CGenerator().visit(node)


def free_vars(e: Expr) -> set[str]:
    if isinstance(e, str):
        return {e}
    if isinstance(e, (list, tuple)):
        out: set[str] = set()
        for a in e[1:]:
            out |= free_vars(a)
        return out
    return set()


def substitute(e: Expr, values: dict[str, Expr]) -> Expr:
    if isinstance(e, str):
        return values.get(e, e)
    if isinstance(e, (list, tuple)):
        return fold(e[0], [substitute(a, values) for a in e[1:]])
    return e


def affine(e: Expr) -> dict[str, int] | None:
    """``{var: coef, "": const}`` when ``e`` is affine with integer coefficients."""
    if isinstance(e, bool):
        return {"": int(e)}
    if isinstance(e, int):
        return {"": e}
    if isinstance(e, float):
        return {"": int(e)} if e.is_integer() else None
    if isinstance(e, str):
        return {e: 1, "": 0}
    op, args = e[0], e[1:]
    if op in ("+", "-"):
        a, b = affine(args[0]), affine(args[1])
        if a is None or b is None:
            return None
        sign = 1 if op == "+" else -1
        out = dict(a)
        for k, v in b.items():
            out[k] = out.get(k, 0) + sign * v
        return _clean(out)
    if op == "neg":
        a = affine(args[0])
        return None if a is None else {k: -v for k, v in a.items()}
    if op == "*":
        a, b = affine(args[0]), affine(args[1])
        if a is None or b is None:
            return None
        if set(a) == {""}:
            a, b = b, a
        if set(b) != {""}:
            return None
        return _clean({k: v * b[""] for k, v in a.items()})
    if op == "<<":
        a, b = affine(args[0]), affine(args[1])
        if a is None or b is None or set(b) != {""} or b[""] < 0:
            return None
        return _clean({k: v << b[""] for k, v in a.items()})
    if op == "int":
        return affine(args[0])
    return None


def _clean(d: dict[str, int]) -> dict[str, int]:
    out = {k: v for k, v in d.items() if v != 0 or k == ""}
    out.setdefault("", 0)
    return out


def evaluate(e: Expr, env: dict[str, Any]) -> Any:
    """Evaluate over numbers or numpy int64 arrays (C integer semantics)."""
    if isinstance(e, (int, float)):
        return e
    if isinstance(e, str):
        if e not in env:
            raise Symbolic(e)
        return env[e]
    op, args = e[0], [evaluate(a, env) for a in e[1:]]
    if not any(isinstance(a, np.ndarray) for a in args):
        return fold(op, args)
    if op == "?":
        return np.where(np.asarray(args[0]) != 0, args[1], args[2])
    if op == "neg":
        return -args[0]
    if op == "!":
        return (np.asarray(args[0]) == 0).astype(np.int64)
    if op == "~":
        return ~np.asarray(args[0], dtype=np.int64)
    if op == "int":
        return (
            np.trunc(args[0]).astype(np.int64) if np.asarray(args[0]).dtype.kind == "f" else args[0]
        )
    a, b = args
    if op in ("/", "%"):
        ia = np.asarray(a).dtype.kind in "iub"
        ib = np.asarray(b).dtype.kind in "iub"
        if ia and ib:
            aa, bb = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
            q = np.abs(aa) // np.abs(bb)
            q = np.where((aa >= 0) == (bb >= 0), q, -q)
            return q if op == "/" else aa - bb * q
        return a / b if op == "/" else np.fmod(a, b)
    func = {
        "+": np.add,
        "-": np.subtract,
        "*": np.multiply,
        "<<": np.left_shift,
        ">>": np.right_shift,
        "&": np.bitwise_and,
        "|": np.bitwise_or,
        "^": np.bitwise_xor,
        "<": np.less,
        "<=": np.less_equal,
        ">": np.greater,
        ">=": np.greater_equal,
        "==": np.equal,
        "!=": np.not_equal,
        "&&": np.logical_and,
        "||": np.logical_or,
    }[op]
    try:
        out = func(a, b)
    except OverflowError:  # a 64-bit hash constant: beyond numpy's int64 columns
        raise Symbolic(f"constant beyond 64 bits in {op}") from None
    return out.astype(np.int64) if out.dtype == bool else out


PRECEDENCE = {
    "||": 1,
    "&&": 2,
    "|": 3,
    "^": 4,
    "&": 5,
    "==": 6,
    "!=": 6,
    "<": 7,
    "<=": 7,
    ">": 7,
    ">=": 7,
    "<<": 8,
    ">>": 8,
    "+": 9,
    "-": 9,
    "*": 10,
    "/": 10,
    "%": 10,
}


def to_c(e: Expr) -> str:
    """Readable C text of an Expr (for reports)."""
    return _to_c(e, 0)


def _to_c(e: Expr, parent: int) -> str:
    if isinstance(e, float):
        return repr(e)
    if isinstance(e, (int, str)):
        return str(e)
    op, args = e[0], e[1:]
    if op == "neg":
        return "-" + _to_c(args[0], 11)
    if op in ("!", "~"):
        return op + _to_c(args[0], 11)
    if op == "int":
        return "(int)" + _to_c(args[0], 11)
    if op == "?":
        text = f"{_to_c(args[0], 1)} ? {_to_c(args[1], 1)} : {_to_c(args[2], 1)}"
        return f"({text})" if parent else text
    p = PRECEDENCE[op]
    text = f"{_to_c(args[0], p)} {op} {_to_c(args[1], p + 1)}"
    return f"({text})" if p < parent else text
