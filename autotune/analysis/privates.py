"""Variables whose value depends on which iterations a thread ran before.

A privatised scalar read before an iteration surely assigns it carries a value
from the previous iteration the same thread ran; a shared scalar set from
iteration data without a reduction keeps whichever thread wrote last. Either
makes the result depend on the schedule.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.names import names_in
from autotune.analysis.symbols import Scope
from autotune.frontend.records import Clauses
from autotune.frontend.runs import block_items, pragma_runs


def racy_scalars(
    for_node: c_ast.For, clauses: Clauses, scope: Scope, combined: bool
) -> list[tuple[str, int]]:
    """Shared scalars the body sets from iteration data outside atomic/critical.

    ``converged = 0`` (a constant) leaves the same value whoever writes last and
    is allowed; ``last = i`` or ``count++`` is not. For an ``omp for`` inside a
    region only globals are judged (locals may be the region's private copies).
    """
    own = {
        n.strip()
        for group in (clauses.private, clauses.firstprivate, clauses.lastprivate)
        for item in group
        for n in item.split(",")
    }
    own |= {n.strip() for item in clauses.reduction for n in item.rpartition(":")[2].split(",")}
    finder = SharedWrites()
    finder.visit(for_node.stmt)
    out = []
    for name, line in finder.writes:
        if name in own or name in finder.declared:
            continue
        decl, kind = scope.find_decl(name, for_node)
        if decl is None or not isinstance(decl.type, c_ast.TypeDecl):
            continue  # not a scalar (arrays are judged by their elements)
        if kind == "global" or (combined and kind in ("local", "param")):
            out.append((name, line))
    return list(dict.fromkeys(out))


class SharedWrites(c_ast.NodeVisitor):
    """Scalar assignments from non-constant values, outside atomic/critical constructs."""

    def __init__(self) -> None:
        self.writes: list[tuple[str, int]] = []
        self.declared: set[str] = set()

    def visit_Decl(self, node: c_ast.Decl) -> None:
        if node.name:
            self.declared.add(node.name)
        self.generic_visit(node)

    def visit_For(self, node: c_ast.For) -> None:
        init = node.init
        if isinstance(init, c_ast.Assignment) and isinstance(init.lvalue, c_ast.ID):
            self.declared.add(init.lvalue.name)  # an inner loop's counter (private or racy
        self.generic_visit(node)  # either way, the header is not iteration data)

    def visit_Compound(self, node: c_ast.Compound) -> None:
        for run in pragma_runs(node.block_items):
            if run.stmt is None:
                continue
            if {d.kind for d in run.directives} & {"atomic", "critical"}:
                continue  # synchronised: judged by the critical/atomic rules
            self.visit(run.stmt)

    def visit_Assignment(self, node: c_ast.Assignment) -> None:
        lv = node.lvalue
        if isinstance(lv, c_ast.ID) and (
            node.op != "=" or names_in(node.rvalue).names or names_in(node.rvalue).calls
        ):
            self.writes.append((lv.name, node.coord.line if node.coord else 0))
        self.generic_visit(node)

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        if node.op in ("++", "--", "p++", "p--") and isinstance(node.expr, c_ast.ID):
            self.writes.append((node.expr.name, node.coord.line if node.coord else 0))
        self.generic_visit(node)


def carried_privates(for_node: c_ast.For, clauses: Clauses) -> list[str]:
    """Privatised scalars whose value flows from one iteration into the next."""
    names = [
        n
        for group in (clauses.private, clauses.firstprivate, clauses.lastprivate)
        for item in group
        for n in (x.strip() for x in item.split(","))
        if n
    ]
    init = for_node.init
    if isinstance(init, c_ast.Assignment) and isinstance(init.lvalue, c_ast.ID):
        names = [n for n in names if n != init.lvalue.name]  # the loop sets its own variable
    if not names:
        return []
    finder = ReadBeforeWrite(set(names))
    finder.walk_top(for_node.stmt)
    return [n for n in dict.fromkeys(names) if n in finder.carried]


class ReadBeforeWrite(c_ast.NodeVisitor):
    """Which of ``names`` an iteration reads before it has surely assigned them.

    Only an assignment ``x = e`` at the top level of the body counts as sure;
    one inside an ``if`` or an inner loop may not happen. Conservative: a
    false "carried" only keeps a loop as written.
    """

    def __init__(self, names: set[str]) -> None:
        self.names = names
        self.assigned: set[str] = set()
        self.carried: set[str] = set()

    def walk_top(self, stmt: c_ast.Node) -> None:
        for s in block_items(stmt):
            if isinstance(s, c_ast.Assignment) and s.op == "=" and isinstance(s.lvalue, c_ast.ID):
                self.visit(s.rvalue)
                self.assigned.add(s.lvalue.name)
            elif (
                isinstance(s, c_ast.For)
                and isinstance(s.init, c_ast.Assignment)
                and s.init.op == "="
                and isinstance(s.init.lvalue, c_ast.ID)
            ):
                self.visit_For(s)
                self.assigned.add(s.init.lvalue.name)  # the header always runs
            elif isinstance(s, c_ast.Decl) and s.name in self.names:
                self.names = self.names - {s.name}  # a new local of the same name
                if s.init is not None:
                    self.visit(s.init)
            else:
                self.visit(s)

    def visit_For(self, node: c_ast.For) -> None:
        """``for (k = 0; ...)``: k is assigned in the header, body and step (not after)."""
        before = set(self.assigned)
        init = node.init
        if (
            isinstance(init, c_ast.Assignment)
            and init.op == "="
            and isinstance(init.lvalue, c_ast.ID)
        ):
            self.visit(init.rvalue)
            self.assigned.add(init.lvalue.name)
        elif init is not None:
            self.visit(init)
        for part in (node.cond, node.stmt, node.next):
            if part is not None:
                self.visit(part)
        self.assigned = before

    def visit_ID(self, node: c_ast.ID) -> None:
        if node.name in self.names and node.name not in self.assigned:
            self.carried.add(node.name)

    def visit_Assignment(self, node: c_ast.Assignment) -> None:
        self.visit(node.rvalue)
        if node.op != "=" or not isinstance(node.lvalue, c_ast.ID):
            self.visit(node.lvalue)

    def visit_StructRef(self, node: c_ast.StructRef) -> None:
        self.visit(node.name)
