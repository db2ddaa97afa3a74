"""Walk a loop nest's body once: a tree of loops with their ops and array accesses.

Each ``LoopNode`` holds the operations of one execution of its body that
are not inside a nested loop (``ops``, already multiplied by branch
probabilities), the array references made there, and its nested loops.
Counting how often each body runs is ``count.py``'s job.

Rules (see docs/analysis.md): subscript arithmetic and the control of
``for`` loops are not work; ``if``/``else`` branches are weighted 1/2 each
(``switch`` cases 1/n); user functions defined in the file are inlined
(their loops become nested loops, their array parameters map to the
caller's arrays); ``memcpy``/``memset`` of whole elements are the element loops
they perform (``copies.py``); other calls are warned about.

``Walker`` is one ``NodeVisitor``: statements and expressions are visited by
``visit_<Class>``; where the walk is (the loop being filled, the name
context, the branch weight, read/write mode, whether inside a subscript) is
held on the instance and set for each sub-walk by ``_walk``.
"""

from __future__ import annotations

import os

from pycparser import c_ast

from autotune.analysis import exprs
from autotune.analysis.arrayref import array_of, subscripts
from autotune.analysis.astutil import deref_as_arrayref
from autotune.analysis.bodycalls import THREAD_API, CallWalk
from autotune.analysis.estimates import csr_pattern, csr_total, while_bound
from autotune.analysis.exprs import Expr
from autotune.analysis.loopnode import Access, Ctx, LoopNode
from autotune.analysis.nameresolve import NameResolver
from autotune.analysis.ops import BINOP_KIND
from autotune.analysis.tripcount import Header, NotCanonical, parse_header

__all__ = ["THREAD_API", "Access", "Ctx", "LoopNode", "Walker"]

UNARY_KIND = {"-": "neg", "!": "logic", "~": "bit"}


class Walker(CallWalk, c_ast.NodeVisitor):
    """Builds the LoopNode tree and collects what makes a loop non-tunable."""

    def __init__(
        self,
        region: c_ast.Node,
        profiled: dict[str, int] | None = None,
        other_funcs: dict[str, tuple[c_ast.FuncDef, c_ast.FileAST]] | None = None,
        home: c_ast.FileAST | None = None,
    ) -> None:
        self.warnings: list[str] = []
        self.home = home  # the loop's file: what a bound must be readable in
        # functions of the program's other files (``--extra-source``), each with its own
        # file's tree: a call into one is counted as a call into this file is
        self.other_funcs = other_funcs or {}
        self.thread_api: list[str] = []
        self.referenced: set[str] = set()
        self.conditional_access = False
        self.early_exit: list[str] = []  # where a loop may be left early ("line 12")
        self.stack: list[str] = []
        self.entry_ln: list[LoopNode | None] = []  # the loop around each inlined call
        self.in_switch = 0
        self.names = NameResolver(region, profiled)
        self.locals = self.names.locals
        self.profiled = self.names.profiled  # values a profile run measured at the loop
        self.used_fixed = self.names.used_fixed
        self.region = region
        # where the walk is: set by _walk for each sub-walk
        self.ln: LoopNode | None = None
        self.ctx: Ctx | None = None
        self.f = 1.0
        self.mode = "r"
        self.index = False

    def warn(self, text: str) -> None:
        if text not in self.warnings:
            self.warnings.append(text)

    def _place(self, node: c_ast.Node) -> str:
        """Where a note points: ``line 12`` in the loop's own file, ``io.c:12`` in another
        file of the program (a called function's body)."""
        coord, own = node.coord, self.region.coord
        line = coord.line if coord else 0
        if coord and own and coord.file and own.file and coord.file != own.file:
            return f"{os.path.basename(coord.file)}:{line}"
        return f"line {line}"

    def _walk(
        self,
        node: c_ast.Node | None,
        *,
        ln: LoopNode | None = None,
        ctx: Ctx | None = None,
        f: float | None = None,
        mode: str = "r",
        index: bool = False,
    ) -> None:
        """Visit ``node`` with the given position; the previous one is restored after."""
        if node is None:
            return
        saved = (self.ln, self.ctx, self.f, self.mode, self.index)
        self.ln = ln if ln is not None else self.ln
        self.ctx = ctx if ctx is not None else self.ctx
        self.f = f if f is not None else self.f
        self.mode, self.index = mode, index
        try:
            self.visit(node)
        finally:
            self.ln, self.ctx, self.f, self.mode, self.index = saved

    def generic_visit(self, node: c_ast.Node) -> None:
        """Nodes without a rule (constants, types, empty statements) are not work."""

    # ---- names ---------------------------------------------------------------
    def build(self, ctx: Ctx, node: c_ast.Node, at: c_ast.Node) -> Expr:
        """``node`` as an Expr of loop variables and program constants (nameresolve.py)."""
        return self.names.build(ctx, node, at)

    # ---- loops ---------------------------------------------------------------
    def loop(
        self, node: c_ast.For, ctx: Ctx, parent: LoopNode | None = None
    ) -> tuple[LoopNode, Ctx]:
        """The LoopNode of a ``for`` (body walked) and the context inside it.

        Array reads in its bounds (``rowptr[i]``) are accesses of ``parent``.
        """
        line, place = (node.coord.line if node.coord else 0), self._place(node)
        outer, self.names.header_uses = self.names.header_uses, set()
        try:
            header = parse_header(node, lambda n: self.build(ctx, n, node))
        except NotCanonical as exc:
            self.warn(f"{place}: loop not in canonical form ({exc}): counted once")
            ln = LoopNode(None, "for", line)
            self._walk(node.cond, ln=ln, ctx=ctx, f=1.0)
            self._walk(node.stmt, ln=ln, ctx=ctx, f=1.0)
            return ln, ctx
        finally:
            reads, self.names.header_uses = self.names.header_uses, outer
        if parent is not None:
            self._walk(header.start_node, ln=parent, ctx=ctx, f=1.0, index=True)
            self._walk(header.limit_node, ln=parent, ctx=ctx, f=1.0, index=True)
        cname = header.var
        header.var = ctx.prefix + cname
        if ctx.prefix:  # a loop of a called function: its bounds in the caller's terms
            header.lower_text = ctx.in_caller_terms(header.lower_text)
            header.upper_text = ctx.in_caller_terms(header.upper_text)
        ln = LoopNode(header, "for", line, reads_enclosing=reads)
        for extra in header.extra:
            self._walk(extra, ln=ln, ctx=ctx, f=1.0)
            self.warn(
                f"{place}: loop over {cname} may exit early "
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
            ctx.caller_texts,
            ctx.rows,
        )
        self._walk(node.stmt, ln=ln, ctx=inner, f=1.0)
        if not header.known and node is not self.region:
            self._estimate_unknown(ln, header, place)
        return ln, inner

    def _estimate_unknown(self, ln: LoopNode, header: Header, place: str) -> None:
        why = "; ".join(header.symbolic) or "bounds unknown"
        if ln.csr:
            ln.csr_total = csr_total(ln, header.var)
            if ln.csr_total is not None:
                self.warn(
                    f"{place}: {header.var} runs over data-dependent bounds "
                    f"{header.lower_text} .. {header.upper_text}: assumed "
                    f"{int(ln.csr_total)} trips in total (the size of the arrays it "
                    f"indexes; an upper bound), spread evenly over the outer loop"
                )
                return
        self.warn(f"{place}: trip count unknown ({why}): counted as one trip")

    def while_loop(self, node: c_ast.While | c_ast.DoWhile, ctx: Ctx) -> LoopNode:
        line, place = (node.coord.line if node.coord else 0), self._place(node)
        kind = "do" if isinstance(node, c_ast.DoWhile) else "while"
        ln = LoopNode(None, kind, line)
        self._walk(node.cond, ln=ln, ctx=ctx, f=1.0)
        self._walk(node.stmt, ln=ln, ctx=ctx, f=1.0)
        bound = while_bound(node, lambda n, at: self.build(ctx, n, at), ctx.scope.info.parents)
        if bound is None:
            self.warn(f"{place}: {kind} loop with a data-dependent condition: counted once")
        else:
            ln.estimate = float(max(bound, 1 if kind == "do" else 0))
            self.warn(
                f"{place}: {kind} loop bounded by its counter: at most "
                f"{bound} trips counted (upper bound)"
            )
        return ln

    # ---- statements ----------------------------------------------------------
    def visit_Compound(self, node: c_ast.Compound) -> None:
        for item in node.block_items or []:
            self._walk(item)

    def visit_Decl(self, node: c_ast.Decl) -> None:
        self._walk(node.init)

    def visit_DeclList(self, node: c_ast.DeclList) -> None:
        for decl in node.decls:
            self._walk(decl)

    def visit_If(self, node: c_ast.If) -> None:
        self._walk(node.cond)
        self._walk(node.iftrue, f=self.f * 0.5)
        self._walk(node.iffalse, f=self.f * 0.5)

    def visit_For(self, node: c_ast.For) -> None:
        child, _ = self.loop(node, self.ctx, self.ln)
        self.ln.children.append((child, self.f))

    def visit_While(self, node: c_ast.While | c_ast.DoWhile) -> None:
        self.ln.children.append((self.while_loop(node, self.ctx), self.f))

    visit_DoWhile = visit_While

    def visit_Switch(self, node: c_ast.Switch) -> None:
        self._walk(node.cond)
        stmt = node.stmt
        items = stmt.block_items if isinstance(stmt, c_ast.Compound) else [stmt]
        cases = [i for i in items or [] if isinstance(i, (c_ast.Case, c_ast.Default))]
        self.in_switch += 1
        for case in cases:
            for st in case.stmts or []:
                self._walk(st, f=self.f / max(1, len(cases)))
        self.in_switch -= 1

    def visit_Case(self, node: c_ast.Case | c_ast.Default) -> None:
        for st in node.stmts or []:
            self._walk(st)

    visit_Default = visit_Case

    def visit_Label(self, node: c_ast.Label) -> None:
        self._walk(node.stmt)

    def visit_Return(self, node: c_ast.Return | c_ast.Break | c_ast.Goto) -> None:
        """Leaving a loop early makes its trip count data-dependent: the nest's own, or
        a called function's (a search that stops at its first match, Rodinia
        particlefilter's findIndex), whose trips counted to their bounds are then upper
        bounds too; a return outside the callee's loops is its ordinary end."""
        if isinstance(node, c_ast.Return):
            self._walk(node.expr)
        if isinstance(node, c_ast.Break) and self.in_switch:
            return
        if self.ctx.depth == 0:
            self.early_exit.append(self._place(node))
        elif not isinstance(node, c_ast.Return) or self.ln is not self.entry_ln[-1]:
            self.early_exit.append(f"{self._place(node)} in {self.stack[-1]}()")

    visit_Break = visit_Return
    visit_Goto = visit_Return

    # ---- expressions ---------------------------------------------------------
    def visit_ID(self, node: c_ast.ID) -> None:
        self.referenced.add(node.name)

    def visit_ArrayRef(self, node: c_ast.ArrayRef) -> None:
        self.access(node, self.mode)

    def visit_BinaryOp(self, node: c_ast.BinaryOp) -> None:
        if not self.index:
            self.ln.ops[BINOP_KIND.get(node.op, "bit")] += self.f
        self._walk(node.left, index=self.index)
        self._walk(node.right, index=self.index)

    def visit_Assignment(self, node: c_ast.Assignment) -> None:
        if node.op != "=" and not self.index:
            self.ln.ops[BINOP_KIND.get(node.op[:-1], "bit")] += self.f
        self._walk(node.lvalue, mode="w" if node.op == "=" else "rw", index=self.index)
        self._walk(node.rvalue, index=self.index)

    def visit_Cast(self, node: c_ast.Cast) -> None:
        self._walk(node.expr, mode=self.mode, index=self.index)

    def visit_TernaryOp(self, node: c_ast.TernaryOp) -> None:
        self._walk(node.cond, index=self.index)
        self._walk(node.iftrue, f=self.f * 0.5, index=self.index)
        self._walk(node.iffalse, f=self.f * 0.5, index=self.index)

    def visit_StructRef(self, node: c_ast.StructRef) -> None:
        self._walk(node.name, mode=self.mode, index=self.index)

    def visit_ExprList(self, node: c_ast.ExprList | c_ast.InitList) -> None:
        for x in node.exprs:
            self._walk(x, mode=self.mode, index=self.index)

    visit_InitList = visit_ExprList

    def visit_CompoundLiteral(self, node: c_ast.CompoundLiteral) -> None:
        self._walk(node.init, mode=self.mode, index=self.index)

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        op, index = node.op, self.index
        if op == "sizeof":
            return
        if op in ("++", "--", "p++", "p--"):
            if not index:
                self.ln.ops["add"] += self.f
            self._walk(node.expr, mode="rw", index=index)
        elif op == "*":
            target = deref_as_arrayref(node.expr)
            if target is not None:
                self.access(target, self.mode, at=node)
            else:
                self._walk(node.expr, index=True)
        elif op == "&":
            inner = node.expr
            while isinstance(inner, c_ast.ArrayRef):
                self._walk(inner.subscript, index=True)
                inner = inner.name
            self._walk(inner, index=True)
        else:
            if not index and not isinstance(node.expr, c_ast.Constant) and op != "+":
                self.ln.ops[UNARY_KIND.get(op, "neg")] += self.f
            self._walk(node.expr, index=index)

    # ---- array references ----------------------------------------------------
    def access(self, e: c_ast.ArrayRef, mode: str, at: c_ast.Node | None = None) -> None:
        """Record ``e`` (subscripts as expressions) as an access of the current loop."""
        at = at if at is not None else e
        ctx = self.ctx
        if self.f < 1.0:
            self.conditional_access = True
        subs_nodes = []
        base = e
        while isinstance(base, c_ast.ArrayRef):
            subs_nodes.insert(0, base.subscript)
            base = base.name
        for s in subs_nodes:
            self._walk(s, index=True)
        if isinstance(base, c_ast.StructRef) and not isinstance(base.name, c_ast.ID):
            self._walk(base, mode=mode)  # a member array of an element: that element
            return
        line, place = (e.coord.line if e.coord else 0), self._place(e)
        text = exprs.to_c_node(e)
        row = ctx.rows.get(base.name) if isinstance(base, c_ast.ID) else None
        if row is not None:
            self.referenced.add(base.name)
            name, info = row.array, row.info
        else:
            name, info = array_of(base, ctx, at, self.referenced)
        if info is None:
            self._walk(base, f=1.0, index=True)
            self.warn(f"{place}: {text}: not a known array, not in the footprint")
            return
        given = len(subs_nodes) + (len(row.lead) - row.add if row is not None else 0)
        if given > len(info.derivs):
            self.warn(f"{place}: {text}: more subscripts than declared dimensions")
            return
        moved = (
            isinstance(base, c_ast.ID)
            and base.name in self.locals.written
            and (row is not None or info.derivs[0][0] == "ptr")
        )
        subs, why, csr_var = subscripts(subs_nodes, ctx, moved, lambda n: self.build(ctx, n, at))
        if moved:
            why = f"pointer {base.name} is reassigned inside the loop"
        elif row is not None:
            subs = row.subscripts(subs)
            why = why or (row.why if None in subs else "")
        self.ln.accesses.append(Access(name, info, subs, mode, text, line, why, csr_var, place))
