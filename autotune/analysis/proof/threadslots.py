"""Partial results kept one slot per thread, combined after the region over every slot.

Hand-written reductions often give each thread a row of a shared array, indexed by its
thread number, and add the rows up after the region (Rodinia's k-means:
``partial_new_centers[tid][index][j] += feature[i][j]`` in the worksharing loop, then
``for (t = 0; t < nthreads; t++) sum += partial_new_centers[t][i][j]``). Another schedule
puts each iteration's term in another thread's row, so each row holds another value; the
sum over all rows is the same sum of terms (exactly for integers; regrouped for
floating-point values, which is said as a reassociation).

So the rows may be taken out of the dependence test when every fact that argument needs
holds, each checked on the function's text:

* in the loop, each use of the array is a statement ``P[tid]...[x] += e`` (or ``-=``,
  ``++``, ``--``) at its full depth, whose right side does not read it, with ``tid`` a
  variable of the region set once to ``omp_get_thread_num()`` before the loop, or that
  call itself (``part[omp_get_thread_num()] += x``, also in a combined ``parallel for``):
  distinct threads, distinct rows;
* the array is a local of the loop's function whose address is never taken, made by one
  ``P = malloc(N * sizeof ...)`` (or ``calloc(N, ...)``); the region touches it nowhere
  else; outside the region its rows are only set (``P[t] = ...``, from an allocation or
  another of its own rows) or freed, and its elements only stored to, or read as
  ``s += P[t]...`` inside ``for (t = 0; t < N; t++)``, with the same ``N``, never
  assigned after it is first set: every read sees the sum over all the rows;
* another team size could index past the rows: the thread count stays as written.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pycparser import c_ast, c_generator

from autotune.analysis.astutil import walk
from autotune.analysis.names import floating_type
from autotune.analysis.proof.decls import derivations
from autotune.analysis.proof.deps import reference_root
from autotune.analysis.proof.facts import IterationFacts, LoopSite
from autotune.analysis.proof.program import Program
from autotune.analysis.proof.slotsums import summed
from autotune.analysis.symbols import Scope, file_info

UPDATES = ("+=", "-=")
STEPS = ("++", "--", "p++", "p--")
STATEMENT_PARENTS = (c_ast.Compound, c_ast.If, c_ast.For, c_ast.While, c_ast.DoWhile)
STATEMENT_PARENTS += (c_ast.Case, c_ast.Default, c_ast.Label)
THREAD_NUM = "omp_get_thread_num"
DIRECT = "omp_get_thread_num()"  # the thread number read where it indexes, not a variable


@dataclass(frozen=True)
class Slots:
    """One array of per-thread rows the loop adds into."""

    array: str
    tid: str  # the variable holding the thread number
    floating: bool
    line: int
    calls: frozenset[int] = frozenset()  # id of each thread-number call indexing the rows


def thread_slots(site: LoopSite, prog: Program) -> list[Slots]:
    """The arrays of per-thread rows the loop at ``site`` only adds into, whose rows the
    program combines over every slot (see the module's docstring)."""
    if site.func is None or site.orphaned:
        return []
    parents = file_info(site.ast).parents
    scope = Scope(site.func, site.ast)
    out = []
    for name, tid, line in _candidates(site.for_node):
        decl, kind = scope.find_decl(name, site.for_node)
        if decl is None or kind != "local" or "static" in (decl.storage or []):
            continue
        if prog.address_taken_var(name, site.for_node, site.func, site.ast):
            continue
        depth = len(derivations(scope, decl.type))
        if depth < 1 or not _loop_uses(site.for_node, name, tid, depth, parents):
            continue
        if tid != DIRECT and not _thread_number(site, tid, scope):
            continue
        count = _slot_count(site.func, name, scope)
        if count is None or not _uses_outside(site, name, depth, count, parents):
            continue
        calls = frozenset(_row_calls(site.for_node, name)) if tid == DIRECT else frozenset()
        out.append(Slots(name, tid, _floating(scope, decl.type), line, calls))
    return out


def covered_thread_calls(slots: list[Slots], facts: IterationFacts) -> list[str]:
    """The reasons of the loop's thread-number reads that do not only pick a row of
    per-thread partials (those stay order-visible effects)."""
    rows = {c for s in slots for c in s.calls}
    return [why for call, why in facts.thread_subscripts if id(call) not in rows]


def _row_calls(loop: c_ast.Node, name: str) -> list[int]:
    """The ``omp_get_thread_num()`` calls that are the first subscript of ``name``."""
    out = []
    for n in walk(loop):
        if isinstance(n, c_ast.ArrayRef) and isinstance(n.name, c_ast.ID):
            if n.name.name == name and _is_thread_num(n.subscript):
                out.append(id(n.subscript))
    return out


def slot_indices(site: LoopSite, prog: Program) -> set[str]:
    """The thread-number variables the loop reads only to index its rows of per-thread
    partials (``tid`` of ``partial[tid][k] += x``): no other read depends on the thread."""
    slots = thread_slots(site, prog)
    arrays = {s.array for s in slots}
    return {s.tid for s in slots if _only_slot_subscript(site.for_node, s.tid, arrays)}


def without_slots(facts: IterationFacts, slots: list[Slots], loop: c_ast.Node) -> IterationFacts:
    """The facts less every reference to the rows, and less the reads of the arrays and
    of their thread numbers that only index them."""
    arrays = {s.array for s in slots}
    tids = {s.tid for s in slots if _only_slot_subscript(loop, s.tid, arrays)}
    refs = [r for r in facts.refs if reference_root(r) not in arrays]
    reads = {n: line for n, line in facts.invariant_reads.items() if n not in arrays | tids}
    return replace(facts, refs=refs, invariant_reads=reads)


def _candidates(loop: c_ast.Node) -> list[tuple[str, str, int]]:
    """(array, thread-number variable, line) of each ``P[tid]...`` in the loop whose first
    subscript is a variable."""
    out: dict[str, tuple[str, str, int]] = {}
    for n in walk(loop):
        if not isinstance(n, c_ast.ArrayRef) or not isinstance(n.name, c_ast.ID):
            continue
        line = n.coord.line if n.coord else 0
        if isinstance(n.subscript, c_ast.ID):
            out.setdefault(n.name.name, (n.name.name, n.subscript.name, line))
        elif _is_thread_num(n.subscript):
            out.setdefault(n.name.name, (n.name.name, DIRECT, line))
    return list(out.values())


def _is_thread_num(node: c_ast.Node) -> bool:
    return (
        isinstance(node, c_ast.FuncCall)
        and isinstance(node.name, c_ast.ID)
        and node.name.name == THREAD_NUM
        and not (node.args and node.args.exprs)
    )


def _chain(node: c_ast.Node, parents) -> tuple[c_ast.Node, list[c_ast.Node]]:
    """The whole subscript chain above the ID ``node``, and its subscripts."""
    top, subs = node, []
    up = parents.get(id(top))
    while isinstance(up, c_ast.ArrayRef) and up.name is top:
        subs.append(up.subscript)
        top, up = up, parents.get(id(up))
    return top, subs


def _loop_uses(loop: c_ast.Node, name: str, tid: str, depth: int, parents) -> bool:
    """Every use of ``name`` in the loop is a full-depth update of its thread's row."""
    for n in walk(loop):
        if not (isinstance(n, c_ast.ID) and n.name == name):
            continue
        top, subs = _chain(n, parents)
        if len(subs) != depth or not _is_tid(subs[0], tid):
            return False
        up = parents.get(id(top))
        if isinstance(up, c_ast.Assignment) and up.lvalue is top and up.op in UPDATES:
            if any(isinstance(x, c_ast.ID) and x.name == name for x in walk(up.rvalue)):
                return False
        elif not (isinstance(up, c_ast.UnaryOp) and up.op in STEPS):
            return False
        if not isinstance(parents.get(id(up)), STATEMENT_PARENTS):
            return False  # its value is used: it would read the row
    return True


def _is_tid(sub: c_ast.Node, tid: str) -> bool:
    if tid == DIRECT:
        return _is_thread_num(sub)
    return isinstance(sub, c_ast.ID) and sub.name == tid


def _thread_number(site: LoopSite, tid: str, scope: Scope) -> bool:
    """``tid`` is set once, to ``omp_get_thread_num()``, in the region before the loop,
    and never otherwise assigned there (nor its address taken)."""
    region = site.region_node
    if region is None:
        return False
    decl, _kind = scope.find_decl(tid, site.for_node)
    inside = {id(n) for n in walk(region)}
    sets = 0
    if decl is not None and id(decl) in inside and decl.init is not None:
        if not _is_thread_num(decl.init):
            return False
        sets += 1
    for n in walk(region):
        if isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, c_ast.ID):
            if n.lvalue.name == tid:
                if n.op != "=" or not _is_thread_num(n.rvalue) or _within(n, site.for_node):
                    return False
                sets += 1
        if isinstance(n, c_ast.UnaryOp) and n.op in (*STEPS, "&"):
            if isinstance(n.expr, c_ast.ID) and n.expr.name == tid:
                return False
    return sets == 1


def _within(node: c_ast.Node, outer: c_ast.Node) -> bool:
    return any(n is node for n in walk(outer))


def _slot_count(func: c_ast.FuncDef, name: str, scope: Scope) -> str | None:
    """The C text of ``N`` in the one ``name = malloc(N * sizeof ...)`` (or ``calloc(N,
    ...)``) of the function, its variables never assigned after their declaration."""
    gen = c_generator.CGenerator()
    made = [
        n
        for n in walk(func.body)
        if isinstance(n, c_ast.Assignment)
        and isinstance(n.lvalue, c_ast.ID)
        and n.lvalue.name == name
    ]
    decl, _ = scope.find_decl(name, func.body)
    inits = [decl.init] if decl is not None and decl.init is not None else []
    values = [n.rvalue for n in made if n.op == "="] + inits
    if len(values) != 1 or len(made) + len(inits) != 1:
        return None
    count = _allocated_count(values[0])
    if count is None:
        return None
    names = {x.name for x in walk(count) if isinstance(x, c_ast.ID)}
    for n in walk(func.body):
        if isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, c_ast.ID):
            if n.lvalue.name in names:
                return None
        if isinstance(n, c_ast.UnaryOp) and n.op in (*STEPS, "&") and isinstance(n.expr, c_ast.ID):
            if n.expr.name in names:
                return None
    return gen.visit(count)


def _allocated_count(value: c_ast.Node) -> c_ast.Node | None:
    """``N`` of ``malloc(N * sizeof(T))``, ``malloc(sizeof(T) * N)``, ``calloc(N, sizeof
    (T))`` (past a cast)."""
    while isinstance(value, c_ast.Cast):
        value = value.expr
    if not isinstance(value, c_ast.FuncCall) or not isinstance(value.name, c_ast.ID):
        return None
    args = value.args.exprs if value.args is not None else []
    if value.name.name == "calloc" and len(args) == 2:
        return args[0]
    if value.name.name == "malloc" and len(args) == 1 and isinstance(args[0], c_ast.BinaryOp):
        left, right = args[0].left, args[0].right
        if args[0].op == "*" and _is_sizeof(right):
            return left
        if args[0].op == "*" and _is_sizeof(left):
            return right
    return None


def _is_sizeof(node: c_ast.Node) -> bool:
    return isinstance(node, c_ast.UnaryOp) and node.op == "sizeof"


def _uses_outside(site: LoopSite, name: str, depth: int, count: str, parents) -> bool:
    """Outside the loop, the array's rows are only set or freed and its elements only
    stored to or summed over every slot, and the region uses it nowhere else."""
    loop_ids = {id(n) for n in walk(site.for_node)}
    region_ids = {id(n) for n in walk(site.region_node)} if site.region_node is not None else set()
    for n in walk(site.func.body):
        if id(n) in loop_ids or not (isinstance(n, c_ast.ID) and n.name == name):
            continue
        if id(n) in region_ids:
            return False
        top, subs = _chain(n, parents)
        up = parents.get(id(top))
        if isinstance(up, c_ast.Assignment) and up.lvalue is top and up.op == "=":
            if any(isinstance(x, c_ast.ID) and x.name == name for x in walk(up.rvalue)):
                if not (0 < len(subs) < depth and _row_arithmetic(up.rvalue, name, len(subs))):
                    return False
            continue  # the array, a row or an element set
        if 0 < len(subs) < depth and _row_source(up, top, name, len(subs), parents):
            continue
        if len(subs) == depth and summed(top, subs[0], count, parents):
            continue
        if not subs and (_freed(up, parents) or _under_sizeof(n, parents) or _null_test(n, up)):
            continue
        return False
    return True


def _null_test(node: c_ast.Node, up: c_ast.Node | None) -> bool:
    """``P == NULL``, ``P != 0``, ``!P``, ``if (P)``: a test of the allocation, no read
    of a row."""
    if isinstance(up, c_ast.UnaryOp) and up.op == "!":
        return True
    if isinstance(up, c_ast.BinaryOp) and up.op in ("==", "!="):
        other = up.right if up.left is node else up.left
        while isinstance(other, c_ast.Cast):
            other = other.expr
        return (
            isinstance(other, c_ast.Constant)
            and other.value == "0"
            or (isinstance(other, c_ast.ID) and other.name == "NULL")
        )
    if isinstance(up, c_ast.BinaryOp) and up.op in ("&&", "||"):
        return True  # ``a && P``: its truth alone
    return isinstance(up, c_ast.If | c_ast.TernaryOp) and up.cond is node


def _freed(up: c_ast.Node | None, parents) -> bool:
    """The one argument of ``free``."""
    call = parents.get(id(up)) if isinstance(up, c_ast.ExprList) else None
    return (
        isinstance(call, c_ast.FuncCall)
        and isinstance(call.name, c_ast.ID)
        and call.name.name == "free"
        and len(up.exprs) == 1
    )


def _under_sizeof(node: c_ast.Node, parents) -> bool:
    """``sizeof *P``, ``sizeof(P[0])``: no read."""
    up = parents.get(id(node))
    while up is not None:
        if isinstance(up, c_ast.UnaryOp) and up.op == "sizeof":
            return True
        if not isinstance(up, c_ast.ArrayRef | c_ast.UnaryOp | c_ast.Cast | c_ast.StructRef):
            return False
        up = parents.get(id(up))
    return False


def _row_source(up, top, name: str, level: int, parents) -> bool:
    """A row read only to set another row of the same array at the same level
    (``P[i] = P[i - 1] + k``), or to free it."""
    node = top
    while isinstance(up, c_ast.BinaryOp | c_ast.Cast):
        node, up = up, parents.get(id(up))
    if isinstance(up, c_ast.ExprList):
        return _freed(up, parents)
    if isinstance(up, c_ast.Assignment) and up.rvalue is node and up.op == "=":
        lv, subs = up.lvalue, 0
        while isinstance(lv, c_ast.ArrayRef):
            lv, subs = lv.name, subs + 1
        return isinstance(lv, c_ast.ID) and lv.name == name and subs == level
    return False


def _row_arithmetic(rvalue: c_ast.Node, name: str, level: int) -> bool:
    """The right side of a row's assignment reads the array only as rows of that level."""
    for n in walk(rvalue):
        if isinstance(n, c_ast.ArrayRef):
            base, subs = n, 0
            while isinstance(base, c_ast.ArrayRef):
                base, subs = base.name, subs + 1
            if isinstance(base, c_ast.ID) and base.name == name and subs > level:
                return False
    return True


def _only_slot_subscript(loop: c_ast.Node, tid: str, arrays: set[str]) -> bool:
    """Every read of ``tid`` in the loop is the first subscript of one of the arrays."""
    parents = _parents_in(loop)
    for n in walk(loop):
        if isinstance(n, c_ast.ID) and n.name == tid:
            up = parents.get(id(n))
            if not (
                isinstance(up, c_ast.ArrayRef)
                and up.subscript is n
                and isinstance(up.name, c_ast.ID)
                and up.name.name in arrays
            ):
                return False
    return True


def _parents_in(loop: c_ast.Node) -> dict[int, c_ast.Node]:
    """Parents within the loop (its own nodes suffice for a subscript's parent)."""
    out: dict[int, c_ast.Node] = {}
    for n in walk(loop):
        for _name, child in n.children():
            out[id(child)] = n
    return out


def _floating(scope: Scope, t: c_ast.Node) -> bool:
    while isinstance(t, c_ast.PtrDecl | c_ast.ArrayDecl):
        t = t.type
    return bool(floating_type(scope, t))
