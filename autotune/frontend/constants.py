"""Integer constant expressions as a clause writes them.

``num_threads(4)``, ``num_threads(2*8)``, ``schedule(static, 0x40)``: every reader of a
clause's count or chunk (the model's features, the runtime-equivalence check, a region's
written count) needs the same answer, C's, including octal and suffixed literals
(``010`` is 8, ``16u`` is 16). Anything else (a variable, a call) is no constant: None.
"""

from __future__ import annotations

import ast
import re

# a C integer literal with its suffixes: hexadecimal, octal (a leading 0), decimal
_LITERAL = re.compile(r"\b(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)[uUlL]*\b")


def int_constant(text: str | None) -> int | None:
    """The value of an integer constant expression of literals, ``+ - * /`` (C's
    truncating division) and parentheses; None for anything else."""
    if text is None:
        return None
    try:
        python = _LITERAL.sub(lambda m: str(_literal(m.group(1))), text.strip())
        tree = ast.parse(python, mode="eval")
        return _value(tree.body)
    except (SyntaxError, ValueError, RecursionError):
        return None


def _literal(digits: str) -> int:
    if digits[:2].lower() == "0x":
        return int(digits, 16)
    return int(digits, 8) if digits.startswith("0") else int(digits)


def _value(node: ast.AST) -> int:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        v = _value(node.operand)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp):
        a, b = _value(node.left), _value(node.right)
        if isinstance(node.op, ast.Add):
            return a + b
        if isinstance(node.op, ast.Sub):
            return a - b
        if isinstance(node.op, ast.Mult):
            return a * b
        if isinstance(node.op, ast.Div) and b != 0:
            return int(a / b)  # C truncates toward zero
    raise ValueError("not an integer constant")
