"""What a name in a bound or subscript stands for, as the body walk builds expressions.

In this order: a loop variable of the nest; an enclosing loop's variable (at the middle
of its range); a scalar the parallel region declares (``regionlocals.py``); a program
constant (``symbols.Scope.constant``); a local assigned more than once, at the point it
is read (``reaching.py``). Anything else is ``Symbolic``.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis import cexpr
from autotune.analysis.exprs import Expr, Symbolic
from autotune.analysis.loopnode import Ctx
from autotune.analysis.profiled import ProfiledValues
from autotune.analysis.reaching import ReachingValues
from autotune.analysis.regionlocals import RegionLocals
from autotune.analysis.symbols import Scope


class NameResolver:
    """Name resolution for one loop's walk, with what it learned on the way."""

    def __init__(self, region: c_ast.Node, profiled: dict[str, int] | None = None) -> None:
        self.locals = RegionLocals(region)
        # values measured at the loop's entry by a profile run (run-time sizes)
        self.profiled = ProfiledValues(profiled, self.locals.written)
        self.used_fixed: set[str] = set()  # enclosing variables the nest reads
        self.header_uses: set[str] | None = None  # those a header being read reads
        self.resolving: set[str] = set()  # names whose definition is being built
        self.reaching: dict[int, ReachingValues] = {}  # per function (callees inlined)

    def resolve(self, ctx: Ctx, name: str, at: c_ast.Node) -> Expr:
        if name in ctx.loopvars:
            var = ctx.loopvars[name]
            if var is None:
                raise Symbolic(f"{name} (loop variable with unknown bounds)")
            return var
        if name in ctx.fixed:
            if ctx.depth == 0:
                self.used_fixed.add(name)
            if self.header_uses is not None:
                self.header_uses.add(name)
            v = ctx.fixed[name]
            if isinstance(v, Symbolic):
                raise v
            return v
        decl, kind = ctx.scope.find_decl(name, at)
        found = (
            None if name in self.resolving else self.locals.definition(ctx.scope, name, decl, kind)
        )
        if found is None:
            try:
                return ctx.scope.constant(name, at)
            except Symbolic:
                found = self._reaching_value(ctx.scope, name, decl, kind, at)
                if found is None:
                    raise
        self.resolving.add(name)
        try:
            return self.build(ctx, *found)
        finally:
            self.resolving.discard(name)

    def _reaching_value(
        self, scope: Scope, name: str, decl: c_ast.Decl | None, kind: str, at: c_ast.Node
    ) -> tuple[c_ast.Node, c_ast.Node] | None:
        """What a local assigned more than once holds where it is read (reaching.py)."""
        if kind != "local" or name in self.resolving:
            return None
        key = id(scope.func)
        if key not in self.reaching:
            self.reaching[key] = ReachingValues(scope)
        return self.reaching[key].value(name, decl, at)

    def build(self, ctx: Ctx, node: c_ast.Node, at: c_ast.Node) -> Expr:
        node = self.profiled.substitute(node)
        return cexpr.build(node, lambda n: self.resolve(ctx, n, at), ctx.scope.sizeof)
