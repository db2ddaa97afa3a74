"""The legality gate for one loop body: what may change without changing the result.

A schedule or thread count changes which thread runs which iteration and in
what order. That is invisible only when the iterations are independent and
their effects commute. This module finds, in the loop body and in the
functions it calls that are defined in the file, what makes the order
visible:

- I/O (``printf``, ``fwrite``, ``scanf`` ...): output order follows the schedule;
- hidden shared state (``rand``, ``strtok`` ...);
- ``atomic capture`` and ``critical`` sections that do more than a
  commutative update (appending to a list, a counter used as an index);
- calls to functions the analysis cannot see into;
- ``private``/``firstprivate``/``lastprivate`` scalars read before they are
  written in an iteration (the value carried in depends on the mapping).

Floating-point reductions are legal but reassociate: they are noted so that
verification compares with a visible tolerance. Each rule reports a reason
in words (``analyze`` prints it); see docs/analysis.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

from autotune.analysis.astutil import lvalues, walk
from autotune.analysis.ops import math_name
from autotune.analysis.symbols import Scope
from autotune.frontend.records import Clauses
from autotune.frontend.runs import block_items, pragma_runs

IO_FUNCS = frozenset(
    "printf fprintf sprintf snprintf vprintf vfprintf puts fputs putchar putc fputc fwrite "
    "write perror fflush scanf fscanf sscanf getchar getc fgetc fgets gets fread read fseek "
    "rewind fopen fclose remove rename system".split()
)
STATEFUL_FUNCS = frozenset(
    "rand random drand48 erand48 lrand48 mrand48 srand srandom srand48 strtok time clock "
    "gettimeofday clock_gettime setjmp longjmp exit abort".split()
)
# Calls whose effect is confined to their arguments (like array writes in the body).
SAFE_FUNCS = frozenset(
    "abs labs llabs min max malloc calloc realloc free memcpy memmove memset memcmp strlen "
    "strcmp strncmp strcpy strncpy strcat strchr strstr assert __assert_fail rand_r "
    "omp_get_wtime omp_get_max_threads omp_in_parallel omp_get_num_procs".split()
)
COMMUTATIVE_ASSIGN = frozenset({"+=", "-=", "*=", "|=", "&=", "^="})
COMMUTATIVE_BINOP = frozenset({"+", "*", "|", "&", "^"})
FLOAT_TYPES = frozenset({"float", "double", "_Float16", "_Float32", "_Float64", "__float128"})
MAX_CALL_DEPTH = 6


@dataclass
class Legality:
    """What the body allows: ``order`` reasons forbid any change; ``reassociates`` notes."""

    order: list[str] = field(default_factory=list)
    reassociates: list[str] = field(default_factory=list)

    def add(self, reason: str) -> None:
        if reason not in self.order:
            self.order.append(reason)


def check_loop(
    for_node: c_ast.For,
    clauses: Clauses,
    scope: Scope,
    region_clauses: Clauses | None = None,
    combined: bool = False,
) -> Legality:
    """The gate's findings for one worksharing loop (``for_node`` is its ``for``);
    ``combined``: a ``parallel for`` (every variable declared outside it is shared)."""
    out = Legality()
    finder = OrderFinder(scope, out)
    finder.visit(for_node.stmt)
    for name, line in racy_scalars(for_node, clauses, scope, combined):
        out.add(
            f"assigns the shared variable {name} at line {line} from the iteration, "
            "without a reduction: the value left depends on which thread writes last"
        )
    for name in carried_privates(for_node, clauses):
        out.add(
            f"private variable {name} is read before it is written in an iteration: its "
            "value carries over between the iterations one thread runs"
        )
    for cl in filter(None, [clauses, region_clauses]):
        for item in cl.reduction:
            op, _, names = item.rpartition(":")
            op = op.split(",")[-1].strip()
            if op in ("max", "min", "&", "|", "^", "&&", "||"):
                continue
            for name in (n.strip() for n in names.split(",")):
                if is_floating(scope, name, for_node):
                    note = (
                        f"floating-point reduction({op}:{name}): another thread count or "
                        "schedule reassociates it, so results may differ in the last digits"
                    )
                    if note not in out.reassociates:
                        out.reassociates.append(note)
    out.reassociates += [r for r in finder.reassociates if r not in out.reassociates]
    return out


def is_floating(scope: Scope, name: str, at: c_ast.Node) -> bool:
    """Whether ``name`` (as seen from ``at``) is a floating-point scalar or array."""
    decl, _ = scope.find_decl(name, at)
    t = decl.type if decl is not None else None
    for _ in range(8):
        if isinstance(t, c_ast.TypeDecl | c_ast.ArrayDecl | c_ast.PtrDecl):
            t = t.type
        elif isinstance(t, c_ast.IdentifierType):
            names = set(t.names)
            if names & FLOAT_TYPES:
                return True
            alias = scope.info.typedefs.get(t.names[-1]) if len(t.names) == 1 else None
            if alias is None:
                return False
            t = getattr(alias, "type", None)
        else:
            return False
    return False


def call_name(node: c_ast.FuncCall) -> str | None:
    return node.name.name if isinstance(node.name, c_ast.ID) else None


def written_root(lv: c_ast.Node) -> str | None:
    """``a[i][j]``, ``s.x``, ``*p`` -> the variable written (``a``, ``s``, ``p``)."""
    while True:
        if isinstance(lv, c_ast.ID):
            return lv.name
        if isinstance(lv, c_ast.ArrayRef):
            lv = lv.name
        elif isinstance(lv, c_ast.StructRef):
            lv = lv.name
        elif isinstance(lv, c_ast.UnaryOp) and lv.op == "*":
            lv = lv.expr
        elif isinstance(lv, c_ast.Cast):
            lv = lv.expr
        else:
            return None


class NameReads(c_ast.NodeVisitor):
    """Every identifier an expression mentions, and whether it calls anything."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.calls: list[str] = []

    def visit_ID(self, node: c_ast.ID) -> None:
        self.names.add(node.name)

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        self.calls.append(call_name(node) or "(function pointer)")
        if node.args is not None:
            self.visit(node.args)

    def visit_StructRef(self, node: c_ast.StructRef) -> None:
        self.visit(node.name)  # the field name is not a variable


def names_in(node: c_ast.Node | None) -> NameReads:
    reads = NameReads()
    if node is not None:
        reads.visit(node)
    return reads


class OrderFinder(c_ast.NodeVisitor):
    """Walks a loop body (and the file's functions it calls) for order-visible effects."""

    def __init__(
        self, scope: Scope, out: Legality, depth: int = 0, seen: set[str] | None = None
    ) -> None:
        self.scope = scope
        self.out = out
        self.depth = depth
        self.seen = seen if seen is not None else set()
        self.reassociates: list[str] = []

    def visit_Compound(self, node: c_ast.Compound) -> None:
        for run in pragma_runs(node.block_items):
            kinds = [d.kind for d in run.directives]
            if run.stmt is None:
                continue
            if "critical" in kinds:
                line = run.directives[kinds.index("critical")].line
                why = critical_order(run.stmt, self.scope)
                if why:
                    self.out.add(
                        f"the critical section at line {line} {why}: its effect "
                        "depends on the order threads enter it"
                    )
                elif updates_floating(run.stmt, self.scope):
                    self._reassoc(
                        f"the critical section at line {line} adds floating-point "
                        "values in thread order (results may differ in the last digits)"
                    )
            for d in run.directives:
                if d.kind == "atomic":
                    self._atomic(d, run.stmt)
            self.visit(run.stmt)

    def _atomic(self, d, stmt: c_ast.Node) -> None:  # noqa: ANN001
        words = d.text.split()
        capture = "capture" in words or any(
            isinstance(s, c_ast.Assignment) and _is_update(s.rvalue) for s in block_items(stmt)
        )
        if capture:
            self.out.add(
                f"'#pragma {d.text}' at line {d.line} captures a shared value: which "
                "thread sees which value depends on the order"
            )
        elif updates_floating(stmt, self.scope):
            self._reassoc(
                f"the atomic update at line {d.line} adds floating-point values in "
                "thread order (results may differ in the last digits)"
            )

    def _reassoc(self, note: str) -> None:
        if note not in self.reassociates:
            self.reassociates.append(note)

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        name = call_name(node)
        line = node.coord.line if node.coord else 0
        if name is None:
            self.out.add(
                f"calls through a function pointer at line {line}, which the analysis "
                "cannot see into"
            )
        elif name in IO_FUNCS:
            self.out.add(f"calls {name}() at line {line}: input/output order follows the schedule")
        elif name in STATEFUL_FUNCS:
            self.out.add(
                f"calls {name}() at line {line}, which keeps hidden shared state: "
                "results follow the iteration order"
            )
        elif name in self.scope.info.funcs:
            self._enter(name, line)
        elif not (
            math_name(name)
            or name in SAFE_FUNCS
            or name.startswith("__builtin_")
            or name.startswith("omp_")
        ):
            self.out.add(
                f"calls {name}() at line {line}, which the analysis cannot see "
                "into (no definition in this file)"
            )
        if node.args is not None:
            self.visit(node.args)

    def _enter(self, name: str, line: int) -> None:
        if name in self.seen:
            return
        if self.depth >= MAX_CALL_DEPTH:
            self.out.add(
                f"calls {name}() at line {line} through more than {MAX_CALL_DEPTH} "
                "levels of functions"
            )
            return
        self.seen.add(name)
        func = self.scope.info.funcs[name]
        inner = OrderFinder(Scope(func, self.scope.ast), self.out, self.depth + 1, self.seen)
        inner.visit(func.body)
        for g in sorted(global_writes(func, inner.scope)):
            self.out.add(f"calls {name}(), which writes the global {g}")
        self.reassociates += [r for r in inner.reassociates if r not in self.reassociates]


def _is_update(e: c_ast.Node) -> bool:
    """``x++``, ``--x`` or ``x += 1`` used as a value (the capture forms of atomic)."""
    return isinstance(e, c_ast.Assignment) or (
        isinstance(e, c_ast.UnaryOp) and e.op in ("++", "--", "p++", "p--")
    )


def global_writes(func: c_ast.FuncDef, scope: Scope) -> set[str]:
    """Globals and static locals a function assigns (shared between threads)."""
    out: set[str] = set()
    for node in walk(func.body):
        if isinstance(node, c_ast.Assignment):
            lv = node.lvalue
        elif isinstance(node, c_ast.UnaryOp) and node.op in ("++", "--", "p++", "p--"):
            lv = node.expr
        else:
            continue
        name = written_root(lv)
        if name is None:
            continue
        decl, kind = scope.find_decl(name, node)
        if kind == "global" or (decl is not None and "static" in (decl.storage or [])):
            if kind == "global" and isinstance(lv, c_ast.ArrayRef | c_ast.UnaryOp):
                continue  # element writes are the caller's array accesses
            out.add(name)
    return out


def critical_order(stmt: c_ast.Node, scope: Scope) -> str:
    """Why a critical section's effect depends on entry order ('' when it commutes)."""
    items = _flatten(stmt)
    written = {w for s in items for w in assigned_names(s)}
    for s in items:
        why = _commuting(s, written)
        if why:
            return why
    return ""


def _flatten(stmt: c_ast.Node) -> list[c_ast.Node]:
    out = []
    for s in block_items(stmt):
        out += _flatten(s) if isinstance(s, c_ast.Compound) else [s]
    return out


def assigned_names(s: c_ast.Node) -> set[str]:
    """Root names of everything ``s`` assigns."""
    return {n for n in map(written_root, lvalues(s)) if n}


def _commuting(s: c_ast.Node, written: set[str]) -> str:
    """'' when ``s`` is a commutative update whose operands read nothing the section writes."""
    line = s.coord.line if s.coord else 0
    if isinstance(s, c_ast.UnaryOp) and s.op in ("++", "--", "p++", "p--"):
        return _operands_ok([s.expr], written, line)
    if isinstance(s, c_ast.Assignment):
        target = written_root(s.lvalue)
        if s.op in COMMUTATIVE_ASSIGN:
            return _operands_ok([s.rvalue, *_subscripts(s.lvalue)], written, line)
        if (
            s.op == "="
            and isinstance(s.rvalue, c_ast.BinaryOp)
            and s.rvalue.op in COMMUTATIVE_BINOP
        ):
            a, b = s.rvalue.left, s.rvalue.right
            for self_ref, other in ((a, b), (b, a)):
                if _same(self_ref, s.lvalue):
                    return _operands_ok([other, *_subscripts(s.lvalue)], written, line)
        return f"assigns {target or 'a value'} at line {line} from shared state"
    if isinstance(s, c_ast.If) and s.iffalse is None:
        body = _flatten(s.iftrue)
        cond = s.cond
        if (
            len(body) == 1
            and isinstance(body[0], c_ast.Assignment)
            and body[0].op == "="
            and isinstance(cond, c_ast.BinaryOp)
            and cond.op in ("<", ">", "<=", ">=")
            and (_same(cond.left, body[0].lvalue) or _same(cond.right, body[0].lvalue))
        ):
            target = written_root(body[0].lvalue)
            return _operands_ok([body[0].rvalue], written - {target}, line)
        return f"makes a decision at line {line} on shared state"
    if isinstance(s, c_ast.Decl | c_ast.EmptyStatement):
        return ""
    return f"runs a {type(s).__name__} statement at line {line}"


def _subscripts(lv: c_ast.Node) -> list[c_ast.Node]:
    out = []
    while isinstance(lv, c_ast.ArrayRef | c_ast.StructRef):
        if isinstance(lv, c_ast.ArrayRef):
            out.append(lv.subscript)
        lv = lv.name
    return out


def _same(a: c_ast.Node, b: c_ast.Node) -> bool:
    if isinstance(a, c_ast.ID) and isinstance(b, c_ast.ID):
        return a.name == b.name
    if isinstance(a, c_ast.ArrayRef) and isinstance(b, c_ast.ArrayRef):
        return _same(a.name, b.name) and _same(a.subscript, b.subscript)
    if isinstance(a, c_ast.Constant) and isinstance(b, c_ast.Constant):
        return a.value == b.value
    return False


def _operands_ok(exprs_: list[c_ast.Node], written: set[str], line: int) -> str:
    for e in exprs_:
        reads = names_in(e)
        clash = sorted(reads.names & written)
        if clash:
            return f"uses {clash[0]}, which it also updates, at line {line}"
        bad = [c for c in reads.calls if not math_name(c)]
        if bad:
            return f"calls {bad[0]}() at line {line}"
    return ""


def updates_floating(stmt: c_ast.Node, scope: Scope) -> bool:
    for s in _flatten(stmt):
        for name in assigned_names(s):
            if is_floating(scope, name, s):
                return True
    return False


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
