"""Walk a loop nest's body once: a tree of loops with their ops and array accesses.

Each ``LoopNode`` holds the operations of one execution of its body that
are not inside a nested loop (``ops``, already multiplied by branch
probabilities), the array references made there, and its nested loops.
Counting how often each body runs is ``count.py``'s job.

Rules (see docs/analysis.md): subscript arithmetic and the control of
``for`` loops are not work; ``if``/``else`` branches are weighted 1/2 each
(``switch`` cases 1/n); user functions defined in the file are inlined
(their loops become nested loops, their array parameters map to the
caller's arrays); other calls are warned about.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from pycparser import c_ast

from autotune.analysis import exprs
from autotune.analysis.astutil import decl_ids, deref_as_arrayref, written_names
from autotune.analysis.estimates import csr_pattern, csr_total, while_bound
from autotune.analysis.exprs import Expr, Symbolic
from autotune.analysis.ops import BINOP_KIND, math_name
from autotune.analysis.profiled import ProfiledValues
from autotune.analysis.symbols import ArrayInfo, Scope, _params, struct_member_type
from autotune.analysis.tripcount import Header, NotCanonical, parse_header

THREAD_API = ("omp_get_thread_num", "omp_get_num_threads")
MAX_INLINE_DEPTH = 6


@dataclass
class Access:
    """One array reference ``name[s0][s1]...`` as written in the body."""

    array: str
    info: ArrayInfo
    subs: list[Expr | None]  # one Expr per subscript; None when not evaluable
    mode: str  # "r" | "w" | "rw"
    text: str
    line: int
    why: str = ""  # why a subscript is not evaluable
    csr_var: str | None = None  # the subscript is a data-dependent loop variable (+ const)


@dataclass
class LoopNode:
    header: Header | None
    kind: str  # "for" | "while" | "do"
    line: int
    ops: Counter = field(default_factory=Counter)
    children: list[tuple[LoopNode, float]] = field(default_factory=list)
    accesses: list[Access] = field(default_factory=list)
    estimate: float = 1.0  # trips per execution when the header is unknown
    csr: str | None = None  # data-dependent bounds P[e] .. P[e+1]
    csr_total: float | None = None  # total trips over all executions (CSR estimate)

    @property
    def var(self) -> str | None:
        return self.header.var if self.header is not None else None

    @property
    def known(self) -> bool:
        return self.header is not None and self.header.known

    def plain(self) -> dict:
        if self.header is None:
            return {"var": "", "unknown": True}
        return self.header.plain()


@dataclass
class Ctx:
    """Where names resolve: the function's scope plus loop variables and bindings."""

    scope: Scope
    loopvars: dict[str, str | None]  # C name -> Expr variable (None: data-dependent)
    fixed: dict[str, Expr | Symbolic]  # enclosing-loop values and inlined parameters
    aliases: dict[str, tuple[str, ArrayInfo]] = field(default_factory=dict)
    prefix: str = ""
    depth: int = 0


class Walker:
    """Builds the LoopNode tree and collects what makes a loop non-tunable."""

    def __init__(self, region: c_ast.Node, profiled: dict[str, int] | None = None) -> None:
        self.warnings: list[str] = []
        self.thread_api: list[str] = []
        self.referenced: set[str] = set()
        self.conditional_access = False
        self.early_exit: list[int] = []
        self.stack: list[str] = []
        self.in_switch = 0
        self.used_fixed: set[str] = set()
        self.region_decls: set[int] = decl_ids(region)
        self.region_writes: set[str] = written_names(region)
        self.region = region
        # values measured at the loop's entry by a profile run (run-time sizes)
        self.profiled = ProfiledValues(profiled, self.region_writes)

    def warn(self, text: str) -> None:
        if text not in self.warnings:
            self.warnings.append(text)

    # ---- names ---------------------------------------------------------------
    def resolve(self, ctx: Ctx, name: str, at: c_ast.Node) -> Expr:
        if name in ctx.loopvars:
            var = ctx.loopvars[name]
            if var is None:
                raise Symbolic(f"{name} (loop variable with unknown bounds)")
            return var
        if name in ctx.fixed:
            if ctx.depth == 0:
                self.used_fixed.add(name)
            v = ctx.fixed[name]
            if isinstance(v, Symbolic):
                raise v
            return v
        decl, kind = ctx.scope.find_decl(name, at)
        if (
            decl is not None
            and kind == "local"
            and id(decl) in self.region_decls
            and decl.init is not None
            and isinstance(decl.type, c_ast.TypeDecl)
            and ctx.scope.writes(name, "local") == 0
        ):
            return self.build(ctx, decl.init, decl)
        return ctx.scope.constant(name, at)

    def build(self, ctx: Ctx, node: c_ast.Node, at: c_ast.Node) -> Expr:
        node = self.profiled.substitute(node)
        return exprs.build(node, lambda n: self.resolve(ctx, n, at), ctx.scope.sizeof)

    # ---- loops ---------------------------------------------------------------
    def loop(
        self, node: c_ast.For, ctx: Ctx, parent: LoopNode | None = None
    ) -> tuple[LoopNode, Ctx]:
        """The LoopNode of a ``for`` (body walked) and the context inside it.

        Array reads in its bounds (``rowptr[i]``) are accesses of ``parent``.
        """
        line = node.coord.line if node.coord else 0
        try:
            header = parse_header(node, lambda n: self.build(ctx, n, node))
        except NotCanonical as exc:
            self.warn(f"line {line}: loop not in canonical form ({exc}): counted once")
            ln = LoopNode(None, "for", line)
            self._cond_ops(ln, node.cond, ctx)
            self.body(ln, node.stmt, ctx, 1.0)
            return ln, ctx
        if parent is not None:
            self.expr(parent, header.start_node, ctx, 1.0, index=True)
            self.expr(parent, header.limit_node, ctx, 1.0, index=True)
        cname = header.var
        header.var = ctx.prefix + cname
        ln = LoopNode(header, "for", line)
        for extra in header.extra:
            self.expr(ln, extra, ctx, 1.0)
            self.warn(
                f"line {line}: loop over {cname} may exit early "
                f"({exprs.to_c_node(extra)}): counted to its bound (upper bound)"
            )
        if not header.known:
            ln.csr = csr_pattern(header)
        inner = Ctx(
            ctx.scope,
            {**ctx.loopvars, cname: header.var if header.known else None},
            ctx.fixed,
            ctx.aliases,
            ctx.prefix,
            ctx.depth,
        )
        self.body(ln, node.stmt, inner, 1.0)
        if not header.known and node is not self.region:
            self._estimate_unknown(ln, header, line)
        return ln, inner

    def _estimate_unknown(self, ln: LoopNode, header: Header, line: int) -> None:
        why = "; ".join(header.symbolic) or "bounds unknown"
        if ln.csr:
            ln.csr_total = csr_total(ln, header.var)
            if ln.csr_total is not None:
                self.warn(
                    f"line {line}: {header.var} runs over data-dependent bounds "
                    f"{header.lower_text} .. {header.upper_text}: assumed "
                    f"{int(ln.csr_total)} trips in total (the size of the arrays it "
                    f"indexes; an upper bound), spread evenly over the outer loop"
                )
                return
        self.warn(f"line {line}: trip count unknown ({why}): counted as one trip")

    def while_loop(self, node: c_ast.While | c_ast.DoWhile, ctx: Ctx) -> LoopNode:
        line = node.coord.line if node.coord else 0
        kind = "do" if isinstance(node, c_ast.DoWhile) else "while"
        ln = LoopNode(None, kind, line)
        self._cond_ops(ln, node.cond, ctx)
        self.body(ln, node.stmt, ctx, 1.0)
        bound = while_bound(node, lambda n, at: self.build(ctx, n, at), ctx.scope.info.parents)
        if bound is None:
            self.warn(f"line {line}: {kind} loop with a data-dependent condition: counted once")
        else:
            ln.estimate = float(max(bound, 1 if kind == "do" else 0))
            self.warn(
                f"line {line}: {kind} loop bounded by its counter: at most "
                f"{bound} trips counted (upper bound)"
            )
        return ln

    def _cond_ops(self, ln: LoopNode, cond: c_ast.Node | None, ctx: Ctx) -> None:
        if cond is not None:
            self.expr(ln, cond, ctx, 1.0)

    # ---- statements ----------------------------------------------------------
    def body(self, ln: LoopNode, s: c_ast.Node | None, ctx: Ctx, f: float) -> None:
        if s is None or isinstance(s, (c_ast.EmptyStatement, c_ast.Pragma)):
            return
        if isinstance(s, c_ast.Compound):
            for item in s.block_items or []:
                self.body(ln, item, ctx, f)
        elif isinstance(s, c_ast.Decl):
            if s.init is not None and not isinstance(s.init, c_ast.InitList):
                self.expr(ln, s.init, ctx, f)
            elif isinstance(s.init, c_ast.InitList):
                for e in s.init.exprs:
                    self.expr(ln, e, ctx, f)
        elif isinstance(s, c_ast.DeclList):
            for d in s.decls:
                self.body(ln, d, ctx, f)
        elif isinstance(s, c_ast.If):
            self.expr(ln, s.cond, ctx, f)
            self.body(ln, s.iftrue, ctx, f * 0.5)
            self.body(ln, s.iffalse, ctx, f * 0.5)
        elif isinstance(s, c_ast.For):
            child, _ = self.loop(s, ctx, ln)
            ln.children.append((child, f))
        elif isinstance(s, (c_ast.While, c_ast.DoWhile)):
            ln.children.append((self.while_loop(s, ctx), f))
        elif isinstance(s, c_ast.Switch):
            self.expr(ln, s.cond, ctx, f)
            items = s.stmt.block_items if isinstance(s.stmt, c_ast.Compound) else [s.stmt]
            cases = [i for i in items or [] if isinstance(i, (c_ast.Case, c_ast.Default))]
            self.in_switch += 1
            for case in cases:
                for st in case.stmts or []:
                    self.body(ln, st, ctx, f / max(1, len(cases)))
            self.in_switch -= 1
        elif isinstance(s, (c_ast.Case, c_ast.Default)):
            for st in s.stmts or []:
                self.body(ln, st, ctx, f)
        elif isinstance(s, c_ast.Label):
            self.body(ln, s.stmt, ctx, f)
        elif isinstance(s, (c_ast.Break, c_ast.Goto, c_ast.Return)):
            if isinstance(s, c_ast.Return) and s.expr is not None:
                self.expr(ln, s.expr, ctx, f)
            if ctx.depth == 0 and not (isinstance(s, c_ast.Break) and self.in_switch):
                self.early_exit.append(s.coord.line if s.coord else 0)
        elif isinstance(s, c_ast.Continue):
            pass
        else:
            self.expr(ln, s, ctx, f)

    # ---- expressions ---------------------------------------------------------
    def expr(
        self,
        ln: LoopNode,
        e: c_ast.Node | None,
        ctx: Ctx,
        f: float,
        mode: str = "r",
        index: bool = False,
    ) -> None:
        if e is None or isinstance(e, c_ast.Constant):
            return
        if isinstance(e, c_ast.ID):
            self.referenced.add(e.name)
        elif isinstance(e, c_ast.ArrayRef):
            self.access(ln, e, ctx, mode, f=f)
        elif isinstance(e, c_ast.BinaryOp):
            if not index:
                ln.ops[BINOP_KIND.get(e.op, "bit")] += f
            self.expr(ln, e.left, ctx, f, index=index)
            self.expr(ln, e.right, ctx, f, index=index)
        elif isinstance(e, c_ast.Assignment):
            if e.op != "=" and not index:
                ln.ops[BINOP_KIND.get(e.op[:-1], "bit")] += f
            self.expr(ln, e.lvalue, ctx, f, "w" if e.op == "=" else "rw", index)
            self.expr(ln, e.rvalue, ctx, f, index=index)
        elif isinstance(e, c_ast.UnaryOp):
            self._unary(ln, e, ctx, f, mode, index)
        elif isinstance(e, c_ast.Cast):
            self.expr(ln, e.expr, ctx, f, mode, index)
        elif isinstance(e, c_ast.TernaryOp):
            self.expr(ln, e.cond, ctx, f, index=index)
            self.expr(ln, e.iftrue, ctx, f * 0.5, index=index)
            self.expr(ln, e.iffalse, ctx, f * 0.5, index=index)
        elif isinstance(e, c_ast.FuncCall):
            self.call(ln, e, ctx, f)
        elif isinstance(e, c_ast.StructRef):
            self.expr(ln, e.name, ctx, f, mode, index)
        elif isinstance(e, (c_ast.ExprList, c_ast.InitList)):
            for x in e.exprs:
                self.expr(ln, x, ctx, f, mode, index)
        elif isinstance(e, c_ast.CompoundLiteral):
            self.expr(ln, e.init, ctx, f, mode, index)

    def _unary(
        self, ln: LoopNode, e: c_ast.UnaryOp, ctx: Ctx, f: float, mode: str, index: bool
    ) -> None:
        op = e.op
        if op == "sizeof":
            return
        if op in ("++", "--", "p++", "p--"):
            if not index:
                ln.ops["add"] += f
            self.expr(ln, e.expr, ctx, f, "rw", index)
        elif op == "*":
            target = deref_as_arrayref(e.expr)
            if target is not None:
                self.access(ln, target, ctx, mode, at=e, f=f)
            else:
                self.expr(ln, e.expr, ctx, f, index=True)
        elif op == "&":
            inner = e.expr
            while isinstance(inner, c_ast.ArrayRef):
                self.expr(ln, inner.subscript, ctx, f, index=True)
                inner = inner.name
            self.expr(ln, inner, ctx, f, index=True)
        else:
            if not index and not isinstance(e.expr, c_ast.Constant) and op != "+":
                ln.ops[{"-": "neg", "!": "logic", "~": "bit"}.get(op, "neg")] += f
            self.expr(ln, e.expr, ctx, f, index=index)

    def access(
        self,
        ln: LoopNode,
        e: c_ast.ArrayRef,
        ctx: Ctx,
        mode: str,
        at: c_ast.Node | None = None,
        f: float = 1.0,
    ) -> None:
        at = at if at is not None else e
        if f < 1.0:
            self.conditional_access = True
        subs_nodes = []
        base = e
        while isinstance(base, c_ast.ArrayRef):
            subs_nodes.insert(0, base.subscript)
            base = base.name
        for s in subs_nodes:
            self.expr(ln, s, ctx, f, index=True)
        if isinstance(base, c_ast.StructRef) and not isinstance(base.name, c_ast.ID):
            self.expr(ln, base, ctx, f, mode)  # a member array of an element: that element
            return
        line = e.coord.line if e.coord else 0
        text = exprs.to_c_node(e)
        name, info = self._array_of(base, ctx, at)
        if info is None:
            self.expr(ln, base, ctx, 1.0, index=True)
            self.warn(f"line {line}: {text}: not a known array, not in the footprint")
            return
        if len(subs_nodes) > len(info.derivs):
            self.warn(f"line {line}: {text}: more subscripts than declared dimensions")
            return
        subs: list[Expr | None] = []
        why, csr_var = "", None
        moved = (
            isinstance(base, c_ast.ID)
            and base.name in self.region_writes
            and info.derivs[0][0] == "ptr"
        )
        if moved:
            why = f"pointer {base.name} is reassigned inside the loop"
        for s in subs_nodes:
            if moved:
                subs.append(None)
                continue
            try:
                subs.append(self.build(ctx, s, at))
            except Symbolic as exc:
                subs.append(None)
                why = why or exc.what
                csr_var = csr_var or self._csr_var(s, ctx)
        ln.accesses.append(Access(name, info, subs, mode, text, line, why, csr_var))

    def _csr_var(self, s: c_ast.Node, ctx: Ctx) -> str | None:
        if isinstance(s, c_ast.BinaryOp) and s.op in "+-" and isinstance(s.right, c_ast.Constant):
            s = s.left
        if isinstance(s, c_ast.ID) and s.name in ctx.loopvars and ctx.loopvars[s.name] is None:
            return ctx.prefix + s.name
        return None

    def _array_of(self, base: c_ast.Node, ctx: Ctx, at: c_ast.Node) -> tuple[str, ArrayInfo | None]:
        if isinstance(base, c_ast.ID):
            self.referenced.add(base.name)
            if base.name in ctx.aliases:
                return ctx.aliases[base.name]
            if ctx.depth > 0 and ctx.scope.find_decl(base.name, at)[1] == "param":
                return base.name, None
            return base.name, ctx.scope.array(base.name, at)
        if isinstance(base, c_ast.StructRef) and isinstance(base.name, c_ast.ID):
            decl, _ = ctx.scope.find_decl(base.name.name, at)
            self.referenced.add(base.name.name)
            if decl is None:
                return exprs.to_c_node(base), None
            t = struct_member_type(ctx.scope, decl.type, base.field.name)
            text = exprs.to_c_node(base)
            if t is None:
                return text, None
            return text, ctx.scope.array_from_type(text, t, None, "member")
        return exprs.to_c_node(base), None

    def call(self, ln: LoopNode, e: c_ast.FuncCall, ctx: Ctx, f: float) -> None:
        args = e.args.exprs if e.args else []
        for a in args:
            self.expr(ln, a, ctx, f)
        line = e.coord.line if e.coord else 0
        if not isinstance(e.name, c_ast.ID):
            self.warn(f"line {line}: call through a pointer: cost not counted")
            return
        name = e.name.name
        if name in THREAD_API:
            self.thread_api.append(name)
            return
        if name.startswith("omp_"):
            return
        base = math_name(name)
        if base is not None:
            ln.ops[base] += f
            return
        callee = ctx.scope.info.funcs.get(name)
        if callee is None:
            ln.ops["call"] += f
            self.warn(
                f"line {line}: call to {name}(): not defined in this file, counted as one 'call' op"
            )
            return
        if name in self.stack or ctx.depth >= MAX_INLINE_DEPTH:
            self.warn(f"line {line}: recursive call to {name}(): counted once, not inlined")
            ln.ops["call"] += f
            return
        self._inline(ln, callee, args, ctx, f, e)

    def _inline(
        self, ln: LoopNode, callee: c_ast.FuncDef, args: list, ctx: Ctx, f: float, at: c_ast.Node
    ) -> None:
        """Count the callee's body as if written at the call (its loops become children)."""
        name = callee.decl.name
        fixed: dict[str, Expr | Symbolic] = {}
        aliases: dict[str, tuple[str, ArrayInfo]] = {}
        for p, a in zip(_params(callee), args, strict=False):
            while isinstance(a, c_ast.Cast):
                a = a.expr
            if isinstance(a, c_ast.ID):
                arr_name, info = self._array_of(a, ctx, at)
                if info is not None:
                    aliases[p.name] = (arr_name, info)
                    continue
            try:
                fixed[p.name] = self.build(ctx, a, at)
            except Symbolic as exc:
                fixed[p.name] = exc
        self.region_decls |= decl_ids(callee.body)
        inner = Ctx(Scope(callee, ctx.scope.ast), {}, fixed, aliases, f"{name}.", ctx.depth + 1)
        self.stack.append(name)
        try:
            self.body(ln, callee.body, inner, f)
        finally:
            self.stack.pop()
