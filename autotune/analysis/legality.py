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
in words (``analyze`` prints it); see docs/analysis.md. The rules on critical
sections live in ``critical``, those on private and shared scalars in
``privates``, the parallel region's in ``region_rules``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

from autotune.analysis.astutil import walk
from autotune.analysis.critical import critical_order, updates_floating
from autotune.analysis.names import call_name, is_floating, written_root
from autotune.analysis.ops import math_name
from autotune.analysis.privates import carried_privates, racy_scalars
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
