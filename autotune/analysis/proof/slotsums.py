"""Rows of per-thread partials read back as one sum: ``s += P[t]...`` over every slot.

After the region a program adds the rows up (``for (t = 0; t < N; t++) s += P[t][k]``).
That read sees the sum over all rows, which no schedule changes, only when the loop over
the slots adds every row, into one place, and does nothing else with the total: a total
reset in each pass keeps the last row, a running total stored per row or a place that
moves with the pass (``per[j++] += P[t]``) keeps each row apart, and a test on the row or
a jump leaves rows out (``threadslots`` uses this for the reads outside the region).
"""

from __future__ import annotations

from pycparser import c_ast, c_generator

from autotune.analysis.astutil import walk, written_names


def summed(top: c_ast.Node, first: c_ast.Node, count: str, parents) -> bool:
    """``s += P[t]...`` (or ``s = s + P[t]...``; ``s`` may be an element, ``sum[j]``,
    at a place that is the same for every slot) in ``for (t = 0; t < count; t++)``."""
    up = parents.get(id(top))
    if isinstance(up, c_ast.BinaryOp) and up.op == "+":
        up = parents.get(id(up))  # ``s = s + P[t]...``
    if not isinstance(first, c_ast.ID) or not isinstance(up, c_ast.Assignment):
        return False
    if not _total(up.lvalue, first.name, _root(top)):
        return False
    gen = c_generator.CGenerator()
    total = gen.visit(up.lvalue)
    if up.op == "+=" and up.rvalue is top:
        pass
    elif up.op == "=" and isinstance(up.rvalue, c_ast.BinaryOp) and up.rvalue.op == "+":
        a, b = up.rvalue.left, up.rvalue.right
        if not ((a is top and gen.visit(b) == total) or (b is top and gen.visit(a) == total)):
            return False
    else:
        return False
    node, between = up, []
    while node is not None:
        node = parents.get(id(node))
        if isinstance(node, c_ast.For) and _over_slots(node, first.name, count):
            if any(
                isinstance(n, c_ast.Assignment) and _is_name(n.lvalue, first.name)
                for n in walk(node.stmt)
            ):
                return False
            if not _same_place(up.lvalue, node.stmt, between):
                return False  # ``sum[j++] += P[t]``: each row at a place of its own
            return _only_summed(node.stmt, _root(up.lvalue), parents)
        if not isinstance(node, c_ast.Compound | c_ast.For):
            return False  # under a test (``if (P[t] > 0)``): a sum of some rows only
        if isinstance(node, c_ast.For):
            if _reads_rows_or_total(node, _root(top), _root(up.lvalue), first.name):
                return False
            between.append(node)
    return False


def _same_place(lv: c_ast.Node, body: c_ast.Node, between: list[c_ast.For]) -> bool:
    """The total's subscripts take the same values in every pass over the slots: they
    have no side effect, and read only names the pass leaves alone or the counters of the
    loops between (``for (j = 0; j < F; j++) sum[j] += P[t][c][j]``), which only their
    own headers set."""
    names: set[str] = set()
    node = lv
    while isinstance(node, c_ast.ArrayRef | c_ast.StructRef):
        if isinstance(node, c_ast.ArrayRef):
            for x in walk(node.subscript):
                if isinstance(x, c_ast.Assignment | c_ast.FuncCall):
                    return False
                if isinstance(x, c_ast.UnaryOp) and x.op in ("++", "--", "p++", "p--"):
                    return False
                if isinstance(x, c_ast.ID):
                    names.add(x.name)
        node = node.name
    counters = {c for loop in between for c in _header_counters(loop)}
    moved = written_names(body)
    for loop in between:
        if written_names(loop.stmt) & counters:
            return False
    return all(n not in moved or n in counters for n in names)


def _header_counters(loop: c_ast.For) -> set[str]:
    """The names a ``for`` header's initialisation sets."""
    init = loop.init
    if isinstance(init, c_ast.DeclList):
        return {d.name for d in init.decls if d.name}
    if isinstance(init, c_ast.Assignment) and isinstance(init.lvalue, c_ast.ID):
        return {init.lvalue.name}
    return set()


def _only_summed(body: c_ast.Node, total: str, parents) -> bool:
    """In the loop over the slots, the total is only added to (``s = 0`` there would keep
    the last row, ``prefix[t] = s`` each row's running sum), and no jump leaves a row out."""
    for n in walk(body):
        if isinstance(n, c_ast.Break | c_ast.Continue | c_ast.Goto | c_ast.Return):
            return False
        if isinstance(n, c_ast.ID) and n.name == total and not _in_sum(n, parents):
            return False
    return True


def _in_sum(node: c_ast.ID, parents) -> bool:
    """``node`` is the total of an addition into it: ``s += e``, ``s = s + e`` (either
    side), at the total's place (``sum[j]``)."""
    gen = c_generator.CGenerator()
    lv, up = node, parents.get(id(node))
    while isinstance(up, c_ast.ArrayRef | c_ast.StructRef) and up.name is lv:
        lv, up = up, parents.get(id(up))
    if isinstance(up, c_ast.Assignment) and up.lvalue is lv:
        if up.op == "+=":
            return True
        rv = up.rvalue
        return (
            up.op == "="
            and isinstance(rv, c_ast.BinaryOp)
            and rv.op == "+"
            and gen.visit(lv) in (gen.visit(rv.left), gen.visit(rv.right))
        )
    if isinstance(up, c_ast.BinaryOp) and up.op == "+":
        assign = parents.get(id(up))
        return (
            isinstance(assign, c_ast.Assignment)
            and assign.op == "="
            and assign.rvalue is up
            and gen.visit(assign.lvalue) == gen.visit(lv)
        )
    return False


def _reads_rows_or_total(loop: c_ast.For, array: str, total: str, slot: str) -> bool:
    """A loop's header between the sum and the slot loop reads the rows, the total or
    the slot (``for (j = t; ...)``: other places for other rows)."""
    names = {
        x.name
        for part in (loop.init, loop.cond, loop.next)
        if part is not None
        for x in walk(part)
        if isinstance(x, c_ast.ID)
    }
    return bool(names & {array, total, slot})


def _total(lv: c_ast.Node, slot: str, array: str) -> bool:
    """``s``, ``sum[j]``, ``acc.x``: one place for every slot (no subscript reads the slot
    variable or the rows)."""
    while isinstance(lv, c_ast.ArrayRef | c_ast.StructRef):
        if isinstance(lv, c_ast.StructRef) and lv.type != ".":
            return False
        if isinstance(lv, c_ast.ArrayRef):
            if any(isinstance(x, c_ast.ID) and x.name in (slot, array) for x in walk(lv.subscript)):
                return False
        lv = lv.name
    return isinstance(lv, c_ast.ID) and lv.name != array


def _root(node: c_ast.Node) -> str:
    while isinstance(node, c_ast.ArrayRef):
        node = node.name
    return node.name if isinstance(node, c_ast.ID) else ""


def _is_name(node: c_ast.Node, name: str) -> bool:
    return isinstance(node, c_ast.ID) and node.name == name


def _over_slots(loop: c_ast.For, var: str, count: str) -> bool:
    """``for (t = 0; t < count; t++)`` (or ``++t``, ``t += 1``; declared in the header or
    not)."""
    gen = c_generator.CGenerator()
    init = loop.init
    if isinstance(init, c_ast.DeclList) and len(init.decls) == 1:
        start = init.decls[0].init if init.decls[0].name == var else None
    elif isinstance(init, c_ast.Assignment) and _is_name(init.lvalue, var) and init.op == "=":
        start = init.rvalue
    else:
        return False
    if not (isinstance(start, c_ast.Constant) and start.value == "0"):
        return False
    cond = loop.cond
    if not (isinstance(cond, c_ast.BinaryOp) and cond.op == "<" and _is_name(cond.left, var)):
        return False
    if gen.visit(cond.right) != count:
        return False
    step = loop.next
    if isinstance(step, c_ast.UnaryOp) and step.op in ("++", "p++") and _is_name(step.expr, var):
        return True
    return (
        isinstance(step, c_ast.Assignment)
        and step.op == "+="
        and _is_name(step.lvalue, var)
        and isinstance(step.rvalue, c_ast.Constant)
        and step.rvalue.value == "1"
    )
