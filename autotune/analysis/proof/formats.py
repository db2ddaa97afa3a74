"""What formatted conversions to and from memory read and write: ``sprintf``,
``snprintf`` and ``sscanf``, which touch no stream.

``snprintf(label[i], 16, "r%d", i)`` writes at most 16 characters at ``label[i]`` and
reads the strings its ``%s`` arguments point at; ``sscanf(rec[i], "%d %lf", &id[i],
&x[i])`` reads the record and stores one object through each argument a conversion
consumes (``%s`` and ``%[`` a string, the rest of the row it points into). A format that
is not a literal stores into whatever each pointer argument points at.
"""

from __future__ import annotations

import re

from pycparser import c_ast

# name -> (destination, byte count or None, format) / (source, format)
FORMATTERS: dict[str, tuple[int, int | None, int]] = {
    "sprintf": (0, None, 1),
    "snprintf": (0, 1, 2),
}
SCANNERS: dict[str, tuple[int, int]] = {"sscanf": (0, 1)}
FORMAT_FUNCS = frozenset(FORMATTERS) | frozenset(SCANNERS)

# one scanf conversion: %, assignment suppression, width, length, the conversion itself
_CONVERSION = re.compile(r"%(\*?)\d*(?:hh|h|ll|l|j|z|t|L)?(\[\]?[^\]]*\]|[a-zA-Z%])")


def scanned(format_literal: str | None) -> list[str] | None:
    """Per argument a scanf format consumes, what it stores: "one" object or a
    "string" (``%s``, ``%[``, ``%c``); None when the format is not a literal."""
    if format_literal is None or not format_literal.startswith('"') or "$" in format_literal:
        return None  # not a literal, or positional arguments (%1$d): no order to follow
    out = []
    for m in _CONVERSION.finditer(format_literal[1:-1]):
        suppressed, conv = m.group(1), m.group(2)
        if conv == "%" or suppressed:
            continue
        out.append("string" if conv[0] in "sc[" else "one")
    return out


def scan_success_targets(cond: c_ast.Node) -> list[c_ast.Node]:
    """``sscanf(rec, "%d %d", &a, &b) == 2`` (or ``>= 2``): where it holds, the first
    two conversions were stored, so ``a`` and ``b`` are set. The objects so stored (one
    object each; strings are left to the walk's coverage)."""
    if not (isinstance(cond, c_ast.BinaryOp) and cond.op in ("==", ">=")):
        return []
    call, count = cond.left, cond.right
    if cond.op == "==" and isinstance(call, c_ast.Constant):
        call, count = count, call
    if not (isinstance(call, c_ast.FuncCall) and isinstance(call.name, c_ast.ID)):
        return []
    if call.name.name not in SCANNERS or not isinstance(count, c_ast.Constant):
        return []
    try:
        k = int(count.value, 0)
    except ValueError:
        return []
    args = call.args.exprs if call.args is not None else []
    fmt = SCANNERS[call.name.name][1]
    kinds = scanned(format_text(args[fmt])) if len(args) > fmt else None
    if kinds is None:
        return []
    out = []
    for kind, arg in list(zip(kinds, args[fmt + 1 :], strict=False))[:k]:
        if kind == "one" and isinstance(arg, c_ast.UnaryOp) and arg.op == "&":
            out.append(arg.expr)
    return out


# a printf conversion that stores the count printed so far through its argument
_STORES_COUNT = re.compile(r"%[-+ #0-9.*]*(?:hh|h|ll|l|j|z|t|L)?n")


def printf_stores(format_literal: str | None) -> bool:
    """A printf format may store through an argument: ``%n`` (the count printed so far),
    or a format that is not a literal (which could hold one)."""
    if format_literal is None or not format_literal.startswith('"'):
        return True
    return bool(_STORES_COUNT.search(format_literal[1:-1].replace("%%", "")))


# one printf conversion: flags, width and precision (``*`` takes an argument), length
_PRINTF_CONVERSION = re.compile(
    r"%[-+ #0]*(\*|\d+)?(?:\.(\*|\d*))?(?:hh|h|ll|l|j|z|t|L)?([a-zA-Z%])"
)


def printed_addresses(format_literal: str | None) -> list[bool] | None:
    """Per argument a printf format consumes, whether ``%p`` prints it (an address as
    text); None when the format is not a literal (any argument may be)."""
    if format_literal is None or not format_literal.startswith('"') or "$" in format_literal:
        return None
    out: list[bool] = []
    for m in _PRINTF_CONVERSION.finditer(format_literal[1:-1]):
        width, precision, conv = m.group(1), m.group(2), m.group(3)
        if conv == "%":
            continue
        out += [False] * ((width == "*") + (precision == "*"))
        out.append(conv == "p")
    return out


def format_text(node: c_ast.Node | None) -> str | None:
    """The text of a format argument when it is a string literal, quotes included."""
    return node.value if isinstance(node, c_ast.Constant) else None
