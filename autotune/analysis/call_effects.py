"""What a call to one of the program's functions touches beyond what its arguments name.

A region's events (``region_events``) see a call as the names it mentions. The
function it calls may read or write file-scope variables too (a ``record(t)`` whose
``master`` copies ``unew[N / 8]`` from a global grid), and may write through the
pointers it is passed. Both join the call to a ``nowait`` chain before the next
barrier: a master reading what the loop before it wrote is correct only while the
static schedule gives it those iterations. A call through a pointer may reach any
function whose address the program takes; a library function touches what its
arguments point to; a function defined in none of the program's files cannot be seen
into: ``UNSEEN`` stands for whatever it may touch, and aliases every pointer and array.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

from autotune.analysis.astutil import local_names, lvalues, walk
from autotune.analysis.names import call_name, names_in, written_root
from autotune.analysis.ops import math_name
from autotune.analysis.proof.program import is_omp_call
from autotune.analysis.proof.walkstate import LIBRARY_FUNCS, PURE_FUNCS
from autotune.analysis.region_code import ONCE_NO_BARRIER, ONCE_WITH_BARRIER
from autotune.analysis.symbols import file_info
from autotune.frontend.finder import WORKSHARING_LOOP_KINDS
from autotune.frontend.records import Directive
from autotune.frontend.runs import make_directive, pragma_runs

# library calls that only read what they are passed (a print reads its arguments)
PRINTS = frozenset("printf fprintf puts fputs putchar putc fputc fwrite perror".split())

UNSEEN = "(what an unseen function touches)"  # not an identifier: no declaration aliases it


@dataclass
class Effect:
    """File-scope names a function reads and writes, with the functions it calls, and
    the positions of the parameters it writes through (or hands on)."""

    reads: set[str] = field(default_factory=set)
    writes: set[str] = field(default_factory=set)
    params_written: set[int] = field(default_factory=set)
    unseen: str = ""  # a function it calls (or its callees do) that no file defines
    # the line of code one thread runs with no barrier after it before the function
    # returns (a master setting the inflow cell), 0 if none: the caller's team runs on
    open_once: int = 0


@dataclass
class Touch:
    """What the calls of one piece of code touch beyond its text."""

    reads: set[str] = field(default_factory=set)  # the callees' file-scope variables
    writes: set[str] = field(default_factory=set)
    handed: set[str] = field(default_factory=set)  # the caller's names written through
    open_once: int = 0  # a callee's code one thread runs with no barrier after it
    unseen: str = ""  # the first function called that none of the program's files defines


class CallEffects:
    """Effects of the program's functions (``funcs``: name -> (FuncDef, FileAST)),
    followed through the calls they make."""

    def __init__(self, funcs: dict) -> None:
        self.funcs = funcs
        self._memo: dict[str, Effect] = {}
        self._globals: dict[int, set[str]] = {}
        self._taken: list[str] | None = None  # functions whose address is taken

    def of_node(self, node: c_ast.Node) -> Touch:
        """What the calls in ``node`` touch beyond its own text."""
        out = Touch()
        reads, writes, handed = out.reads, out.writes, out.handed
        for n in walk(node):
            if not isinstance(n, c_ast.FuncCall):
                continue
            name = call_name(n)
            args = n.args.exprs if n.args is not None else []
            if name is None:  # through a pointer: any function whose address is taken
                for effect in self._by_pointer():
                    out.open_once = effect.open_once or out.open_once
                    reads |= effect.reads
                    writes |= effect.writes
                    if effect.params_written:
                        handed |= {v for a in args for v in names_in(a).names}
                continue
            if name not in self.funcs:
                if _writes_through(name):  # memset(a, ...), sscanf(..., &x)
                    for arg in args:
                        handed |= names_in(arg).names
                if not _known(name):  # may run anything, a master too
                    out.unseen = out.unseen or name
                    reads.add(UNSEEN)
                    writes.add(UNSEEN)
                    out.open_once = out.open_once or (int(n.coord.line) if n.coord else 1)
                continue
            effect = self.function(name)
            out.unseen = out.unseen or effect.unseen
            out.open_once = effect.open_once or out.open_once
            reads |= effect.reads
            writes |= effect.writes
            for k, arg in enumerate(args):
                if k in effect.params_written:
                    handed |= names_in(arg).names
        return out

    def function(self, name: str, seen: frozenset[str] = frozenset()) -> Effect:
        """The effect of ``name`` outside its own worksharing loops, whose pairing with
        a caller's ``nowait`` loop ``orphan_flow`` judges (a recursive call counts as
        handing on every parameter it is passed)."""
        if name in self._memo:
            return self._memo[name]
        func, ast = self.funcs[name]
        shared = self._file_variables(ast) - local_names(func)
        skipped = _worksharing_nodes(func.body)
        nodes = [n for n in walk(func.body) if id(n) not in skipped]
        written = {
            w for lv in lvalues(func.body) if id(lv) not in skipped if (w := written_root(lv))
        }
        out = Effect(
            reads={n.name for n in nodes if isinstance(n, c_ast.ID)} & shared,
            writes=written & shared,
        )
        params = _param_names(func)
        out.params_written = {k for k, p in enumerate(params) if p and p in written}
        for n in nodes:
            if isinstance(n, c_ast.FuncCall):
                self._call_in(n, name, seen, shared, params, out)
        out.open_once = self._open_once(func.body, seen | {name})
        if not seen:
            self._memo[name] = out
        return out

    def _call_in(
        self,
        n: c_ast.FuncCall,
        name: str,
        seen: frozenset[str],
        shared: set[str],
        params: list[str],
        out: Effect,
    ) -> None:
        """Add what a call inside ``name`` touches to ``out``."""
        callee = call_name(n)
        args = n.args.exprs if n.args is not None else []
        mentioned = set().union(*(names_in(a).names for a in args)) if args else set()
        handed = {k for k, p in enumerate(params) if p and p in mentioned}
        if callee is None:  # through a pointer: any function whose address is taken
            for effect in self._by_pointer(seen | {name}):
                out.reads |= effect.reads
                out.writes |= effect.writes
        if callee is None or callee in seen or callee == name:
            out.params_written |= handed
            return
        if callee not in self.funcs:
            if _writes_through(callee):
                out.params_written |= handed
                out.writes |= {v for a in args for v in names_in(a).names} & shared
            if not _known(callee):
                out.unseen = out.unseen or callee
                out.reads.add(UNSEEN)
                out.writes.add(UNSEEN)
            return
        inner = self.function(callee, seen | {name})
        out.unseen = out.unseen or inner.unseen
        out.reads |= inner.reads
        out.writes |= inner.writes
        for j, arg in enumerate(args):
            if j in inner.params_written:
                mentioned = names_in(arg).names
                out.writes |= mentioned & shared
                out.params_written |= {k for k, p in enumerate(params) if p in mentioned}

    def _open_once(self, body: c_ast.Compound, seen: frozenset[str]) -> int:
        """The last ``master``/``masked``/``single nowait`` (also in a function called)
        with no barrier after it at the function's top level; 0 if none."""
        line = 0
        for run in pragma_runs(body.block_items):
            d = run.directives[0] if run.directives else None
            if d is not None and _leaves_open(d):
                line = d.line
            elif d is not None and _closes(d):
                line = 0
            elif run.stmt is not None and (d is None or d.kind not in WORKSHARING_LOOP_KINDS):
                line = self._nested_once(run.stmt, seen) or line
        return line

    def _nested_once(self, stmt: c_ast.Node, seen: frozenset[str]) -> int:
        """A once construct inside ``stmt`` (a branch, a loop, a call): open, as far as
        the top level can tell."""
        skipped = _worksharing_nodes(stmt)
        for n in (n for n in walk(stmt) if id(n) not in skipped):
            if isinstance(n, c_ast.Pragma):
                d = make_directive(n)
                if d is not None and _leaves_open(d):
                    return d.line
            elif isinstance(n, c_ast.FuncCall):
                at = int(n.coord.line) if n.coord else 1
                callee = call_name(n)
                if callee is None:  # through a pointer: any function whose address is taken
                    if any(e.open_once for e in self._by_pointer(seen)):
                        return at
                elif callee in self.funcs:
                    if callee not in seen and self.function(callee, seen).open_once:
                        return at
                elif not _known(callee):  # none of the program's files: may run a master
                    return at
        return 0

    def _by_pointer(self, seen: frozenset[str] = frozenset()) -> list[Effect]:
        """The effects of the functions a pointer may reach: those named other than in a
        call (a table of phases, a callback argument)."""
        if self._taken is None:
            called = set()
            named = set()
            units = {id(ast): ast for _, ast in self.funcs.values()}
            for ast in units.values():
                for n in walk(ast):
                    if isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID):
                        called.add(id(n.name))
                    elif isinstance(n, c_ast.ID) and n.name in self.funcs:
                        named.add((id(n), n.name))
            self._taken = sorted({name for key, name in named if key not in called})
        return [self.function(f, seen) for f in self._taken if f not in seen]

    def _file_variables(self, ast: c_ast.FileAST) -> set[str]:
        """Variables declared at file scope (not functions: their prototypes)."""
        key = id(ast)
        if key not in self._globals:
            self._globals[key] = {
                name
                for name, decl in file_info(ast).globals.items()
                if not isinstance(decl.type, c_ast.FuncDecl)
            }
        return self._globals[key]


def _worksharing_nodes(body: c_ast.Node) -> set[int]:
    """The nodes (by id) of ``body``'s worksharing loops (``omp for``; a nested ``parallel
    for`` runs on the calling thread alone, and is not among them), and the field names
    of member accesses: what a function touches outside its loops leaves them out."""
    skipped: set[int] = set()
    for block in walk(body):
        if not isinstance(block, c_ast.Compound):
            continue
        for run in pragma_runs(block.block_items):
            kind = run.directives[0].kind if run.directives else ""
            if run.stmt is not None and kind in WORKSHARING_LOOP_KINDS:
                if not kind.startswith("parallel"):
                    skipped |= {id(x) for x in walk(run.stmt)}
    for n in walk(body):
        if isinstance(n, c_ast.StructRef):
            skipped.add(id(n.field))
    return skipped


def _leaves_open(d: Directive) -> bool:
    """Code one thread runs with no barrier after it (``master``, ``single nowait``)."""
    return d.kind in ONCE_NO_BARRIER or (d.kind in ONCE_WITH_BARRIER and d.clauses.nowait)


def _closes(d: Directive) -> bool:
    """A directive that ends with the team's barrier."""
    if d.kind == "barrier":
        return True
    if d.kind in WORKSHARING_LOOP_KINDS or d.kind in ONCE_WITH_BARRIER:
        return not d.clauses.nowait and not d.kind.startswith("parallel")
    return False


def _known(name: str) -> bool:
    """A function of the C or OpenMP library, whose effect is its arguments'."""
    return bool(math_name(name)) or name in LIBRARY_FUNCS or is_omp_call(name)


def _writes_through(name: str) -> bool:
    """Whether a library call may write what its arguments point to (unknown: yes)."""
    return not (math_name(name) or name in PURE_FUNCS or name in PRINTS or is_omp_call(name))


def _param_names(func: c_ast.FuncDef) -> list[str]:
    args = func.decl.type.args
    params = args.params if args is not None else []
    return [p.name if isinstance(p, c_ast.Decl) and p.name else "" for p in params]
