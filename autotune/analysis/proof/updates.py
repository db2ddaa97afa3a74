"""Commutative updates written out: ``x = x + e``, ``ok = ok && e``, ``x = e > x ? e : x``,
``x = fmax(x, e)``, ``if (v > m) m = v;``, and atomic captures. Any order of such
updates leaves one result (floating-point sums up to reassociation)."""

from __future__ import annotations

from pycparser import c_ast, c_generator

from autotune.analysis.names import call_name, written_root


def captures(stmt: c_ast.Node) -> bool:
    items = stmt.block_items if isinstance(stmt, c_ast.Compound) else [stmt]
    for s in items or []:
        if isinstance(s, c_ast.Assignment) and (
            isinstance(s.rvalue, c_ast.Assignment)
            or (isinstance(s.rvalue, c_ast.UnaryOp) and s.rvalue.op in ("++", "--", "p++", "p--"))
        ):
            return True
    return False


EXTREMES = {
    "fmax": "max",
    "fmaxf": "max",
    "fmaxl": "max",
    "max": "max",
    "fmin": "min",
    "fminf": "min",
    "fminl": "min",
    "min": "min",
}


def update_form(node: c_ast.Assignment) -> tuple[str, c_ast.Node] | None:
    """``x = x + e`` -> ("+", e); ``x = e > x ? e : x`` and ``x = fmax(x, e)`` ->
    ("max", e); None when the assignment is not a commutative update of x."""
    if node.op != "=":
        return None
    x, r = node.lvalue, node.rvalue
    if isinstance(r, c_ast.BinaryOp) and r.op in ("+", "*", "|", "&", "^", "&&", "||"):
        for mine, other in ((r.left, r.right), (r.right, r.left)):
            if same_lvalue(mine, x) and not mentions(other, x):
                return r.op, other
        return None
    if isinstance(r, c_ast.TernaryOp):
        op = extreme(r.cond, r.iftrue, r.iffalse, x)
        if op is not None:
            other = r.iftrue if not same_lvalue(r.iftrue, x) else r.iffalse
            return op, other
        return None
    if isinstance(r, c_ast.FuncCall) and call_name(r) in EXTREMES and r.args is not None:
        args = r.args.exprs
        if len(args) == 2:
            for mine, other in ((args[0], args[1]), (args[1], args[0])):
                if same_lvalue(mine, x) and not mentions(other, x):
                    return EXTREMES[call_name(r)], other
    return None


def extreme(cond: c_ast.Node, when_true: c_ast.Node, when_false: c_ast.Node, x: c_ast.Node):
    """ "max" / "min" when ``cond ? when_true : when_false`` picks the larger / smaller of
    ``x`` and one other operand, else None."""
    if not isinstance(cond, c_ast.BinaryOp) or cond.op not in ("<", "<=", ">", ">="):
        return None
    sides = (cond.left, cond.right)
    in_cond = any(same_lvalue(s, x) for s in sides)
    if not (in_cond and any(same_lvalue(b, x) for b in (when_true, when_false))):
        return None
    other = cond.right if same_lvalue(cond.left, x) else cond.left
    if mentions(other, x):
        return None
    picked = {source_text(when_true), source_text(when_false)}
    if picked != {source_text(cond.left), source_text(cond.right)}:
        return None
    greater_if_true = cond.left if cond.op in (">", ">=") else cond.right
    # by text, as above: ``(int)a[i] % 7`` is no lvalue, and would otherwise read as "min"
    return "max" if source_text(when_true) == source_text(greater_if_true) else "min"


def source_text(node: c_ast.Node) -> str:
    return c_generator.CGenerator().visit(node)


def if_update(node: c_ast.If) -> tuple[c_ast.Node, str, c_ast.Node] | None:
    """``if (v > m) m = v;`` -> (m, "max", v); None for any other if."""
    if node.iffalse is not None:
        return None
    body = node.iftrue
    while isinstance(body, c_ast.Compound) and body.block_items and len(body.block_items) == 1:
        body = body.block_items[0]
    if not (isinstance(body, c_ast.Assignment) and body.op == "="):
        return None
    op = extreme(node.cond, body.rvalue, body.lvalue, body.lvalue)
    return (body.lvalue, op, body.rvalue) if op is not None else None


def guarded_update(node: c_ast.If) -> tuple[c_ast.Node, c_ast.Node] | None:
    """``if (x[i] > thr && i < first) first = i;`` -> (``x[i] > thr``, the comparison and
    the store): an extreme update (or a selection with its tie-break) under a guard that
    reads none of its targets, the ``if (guard) if (i < first) first = i;`` it means.
    The comparison may come first where the guard has no effects (then the order of the
    two tests does not show)."""
    cond = node.cond
    if node.iffalse is not None or not (isinstance(cond, c_ast.BinaryOp) and cond.op == "&&"):
        return None
    for guard, test, swapped in ((cond.left, cond.right, False), (cond.right, cond.left, True)):
        inner = c_ast.If(test, node.iftrue, None, coord=node.coord)
        form, pick = if_update(inner), select_update(inner)
        targets = [form[0]] if form is not None else [pick[1], pick[3]] if pick else []
        if not targets or any(mentions(guard, t) for t in targets):
            continue
        if swapped and has_effects(guard):
            continue
        return guard, inner
    return None


def guarded_selection(s: c_ast.Node) -> tuple | None:
    """The selection a statement makes, under a guard or not (``if (ok && (v < m || (v
    == m && i < k))) { m = v; k = i; }``): ``select_update`` of it or of its inner test."""
    pick = select_update(s)
    if pick is None and isinstance(s, c_ast.If):
        split = guarded_update(s)
        pick = select_update(split[1]) if split is not None else None
    return pick


def has_effects(expr: c_ast.Node) -> bool:
    """``expr`` stores or calls (a test that may not be moved past another)."""
    stack = [expr]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.FuncCall | c_ast.Assignment):
            return True
        if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
            return True
        stack.extend(c for _, c in n.children())
    return False


def same_lvalue(a: c_ast.Node, b: c_ast.Node) -> bool:
    """The same lvalue written twice (``x``, ``a[i]``, ``s.f``, ``p->f``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, c_ast.ID):
        return a.name == b.name
    if isinstance(a, c_ast.Constant):
        return a.value == b.value
    if isinstance(a, c_ast.ArrayRef):
        return same_lvalue(a.name, b.name) and same_lvalue(a.subscript, b.subscript)
    if isinstance(a, c_ast.StructRef):
        return a.type == b.type and a.field.name == b.field.name and same_lvalue(a.name, b.name)
    if isinstance(a, c_ast.UnaryOp):
        return a.op == b.op and same_lvalue(a.expr, b.expr)
    if isinstance(a, c_ast.BinaryOp):
        return a.op == b.op and same_lvalue(a.left, b.left) and same_lvalue(a.right, b.right)
    return False


def mentions(expr: c_ast.Node, lv: c_ast.Node) -> bool:
    root = written_root(lv)
    stack = [expr]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.ID) and n.name == root:
            return True
        stack.extend(c for _, c in n.children())
    return False


def select_update(
    node: c_ast.Node,
) -> tuple[str, c_ast.Node, c_ast.Node, c_ast.Node, c_ast.Node] | None:
    """A candidate and its index kept by a strict order with an index tie-break:
    ``if (v > m || (v == m && i < k)) { m = v; k = i; }`` -> ("argmax<", m, v, k, i).
    The pair (value, index) is ordered lexicographically, so the one selected from any
    set of candidates is the same in any order, and merging two selections is one
    selection of both: an associative, commutative and idempotent update of (m, k)."""
    if not isinstance(node, c_ast.If) or node.iffalse is not None:
        return None
    body = node.iftrue
    items = body.block_items if isinstance(body, c_ast.Compound) else [body]
    if len(items or []) != 2 or not all(
        isinstance(a, c_ast.Assignment) and a.op == "=" for a in items
    ):
        return None
    cond = node.cond
    if not (isinstance(cond, c_ast.BinaryOp) and cond.op == "||"):
        return None
    tie = cond.right
    if not (isinstance(tie, c_ast.BinaryOp) and tie.op == "&&"):
        return None
    for first, second in ((items[0], items[1]), (items[1], items[0])):
        m, v, k, i = first.lvalue, first.rvalue, second.lvalue, second.rvalue
        if not all(isinstance(x, c_ast.ID) for x in (m, k)) or m.name == k.name:
            continue
        if any(mentions(e, x) for e in (v, i) for x in (m, k)):
            continue
        better = _strict(cond.left, v, m)
        if better is None or not _equal(tie.left, v, m):
            continue
        order = _strict(tie.right, i, k)
        if order is None:
            continue
        return f"arg{better}{'<' if order == 'min' else '>'}", m, v, k, i
    return None


def _strict(cond: c_ast.Node, e: c_ast.Node, x: c_ast.Node) -> str | None:
    """``e > x`` (or ``x < e``): "max"; ``e < x`` (or ``x > e``): "min"; else None."""
    if not (isinstance(cond, c_ast.BinaryOp) and cond.op in ("<", ">")):
        return None
    text, left, right = source_text(e), source_text(cond.left), source_text(cond.right)
    if left == text and same_lvalue(cond.right, x):
        return "max" if cond.op == ">" else "min"
    if right == text and same_lvalue(cond.left, x):
        return "max" if cond.op == "<" else "min"
    return None


def _equal(cond: c_ast.Node, e: c_ast.Node, x: c_ast.Node) -> bool:
    """``e == x`` or ``x == e``."""
    if not (isinstance(cond, c_ast.BinaryOp) and cond.op == "=="):
        return False
    text = source_text(e)
    return (source_text(cond.left) == text and same_lvalue(cond.right, x)) or (
        source_text(cond.right) == text and same_lvalue(cond.left, x)
    )
