"""How a thread's own accumulator may reach shared data after the loop without the
result depending on which iterations the thread ran.

**Combined**: under critical or atomic, with the loop's own operator (``total += acc``
after ``acc += x[i]``), the copy itself (for sums, a sum of its elements) as the right
side, at subscripts and under loops and tests that are the same on every thread, and
under no other construct. Anything else sees the copy's value, which the schedule
decides: ``total += acc * acc`` (a sum of squares of each thread's share),
``out[tid] += acc`` (each thread's share in its own slot), ``if (tid == 0) total += acc``
(one thread's share), ``total *= acc`` after ``acc += x`` (a product of the shares),
``mine += acc`` into another variable of the thread's own (its share, seen later). The
target is shared: declared outside the region and in none of its data clauses, or, for
an orphaned loop, a global.

**Counts mapped linearly** (NAS IS's ranking): each thread counts its share of the keys
into its own histogram ``h`` (``h[k]++`` in an orphaned ``omp for nowait``), makes it
cumulative (``h[i + 1] += h[i]``) and adds it into the shared histogram under a critical.
The sum over the threads of ``L(h_t)`` is ``L`` of the sum of the ``h_t`` when ``L`` is
linear (sums and differences of the array's own elements, no constant) and the same on
every thread, so any share of the keys gives the same result. Integers only: the sums
are exact in any order.

The map is the same on every thread when no subscript and no control around its
statements (a loop bound, a test) reads a value that depends on the thread or calls
anything, and no construct but ``critical`` governs them (under ``master`` or ``single``
one thread would apply it alone).
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.astutil import subscripts, walk, written_names
from autotune.analysis.names import integral_type, written_root
from autotune.analysis.proof.program import Program, thread_dependent
from autotune.analysis.proof.updates import (
    guarded_selection,
    if_update,
    select_update,
    update_form,
)
from autotune.analysis.symbols import Scope, file_info
from autotune.frontend.runs import pragma_runs

SUMS = ("+=", "-=")
COMBINE_OPS = {"+": SUMS, "*": ("*=",), "|": ("|=",), "&": ("&=",), "^": ("^=",)}
EXTREME_OPS = ("max", "min")


def combining_ids(
    holder: c_ast.Node,
    name: str,
    op: str | None,
    inside: set[int],
    prog: Program,
    func: c_ast.FuncDef | None,
    ast: c_ast.FileAST,
    private: set[str] | None = None,
) -> set[int]:
    """IDs of ``name`` read by the statements outside the loop (``inside``) that combine
    each thread's copy into shared data, as the module says; ``op``: the operator the
    loop's iterations update the copy with; ``private``: the names the region's data
    clauses give each thread (None: an orphaned loop, whose targets must be globals)."""
    if op in EXTREME_OPS:
        return _extreme_ids(holder, name, op, inside, prog, func, ast, private)
    if op is not None and op.startswith("arg"):
        return _select_ids(holder, name, op, inside, prog, func, ast, private)
    if op not in COMBINE_OPS:
        return set()
    local = {id(n) for n in walk(holder) if isinstance(n, c_ast.Decl)}
    parents = file_info(ast).parents
    out: set[int] = set()
    for s in walk(holder):
        if id(s) in inside or not isinstance(s, c_ast.Assignment):
            continue
        if s.op not in COMBINE_OPS[op] or _element(s.lvalue, name) is not None:
            continue
        if not _shared_target(s.lvalue, local, private, func, ast):
            continue
        terms = _terms(s.rvalue, name) if op == "+" else _whole(s.rvalue, name)
        found = _controls(s, holder, parents, ("critical", "atomic"))
        if not terms or found is None:
            continue
        controls, counters, guarded = found
        read = [*subscripts(s.lvalue), *(x for t in terms for x in subscripts(t))]
        if guarded and all(_uniform(e, counters, prog, func, ast) for e in [*read, *controls]):
            out |= {id(x) for x in walk(s.rvalue) if isinstance(x, c_ast.ID) and x.name == name}
    return out


def _extreme_ids(
    holder: c_ast.Node,
    name: str,
    op: str,
    inside: set[int],
    prog: Program,
    func: c_ast.FuncDef | None,
    ast: c_ast.FileAST,
    private: set[str] | None,
) -> set[int]:
    """The copy of a max or min kept per thread, merged by the same extreme under
    critical (``if (mine > best) best = mine;``, ``best = fmax(best, mine)``): a max of
    maxima is the max of all, whatever each thread ran, and a starting value counted
    once or once per thread leaves it as it is (max and min are idempotent)."""

    def merge(s: c_ast.Node) -> tuple[list[c_ast.Node], list[c_ast.Node]] | None:
        form = _extreme_merge(s)
        if form is None:
            return None
        target, got, operand = form
        if got != op or not _is_name(operand, name) or _element(target, name) is not None:
            return None
        return [target], subscripts(target)

    return _merge_ids(holder, name, inside, prog, func, ast, private, merge)


def _select_ids(
    holder: c_ast.Node,
    name: str,
    op: str,
    inside: set[int],
    prog: Program,
    func: c_ast.FuncDef | None,
    ast: c_ast.FileAST,
    private: set[str] | None,
) -> set[int]:
    """A candidate and its index kept per thread by a selection with a tie-break, merged
    under critical by the same selection into shared data, each copy in the role it has
    in the loop (``if (mine > best || (mine == best && at < best_at)) { ... }``): the
    selection of selections is the selection of all, and idempotent, so neither which
    iterations a thread ran nor how many threads there are shows."""
    roles = {}
    for s in walk(holder):
        pick = guarded_selection(s) if id(s) in inside else None
        if pick is not None and pick[0] == op:
            roles[pick[1].name], roles[pick[3].name] = (
                ("value", pick[3].name),
                ("index", pick[1].name),
            )
    if name not in roles:
        return set()
    role, partner = roles[name]

    def merge(s: c_ast.Node) -> tuple[list[c_ast.Node], list[c_ast.Node]] | None:
        pick = select_update(s)
        if pick is None or pick[0] != op:
            return None
        _, value, operand, index, position = pick
        mine = {"value": operand, "index": position}
        theirs = {"value": position, "index": operand}
        if not (_is_name(mine[role], name) and _is_name(theirs[role], partner)):
            return None
        return [value, index], []

    return _merge_ids(holder, name, inside, prog, func, ast, private, merge)


def _merge_ids(holder, name, inside, prog, func, ast, private, merge) -> set[int]:
    """IDs of ``name`` in the statements outside the loop that ``merge`` accepts (it
    gives the shared data a statement writes and the subscripts it reads), each run
    under critical, with tests and loops around it that are the same on every thread."""
    local = {id(n) for n in walk(holder) if isinstance(n, c_ast.Decl)}
    parents = file_info(ast).parents
    out: set[int] = set()
    for s in walk(holder):
        got = merge(s) if id(s) not in inside else None
        if got is None:
            continue
        targets, reads = got
        if not all(_shared_target(t, local, private, func, ast) for t in targets):
            continue
        found = _controls(s, holder, parents, ("critical",))
        if found is None:
            continue
        controls, counters, guarded = found
        if guarded and all(_uniform(e, counters, prog, func, ast) for e in [*reads, *controls]):
            out |= {id(x) for x in walk(s) if isinstance(x, c_ast.ID) and x.name == name}
    return out


def _is_name(node: c_ast.Node, name: str) -> bool:
    return isinstance(node, c_ast.ID) and node.name == name


def _extreme_merge(s: c_ast.Node) -> tuple[c_ast.Node, str, c_ast.Node] | None:
    """(target, "max" or "min", operand) of an extreme update statement."""
    if isinstance(s, c_ast.If):
        return if_update(s)
    if isinstance(s, c_ast.Assignment):
        form = update_form(s)
        if form is not None and form[0] in EXTREME_OPS:
            return s.lvalue, form[0], form[1]
    return None


def _shared_target(
    lvalue: c_ast.Node, local: set[int], private: set[str] | None, func, ast
) -> bool:
    """The combining update writes data every thread shares (see the module)."""
    root = written_root(lvalue)
    if root is None:
        return False
    decl, kind = Scope(func, ast).find_decl(root, lvalue)
    if decl is None or id(decl) in local:
        return False
    if private is None:
        return kind == "global"
    return root not in private


def _whole(node: c_ast.Node, name: str) -> list[c_ast.Node] | None:
    return [node] if _element(node, name) is not None else None


def linear_map_ids(
    holder: c_ast.Node,
    name: str,
    inside: set[int],
    prog: Program,
    func: c_ast.FuncDef | None,
    ast: c_ast.FileAST,
) -> set[int]:
    """IDs of ``name`` in the statements outside the loop (``inside``) that apply one
    linear map to each thread's copy: ``name[e] op= <sum of name's elements>`` (op ``+=``
    or ``-=``) or ``name[e] = <sum of name's elements>``; empty when the copy is combined
    other than by sums (a product of maps is not the map of a product)."""
    if not _combined_by_sums(holder, name, inside):
        return set()
    parents = file_info(ast).parents
    out: set[int] = set()
    for s in walk(holder):
        if id(s) in inside or not isinstance(s, c_ast.Assignment) or s.op not in (*SUMS, "="):
            continue
        terms = _terms(s.rvalue, name)
        if _element(s.lvalue, name) is None or not terms:
            continue
        read = [*subscripts(s.lvalue), *(x for t in terms for x in subscripts(t))]
        found = _controls(s, holder, parents, ("critical",))
        if found is None:
            continue
        controls, counters, _ = found
        if not all(_uniform(e, counters, prog, func, ast) for e in [*read, *controls]):
            continue
        out |= {id(x) for x in walk(s) if isinstance(x, c_ast.ID) and x.name == name}
    return out


def integral_elements(scope: Scope, name: str, at: c_ast.Node) -> bool:
    """``name`` is an integer scalar or an array of integers (of any rank)."""
    decl, _ = scope.find_decl(name, at)
    t = scope.resolve_typedef(decl.type) if decl is not None else None
    while isinstance(t, c_ast.ArrayDecl):
        t = scope.resolve_typedef(t.type)
    return integral_type(scope, t)


def _uniform(node: c_ast.Node, counters: set[str], prog: Program, func, ast) -> bool:
    """Reads nothing that depends on the thread, and calls nothing; the counters of the
    loops around the statement count alike on every thread when their headers do (the
    worksharing loop's ``i`` reused for the cumulative sum, as NAS IS writes it)."""
    for n in walk(node):
        if isinstance(n, c_ast.FuncCall):
            return False
        if isinstance(n, c_ast.ID) and n.name not in counters:
            if thread_dependent(n, prog, func, ast) is not None:
                return False
    return True


def _element(node: c_ast.Node, name: str) -> c_ast.Node | None:
    """``node`` when it is ``name`` or a part of it held in the thread's own copy
    (``name[i]``, ``name[i][j]``, ``name.real``: NAS FT's complex checksum)."""
    root = node
    while isinstance(root, c_ast.ArrayRef) or (
        isinstance(root, c_ast.StructRef) and root.type == "."
    ):
        root = root.name
    return node if isinstance(root, c_ast.ID) and root.name == name else None


def _terms(node: c_ast.Node, name: str) -> list[c_ast.Node] | None:
    """The elements of ``name`` that ``node`` adds and subtracts, or None when it holds
    anything else (a constant, another variable, a product)."""
    if _element(node, name) is not None:
        return [node]
    if isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-"):
        left, right = _terms(node.left, name), _terms(node.right, name)
        return None if left is None or right is None else left + right
    if isinstance(node, c_ast.UnaryOp) and node.op == "-":
        return _terms(node.expr, name)
    return None


def _controls(
    stmt: c_ast.Node, holder: c_ast.Node, parents: dict, allowed: tuple[str, ...]
) -> tuple[list[c_ast.Node], set[str], bool] | None:
    """The expressions that decide whether and how often ``stmt`` runs, from ``holder``
    down (loop headers, tests), the counters those loops set in their headers, and
    whether an ``allowed`` construct governs it; None when another construct does."""
    out: list[c_ast.Node] = []
    counters: set[str] = set()
    guarded = False
    child, node = stmt, parents.get(id(stmt))
    while node is not None and child is not holder:
        if isinstance(node, c_ast.For):
            counter, start = _counter(node.init)
            if counter is None or _sets(node.stmt, counter):
                return None
            counters.add(counter)
            out += [x for x in (start, node.cond, node.next) if x is not None]
        elif isinstance(node, c_ast.If | c_ast.While | c_ast.DoWhile | c_ast.Switch):
            out.append(node.cond)
        elif isinstance(node, c_ast.Compound):
            for run in pragma_runs(node.block_items):
                if run.stmt is not child:
                    continue
                if any(d.kind not in allowed for d in run.directives):
                    return None
                guarded = guarded or bool(run.directives)
        elif isinstance(node, c_ast.FuncDef | c_ast.TernaryOp):
            return None
        child, node = node, parents.get(id(node))
    return (out, counters, guarded) if child is holder else None


def _sets(body: c_ast.Node | None, name: str) -> bool:
    """``body`` assigns ``name``, steps it or takes its address (the counter is then no
    plain counter)."""
    if body is None:
        return False
    taken = any(
        isinstance(n, c_ast.UnaryOp)
        and n.op == "&"
        and isinstance(n.expr, c_ast.ID)
        and n.expr.name == name
        for n in walk(body)
    )
    return taken or name in written_names(body)


def _counter(init: c_ast.Node | None) -> tuple[str | None, c_ast.Node | None]:
    """(the counter, its start) of a loop header's ``i = start`` or ``int i = start``."""
    if isinstance(init, c_ast.Assignment) and init.op == "=" and isinstance(init.lvalue, c_ast.ID):
        return init.lvalue.name, init.rvalue
    if isinstance(init, c_ast.DeclList) and len(init.decls) == 1 and init.decls[0].init:
        return init.decls[0].name, init.decls[0].init
    return None, None


def _combined_by_sums(holder: c_ast.Node, name: str, inside: set[int]) -> bool:
    """Every statement outside the loop that reads ``name`` into another variable adds
    or subtracts it (``key_buff1[i] += prv_buff1[i]``)."""
    for s in walk(holder):
        if id(s) in inside or not isinstance(s, c_ast.Assignment):
            continue
        reads = any(isinstance(x, c_ast.ID) and x.name == name for x in walk(s.rvalue))
        if reads and _element(s.lvalue, name) is None and s.op not in SUMS:
            return False
    return True
