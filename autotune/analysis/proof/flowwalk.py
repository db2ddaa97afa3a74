"""The control flow of one iteration's walk: branches, loops' bodies, and the jumps
that leave them.

What an iteration has surely set (``defined``, for the thread-private scalars read
before every path sets them) and the integer values it knows (``env``) meet where
paths join: after the branches of an ``if``, a ``switch``, a ``?:``, and at the end
of a loop body reached by ``continue``. A ``break`` out of an unrolled pass, a
``return`` from the loop itself and a ``goto`` are effects the verdict reads. Mixed
into ``refs.IterationWalker``, whose state it shares.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.astutil import loop_var_name
from autotune.analysis.proof import poly
from autotune.analysis.proof.branchfacts import branch_bounds
from autotune.analysis.proof.formats import scan_success_targets
from autotune.analysis.proof.syntax import assigned, jumps, line_of, meet, where
from autotune.analysis.proof.updates import guarded_update, if_update, select_update


class ControlFlow:
    """Branches, loop bodies and jumps of ``refs.IterationWalker``."""

    def _loop_body(self, cond, body, step, sure: bool = False) -> None:
        """``sure``: a canonical loop without jumps (its body runs at every point of its
        domain, so its writes are certain there)."""
        exits = self.cont_exits
        self.cont_exits = []
        bump = 0 if sure and not jumps(body) else 1
        self.cond_depth += bump
        self.epoch += 1
        if cond is not None:
            self._read_only(cond)
        if body is not None:
            self.visit(body)
        if step is not None:
            self.defined = meet([self.defined, *self.cont_exits])
            self._read_only(step)
        self.cond_depth -= bump
        self.cont_exits = exits

    def visit_If(self, node: c_ast.If) -> None:
        pick = select_update(node)
        if pick is not None and self._selects_by_iteration(pick[4]):
            op, value, operand, index, position = pick  # a candidate with a tie-break
            self._read_only(operand)
            self._read_only(position)
            self._touch(value, "u", node, op)
            self._touch(index, "u", node, op)
            return
        form = if_update(node)
        if form is not None:  # if (v > m) m = v;  a max-update of m
            target, op, operand = form
            self._read_only(operand)
            self._touch(target, "u", node, op)
            return
        split = self._guarded_update(node)
        if split is not None:  # if (ok && v < m) m = v;  a max-update of m where ok holds
            guard, inner = split
            self._read_only(guard)
            self._branches([inner, None], guard)
            return
        cond = self.value(node.cond)
        known = poly.constant_of(cond) if cond is not None else None
        if known is not None:
            chosen = node.iftrue if known else node.iffalse
            if chosen is not None:
                self.visit(chosen)
            return
        self._read_only(node.cond)
        self._branches([node.iftrue, node.iffalse], node.cond, scan_success_targets(node.cond))

    def _guarded_update(self, node: c_ast.If) -> tuple[c_ast.Node, c_ast.Node] | None:
        """``updates.guarded_update``, its inner ``if`` made once per program (the walk
        keys what it learns at a node by the node)."""
        key = ("guarded update", id(node))
        memo = self.ctx.prog.memo
        if key not in memo:
            memo[key] = (node, guarded_update(node))
        return memo[key][1]

    def _selects_by_iteration(self, position: c_ast.Node) -> bool:
        """The tie-break of a selection in the loop itself is the loop's own counter, which
        no two iterations share (equal candidates then differ by it, so even -0.0 and 0.0
        are told apart); a merge elsewhere compares the copies' indices."""
        if len(self.frames) > 1 or self.ctx.loop is None:
            return False
        var = loop_var_name(self.ctx.loop)
        return isinstance(position, c_ast.ID) and position.name == var

    def _branches(
        self,
        branches: list[c_ast.Node | None],
        cond: c_ast.Node | None = None,
        set_first: list[c_ast.Node] | None = None,
    ) -> None:
        """Each branch from the same state; under an if's or a ?:'s two branches, the
        references carry what the condition says there (``branchfacts``); ``set_first``:
        what the first branch starts with set (a scan's targets, where its count held)."""
        start_def = set(self.defined) if self.defined is not None else None
        start_env, start_ptr = dict(self.env), dict(self.env_ptr)
        sides = [branch_bounds(self, cond, truth) for truth in (True, False)] if cond else []
        outs, envs = [], []
        self.cond_depth += 1
        for k, b in enumerate(branches):
            self.epoch += 1
            self.defined = set(start_def) if start_def is not None else None
            self.env, self.env_ptr = dict(start_env), dict(start_ptr)
            held = len(self.guards)
            if sides:
                self.guards.extend(sides[k])
            for target in (set_first or []) if k == 0 else []:
                self._touch(target, "w", cond)
            if b is not None:
                self.visit(b)
            del self.guards[held:]
            outs.append(self.defined)
            envs.append((self.env, self.env_ptr))
        self.cond_depth -= 1
        self.defined = meet(outs)
        self.env = {k: v for k, v in envs[0][0].items() if all(e.get(k) == v for e, _ in envs)}
        for k in set().union(*(e.keys() for e, _ in envs)) - self.env.keys():
            self.env[k] = None
        self.env_ptr = {k: v for k, v in envs[0][1].items() if all(p.get(k) is v for _, p in envs)}

    def visit_BinaryOp(self, node: c_ast.BinaryOp) -> None:
        """``a && b`` evaluates ``b`` only where ``a`` holds (``||``: where it does not):
        ``i > 0 && x[i - 1] < x[i]`` reads ``x[i - 1]`` from ``i = 1``."""
        if node.op not in ("&&", "||"):
            self.generic_visit(node)
            return
        self.visit(node.left)
        held = len(self.guards)
        self.guards.extend(branch_bounds(self, node.left, node.op == "&&"))
        self.cond_depth += 1
        self.visit(node.right)
        self.cond_depth -= 1
        del self.guards[held:]

    def visit_TernaryOp(self, node: c_ast.TernaryOp) -> None:
        self._read_only(node.cond)
        self._branches([node.iftrue, node.iffalse], node.cond)

    def visit_Switch(self, node: c_ast.Switch) -> None:
        """Each case label is reached from before the switch (or by falling through), a
        ``break`` of the switch leaves it, and the paths meet after it, with the path
        that matches no case where there is no ``default``."""
        self._read_only(node.cond)
        before = set(self.defined) if self.defined is not None else None
        self._kill(assigned(node.stmt))
        saved = self.switch_paths
        self.switch_paths = (before, [], _own_breaks(node.stmt))
        self.cond_depth += 1
        self.defined = None  # what precedes the first label never runs
        self.visit(node.stmt)
        self.cond_depth -= 1
        _, exits, _ = self.switch_paths
        self.switch_paths = saved
        outs = [*exits, self.defined] + ([] if _has_default(node.stmt) else [before])
        self.defined = meet(outs) if before is not None else None
        self._kill(assigned(node.stmt))

    def visit_Case(self, node: c_ast.Case | c_ast.Default) -> None:
        if self.switch_paths is not None:
            self.defined = meet([self.switch_paths[0], self.defined])
        for stmt in node.stmts or []:
            self.visit(stmt)

    visit_Default = visit_Case

    def visit_Continue(self, node: c_ast.Continue) -> None:
        self.cont_exits.append(set(self.defined) if self.defined is not None else None)
        self.defined = None

    def visit_Break(self, node: c_ast.Break) -> None:
        if self.switch_paths is not None and id(node) in self.switch_paths[2]:
            self.switch_paths[1].append(set(self.defined) if self.defined is not None else None)
            self.defined = None
            return
        if id(node) not in self.breaks or not self.break_depth:
            self.visit_Continue(node)
            return
        if self.cond_depth > self.break_depth[-1]:
            self.facts.effect(
                f"kept as written: a break at {where(node)} under a condition the proof at "
                "the measured sizes could not decide"
            )
        self.broke = True

    def visit_Return(self, node: c_ast.Return) -> None:
        if node.expr is not None:
            self._read_only(node.expr)
        if len(self.frames) == 1:
            self.facts.effect(f"returns from inside the loop at line {line_of(node)}")
        else:
            self.ret_exits.append(set(self.defined) if self.defined is not None else None)
        self.defined = None

    def visit_Goto(self, node: c_ast.Goto) -> None:
        self.facts.effect(
            f"kept as written: a goto at {where(node)}, whose paths the proof does not follow"
        )


def _own_breaks(stmt: c_ast.Node) -> set[int]:
    """The breaks that leave this switch (not those of a loop or switch inside it)."""
    out: set[int] = set()
    stack = [stmt]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Break):
            out.add(id(n))
        elif not isinstance(n, c_ast.For | c_ast.While | c_ast.DoWhile | c_ast.Switch):
            stack.extend(c for _, c in n.children())
    return out


def _has_default(stmt: c_ast.Node) -> bool:
    stack = [stmt]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Default):
            return True
        if not isinstance(n, c_ast.Switch):
            stack.extend(c for _, c in n.children())
    return False
