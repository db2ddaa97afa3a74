"""One iteration of a worksharing loop, walked into references and scalar data flow.

The walk follows the statements of the loop body in order (and the bodies of
the functions it calls, with their parameters bound to the arguments), keeps
the value of integer scalars as polynomials where it can (``k = i + Nr*j`` makes
``dN[k]`` a two-dimensional access), and records for the verdict:

- every memory reference with its symbolic subscripts and the loops around it;
- which thread-private scalars are read before every path has set them;
- the effects whose order is visible (I/O, hidden state, thread identity,
  calls it cannot see into); those on a path that ends the program are dropped.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field

from pycparser import c_ast

from autotune.analysis.critical import critical_order
from autotune.analysis.names import call_name, is_floating
from autotune.analysis.ops import math_name
from autotune.analysis.proof import poly
from autotune.analysis.proof.facts import Bound, IterationFacts, Ref
from autotune.analysis.proof.pointsto import PointsTo, derivations, var_key
from autotune.analysis.proof.program import (
    Program,
    Site,
    is_omp_call,
    param_names,
    thread_dependent_call,
)
from autotune.analysis.symbols import Scope
from autotune.frontend.runs import pragma_runs

IO_FUNCS = frozenset(
    "printf fprintf sprintf snprintf vprintf vfprintf puts fputs putchar putc fputc fwrite "
    "write perror fflush scanf fscanf sscanf getchar getc fgetc fgets gets fread read fseek "
    "rewind fopen fclose remove rename system".split()
)
STATEFUL_FUNCS = frozenset(
    "rand random drand48 erand48 lrand48 mrand48 srand srandom srand48 strtok time clock "
    "gettimeofday clock_gettime setjmp longjmp getenv signal raise".split()
)
ENDS_PROGRAM = frozenset("exit abort _exit _Exit quick_exit __assert_fail".split())
PURE_FUNCS = frozenset(
    "abs labs llabs strlen strcmp strncmp strchr strrchr strstr memcmp atoi atol atof "
    "strtol strtod assert toupper tolower isdigit isalpha isspace".split()
)
ALLOC_FUNCS = frozenset(
    "malloc calloc realloc aligned_alloc valloc free _mm_malloc _mm_free".split()
)
COPY_FUNCS = {
    "memcpy": (0, 1),
    "memmove": (0, 1),
    "memset": (0, None),
    "strcpy": (0, 1),
    "strncpy": (0, 1),
    "strcat": (0, 1),
}
MAX_INLINE = 6
COMMUTATIVE = {"+=": "+", "-=": "+", "*=": "*", "|=": "|", "&=": "&", "^=": "^"}


@dataclass
class PtrVal:
    """A pointer value: the objects it may reach and the index it points at
    (``y0[i]`` as a pointer is ``[i, 0]``; ``x - 1`` is ``[-1]``; None: unknown)."""

    objects: frozenset[str] | None
    base: list[poly.Poly] | None  # the index it points at; arithmetic moves the last
    owner: str = "shared"
    name: str = ""
    group: tuple[int, str] | None = None  # a pointer of a double buffer (see pointsto)


@dataclass
class Frame:
    """A function being walked: the loop's own, or one it calls (inlined)."""

    func: c_ast.FuncDef
    ast: c_ast.FileAST
    scope: Scope
    ints: dict[str, poly.Poly | None] = field(default_factory=dict)  # bound int params
    ptrs: dict[str, PtrVal] = field(default_factory=dict)  # bound pointer params
    top: bool = False


@dataclass
class LoopContext:
    """How names of the loop's own function are classified, and its pointer params."""

    prog: Program
    pointsto: PointsTo
    func: c_ast.FuncDef
    ast: c_ast.FileAST
    loop: c_ast.For
    collapse: int
    local: set[int]  # ids of declarations inside the loop
    private: set[str]  # names private to a thread beyond one iteration
    firstprivate: set[str]
    reductions: dict[str, str]  # name -> operator
    written: set[str]  # names written anywhere in the iteration (and its calls)
    array_written: set[str] = field(default_factory=set)  # roots of element writes, by name
    # values set just before the loop by straight-line code (``i = 1;``), as polynomials
    entry: dict[str, poly.Poly] = field(default_factory=dict)
    param_ptrs: dict[str, PtrVal] = field(default_factory=dict)  # one calling context


@dataclass
class Hooks:
    """What the walk does with memory (``access``) and calls (``calls``): passed in,
    so those modules may use the walker's types without an import cycle."""

    touch: Callable[..., None]
    call: Callable[..., None]
    pointer: Callable[..., PtrVal | None]


class IterationWalker(c_ast.NodeVisitor):
    """Walks one iteration; the results are in ``facts``."""

    def __init__(self, ctx: LoopContext, hooks: Hooks) -> None:
        self.ctx = ctx
        self.hooks = hooks
        self.facts = IterationFacts()
        scope = Scope(ctx.func, ctx.ast)
        self.frames = [Frame(ctx.func, ctx.ast, scope, ptrs=dict(ctx.param_ptrs), top=True)]
        self.env: dict[tuple[int, str], poly.Poly | None] = {}
        self.env_ptr: dict[tuple[int, str], PtrVal] = {}
        self.domain: list[Bound] = []
        self.defined: set[str] | None = set()
        self.cont_exits: list[set[str] | None] = []
        self.ret_exits: list[set[str] | None] = []
        self.mode = "r"
        self.sync: str | None = None  # "atomic"/"critical" around the statement
        self.cond_depth = 0
        self.path: list[int] = []
        self._top: c_ast.Node | None = None
        self.constant: str | None = None  # the constant the write being touched stores
        self._n = 0
        self._params: dict[str, str] = {}

    # ---- entry -----------------------------------------------------------------
    def run(self) -> IterationFacts:
        loop = self.ctx.loop
        node: c_ast.Node = loop
        for level in range(self.ctx.collapse):
            if not isinstance(node, c_ast.For):
                self.facts.effect("collapse goes deeper than the nest of for loops")
                break
            sym = self._enter_for(node, distributed=True)
            self.facts.distributed.append(sym)
            var = _loop_var_name(node)
            if var:
                self.ctx.private.add(var)  # predetermined private (OpenMP)
            if level + 1 < self.ctx.collapse:
                node = _single_for(node.stmt)
        body = node.stmt if isinstance(node, c_ast.For) else None
        self._top = body
        if _jumps(body):
            self.cond_depth += 1  # a continue skips what follows it: nothing is sure
        if body is not None:
            self.visit(body)
        self.facts.end_defined = _meet([self.defined, *self.cont_exits])
        return self.facts

    # ---- names -------------------------------------------------------------------
    @property
    def frame(self) -> Frame:
        return self.frames[-1]

    def _key(self, name: str) -> tuple[int, str]:
        return (len(self.frames) - 1, name)

    def _fresh(self, prefix: str = "u") -> str:
        self._n += 1
        sym = f"{prefix}{self._n}"
        self.facts.symbols.add(sym)
        return sym

    def _param(self, name: str) -> str:
        """The isl parameter of a value the loop does not change: one name per C
        expression, the same in every walk (two loops' walks are compared)."""
        if name not in self._params:
            self._params[name] = param_symbol(name)
        return self._params[name]

    def _decl(self, name: str, at: c_ast.Node) -> tuple[c_ast.Decl | None, str]:
        return self.frame.scope.find_decl(name, at)

    def _is_local(self, decl: c_ast.Decl | None, kind: str) -> bool:
        """Declared inside the iteration (the loop body, or a function it calls)."""
        if decl is None:
            return False
        if not self.frame.top:
            return kind in ("local",) and "static" not in (decl.storage or [])
        return id(decl) in self.ctx.local

    def _class(self, name: str, at: c_ast.Node) -> str:
        """local | private | firstprivate | reduction | shared for a variable name."""
        decl, kind = self._decl(name, at)
        if self._is_local(decl, kind):
            return "local"
        if not self.frame.top:
            if kind == "param":
                return "local"
            if kind == "global" and name in self.ctx.prog.threadprivate:
                return "private"
            return "shared"
        if name in self.ctx.reductions:
            return "reduction"
        if name in self.ctx.firstprivate and name not in self.ctx.written:
            return "invariant"
        if name in self.ctx.private or name in self.ctx.prog.threadprivate:
            scalar = decl is None or not derivations(self.frame.scope, decl.type)
            taken = self.ctx.prog.address_taken_var(name, at, self.frame.func, self.frame.ast)
            if scalar and name not in self.ctx.written and not taken:
                return "invariant"  # read only here: the value each thread brought in
            return "private"
        return "shared"

    def lookup(self, name: str, node: c_ast.Node) -> poly.Poly | None:
        """The value of an integer name as a polynomial (a fresh symbol when unknown)."""
        key = self._key(name)
        if key in self.env:
            value = self.env[key]
            return value if value is not None else poly.symbol(self._fresh())
        decl, kind = self._decl(name, node)
        if kind == "param" and name in self.frame.ints:
            value = self.frame.ints[name]
            return value if value is not None else poly.symbol(self._fresh())
        if decl is None and name in self.frame.scope.info.enums:
            return poly.const(self.frame.scope.info.enums[name])
        cls = self._class(name, node)
        if cls == "local":
            return poly.symbol(self._fresh())
        if name in self.ctx.written or self.ctx.prog.address_taken_var(
            name, node, self.frame.func, self.frame.ast
        ):
            return poly.symbol(self._fresh())
        if self.frame.top and name in self.ctx.entry:
            return self.ctx.entry[name]
        return poly.symbol(self._param(name))

    def value(self, node: c_ast.Node | None) -> poly.Poly | None:
        return poly.PolyBuilder(self.lookup, self._element).build(node)

    def _element(self, node: c_ast.Node) -> poly.Poly | None:
        """``d[2]``, ``grid_points[0]``, ``g->nx``: a size read from memory the loop does
        not write, as a parameter (checked after the walk against the loop's writes)."""
        if not self.frame.top:
            return None
        text = element_text(node, self.value)
        if text is None:
            return None
        root = node
        while isinstance(root, c_ast.ArrayRef | c_ast.StructRef):
            root = root.name
        if not isinstance(root, c_ast.ID):
            return None
        if root.name in self.ctx.array_written or self._class(root.name, root) not in (
            "shared",
            "invariant",
        ):
            return None
        holder = self._holder(node)
        if holder is None:
            return None
        self.facts.sizes_read |= holder
        return poly.symbol(self._param(text))

    def _holder(self, node: c_ast.Node) -> frozenset[str] | None:
        """The objects an element or field read lives in (None: cannot tell)."""
        base = node
        while isinstance(base, c_ast.ArrayRef) or (
            isinstance(base, c_ast.StructRef) and base.type == "."
        ):
            base = base.name
        if isinstance(base, c_ast.StructRef):  # p->f: what p points at
            pv = self.pointer(base.name)
            return pv.objects if pv is not None else None
        if isinstance(base, c_ast.ID):
            decl, kind = self._decl(base.name, base)
            if decl is None:
                return None
            if derivations(self.frame.scope, decl.type)[:1] == ["array"] and kind != "param":
                return frozenset({self.key_of(decl, kind)})
            if not derivations(self.frame.scope, decl.type):
                return frozenset({self.key_of(decl, kind)})  # a struct variable
            pv = self.pointer(base)
            return pv.objects if pv is not None else None
        return None

    # ---- loops ---------------------------------------------------------------------
    def _enter_for(self, node: c_ast.For, distributed: bool = False) -> str:
        """Bind the loop variable to a new symbol bounded by the header (when canonical)."""
        header = _header(node)
        sym = self._fresh("v")
        if header is None:
            if node.init is not None:
                self.visit(node.init)
            self.domain.append(Bound(sym, None, None))
            return sym
        var, lo_node, hi_node, op, step = header
        if not distributed:
            self._read_only(lo_node)
        lo, hi = self.value(lo_node), self.value(hi_node)
        if not distributed:
            self._read_only(hi_node)
        lower = upper = None
        if step is not None and step > 0 and op in ("<", "<=", "!="):
            lower, upper = lo, (poly.add(hi, poly.const(-1)) if hi and op != "<=" else hi)
        elif step is not None and step < 0 and op in (">", ">="):
            upper, lower = lo, (poly.add(hi, poly.const(1)) if hi and op == ">" else hi)
        self.domain.append(Bound(sym, lower, upper))
        self.env[self._key(var)] = poly.symbol(sym)
        self._define(var)
        return sym

    def visit_For(self, node: c_ast.For) -> None:
        header = _header(node)
        written = _assigned(node.stmt) | _assigned(node.next)
        if header is not None and header[0] in written - _assigned(node.next):
            header = None  # the body moves its own counter: not canonical
        self._kill(written)
        depth = len(self.domain)
        if header is None:
            if node.init is not None:
                self.visit(node.init)
            sym = self._fresh("v")
            self.domain.append(Bound(sym, None, None))
        else:
            self._enter_for(node)
        before = set(self.defined) if self.defined is not None else None
        self._loop_body(node.cond, node.stmt, node.next, sure=header is not None)
        self.defined = before
        if header is not None:
            self._define(header[0])
        del self.domain[depth:]
        self._kill(written | ({header[0]} if header else set()))

    def visit_While(self, node: c_ast.While) -> None:
        written = _assigned(node.stmt)
        self._kill(written)
        depth = len(self.domain)
        self.domain.append(Bound(self._fresh("v"), None, None))
        before = set(self.defined) if self.defined is not None else None
        self._loop_body(node.cond, node.stmt, None)
        self.defined = before
        del self.domain[depth:]
        self._kill(written)

    def visit_DoWhile(self, node: c_ast.DoWhile) -> None:
        written = _assigned(node.stmt)
        self._kill(written)
        depth = len(self.domain)
        self.domain.append(Bound(self._fresh("v"), None, None))
        self._loop_body(None, node.stmt, node.cond)
        del self.domain[depth:]
        self._kill(written)

    def _loop_body(self, cond, body, step, sure: bool = False) -> None:  # noqa: ANN001
        """``sure``: a canonical loop without jumps (its body runs at every point of its
        domain, so its writes are certain there)."""
        exits = self.cont_exits
        self.cont_exits = []
        bump = 0 if sure and not _jumps(body) else 1
        self.cond_depth += bump
        if cond is not None:
            self._read_only(cond)
        if body is not None:
            self.visit(body)
        if step is not None:
            self.defined = _meet([self.defined, *self.cont_exits])
            self._read_only(step)
        self.cond_depth -= bump
        self.cont_exits = exits

    def _kill(self, names: set[str]) -> None:
        level = len(self.frames) - 1
        for key in [k for k in self.env if k[0] == level and k[1] in names]:
            self.env[key] = None
        for key in [k for k in self.env_ptr if k[0] == level and k[1] in names]:
            del self.env_ptr[key]
        # values built from a killed name are stale too
        stale = {self._params[n] for n in names if n in self._params}
        for key, value in list(self.env.items()):
            if value is not None and poly.symbols(value) & stale:
                self.env[key] = None

    # ---- statements --------------------------------------------------------------------
    def visit_Compound(self, node: c_ast.Compound) -> None:
        mark = len(self.facts.effects)
        ended = False
        self.path.append(0)
        for i, run in enumerate(pragma_runs(node.block_items)):
            self.path[-1] = i
            if run.stmt is None:
                self._standalone(run)
                continue
            kinds = [d.kind for d in run.directives]
            if any(k in ("atomic", "critical") for k in kinds):
                self._synchronised(run)
            elif any(k == "ordered" for k in kinds):
                self.facts.effect(f"an 'ordered' construct at line {run.directives[0].line}")
                self.visit(run.stmt)
            elif run.directives and all(k in ("simd", "loop", "unroll", "tile") for k in kinds):
                self.visit(run.stmt)
            elif run.directives:
                d = run.directives[0]
                self.facts.effect(
                    f"kept as written: a nested '#pragma {d.text}' at {d.file}:{d.line}, which "
                    "the proof does not follow"
                )
            else:
                self.visit(run.stmt)
            if _ends_program(run.stmt):
                ended = True
        self.path.pop()
        if ended:
            # a path that ends the program: what it printed before does not order the loop
            self.facts.effects[mark:] = [
                e
                for e in self.facts.effects[mark:]
                if not e.startswith("calls ") or " I/O" not in e
            ]
            self.defined = None

    def _standalone(self, run) -> None:  # noqa: ANN001
        d = run.directives[0]
        if d.kind in ("barrier", "taskwait", "flush", "taskyield"):
            self.facts.effect(f"'#pragma {d.text}' at line {d.line} inside the loop")

    def _synchronised(self, run) -> None:  # noqa: ANN001
        d = run.directives[0]
        words = d.text.split()
        if d.kind == "atomic" and ("capture" in words or _captures(run.stmt)):
            self.facts.effect(
                f"'#pragma {d.text}' at line {d.line} captures a shared value: which "
                "iteration sees which value depends on the order"
            )
        elif d.kind == "critical":
            why = critical_order(run.stmt, self.frame.scope)
            if why:
                self.facts.effect(
                    f"the critical section at line {d.line} {why}: its effect depends on the "
                    "order threads enter it"
                )
        saved = self.sync
        self.sync = d.kind
        self.visit(run.stmt)
        self.sync = saved

    def visit_If(self, node: c_ast.If) -> None:
        form = _if_update(node)
        if form is not None:  # if (v > m) m = v;  a max-update of m
            target, op, operand = form
            self._read_only(operand)
            self._touch(target, "u", node, op)
            return
        cond = self.value(node.cond)
        known = poly.constant_of(cond) if cond is not None else None
        if known is not None:
            chosen = node.iftrue if known else node.iffalse
            if chosen is not None:
                self.visit(chosen)
            return
        self._read_only(node.cond)
        self._branches([node.iftrue, node.iffalse])

    def _branches(self, branches: list[c_ast.Node | None]) -> None:
        start_def = set(self.defined) if self.defined is not None else None
        start_env, start_ptr = dict(self.env), dict(self.env_ptr)
        outs, envs = [], []
        self.cond_depth += 1
        for b in branches:
            self.defined = set(start_def) if start_def is not None else None
            self.env, self.env_ptr = dict(start_env), dict(start_ptr)
            if b is not None:
                self.visit(b)
            outs.append(self.defined)
            envs.append((self.env, self.env_ptr))
        self.cond_depth -= 1
        self.defined = _meet(outs)
        self.env = {k: v for k, v in envs[0][0].items() if all(e.get(k) == v for e, _ in envs)}
        for k in set().union(*(e.keys() for e, _ in envs)) - self.env.keys():
            self.env[k] = None
        self.env_ptr = {k: v for k, v in envs[0][1].items() if all(p.get(k) is v for _, p in envs)}

    def visit_TernaryOp(self, node: c_ast.TernaryOp) -> None:
        self._read_only(node.cond)
        self._branches([node.iftrue, node.iffalse])

    def visit_Switch(self, node: c_ast.Switch) -> None:
        self._read_only(node.cond)
        before = set(self.defined) if self.defined is not None else None
        self._kill(_assigned(node.stmt))
        self.cond_depth += 1
        self.visit(node.stmt)
        self.cond_depth -= 1
        self.defined = before
        self._kill(_assigned(node.stmt))

    def visit_Continue(self, node: c_ast.Continue) -> None:
        self.cont_exits.append(set(self.defined) if self.defined is not None else None)
        self.defined = None

    visit_Break = visit_Continue

    def visit_Return(self, node: c_ast.Return) -> None:
        if node.expr is not None:
            self._read_only(node.expr)
        if len(self.frames) == 1:
            self.facts.effect(f"returns from inside the loop at line {_line(node)}")
        else:
            self.ret_exits.append(set(self.defined) if self.defined is not None else None)
        self.defined = None

    def visit_Goto(self, node: c_ast.Goto) -> None:
        self.facts.effect(
            f"kept as written: a goto at {where(node)}, whose paths the proof does not follow"
        )

    def visit_Decl(self, node: c_ast.Decl) -> None:
        if node.init is None or not node.name:
            return
        if isinstance(node.init, c_ast.InitList):
            self._read_only(node.init)
            return
        self._read_only(node.init)
        self._assign_scalar(node.name, node.init, "=", node)

    def visit_FuncDef(self, node: c_ast.FuncDef) -> None:
        return

    # ---- expressions: reads, writes, updates -------------------------------------------
    def _read_only(self, node: c_ast.Node | None) -> None:
        if node is None:
            return
        saved = self.mode
        self.mode = "r"
        self.visit(node)
        self.mode = saved

    def visit_Assignment(self, node: c_ast.Assignment) -> None:
        op = node.op
        form = _update_form(node)
        self_op = form[0] if form is not None else None
        if form is not None:  # x = x + e, x = e > x ? e : x: the update reads x itself
            self._read_only(form[1])
        else:
            self._read_only(node.rvalue)
        update = op in COMMUTATIVE or self_op is not None
        if op != "=" and not update:
            self._touch(node.lvalue, "r", node)
        self.constant = _constant_text(node.rvalue) if op == "=" else None
        self._touch(node.lvalue, "u" if update else "w", node, COMMUTATIVE.get(op, self_op))
        self.constant = None
        if isinstance(node.lvalue, c_ast.ID):
            self._assign_scalar(node.lvalue.name, node.rvalue, op, node)

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        if node.op in ("++", "--", "p++", "p--"):
            self._touch(node.expr, "u", node, "+")
            if isinstance(node.expr, c_ast.ID):
                key = self._key(node.expr.name)
                old = self.env.get(key)
                delta = poly.const(1 if "+" in node.op else -1)
                self.env[key] = poly.add(old, delta) if old is not None else None
                self.env_ptr.pop(key, None)
            return
        if node.op == "&":
            self._address_operands(node.expr)
            return
        if node.op == "sizeof":
            return
        if node.op == "*":
            self._touch(node, self.mode, node)
            return
        self._read_only(node.expr)

    def visit_ID(self, node: c_ast.ID) -> None:
        self._touch(node, "r", node)

    def visit_ArrayRef(self, node: c_ast.ArrayRef) -> None:
        self._touch(node, "r", node)

    def visit_StructRef(self, node: c_ast.StructRef) -> None:
        self._touch(node, "r", node)

    def visit_Cast(self, node: c_ast.Cast) -> None:
        self.visit(node.expr)

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        self.hooks.call(self, node)

    # ---- scalars and memory -----------------------------------------------------------
    def _assign_scalar(self, name: str, rhs: c_ast.Node, op: str, at: c_ast.Node) -> None:
        key = self._key(name)
        decl, _ = self._decl(name, at)
        derivs = derivations(self.frame.scope, decl.type) if decl is not None else []
        if derivs and derivs[0] == "ptr":
            val = self.pointer(rhs) if op == "=" else None
            if val is not None:
                self.env_ptr[key] = val
            else:
                self.env_ptr.pop(key, None)
            return
        if op == "=":
            self.env[key] = self.value(rhs)
        else:
            old = self.env.get(key)
            inc = self.value(rhs)
            self.env[key] = (
                poly.add(old, inc, 1 if op == "+=" else -1)
                if op in ("+=", "-=") and old is not None and inc is not None
                else None
            )

    def _define(self, name: str) -> None:
        if self.defined is not None and self.frame.top:
            self.defined.add(name)

    def _touch(self, node: c_ast.Node, kind: str, at: c_ast.Node, op: str | None = None) -> None:
        self.hooks.touch(self, node, kind, at, op)

    def _address_operands(self, node: c_ast.Node) -> None:
        """``&a[i]`` reads ``i`` (and loads on the way), not ``a[i]``."""
        while isinstance(node, c_ast.Cast):
            node = node.expr
        if isinstance(node, c_ast.ArrayRef):
            self._read_only(node.subscript)
            self._address_operands(node.name)
        elif isinstance(node, c_ast.StructRef):
            if node.type == "->":
                self._read_only(node.name)
            else:
                self._address_operands(node.name)
        elif isinstance(node, c_ast.UnaryOp) and node.op == "*":
            self._read_only(node.expr)

    def pointer(self, node: c_ast.Node | None) -> PtrVal | None:
        return self.hooks.pointer(self, node) if node is not None else None

    def record(self, ref: Ref) -> None:
        if ref.kind == "w":
            ref.value = self.constant
        ref.domain = list(self.domain)
        ref.path = tuple(self.path)
        ref.must = self.cond_depth == 0
        if ref.kind == "u" and self.sync is None and ref.owner == "shared":
            # an unsynchronised shared update is a read and a write, not a reduction
            self.facts.refs.append(Ref(**{**ref.__dict__, "kind": "r", "op": None}))
            ref.kind, ref.op = "w", None
        self.facts.refs.append(ref)

    def note_floating_update(self, name: str, at: c_ast.Node, what: str) -> None:
        if is_floating(self.frame.scope, name, at):
            note = (
                f"{what} adds floating-point values in thread order at line {_line(at)} "
                "(results may differ in the last digits)"
            )
            if note not in self.facts.reassociates:
                self.facts.reassociates.append(note)

    def key_of(self, decl: c_ast.Decl, kind: str) -> str:
        return var_key(decl, kind, self.frame.func)

    def site(self, node: c_ast.Node) -> Site:
        return Site(node, self.frame.func, self.frame.ast)


# ---- helpers ---------------------------------------------------------------------------
def param_symbol(text: str) -> str:
    """The isl parameter for the C expression ``text`` (``n``, ``d[2]``)."""
    digest = hashlib.sha1(text.encode()).hexdigest()[:6]
    return f"P_{_ident(text)}_{digest}"


def element_text(node: c_ast.Node, value) -> str | None:  # noqa: ANN001 - a subscript builder
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


def _constant_text(node: c_ast.Node) -> str | None:
    while isinstance(node, c_ast.Cast):
        node = node.expr
    if isinstance(node, c_ast.UnaryOp) and node.op == "-" and isinstance(node.expr, c_ast.Constant):
        return "-" + node.expr.value
    return node.value if isinstance(node, c_ast.Constant) else None


def _loop_var_name(node: c_ast.For) -> str | None:
    init = node.init
    if isinstance(init, c_ast.DeclList) and init.decls:
        return init.decls[0].name
    if isinstance(init, c_ast.Assignment) and isinstance(init.lvalue, c_ast.ID):
        return init.lvalue.name
    return None


def _jumps(stmt: c_ast.Node | None) -> bool:
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


def _single_for(stmt: c_ast.Node) -> c_ast.Node:
    while isinstance(stmt, c_ast.Compound) and stmt.block_items and len(stmt.block_items) == 1:
        stmt = stmt.block_items[0]
    return stmt


def where(node: c_ast.Node | None) -> str:
    """``file:line`` of a node, for messages."""
    if node is None or node.coord is None:
        return "?"
    return f"{node.coord.file}:{node.coord.line}"


def _line(node: c_ast.Node | None) -> int:
    return node.coord.line if node is not None and node.coord else 0


def _ident(name: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name)


def _meet(sets: list[set[str] | None]) -> set[str] | None:
    """Names set on every path (None: a path that never gets here, which sets all)."""
    real = [s for s in sets if s is not None]
    if not real:
        return None
    out = set(real[0])
    for s in real[1:]:
        out &= s
    return out


def _header(node: c_ast.For) -> tuple[str, c_ast.Node, c_ast.Node, str, int | None] | None:
    """``for (v = lo; v op hi; v += s)`` -> (v, lo, hi, op, s); None when not canonical."""
    init = node.init
    if isinstance(init, c_ast.DeclList) and len(init.decls) == 1 and init.decls[0].init:
        var, lo = init.decls[0].name, init.decls[0].init
    elif (
        isinstance(init, c_ast.Assignment) and init.op == "=" and isinstance(init.lvalue, c_ast.ID)
    ):
        var, lo = init.lvalue.name, init.rvalue
    else:
        return None
    cond = node.cond
    if not isinstance(cond, c_ast.BinaryOp) or cond.op not in ("<", "<=", ">", ">=", "!="):
        return None
    flip = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "!=": "!="}
    if isinstance(cond.left, c_ast.ID) and cond.left.name == var:
        op, hi = cond.op, cond.right
    elif isinstance(cond.right, c_ast.ID) and cond.right.name == var:
        op, hi = flip[cond.op], cond.left
    else:
        return None
    step = _step(node.next, var)
    if step is None:
        return None
    return var, lo, hi, op, step


def _step(nxt: c_ast.Node | None, var: str) -> int | None:
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


def _assigned(node: c_ast.Node | None) -> set[str]:
    """Scalar names a statement assigns (directly)."""
    out: set[str] = set()
    if node is None:
        return out
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Assignment) and _scalar_root(n.lvalue):
            out.add(_scalar_root(n.lvalue))
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
            if _scalar_root(n.expr):
                out.add(_scalar_root(n.expr))
        elif isinstance(n, c_ast.Decl) and n.name:
            out.add(n.name)
        stack.extend(c for _, c in n.children())
    return out


def _scalar_root(lv: c_ast.Node) -> str | None:
    """``x`` or ``s.f.g``: the variable itself is set (not memory it points to)."""
    while isinstance(lv, c_ast.StructRef) and lv.type == ".":
        lv = lv.name
    return lv.name if isinstance(lv, c_ast.ID) else None


def _captures(stmt: c_ast.Node) -> bool:
    items = stmt.block_items if isinstance(stmt, c_ast.Compound) else [stmt]
    for s in items or []:
        if isinstance(s, c_ast.Assignment) and (
            isinstance(s.rvalue, c_ast.Assignment)
            or (isinstance(s.rvalue, c_ast.UnaryOp) and s.rvalue.op in ("++", "--", "p++", "p--"))
        ):
            return True
    return False


def _self_op(node: c_ast.Assignment) -> str | None:
    """The commutative operator of an update written out (``x = x + e``), else None."""
    form = _update_form(node)
    return form[0] if form is not None else None


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


def _update_form(node: c_ast.Assignment) -> tuple[str, c_ast.Node] | None:
    """``x = x + e`` -> ("+", e); ``x = e > x ? e : x`` and ``x = fmax(x, e)`` ->
    ("max", e); None when the assignment is not a commutative update of x."""
    if node.op != "=":
        return None
    x, r = node.lvalue, node.rvalue
    if isinstance(r, c_ast.BinaryOp) and r.op in ("+", "*", "|", "&", "^"):
        for mine, other in ((r.left, r.right), (r.right, r.left)):
            if _same(mine, x) and not _mentions(other, x):
                return r.op, other
        return None
    if isinstance(r, c_ast.TernaryOp):
        op = _extreme(r.cond, r.iftrue, r.iffalse, x)
        if op is not None:
            other = r.iftrue if not _same(r.iftrue, x) else r.iffalse
            return op, other
        return None
    if isinstance(r, c_ast.FuncCall) and call_name(r) in EXTREMES and r.args is not None:
        args = r.args.exprs
        if len(args) == 2:
            for mine, other in ((args[0], args[1]), (args[1], args[0])):
                if _same(mine, x) and not _mentions(other, x):
                    return EXTREMES[call_name(r)], other
    return None


def _extreme(cond: c_ast.Node, when_true: c_ast.Node, when_false: c_ast.Node, x: c_ast.Node):  # noqa: ANN202
    """ "max" / "min" when ``cond ? when_true : when_false`` picks the larger / smaller of
    ``x`` and one other operand, else None."""
    if not isinstance(cond, c_ast.BinaryOp) or cond.op not in ("<", "<=", ">", ">="):
        return None
    sides = (cond.left, cond.right)
    if not (any(_same(s, x) for s in sides) and any(_same(b, x) for b in (when_true, when_false))):
        return None
    other = cond.right if _same(cond.left, x) else cond.left
    if _mentions(other, x):
        return None
    if not ({_key_of(when_true), _key_of(when_false)} == {_key_of(cond.left), _key_of(cond.right)}):
        return None
    greater_if_true = cond.left if cond.op in (">", ">=") else cond.right
    return "max" if _same(when_true, greater_if_true) else "min"


def _key_of(node: c_ast.Node) -> str:
    from pycparser import c_generator

    return c_generator.CGenerator().visit(node)


def _if_update(node: c_ast.If) -> tuple[c_ast.Node, str, c_ast.Node] | None:
    """``if (v > m) m = v;`` -> (m, "max", v); None for any other if."""
    if node.iffalse is not None:
        return None
    body = node.iftrue
    while isinstance(body, c_ast.Compound) and body.block_items and len(body.block_items) == 1:
        body = body.block_items[0]
    if not (isinstance(body, c_ast.Assignment) and body.op == "="):
        return None
    op = _extreme(node.cond, body.rvalue, body.lvalue, body.lvalue)
    return (body.lvalue, op, body.rvalue) if op is not None else None


def _same(a: c_ast.Node, b: c_ast.Node) -> bool:
    """The same lvalue written twice (``x``, ``a[i]``, ``s.f``, ``p->f``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, c_ast.ID):
        return a.name == b.name
    if isinstance(a, c_ast.Constant):
        return a.value == b.value
    if isinstance(a, c_ast.ArrayRef):
        return _same(a.name, b.name) and _same(a.subscript, b.subscript)
    if isinstance(a, c_ast.StructRef):
        return a.type == b.type and a.field.name == b.field.name and _same(a.name, b.name)
    if isinstance(a, c_ast.UnaryOp):
        return a.op == b.op and _same(a.expr, b.expr)
    if isinstance(a, c_ast.BinaryOp):
        return a.op == b.op and _same(a.left, b.left) and _same(a.right, b.right)
    return False


def _mentions(expr: c_ast.Node, lv: c_ast.Node) -> bool:
    from autotune.analysis.names import written_root

    root = written_root(lv)
    stack = [expr]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.ID) and n.name == root:
            return True
        stack.extend(c for _, c in n.children())
    return False


def _ends_program(stmt: c_ast.Node | None) -> bool:
    if isinstance(stmt, c_ast.FuncCall):
        return call_name(stmt) in ENDS_PROGRAM
    return False


__all__ = [
    "ENDS_PROGRAM",
    "IO_FUNCS",
    "STATEFUL_FUNCS",
    "PURE_FUNCS",
    "ALLOC_FUNCS",
    "COPY_FUNCS",
    "MAX_INLINE",
    "IterationWalker",
    "LoopContext",
    "PtrVal",
    "Frame",
    "math_name",
    "is_omp_call",
    "thread_dependent_call",
    "param_names",
]
