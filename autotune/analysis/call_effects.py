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

from autotune.analysis.astutil import local_names, walk
from autotune.analysis.names import call_name, names_in, written_root
from autotune.analysis.ops import math_name
from autotune.analysis.proof.program import is_omp_call
from autotune.analysis.proof.walkstate import LIBRARY_FUNCS, PURE_FUNCS
from autotune.frontend.finder import WORKSHARING_LOOP_KINDS
from autotune.frontend.runs import pragma_runs

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


class CallEffects:
    """Effects of the program's functions (``funcs``: name -> (FuncDef, FileAST)),
    followed through the calls they make."""

    def __init__(self, funcs: dict) -> None:
        self.funcs = funcs
        self._memo: dict[str, Effect] = {}
        self._globals: dict[int, set[str]] = {}
        self._taken: list[str] | None = None  # functions whose address is taken

    def of_node(self, node: c_ast.Node) -> tuple[tuple[set[str], set[str]], set[str]]:
        """What the calls in ``node`` touch beyond its own text: the callees' file-scope
        variables (read, written), and the names of the arguments handed to a parameter
        written through (names of the caller's)."""
        reads: set[str] = set()
        writes: set[str] = set()
        handed: set[str] = set()
        for n in walk(node):
            if not isinstance(n, c_ast.FuncCall):
                continue
            name = call_name(n)
            args = n.args.exprs if n.args is not None else []
            if name is None:  # through a pointer: any function whose address is taken
                for effect in self._by_pointer():
                    reads |= effect.reads
                    writes |= effect.writes
                    if effect.params_written:
                        handed |= {v for a in args for v in names_in(a).names}
                continue
            if name not in self.funcs:
                if _writes_through(name):  # memset(a, ...), sscanf(..., &x)
                    for arg in args:
                        handed |= names_in(arg).names
                if not _known(name):
                    reads.add(UNSEEN)
                    writes.add(UNSEEN)
                continue
            effect = self.function(name)
            reads |= effect.reads
            writes |= effect.writes
            for k, arg in enumerate(args):
                if k in effect.params_written:
                    handed |= names_in(arg).names
        return (reads, writes), handed

    def function(self, name: str, seen: frozenset[str] = frozenset()) -> Effect:
        """The effect of ``name`` outside its own worksharing loops, whose pairing with
        a caller's ``nowait`` loop ``orphan_flow`` judges (a recursive call counts as
        handing on every parameter it is passed)."""
        if name in self._memo:
            return self._memo[name]
        func, ast = self.funcs[name]
        shared = self._file_variables(ast) - local_names(func)
        nodes = _outside_worksharing(func.body)
        written = {w for n in nodes for w in map(written_root, _own_lvalues(n)) if w}
        out = Effect(
            reads={n.name for n in nodes if isinstance(n, c_ast.ID)} & shared,
            writes=written & shared,
        )
        params = _param_names(func)
        out.params_written = {k for k, p in enumerate(params) if p and p in written}
        for n in nodes:
            if isinstance(n, c_ast.FuncCall):
                self._call_in(n, name, seen, shared, params, out)
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
                out.reads.add(UNSEEN)
                out.writes.add(UNSEEN)
            return
        inner = self.function(callee, seen | {name})
        out.reads |= inner.reads
        out.writes |= inner.writes
        for j, arg in enumerate(args):
            if j in inner.params_written:
                mentioned = names_in(arg).names
                out.writes |= mentioned & shared
                out.params_written |= {k for k, p in enumerate(params) if p in mentioned}

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
        """Variables declared at file scope (not functions, not types)."""
        key = id(ast)
        if key not in self._globals:
            names = set()
            for ext in ast.ext:
                if (
                    isinstance(ext, c_ast.Decl)
                    and ext.name
                    and not isinstance(ext.type, c_ast.FuncDecl)
                    and "typedef" not in (ext.storage or [])
                ):
                    names.add(ext.name)
            self._globals[key] = names
        return self._globals[key]


def _outside_worksharing(body: c_ast.Node) -> list[c_ast.Node]:
    """Every node of ``body`` but those of its worksharing loops (``omp for``; a nested
    ``parallel for`` runs on the calling thread alone, and counts), and but the field
    names of member accesses."""
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
    return [n for n in walk(body) if id(n) not in skipped]


def _own_lvalues(n: c_ast.Node) -> list[c_ast.Node]:
    """What ``n`` itself assigns (not its children: they are nodes of their own)."""
    if isinstance(n, c_ast.Assignment):
        return [n.lvalue]
    if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
        return [n.expr]
    return []


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
