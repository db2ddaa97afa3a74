"""Small C-syntax facts the walk reads: canonical loop headers, assigned names, jumps,
and the names the proof gives values (isl parameters, element texts)."""

from __future__ import annotations

import hashlib
import weakref
from collections.abc import Callable

from pycparser import c_ast

from autotune.analysis.astutil import walk
from autotune.analysis.names import call_name
from autotune.analysis.proof import poly
from autotune.analysis.proof.walkstate import ENDS_PROGRAM
from autotune.frontend.preprocess import SYSTEM_PREFIX


def param_symbol(text: str) -> str:
    """The isl parameter for the C expression ``text`` (``n``, ``d[2]``)."""
    digest = hashlib.sha1(text.encode()).hexdigest()[:6]
    name = f"P_{ident(text)}_{digest}"
    PARAM_TEXTS[name] = text
    return name


PARAM_TEXTS: dict[str, str] = {}  # isl parameter -> the C expression it stands for


def element_text(node: c_ast.Node, value) -> str | None:  # a subscript builder
    """``grid_points[0]``, ``g->nx``, ``s.dims[1]``: the text of a memory read whose
    subscripts are constants, else None."""
    parts: list[str] = []
    while isinstance(node, c_ast.ArrayRef | c_ast.StructRef):
        if isinstance(node, c_ast.ArrayRef):
            v = value(node.subscript)
            if v is None or poly.constant_of(v) is None:
                return None
            parts.append(f"[{poly.constant_of(v)}]")
        else:
            parts.append(f"{node.type}{node.field.name}")
        node = node.name
        while isinstance(node, c_ast.Cast):
            node = node.expr
    if not isinstance(node, c_ast.ID) or not parts:
        return None
    return node.name + "".join(reversed(parts))


def member_path(node: c_ast.Node, nested: bool = False) -> tuple[str, str, str] | None:
    """``at->x``, ``s.x``, ``g->lev.u``: a member reached from one variable with no
    subscript and at most one ``->``, on the variable itself, as (its text, the
    variable, the address of the struct that holds it: ``at`` or ``&s``); else None.
    ``nested``: also through pointer members (``s->boxes->nAtoms``), the holder then
    the text of the pointer the last ``->`` goes through (``s->boxes``)."""
    parts: list[str] = []
    holder: c_ast.Node | None = None
    while isinstance(node, c_ast.StructRef):
        if node.type == "->":
            if holder is not None and not nested:
                return None
            if not isinstance(node.name, c_ast.ID) and not nested:
                return None  # ``s.p->x``: the holder is what s.p points at
            holder = node.name if holder is None else holder
        parts.append(f"{node.type}{node.field.name}")
        node = node.name
    if not isinstance(node, c_ast.ID) or not parts:
        return None
    text = node.name + "".join(reversed(parts))
    if holder is None:
        return text, node.name, f"&{node.name}"
    if isinstance(holder, c_ast.ID):
        return text, node.name, holder.name
    inner = member_path(holder, nested=True)
    return (text, node.name, inner[0]) if inner is not None else None


def constant_text(node: c_ast.Node) -> str | None:
    while isinstance(node, c_ast.Cast):
        node = node.expr
    if isinstance(node, c_ast.UnaryOp) and node.op == "-" and isinstance(node.expr, c_ast.Constant):
        return "-" + node.expr.value
    return node.value if isinstance(node, c_ast.Constant) else None


def jumps(stmt: c_ast.Node | None) -> bool:
    """A continue, break, return or goto that leaves part of ``stmt``'s body unrun
    (jumps inside loops nested in it belong to those loops)."""
    if stmt is None:
        return False
    stack = [stmt]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Continue | c_ast.Break | c_ast.Return | c_ast.Goto):
            return True
        if isinstance(n, c_ast.FuncCall) and call_name(n) in ENDS_PROGRAM:
            continue
        for _, c in n.children():
            if isinstance(c, c_ast.For | c_ast.While | c_ast.DoWhile | c_ast.Switch):
                stack.extend(x for _, x in c.children() if isinstance(x, c_ast.Return | c_ast.Goto))
                continue
            stack.append(c)
    return False


def single_for(stmt: c_ast.Node) -> c_ast.Node:
    while isinstance(stmt, c_ast.Compound) and stmt.block_items and len(stmt.block_items) == 1:
        stmt = stmt.block_items[0]
    return stmt


def where(node: c_ast.Node | None) -> str:
    """``file:line`` of a node, for messages. gcc marks the user's own lines that a
    system header's macro expanded into (``errno``, ``atomic_fetch_add``) as a system
    header's; the message names the file as the user knows it."""
    if node is None or node.coord is None:
        return "?"
    return f"{node.coord.file.removeprefix(SYSTEM_PREFIX)}:{node.coord.line}"


def line_of(node: c_ast.Node | None) -> int:
    return node.coord.line if node is not None and node.coord else 0


def ident(name: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name)


def meet(sets: list[set[str] | None]) -> set[str] | None:
    """Names set on every path (None: a path that never gets here, which sets all)."""
    real = [s for s in sets if s is not None]
    if not real:
        return None
    out = set(real[0])
    for s in real[1:]:
        out &= s
    return out


def for_header(
    node: c_ast.For, step_value: Callable[[c_ast.Node], int | None] | None = None
) -> tuple[str, c_ast.Node, c_ast.Node, str, int | None] | None:
    """``for (v = lo; v op hi; v += s)`` -> (v, lo, hi, op, s); None when not canonical.
    ``step_value``: the value of a step that is no literal (``jj += fftblock`` at a
    measured size), None where it has none."""
    init = node.init
    if isinstance(init, c_ast.DeclList) and len(init.decls) > 1:
        init = _counter_decl(init, node.cond)  # ``int iOff = M * b, ii = 0``: ii's
    if isinstance(init, c_ast.DeclList) and len(init.decls) == 1 and init.decls[0].init:
        var, lo = init.decls[0].name, init.decls[0].init
    elif (
        isinstance(init, c_ast.Assignment) and init.op == "=" and isinstance(init.lvalue, c_ast.ID)
    ):
        var, lo = init.lvalue.name, init.rvalue
    else:
        return None
    bound = _bound(node.cond, var)
    if bound is None:
        return None
    op, hi = bound
    step = for_step(node.next, var)
    if step is None and step_value is not None:
        step = _step_by_value(node.next, var, step_value)
    if step is None:
        return None
    return var, lo, hi, op, step


_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "!=": "!="}
_BOTH_BOUNDS: dict[int, tuple[c_ast.Node, c_ast.Node]] = {}  # id(cond) -> (cond, bound)


def _bound(cond: c_ast.Node | None, var: str) -> tuple[str, c_ast.Node] | None:
    """(op, hi) of ``var op hi`` (or ``hi op var``); ``i < ii + bs && i < n``, two
    bounds the same way, is ``i < min(ii + bs, n)``: the tighter one ends the loop."""
    if isinstance(cond, c_ast.BinaryOp) and cond.op == "&&":
        sides = [_bound(cond.left, var), _bound(cond.right, var)]
        if any(s is None for s in sides):
            return None
        (op1, a), (op2, b) = sides  # type: ignore[misc]
        if {op1, op2} <= {"<", "<="} or {op1, op2} <= {">", ">="}:
            return op1, _tighter(cond, op1, a, op2, b)
        return None
    if not isinstance(cond, c_ast.BinaryOp) or cond.op not in _FLIP:
        return None
    if isinstance(cond.left, c_ast.ID) and cond.left.name == var:
        return cond.op, cond.right
    if isinstance(cond.right, c_ast.ID) and cond.right.name == var:
        return _FLIP[cond.op], cond.left
    return None


def _tighter(cond: c_ast.Node, op: str, a: c_ast.Node, op2: str, b: c_ast.Node) -> c_ast.Node:
    """``(a < b ? a : b)`` for upper bounds (``>``: the larger), the second bound first
    made strict or not as the first is (``v <= b`` is ``v < b + 1`` for an integer
    counter); made once per condition, so the walk's answers at it stay its own."""
    hit = _BOTH_BOUNDS.get(id(cond))
    if hit is not None and hit[0] is cond:
        return hit[1]
    if op2 != op:  # one strict, one not: shift the second by one
        one = c_ast.Constant("int", "1", coord=cond.coord)
        shift = {"<=": "+", "<": "-", ">=": "-", ">": "+"}[op2]
        b = c_ast.BinaryOp(shift, b, one, coord=cond.coord)
    pick = "<" if op in ("<", "<=") else ">"
    out = c_ast.TernaryOp(c_ast.BinaryOp(pick, a, b, coord=cond.coord), a, b, coord=cond.coord)
    if len(_BOTH_BOUNDS) > 65536:
        _BOTH_BOUNDS.clear()
    _BOTH_BOUNDS[id(cond)] = (cond, out)
    return out


def _counter_decl(init: c_ast.DeclList, cond: c_ast.Node | None) -> c_ast.DeclList | None:
    """Of several declarations in a ``for``'s initializer, the one its condition bounds
    (the others are set once before the first test: ``other_inits``)."""
    if not isinstance(cond, c_ast.BinaryOp):
        return None
    sides = [x.name for x in (cond.left, cond.right) if isinstance(x, c_ast.ID)]
    picked = [d for d in init.decls if d.name in sides]
    return c_ast.DeclList([picked[0]], init.coord) if len(picked) == 1 else None


def other_inits(node: c_ast.For, counter: str) -> list[c_ast.Decl]:
    """The declarations of a ``for``'s initializer beside its counter's."""
    if not isinstance(node.init, c_ast.DeclList):
        return []
    return [d for d in node.init.decls if d.name != counter]


def _step_by_value(nxt, var: str, step_value: Callable[[c_ast.Node], int | None]) -> int | None:
    """``v += e`` or ``v -= e`` with ``e`` of a known value."""
    if not (isinstance(nxt, c_ast.Assignment) and nxt.op in ("+=", "-=")):
        return None
    if not (isinstance(nxt.lvalue, c_ast.ID) and nxt.lvalue.name == var):
        return None
    v = step_value(nxt.rvalue)
    if v is None or v == 0:
        return None
    return v if nxt.op == "+=" else -v


def for_step(nxt: c_ast.Node | None, var: str) -> int | None:
    if isinstance(nxt, c_ast.ExprList):  # ``ii++, iOff++``: the counter's step, others apart
        steps = [_one_step(e, var) for e in nxt.exprs]
        others = [e for e, st in zip(nxt.exprs, steps, strict=True) if st is None]
        if sum(st is not None for st in steps) != 1 or not all(map(_other_step, others)):
            return None
        return next(st for st in steps if st is not None)
    return _one_step(nxt, var)


def _other_step(e: c_ast.Node) -> bool:
    """``k++`` or ``k += 3`` of a plain variable: a step beside the counter's that
    cannot move the counter (its name is checked apart)."""
    if isinstance(e, c_ast.UnaryOp) and e.op in ("++", "--", "p++", "p--"):
        return isinstance(e.expr, c_ast.ID)
    return (
        isinstance(e, c_ast.Assignment)
        and e.op in ("+=", "-=")
        and isinstance(e.lvalue, c_ast.ID)
        and isinstance(e.rvalue, c_ast.Constant)
    )


def _one_step(nxt: c_ast.Node | None, var: str) -> int | None:
    if isinstance(nxt, c_ast.UnaryOp) and isinstance(nxt.expr, c_ast.ID) and nxt.expr.name == var:
        return 1 if "++" in nxt.op else -1 if "--" in nxt.op else None
    if isinstance(nxt, c_ast.Assignment) and isinstance(nxt.lvalue, c_ast.ID):
        if nxt.lvalue.name != var:
            return None
        r = nxt.rvalue
        if nxt.op in ("+=", "-=") and isinstance(r, c_ast.Constant):
            try:
                v = int(r.value.rstrip("uUlL"), 0)
            except ValueError:
                return None
            return v if nxt.op == "+=" else -v
        if nxt.op == "=" and isinstance(r, c_ast.BinaryOp) and r.op in ("+", "-"):
            a, b = r.left, r.right
            if isinstance(a, c_ast.ID) and a.name == var and isinstance(b, c_ast.Constant):
                try:
                    v = int(b.value.rstrip("uUlL"), 0)
                except ValueError:
                    return None
                return v if r.op == "+" else -v
    return None


# a statement's assigned names, by the statement (the walk asks again for every pass and
# call; weak keys, so a node freed with its file can never answer for another)
_ASSIGNED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def assigned(node: c_ast.Node | None) -> set[str]:
    """Scalar names a statement assigns (directly)."""
    if node is None:
        return set()
    if node not in _ASSIGNED:
        _ASSIGNED[node] = frozenset(_assigned(node))
    return set(_ASSIGNED[node])


def _assigned(node: c_ast.Node) -> set[str]:
    out: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Assignment) and scalar_root(n.lvalue):
            out.add(scalar_root(n.lvalue))
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
            if scalar_root(n.expr):
                out.add(scalar_root(n.expr))
        elif isinstance(n, c_ast.Decl) and n.name:
            out.add(n.name)
        stack.extend(c for _, c in n.children())
    return out


def scalar_root(lv: c_ast.Node) -> str | None:
    """``x`` or ``s.f.g``: the variable itself is set (not memory it points to)."""
    while isinstance(lv, c_ast.StructRef) and lv.type == ".":
        lv = lv.name
    return lv.name if isinstance(lv, c_ast.ID) else None


def ends_program(stmt: c_ast.Node | None) -> bool:
    if isinstance(stmt, c_ast.FuncCall):
        return call_name(stmt) in ENDS_PROGRAM
    return False


class _SurelyEvaluated(c_ast.NodeVisitor):
    """The nodes a statement evaluates whenever it runs: not under the arms of ``?:``,
    the right of ``&&``/``||``, ``sizeof``, a branch's arms or a loop's body and step (a
    loop's condition, and a ``for``'s initializer, are evaluated at least once)."""

    def __init__(self, wanted: Callable[[c_ast.Node], bool]) -> None:
        self.wanted = wanted
        self.found = False

    def generic_visit(self, node: c_ast.Node) -> None:
        if self.wanted(node):
            self.found = True
            return
        super().generic_visit(node)

    def visit_TernaryOp(self, node: c_ast.TernaryOp) -> None:
        self.visit(node.cond)

    def visit_BinaryOp(self, node: c_ast.BinaryOp) -> None:
        if node.op in ("&&", "||"):
            self.visit(node.left)
        else:
            self.generic_visit(node)

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        if node.op != "sizeof":
            self.generic_visit(node)

    def visit_For(self, node: c_ast.For) -> None:
        for part in (node.init, node.cond):
            if part is not None:
                self.visit(part)

    def visit_While(self, node: c_ast.While) -> None:
        self.visit(node.cond)

    def visit_If(self, node: c_ast.If) -> None:
        self.visit(node.cond)

    def visit_Compound(self, node: c_ast.Compound) -> None:
        return  # a block's statements: not followed here


def surely_evaluates(stmt: c_ast.Node, wanted: Callable[[c_ast.Node], bool]) -> bool:
    """``stmt`` evaluates a node ``wanted`` accepts whenever it runs."""
    v = _SurelyEvaluated(wanted)
    v.visit(stmt)
    return v.found


def side_effect_free(*nodes: c_ast.Node | None) -> bool:
    """No call, assignment or step in these expressions: evaluating them once more (a
    run-time test at the directive) changes nothing."""
    for node in nodes:
        for n in walk(node) if node is not None else []:
            if isinstance(n, c_ast.FuncCall | c_ast.Assignment):
                return False
            if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
                return False
    return True


def chain(node: c_ast.ArrayRef) -> tuple[c_ast.Node, list[c_ast.Node]]:
    subs = []
    while isinstance(node, c_ast.ArrayRef):
        subs.append(node.subscript)
        node = node.name
        while isinstance(node, c_ast.Cast):
            node = node.expr
    return node, list(reversed(subs))
