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

import os

from pycparser import c_ast

from autotune.analysis.astutil import loop_var_name
from autotune.analysis.names import atomic_object, is_floating, names_in
from autotune.analysis.proof import budget, poly, specialise, unroll
from autotune.analysis.proof.branchfacts import bounds_after
from autotune.analysis.proof.castunits import moved
from autotune.analysis.proof.constructs import walk_construct, walk_lock_section
from autotune.analysis.proof.counters import body_steps, does_not_wrap, lockstep_steps
from autotune.analysis.proof.decls import var_key
from autotune.analysis.proof.facts import Bound, IterationFacts, Ref
from autotune.analysis.proof.flowwalk import ControlFlow
from autotune.analysis.proof.lifetimes import born, string_scan
from autotune.analysis.proof.linear import bind_linear, check_linear
from autotune.analysis.proof.localmembers import assign_member, init_members, member_slot
from autotune.analysis.proof.locks import lock_sections
from autotune.analysis.proof.program import Site
from autotune.analysis.proof.resolve import WalkNames
from autotune.analysis.proof.segments import segment_bounds
from autotune.analysis.proof.steps import run_time_step
from autotune.analysis.proof.syntax import (
    assigned,
    constant_text,
    ends_program,
    for_header,
    jumps,
    meet,
    other_inits,
    single_for,
)
from autotune.analysis.proof.updates import update_form
from autotune.analysis.proof.walkstate import COMMUTATIVE, Frame, Hooks, LoopContext, PtrVal
from autotune.analysis.symbols import Scope
from autotune.frontend.runs import pragma_runs


class IterationWalker(ControlFlow, WalkNames, c_ast.NodeVisitor):
    """Walks one iteration; the results are in ``facts``."""

    def __init__(self, ctx: LoopContext, hooks: Hooks) -> None:
        self.ctx = ctx
        self.hooks = hooks
        self.facts = IterationFacts()
        scope = Scope(ctx.func, ctx.ast)
        self.frames = [Frame(ctx.func, ctx.ast, scope, ptrs=dict(ctx.param_ptrs), top=True)]
        self.env: dict[tuple[int, str], poly.Poly | None] = {}
        self.floors: dict[tuple[int, str], poly.Poly] = {}  # counters' floors (``counters``)
        # ``k++`` walked: (statement, variable, value before, after), for its value
        self.steps: dict[int, tuple] = {}
        self.epoch = 0  # statements walked so far (a step's value is its statement's)
        self.env_ptr: dict[tuple[int, str], PtrVal] = {}
        self.domain: list[Bound] = []
        self.defined: set[str] | None = set()
        self.born: dict[int, c_ast.Decl] = {}  # the iteration's own variables (``lifetimes``)
        self.scans: list[tuple] = []  # loops reading a string to its end (``lifetimes``)
        # in a switch: (what was set before it, what its breaks leave, their ids)
        self.switch_paths: tuple[set[str] | None, list[set[str] | None], set[int]] | None = None
        self.cont_exits: list[set[str] | None] = []
        self.ret_exits: list[set[str] | None] = []
        self.mode = "r"
        self.sync: str | None = None  # "atomic"/"critical" around the statement
        # what excludes the others while an update runs: "atomic", "critical",
        # "critical(name)"; updates under two different ones may run at once
        self.lock: str | None = None
        self.last_start: list | None = None  # ``access.access_of``'s pointer place
        self.last_element: int | None = None  # its struct element's bytes (``PtrVal.element``)
        self.ordered = 0  # inside the loop's ordered region (the iterations' order)
        self.cond_depth = 0
        self.guards: list[Bound] = []  # what the branches around the statement test
        self.path: list[int] = []
        self._top: c_ast.Node | None = None
        self.constant: str | None = None  # the constant the write being touched stores
        self._n = 0
        self._params: dict[str, str] = {}
        self.defined_syms: dict[tuple[str, str, str], str] = {}  # definition -> symbol
        self.defined_bounds: list[Bound] = []
        self.breaks: set[int] = set()  # ids of the unrolled loops' own breaks
        self.break_depth: list[int] = []  # cond_depth where each unrolled loop began
        self.broke = False  # a pass of an unrolled loop took its break
        self.pass_walks = 0  # bodies walked by unrolling (specialise.WALK_BUDGET)
        self.bounds_once = False  # reading the worksharing loop's own bounds

    # ---- entry -----------------------------------------------------------------
    def run(self) -> IterationFacts:
        loop = self.ctx.loop
        node: c_ast.Node = loop
        for level in range(self.ctx.collapse):
            if not isinstance(node, c_ast.For):
                self.facts.effect("collapse goes deeper than the nest of for loops")
                break
            self._enter_for(node, distributed=True)
            var = loop_var_name(node)
            if var:
                self.ctx.private.add(var)  # predetermined private (OpenMP)
            if level + 1 < self.ctx.collapse:
                node = single_for(node.stmt)
        body = node.stmt if isinstance(node, c_ast.For) else None
        linear = bind_linear(self)
        self._top = body
        if jumps(body):
            self.cond_depth += 1  # a continue skips what follows it: nothing is sure
        if body is not None:
            self.visit(body)
        check_linear(self, linear, jumps(body))
        self.facts.end_defined = meet([self.defined, *self.cont_exits])
        self.facts.params = set(self._params)
        return self.facts

    # ---- loops ---------------------------------------------------------------------
    def _header(self, node: c_ast.For):
        """The loop's canonical header; at measured sizes a step read from a size counts.
        None for a counter whose address is taken (a store through it moves the loop)."""
        if not specialise.specialising(id(self.ctx.loop)):
            header = for_header(node)
        else:

            def step_value(expr: c_ast.Node) -> int | None:
                if names_in(expr).names & assigned(node.stmt):
                    return None  # a step the body changes
                v = self.value(expr)
                return poly.constant_of(v) if v is not None else None

            header = for_header(node, step_value)
        if header is not None and self.address_taken(header[0], node):
            return None
        return header

    def _enter_for(self, node: c_ast.For, distributed: bool = False) -> str:
        """Bind the loop variable to a new symbol bounded by the header (when canonical)."""
        header = self._header(node)
        sym = self._fresh("v")
        stride = run_time_step(self, node) if header is None else None
        if stride is not None:
            header = for_header(node, lambda _e: 1)  # its shape; the step is ``stride``
        if header is None:
            if node.init is not None:
                self.visit(node.init)
            self.domain.append(Bound(sym, None, None, step=None))
            return sym
        var, lo_node, hi_node, op, step = header
        if not distributed:
            self._read_only(lo_node)
        row = None if distributed else segment_bounds(self, node, lo_node, hi_node, op, step)
        if row is not None:  # ``for (k = rowptr[r]; k < rowptr[r + 1]; k++)``
            self._read_only(hi_node)
            lower, upper, segment = row
            self.domain.append(Bound(sym, lower, upper, step=step, start=lower, segment=segment))
            self.env[self._key(var)] = poly.symbol(sym)
            self._define(var, node)
            return sym
        self.bounds_once = distributed  # OpenMP reads a worksharing loop's bounds once
        lo, hi = self.value(lo_node), self.value(hi_node)
        self.bounds_once = False
        if not distributed:
            self._read_only(hi_node)
        lower = upper = None
        if step is not None and step > 0 and op in ("<", "<=", "!="):
            lower = lo
            upper = poly.add(hi, poly.const(-1)) if hi is not None and op != "<=" else hi
        elif step is not None and step < 0 and op in (">", ">="):
            upper = lo
            lower = poly.add(hi, poly.const(1)) if hi is not None and op == ">" else hi
        known = (lower is not None or upper is not None) and stride is None
        self.domain.append(
            Bound(sym, lower, upper, step=step if known else None, start=lo, stride=stride)
        )
        self.env[self._key(var)] = poly.symbol(sym)
        self._define(var, node)
        return sym

    def visit_For(self, node: c_ast.For) -> None:
        if specialise.specialising(id(self.ctx.loop)) and unroll.walk_unrolled(self, node):
            return
        scan = string_scan(self, node)  # reads a string up to its end (``lifetimes``)
        self.scans.extend([scan] if scan is not None else [])
        self._walk_for(node)
        del self.scans[len(self.scans) - (scan is not None) :]

    def _walk_for(self, node: c_ast.For) -> None:
        header = self._header(node)
        written = assigned(node.stmt) | assigned(node.next)
        if header is not None and header[0] in written - assigned(node.next):
            header = None  # the body moves its own counter: not canonical
        counters = self.enter_counters(written, [node.stmt, node.next])
        entry = {name: self.env.get(self._key(name)) for name in written}
        entry_ptr = {n: self.env_ptr[self._key(n)] for n in written if self._key(n) in self.env_ptr}
        self._kill(written)
        depth = len(self.domain)
        if header is None:
            if node.init is not None:
                self.visit(node.init)
                self._kill(written)  # what the body or step moves differs between trips
            sym = self._fresh("v")
            self.domain.append(Bound(sym, None, None, step=None))
        else:
            for decl in other_inits(node, header[0]):  # ``int iOff = M * b, ii = 0``
                self.visit(decl)
                entry[decl.name] = self.env.get(self._key(decl.name))
            self._kill(written)
            self._enter_for(node)
            self._lockstep(node, header[0], entry)
            self._pointer_steps(node, header[0], entry_ptr)
        before = set(self.defined) if self.defined is not None else None
        self._loop_body(node.cond, node.stmt, node.next, sure=header is not None)
        self.defined = before
        if header is not None:
            self._define(header[0], node)
        del self.domain[depth:]
        self._kill(written | ({header[0]} if header else set()))
        self.leave_counters(counters)

    def _lockstep(self, node: c_ast.For, counter: str, entry: dict) -> None:
        """A variable the step moves with the counter (``ii++, iOff++``) is its entry
        value plus its step times the counter's trips so far (``iOff = 16 * iBox + ii``)."""
        bound = self.domain[-1]
        if bound.step not in (1, -1) or bound.start is None:
            return
        for name, k in lockstep_steps(node, counter).items():
            start = entry.get(name)
            decl, _ = self._decl(name, node)
            if start is None or not poly.is_affine(start) or not does_not_wrap(decl):
                continue
            if self.address_taken(name, node):
                continue
            trips = poly.add(poly.symbol(bound.sym), bound.start, -1)
            moved = poly.mul(poly.const(k * bound.step), trips)
            if moved is not None:
                self.env[self._key(name)] = poly.add(start, moved)

    def _pointer_steps(self, node: c_ast.For, counter: str, entry: dict) -> None:
        """A pointer the iteration set that the loop moves by a constant once a trip (in
        its step, ``k++, p++``, or at a statement of the body every trip runs to, ``*buf++
        = x``) stands at its entry place plus that many steps per trip so far."""
        bound = self.domain[-1]
        if bound.step not in (1, -1) or bound.start is None:
            return
        steps = {**body_steps(node), **lockstep_steps(node, counter)}
        for name, k in steps.items():
            start = entry.get(name)
            if start is None or self.address_taken(name, node):
                continue
            trips = poly.add(poly.symbol(bound.sym), bound.start, -1)
            self.env_ptr[self._key(name)] = moved(
                start, poly.mul(poly.const(k * bound.step), trips), 1
            )

    def visit_While(self, node: c_ast.While) -> None:
        written = assigned(node.stmt) | assigned(node.cond)
        counters = self.enter_counters(written, [node.stmt, node.cond])
        self._kill(written)
        depth = len(self.domain)
        self.domain.append(Bound(self._fresh("v"), None, None, step=None))
        before = set(self.defined) if self.defined is not None else None
        self._loop_body(node.cond, node.stmt, None)
        self.defined = before
        del self.domain[depth:]
        self._kill(written)
        self.leave_counters(counters)

    def visit_DoWhile(self, node: c_ast.DoWhile) -> None:
        written = assigned(node.stmt) | assigned(node.cond)
        counters = self.enter_counters(written, [node.stmt, node.cond])
        self._kill(written)
        depth = len(self.domain)
        self.domain.append(Bound(self._fresh("v"), None, None, step=None))
        self._loop_body(None, node.stmt, node.cond)
        del self.domain[depth:]
        self._kill(written)
        self.leave_counters(counters)

    # ---- statements --------------------------------------------------------------------
    def visit_Compound(self, node: c_ast.Compound) -> None:
        budget.check()
        mark = len(self.facts.effects)
        ended = False
        held = len(self.guards)  # what an early exit leaves true for the rest of the block
        self.path.append(0)
        runs = list(pragma_runs(node.block_items))
        sections = lock_sections(runs)
        i = 0
        while i < len(runs):
            run = runs[i]
            self.path[-1] = i
            if i in sections and walk_lock_section(self, runs, i, *sections[i]):
                i = sections[i][0] + 1
                continue
            i += 1
            self.epoch += 1
            if run.stmt is None:
                walk_construct(self, run)  # a standalone directive
                continue
            if run.directives:
                walk_construct(self, run)
            else:
                if isinstance(run.stmt, c_ast.Label):
                    del self.guards[held:]  # a jump may land here, past the early exits
                after = bounds_after(self, run.stmt)
                self.visit(run.stmt)
                self.guards.extend(after)
            if ends_program(run.stmt):
                ended = True
            if self.broke:
                break  # an unrolled pass took its break: nothing after it runs
        self.path.pop()
        del self.guards[held:]
        if ended:
            # a path that ends the program: what it printed before does not order the loop,
            # when it prints the same whichever iteration takes it
            self.facts.effects[mark:] = [
                e
                for e in self.facts.effects[mark:]
                if not e.startswith("calls ") or " I/O" not in e or e in self.facts.varying_io
            ]
            self.defined = None

    def visit_Decl(self, node: c_ast.Decl) -> None:
        if node.init is None or not node.name:
            born(self, node)
            return
        self._read_only(node.init)
        born(self, node)
        if not isinstance(node.init, c_ast.InitList):
            self._assign_scalar(node.name, node.init, "=", node)
        else:
            init_members(self, node)

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
        form = update_form(node)
        self_op = form[0] if form is not None else None
        if form is not None:  # x = x + e, x = e > x ? e : x: the update reads x itself
            self._read_only(form[1])
        else:
            self._read_only(node.rvalue)
        update = op in COMMUTATIVE or self_op is not None
        if op != "=" and not update:
            # the read and the write of ``a[k++] /= 2`` walk the subscript's step once
            before = dict(self.env), dict(self.env_ptr)
            self._touch(node.lvalue, "r", node)
            self.env, self.env_ptr = before
        self.constant = constant_text(node.rvalue) if op == "=" else None
        if not isinstance(node.lvalue, c_ast.ID):  # stored in memory: seen after the loop
            self._thread_address(node.rvalue, node)
        saved = self._atomic_rmw(node.lvalue) if op in COMMUTATIVE else None
        self._touch(node.lvalue, "u" if update else "w", node, COMMUTATIVE.get(op, self_op))
        if saved is not None:
            self.sync, self.lock = saved
        self.constant = None
        if isinstance(node.lvalue, c_ast.ID):
            self._assign_scalar(node.lvalue.name, node.rvalue, op, node)
        elif isinstance(node.lvalue, c_ast.StructRef):
            assign_member(self, node.lvalue, node.rvalue, op)

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        if node.op in ("++", "--", "p++", "p--"):
            saved = self._atomic_rmw(node.expr)
            self._touch(node.expr, "u", node, "+")
            if saved is not None:
                self.sync, self.lock = saved
            slot = member_slot(self, node.expr)
            if slot is not None:
                self.env_ptr.pop(slot, None)  # ``cu.at++``: not followed
            if isinstance(node.expr, c_ast.ID):
                key = self._key(node.expr.name)
                old = self.env.get(key)
                if old is None and key in self.env:
                    old = self._unknown_value(node.expr.name, node, key)
                delta = poly.const(1 if "+" in node.op else -1)
                new = self.stepped(
                    node.expr.name, poly.add(old, delta) if old is not None else None, node
                )
                self.env[key] = new
                one = c_ast.Constant("int", "1", node.coord)
                before = self.env_ptr.get(key)
                moved = self.moved_pointer(node.expr.name, node.op[-2], one, node)
                self.env_ptr.pop(key, None)
                if moved is not None:  # ``q++`` of a pointer the iteration set
                    self.env_ptr[key] = moved
                    self.steps[id(node)] = (self.epoch, key, before, moved)
                if old is not None and new is not None:
                    self.steps[id(node)] = (self.epoch, key, old, new)
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

    def _atomic_rmw(self, lvalue: c_ast.Node) -> tuple | None:
        """An update of an ``_Atomic`` object outside any atomic or critical construct is
        itself atomic (C11): walked as under ``#pragma omp atomic``; the state to restore,
        or None where nothing changed."""
        if self.sync is not None or not atomic_object(self.frame.scope, lvalue):
            return None
        saved = self.sync, self.lock
        self.sync = self.lock = "atomic"
        return saved

    def visit_ID(self, node: c_ast.ID) -> None:
        self._touch(node, "r", node)

    def visit_ArrayRef(self, node: c_ast.ArrayRef) -> None:
        self._touch(node, "r", node)

    def visit_StructRef(self, node: c_ast.StructRef) -> None:
        self._touch(node, "r", node)

    def visit_Cast(self, node: c_ast.Cast) -> None:
        if not _to_pointer(node.to_type):  # (uintptr_t)&scratch[0]: an address as a number
            self._thread_address(node.expr, node)
        self.visit(node.expr)

    def _thread_address(self, expr: c_ast.Node, at: c_ast.Node) -> None:
        """The address of storage each thread has its own (a local of the region or of
        the loop, a private copy) used as a value: it differs from thread to thread, so
        what is computed from it shows which thread ran the iteration."""
        if not _addressy(expr) or self.hooks.is_pointer is None:
            return
        if not self.hooks.is_pointer(self, expr):  # a number: (long)i, out[i] = t
            return
        pv = self.hooks.pointer(self, expr)
        if pv is not None and pv.owner in ("local", "private"):
            what = pv.name or "a variable"
            self.facts.effect(
                f"uses the address of {what}, which each thread has its own, as a value at "
                f"{self.place(at)}: it shows which thread ran the iteration"
            )

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        self.hooks.call(self, node)

    # ---- scalars and memory -----------------------------------------------------------
    def _define(self, name: str, at: c_ast.Node | None = None) -> None:
        """A loop's header sets its counter: a private one, or (``at``: where the name is
        read) a variable of the iteration's own."""
        if self.defined is None:
            return
        if self.frame.top:
            self.defined.add(name)
        decl = self._decl(name, at)[0] if at is not None else None
        if decl is not None and id(decl) in self.born:
            self.defined.add(f"{id(decl)}:{name}")

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

    def place(self, node: c_ast.Node | None) -> str:
        """``line 12`` in the loop's file, ``physics.c:12`` in another (a called body)."""
        line = node.coord.line if node is not None and node.coord else 0
        other = self._other_file(node.coord.file if node is not None and node.coord else "")
        return f"{other}:{line}" if other else f"line {line}"

    def _other_file(self, file: str | None) -> str:
        own = self.ctx.loop.coord.file if self.ctx.loop is not None and self.ctx.loop.coord else ""
        return os.path.basename(file) if file and own and file != own else ""

    def record(self, ref: Ref) -> None:
        func = self.frame.func
        ref.file = self._other_file(func.coord.file if func is not None and func.coord else "")
        if ref.kind == "w":
            ref.value = self.constant
        ref.domain = list(self.domain)
        ref.given = self.ctx.given + tuple(self.defined_bounds) + tuple(self.guards)
        ref.path = tuple(self.path)
        ref.must = self.cond_depth == 0
        ref.depth = self.cond_depth
        ref.ordered = self.ordered > 0
        if ref.owner == "local":  # the iteration's own array or block (``lifetimes``)
            self.facts.own_refs.append(ref)
            return
        if ref.kind == "u" and self.sync is not None:
            ref.lock = self.lock
        if ref.kind == "u" and self.sync is None and ref.owner == "shared":
            # an unsynchronised shared update is a read and a write, not a reduction
            self.facts.refs.append(Ref(**{**ref.__dict__, "kind": "r", "op": None}))
            ref.kind, ref.op = "w", None
        self.facts.refs.append(ref)

    def note_floating_update(self, name: str, at: c_ast.Node, what: str, op: str | None) -> None:
        """A floating-point update that any order leaves the same but for rounding (a sum)
        or the sign of a zero (a max or min: -0.0 and 0.0 compare equal, and the first
        or the last met is kept). A selection with an index tie-break (``argmax<``) keeps
        one candidate of a strict order in any order: nothing to note."""
        if (op or "").startswith("arg"):
            return
        if is_floating(self.frame.scope, name, at):
            site = self.place(at)
            note = (
                f"{what} keeps one of floating-point values that compare equal (-0.0 and 0.0) "
                f"in thread order at {site}"
                if op in ("max", "min")
                else f"{what} adds floating-point values in thread order at {site} "
                "(results may differ in the last digits)"
            )
            if note not in self.facts.reassociates:
                self.facts.reassociates.append(note)

    def key_of(self, decl: c_ast.Decl, kind: str) -> str:
        return var_key(decl, kind, self.frame.func)

    def site(self, node: c_ast.Node) -> Site:
        return Site(node, self.frame.func, self.frame.ast)


# ---- helpers ---------------------------------------------------------------------------


def _to_pointer(to_type: c_ast.Node) -> bool:
    """A cast's type names a pointer (``(double *)``), not a number."""
    t = getattr(to_type, "type", None)
    return isinstance(t, c_ast.PtrDecl | c_ast.ArrayDecl | c_ast.FuncDecl)


def _addressy(node: c_ast.Node) -> bool:
    """An expression that may be an address: ``&x``, a name, pointer arithmetic (not a
    number read through one, ``a[i]`` or ``*p``)."""
    while isinstance(node, c_ast.Cast):
        node = node.expr
    if isinstance(node, c_ast.UnaryOp):
        return node.op == "&"
    if isinstance(node, c_ast.BinaryOp):
        return node.op in ("+", "-") and (_addressy(node.left) or _addressy(node.right))
    return isinstance(node, c_ast.ID)
