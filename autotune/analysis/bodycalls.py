"""What a call in a loop body counts as: the runtime's or a library's cost, or the
callee's body inlined at the call (in the file, or in the program's other files).

A mixin of ``Walker`` (``body.py``), kept apart because calls are their own concept:
which definition a call reaches, how its parameters are bound to the caller's values
and arrays (a whole array, or part of one: ``RowAlias``), and the call's own notes.
"""

from __future__ import annotations

from typing import Any

from pycparser import c_ast

from autotune.analysis import exprs
from autotune.analysis.arrayref import array_of, subscripts
from autotune.analysis.astutil import local_names, walk
from autotune.analysis.copies import copy_loop
from autotune.analysis.exprs import Expr, Symbolic
from autotune.analysis.loopnode import Ctx, RowAlias
from autotune.analysis.ops import call_ops, literal_value
from autotune.analysis.symbols import ArrayInfo, Scope, _params, file_info

THREAD_API = ("omp_get_thread_num", "omp_get_num_threads")
MAX_INLINE_DEPTH = 6


class CallWalk:
    """The calls of a body walk (uses the walker's ctx, ln, f, _walk, build, warn)."""

    ctx: Any  # loopnode.Ctx of the walk's current place
    ln: Any  # loopnode.LoopNode being filled
    f: float
    stack: list[str]
    thread_api: list[str]
    other_funcs: dict[str, tuple[c_ast.FuncDef, c_ast.FileAST]]
    referenced: set[str]
    locals: Any  # nameresolve's locals of the walked functions
    home: c_ast.FileAST | None  # the file of the loop walked

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        args = node.args.exprs if node.args else []
        called = node.name.name if isinstance(node.name, c_ast.ID) else None
        if called is not None and called not in self.ctx.scope.info.funcs:
            copy = copy_loop(node, self.ctx.scope)
            if copy is not None:  # memset(&c[i * m], 0, m * sizeof(double)): m elements
                self.visit_For(copy)  # its pointers are walked as the elements it touches
                return
        inlined = self._callee(node)
        for a in args:
            if inlined is not None and self._row_alias(a, node) is not None:
                self._walk_subscripts(a)  # its elements count where the callee touches them
            else:
                self._walk(a)
        place = self._place(node)
        if not isinstance(node.name, c_ast.ID):
            self.warn(f"{place}: call through a pointer: cost not counted")
            return
        name = node.name.name
        if name in THREAD_API:
            self.thread_api.append(name)
            return
        known = call_ops(name, _constant_exponent(args))
        if known is not None:  # the OpenMP runtime, a hint, an atomic, asm, libm
            ops, note = known
            for kind, n in ops.items():
                self.ln.ops[kind] += n * self.f
            if note:
                self.warn(f"{place}: {note}")
            return
        if inlined is not None:
            callee, tree = inlined
            self._inline(callee, args, node, tree)
            return
        self.ln.ops["call"] += self.f
        if name in self.ctx.scope.info.funcs or name in self.other_funcs:
            self.warn(f"{place}: recursive call to {name}(): counted once, not inlined")
        else:
            self.warn(
                f"{place}: call to {name}(): not defined in the program's files, "
                "counted as one 'call' op"
            )

    def _callee(self, node: c_ast.FuncCall) -> tuple[c_ast.FuncDef, c_ast.FileAST] | None:
        """The definition a call is inlined from, with its file (None: a call through a
        pointer, the runtime's or a library's, one not in the program's files, or one
        recursive or too deep)."""
        if not isinstance(node.name, c_ast.ID):
            return None
        name = node.name.name
        args = node.args.exprs if node.args else []
        if name in THREAD_API or call_ops(name, _constant_exponent(args)) is not None:
            return None
        if name in self.stack or self.ctx.depth >= MAX_INLINE_DEPTH:
            return None
        callee = self.ctx.scope.info.funcs.get(name)
        if callee is not None:
            return callee, self.ctx.scope.ast
        return self.other_funcs.get(name)

    def _walk_subscripts(self, a: c_ast.Node) -> None:
        """The subscripts of an argument bound to part of an array (their reads)."""
        while isinstance(a, c_ast.Cast):
            a = a.expr
        if isinstance(a, c_ast.UnaryOp):
            a = a.expr
        if isinstance(a, c_ast.BinaryOp):
            self._walk(a.right if isinstance(a.left, c_ast.ID) else a.left, index=True)
            return
        while isinstance(a, c_ast.ArrayRef):
            self._walk(a.subscript, index=True)
            a = a.name

    def _inline(
        self, callee: c_ast.FuncDef, args: list, at: c_ast.Node, tree: c_ast.FileAST
    ) -> None:
        """Count the callee's body as if written at the call (its loops become children);
        ``tree``: the file that defines it, whose names its body reads."""
        ctx = self.ctx
        name = callee.decl.name
        fixed: dict[str, Expr | Symbolic] = {}
        aliases: dict[str, tuple[str, ArrayInfo]] = {}
        rows: dict[str, RowAlias] = {}
        for p, a in zip(_params(callee), args, strict=False):
            while isinstance(a, c_ast.Cast):
                a = a.expr
            if isinstance(a, c_ast.ID) and a.name in ctx.rows:
                rows[p.name] = ctx.rows[a.name]  # handed on down
                continue
            if isinstance(a, c_ast.ID):
                arr_name, info = array_of(a, ctx, at, self.referenced)
                if info is not None:
                    aliases[p.name] = (arr_name, info)
                    continue
            row = self._row_alias(a, at)
            if row is not None:
                rows[p.name] = row
                continue
            try:
                fixed[p.name] = self.build(ctx, a, at)
            except Symbolic as exc:
                fixed[p.name] = exc
        self.locals.include(callee.body)
        inner = Ctx(Scope(callee, tree), {}, fixed, aliases, f"{name}.", ctx.depth + 1)
        inner.rows = rows
        inner.caller_texts = _caller_texts(callee, args, ctx)
        inner.caller_texts.update(self._unseen_globals(tree))
        self.stack.append(name)
        self.entry_ln.append(self.ln)
        try:
            self._walk(callee.body, ctx=inner)
        finally:
            self.stack.pop()
            self.entry_ln.pop()

    def _unseen_globals(self, tree: c_ast.FileAST) -> dict[str, None]:
        """The globals of another file that the loop's own file does not declare: a bound
        naming one (``c < channels``, a ``static int`` of physics.c) cannot be read at the
        loop, nor printed by its profile run."""
        if self.home is None or tree is self.home:
            return {}
        home, there = file_info(self.home), file_info(tree)
        return {
            name: None
            for name in [*there.globals, *there.enums]
            if name not in home.globals and name not in home.enums
        }

    def _row_alias(self, a: c_ast.Node, at: c_ast.Node) -> RowAlias | None:
        """``&a[i][j]``, ``a + e`` or a row ``a[i]`` of a known array: the part of it a
        pointer parameter is bound to (BT's ``matvec_sub(lhs[i][j][k][AA], ...)``, a
        kernel writing ``&out[i * stride]``); a subscript the walk cannot build stays
        unknown. None for anything else (the parameter's accesses stay unknown)."""
        ctx, add = self.ctx, True
        while isinstance(a, c_ast.Cast):
            a = a.expr
        if isinstance(a, c_ast.UnaryOp) and a.op == "&" and isinstance(a.expr, c_ast.ArrayRef):
            ref = a.expr
        elif isinstance(a, c_ast.ArrayRef):
            ref, add = a, False
        elif isinstance(a, c_ast.BinaryOp) and a.op == "+":
            base, offset = (a.left, a.right) if isinstance(a.left, c_ast.ID) else (a.right, a.left)
            ref = c_ast.ArrayRef(base, offset, a.coord)  # a + e is &a[e]
        else:
            return None
        nodes, base = [], ref
        while isinstance(base, c_ast.ArrayRef):
            nodes.insert(0, base.subscript)
            base = base.name
        subs, why, _ = subscripts(nodes, ctx, False, lambda n: self.build(ctx, n, at))
        outer = ctx.rows.get(base.name) if isinstance(base, c_ast.ID) else None
        if outer is not None:  # part of a part: a parameter already bound to a row
            name, info, subs = outer.array, outer.info, outer.subscripts(subs)
        else:
            name, info = array_of(base, ctx, at, set())
        if info is None or len(subs) > len(info.derivs) - (0 if add else 1):
            return None  # not a known array, or a whole element (a value, not a pointer)
        return RowAlias(name, info, subs, add, why or (outer.why if outer else ""))


def _caller_texts(callee: c_ast.FuncDef, args: list, ctx: Ctx) -> dict[str, str | None]:
    """The callee's parameters as their arguments' C text in the caller's terms (None
    for an argument with side effects), and its locals as None: not in scope there."""
    texts: dict[str, str | None] = {name: None for name in local_names(callee)}
    for p, a in zip(_params(callee), args, strict=False):
        text = exprs.to_c_node(a)
        pure = not any(isinstance(n, (c_ast.FuncCall, c_ast.Assignment)) for n in walk(a))
        pure = pure and not any(
            isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--") for n in walk(a)
        )
        texts[p.name] = ctx.in_caller_terms(text) if pure else None
        if texts[p.name] == "?":
            texts[p.name] = None
    return texts


def _constant_exponent(args: list) -> float | None:
    """A two-argument math call's second argument when it is a literal (``pow(v, 2)``)."""
    if len(args) != 2:
        return None
    e, sign = args[1], 1.0
    while isinstance(e, c_ast.Cast):
        e = e.expr
    if isinstance(e, c_ast.UnaryOp) and e.op == "-":
        e, sign = e.expr, -1.0
    if not isinstance(e, c_ast.Constant) or e.type in ("char", "string"):
        return None
    value = literal_value(e.value)
    return None if value is None else sign * value
