"""How the walk of an iteration names things: variables by class (the iteration's own,
a thread's own, shared), integer values as polynomials, sizes read from memory as
isl parameters. A mixin of ``refs.IterationWalker``, which holds the state."""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.astutil import team_shared
from autotune.analysis.copies import sizeof_bytes
from autotune.analysis.names import floating_type
from autotune.analysis.proof import poly, specialise
from autotune.analysis.proof.castunits import moved, stored_in
from autotune.analysis.proof.decls import derivations, narrows
from autotune.analysis.proof.facts import Bound, IterationFacts
from autotune.analysis.proof.inttypes import ExprTypes, declared
from autotune.analysis.proof.isltext import MAX_TABLE, table_id
from autotune.analysis.proof.lifetimes import name_block
from autotune.analysis.proof.localmembers import forget_members
from autotune.analysis.proof.members import expression_type, root_variable, scalar_member
from autotune.analysis.proof.outparams import address_stores
from autotune.analysis.proof.scans import scanned_count
from autotune.analysis.proof.sizes_read import holder_marker
from autotune.analysis.proof.syntax import element_text, member_path, param_symbol
from autotune.analysis.proof.walkstate import Frame, LoopContext, PtrVal
from autotune.analysis.symbols import Scope


class WalkNames:
    """Names and values for the walker (its state is set up by ``IterationWalker``)."""

    ctx: LoopContext
    facts: IterationFacts
    frames: list[Frame]
    env: dict[tuple[int, str], poly.Poly | None]
    env_ptr: dict[tuple[int, str], PtrVal]
    _n: int
    _params: dict[str, str]
    defined_syms: dict[tuple[str, str, str], str]
    defined_bounds: list[Bound]
    floors: dict[tuple[int, str], poly.Poly]
    steps: dict[int, tuple]
    epoch: int

    def pointer(self, node: c_ast.Node | None) -> PtrVal | None:  # the walker's
        raise NotImplementedError

    def key_of(self, decl: c_ast.Decl, kind: str) -> str:  # the walker's
        raise NotImplementedError

    @property
    def frame(self) -> Frame:
        return self.frames[-1]

    def _key(self, name: str) -> tuple[int, str]:
        return (len(self.frames) - 1, name)

    def _fresh(self, prefix: str = "u") -> str:
        self._n += 1
        sym = f"{prefix}{self._n}"
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
        return id(decl) in self.ctx.local and not team_shared(decl)

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
        scalar = decl is None or not derivations(self.frame.scope, decl.type)
        # a copy whose address is taken may be set through it (``modf(x, &ip)``)
        taken = self.ctx.prog.address_taken_var(name, at, self.frame.func, self.frame.ast)
        if name in self.ctx.firstprivate and name not in self.ctx.written and scalar:
            if not taken:
                return "invariant"  # a copy of one value, only read
        if name in self.ctx.private or name in self.ctx.prog.threadprivate:
            if scalar and name not in self.ctx.written and not taken:
                same = name in self.ctx.copied_in or not self.ctx.prog.copies_may_differ(name)
                if name in self.ctx.private or same:
                    return "invariant"  # read only here: the value each thread brought in
            return "private"  # a threadprivate read here is its thread's own copy
        return "shared"

    def lookup(self, name: str, node: c_ast.Node) -> poly.Poly | None:
        """The value of an integer name as a polynomial (a fresh symbol when unknown)."""
        key = self._key(name)
        if key in self.env:
            value = self.env[key]
            return value if value is not None else self._unknown_value(name, node, key)
        decl, kind = self._decl(name, node)
        if decl is not None and floating_type(self.frame.scope, decl.type):
            return None  # a temperature is no size: never a parameter a profile measures
        if kind == "param" and name in self.frame.ints and not self.address_taken(name, node):
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
        constant = _const_value(decl)
        if constant is not None:
            return constant
        if specialise.specialising(id(self.ctx.loop)) and self._seen_at_loop(name, decl):
            fixed = specialise.value_of(id(self.ctx.loop), name)
            if fixed is not None:
                return poly.const(fixed)
        return poly.symbol(self._param(name))

    def stepped_value(self, node: c_ast.UnaryOp) -> poly.Poly | None:
        """The value of ``k++`` (the value before) or ``++k`` (after), once the walk has
        made that step in the statement it is walking and nothing moved ``k`` since."""
        got = self.steps.get(id(node))
        if got is None:
            return None
        epoch, key, old, new = got
        if epoch != self.epoch or self.env.get(key) != new:
            return None
        return old if node.op in ("p++", "p--") else new

    def _unknown_value(self, name: str, node: c_ast.Node, key: tuple[int, str]) -> poly.Poly:
        """A fresh symbol for a value the walk lost (set on a path it did not follow, or
        by the loop around); an iteration's own variable whose address is never taken
        keeps it until its next write, so a test of it bounds the subscript that reads
        it next (``if (cnt < max) list[cnt++] = j``), with the floor a counter entered
        its loop with (``counters``)."""
        sym = self._fresh()
        if self._class(name, node) != "local" or self.address_taken(name, node):
            return poly.symbol(sym)
        self.env[key] = poly.symbol(sym)
        floor = self.floors.get(key)
        if floor is not None:
            self.defined_bounds.append(Bound(sym, floor, None))
        return poly.symbol(sym)

    def enter_counters(self, written: set[str], parts: list[c_ast.Node | None]) -> list:
        """Before a loop that writes ``written``: the floors of its counters (the value
        each entered with, where known and affine), until ``leave_counters``."""
        from autotune.analysis.proof.counters import does_not_wrap, increments_only

        added = []
        for name in sorted(written):
            key = self._key(name)
            start = self.env.get(key)
            if start is None or key in self.floors or not poly.is_affine(start):
                continue
            decl, _kind = self._decl(name, parts[0]) if parts[0] is not None else (None, "")
            if does_not_wrap(decl) and increments_only(name, parts):
                self.floors[key] = start
                added.append(key)
        return added

    def leave_counters(self, added: list) -> None:
        for key in added:
            self.floors.pop(key, None)

    def address_taken(self, name: str, at: c_ast.Node) -> bool:
        """``&name`` somewhere in the function walked: a store through that pointer (here
        or in a callee) changes it without an assignment the walk could follow."""
        taken = self.ctx.prog.address_of
        mine = f"{self.frame.func.decl.name}:{name}"
        if mine not in taken and f"g:{name}" not in taken:
            return False
        _, kind = self._decl(name, at)
        return (mine if kind in ("local", "param") else f"g:{name}") in taken

    def _seen_at_loop(self, name: str, decl: c_ast.Decl | None) -> bool:
        """``name`` means this declaration at the loop's directive too (where a run-time
        test reads it): a called function's global is not hidden there by a local."""
        if self.frame.top:
            return True
        at_loop, _ = Scope(self.ctx.func, self.ctx.ast).find_decl(name, self.ctx.loop)
        return decl is not None and at_loop is decl

    def value(self, node: c_ast.Node | None) -> poly.Poly | None:
        return self._builder().build(node)

    def value_quietly(self, node: c_ast.Node) -> poly.Poly | None:
        """``node``'s value, leaving no trace in the walk: a size only a message prints,
        or a row length the proof checks subscripts against, is no size the loop's
        proof depends on (no guard, no measured value)."""
        saved = (
            dict(self._params),
            dict(self.defined_syms),
            list(self.defined_bounds),
            {k: set(v) for k, v in self.facts.sizes_read.items()},
            {k: set(v) for k, v in self.facts.sizes_fixed.items()},
        )
        try:
            return self.value(node)
        finally:  # restored in place: the walk's other parts hold these very objects
            for now, before in zip(
                (self._params, self.defined_syms, self.facts.sizes_read, self.facts.sizes_fixed),
                (saved[0], saved[1], saved[3], saved[4]),
                strict=True,
            ):
                now.clear()
                now.update(before)
            self.defined_bounds[:] = saved[2]

    def _builder(self) -> poly.PolyBuilder:
        scope = self.frame.scope
        return poly.PolyBuilder(
            self.lookup,
            self._element,
            lambda t: narrows(scope, t),
            self._defined,
            self.size_of,
            ExprTypes(scope),
            self._recombine,
            self.stepped_value,
        )

    def value_as(self, node: c_ast.Node | None, t: c_ast.Node | None) -> poly.Poly | None:
        """``node``'s value stored in a variable or parameter declared ``t``: wrapped where
        the declared type cannot hold it (``unsigned h = i - 1``, ``int k = n * m``)."""
        b = self._builder()
        value = b.build(node)
        return b.convert(value, b.types.of(node), declared(self.frame.scope, t))

    def stepped(self, name: str, value: poly.Poly | None, at: c_ast.Node) -> poly.Poly | None:
        """A variable's new value after ``k++`` or ``k += e``, in its own type: an
        ``unsigned`` counter is modulo ``2^32``."""
        decl, _ = self._decl(name, at)
        t = declared(self.frame.scope, decl.type) if decl is not None else None
        if value is None or t is None or t.signed or t.bits >= 64:
            return value
        return self._builder().wrap(value, t)

    def size_of(self, node: c_ast.Node) -> int | None:
        """``sizeof`` in a copy's length (``m * sizeof(double)``, ``sizeof a[i]``)."""
        return sizeof_bytes(self.frame.scope, node)

    def _defined(self, kind: str, a: poly.Poly, b: poly.Poly) -> poly.Poly:
        """``a / b``, min or max of a and b: a symbol whose value the constraints of
        ``Bound.defined`` pin, one per definition; every reference recorded after it
        carries them."""
        key = (kind, poly.text(a), poly.text(b))
        if key not in self.defined_syms:
            sym = self._fresh("q")
            self.defined_syms[key] = sym
            self.defined_bounds.append(Bound(sym, None, None, defined=(kind, a, b)))
        return poly.symbol(self.defined_syms[key])

    def _recombine(self, p: poly.Poly) -> poly.Poly:
        """``c * ((a / b) * b + a % b)`` inside ``p`` is ``c * a`` (C's identity, for a
        run-time ``b``): a block index and its offset give back the index."""
        for bound in self.defined_bounds:
            if bound.defined is None or bound.defined[0] != "vmod":
                continue
            c = p.get((bound.sym,), 0)
            _, a, b = bound.defined
            q = self.defined_syms.get(("vdiv", poly.text(a), poly.text(b)))
            qb = poly.mul(poly.symbol(q), b) if c and q else None
            if qb is None or any(p.get(m, 0) != c * v for m, v in qb.items()):
                continue
            p = poly.add(poly.add(p, qb, -c), {(bound.sym,): c}, -1)
            p = poly.add(p, a, c)
        return p

    def _element(self, node: c_ast.Node) -> poly.Poly | None:
        """``d[2]``, ``grid_points[0]``, ``g->nx``: a size read from memory the loop does
        not write, as a parameter (checked after the walk against the loop's writes)."""
        table = self._table(node)
        if table is not None:
            return table
        if not self.frame.top:
            return None
        text = element_text(node, self.value)
        if text is None:
            return scanned_count(self, node)  # ``nAtoms[iBox]``: bounded by a scan
        root = root_variable(node)
        if root is None:
            return None
        read = expression_type(self, node)
        if read is not None and floating_type(self.frame.scope, read):
            return None  # an element of a float grid, a time step g->dt: no size either
        # a member (``nb->maxneighs``) of a struct whose pointer members the loop writes
        # through (``nb->numneigh[i] = cnt``) is still one value: ``sizes_read`` checks
        # after the walk that no write's objects reach the struct that holds it
        member = isinstance(node, c_ast.StructRef)
        if (root.name in self.ctx.array_written and not member) or self._class(
            root.name, root
        ) not in ("shared", "invariant"):
            return None
        holder = self._holder(node)
        if holder is None and self.bounds_once and member:
            # the bounds of the worksharing loop itself, which OpenMP reads once before
            # the first iteration: no store of the loop changes what it runs
            return poly.symbol(self._param(text))
        if holder is None:
            return None
        tag = scalar_member(self, node) if member else None
        if tag is not None:  # ``f->n``: a store to another member of its type cannot reach it
            self.facts.size_members[text] = tag
        fixed = specialise.value_of(id(self.ctx.loop), text)
        if fixed is not None:
            self.facts.sizes_fixed.setdefault(text, set()).update(holder)
            return poly.const(fixed)
        sym = self._param(text)
        path = member_path(node, nested=True)  # ``g->nx``: the struct by its address too
        marks = {holder_marker(path[2])} if path is not None else set()
        self.facts.sizes_read.setdefault(sym, set()).update(holder | marks)
        return poly.symbol(sym)

    def _table(self, node: c_ast.Node) -> poly.Poly | None:
        """``perm[e]`` of a ``const`` integer table with a constant initializer, ``e``
        affine: a symbol pinned to the entry ``e`` selects, so isl compares the entries
        themselves (distinct entries, distinct elements; a repeated entry, a conflict).
        C forbids storing to a ``const`` object, and reading past its end."""
        if not (isinstance(node, c_ast.ArrayRef) and isinstance(node.name, c_ast.ID)):
            return None
        decl, _ = self._decl(node.name.name, node.name)
        values = const_table(decl)
        if values is None:
            return None
        at = self.value(node.subscript)
        if at is None or not poly.is_affine(at):
            return None
        return self._defined("table", at, poly.const(table_id(values)))

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

    def _assign_scalar(self, name: str, rhs: c_ast.Node, op: str, at: c_ast.Node) -> None:
        key = self._key(name)
        forget_members(self, name)  # ``cu = other``: its members are other's
        decl, _ = self._decl(name, at)
        derivs = derivations(self.frame.scope, decl.type) if decl is not None else []
        if derivs and derivs[0] == "ptr":
            if op == "=":  # counted in the elements of the pointer it is stored in
                val = stored_in(self, self.pointer(rhs), rhs, decl.type if decl else None)
            else:
                val = self.moved_pointer(name, op[0], rhs, at)
            if self.address_taken(name, at) and not self._unmoved_by_address(name, at):
                val = None  # ``bump(&q)``, ``*h += 1`` of ``h = &q``: moved out of sight
            if val is not None:
                self.env_ptr[key] = val
                name_block(self.facts, val, name)
            else:
                self.env_ptr.pop(key, None)
            return
        if decl is not None and narrows(self.frame.scope, decl.type):
            self.env[key] = None  # ``short k = i`` wraps: k is no polynomial of i
        elif self.address_taken(name, at):
            self.env[key] = None  # ``bump(&k)``, ``*q += 6``: set where the walk cannot see
        elif op == "=":
            self.env[key] = self.value_as(rhs, decl.type if decl is not None else None)
        else:
            old = self.env.get(key)
            inc = self.value(rhs)
            self.env[key] = self.stepped(
                name,
                poly.add(old, inc, 1 if op == "+=" else -1)
                if op in ("+=", "-=") and old is not None and inc is not None
                else None,
                at,
            )

    def moved_pointer(self, name: str, op: str, by: c_ast.Node, at: c_ast.Node) -> PtrVal | None:
        """Where the iteration's own pointer ``name`` stands after ``name += by`` (``-=``,
        ``++``, ``--``): moved by ``by`` of its elements from where this walk set it; None
        where the walk did not set it (its place is then unknown)."""
        key = self._key(name)
        if key not in self.env_ptr or op not in ("+", "-"):
            return None
        return moved(self.env_ptr[key], self.value(by), 1 if op == "+" else -1)

    def _unmoved_by_address(self, name: str, at: c_ast.Node) -> bool:
        """No store reaches the pointer ``name`` through its address (``memcpy(&key,
        &p, ...)`` only reads it)."""
        decl, kind = self._decl(name, at)
        if decl is None or kind != "local":
            return False
        stores = address_stores(self.ctx.prog, decl, self.site(at))
        return stores == []

    def stepped_pointer(self, node: c_ast.UnaryOp) -> PtrVal | None:
        """The value of ``q++`` (the place before) or ``++q`` (after) of a pointer the
        iteration set: from the step the walk made in this statement, or, not made yet,
        from where ``q`` stands now; None where the walk cannot tell."""
        key = self._key(node.expr.name)
        got = self.steps.get(id(node))
        if got is not None and got[0] == self.epoch:
            _, k, old, new = got
            if k != key or self.env_ptr.get(key) is not new:
                return None
            return old if node.op in ("p++", "p--") else new
        now = self.env_ptr.get(key)
        if now is None:
            return None
        if node.op in ("p++", "p--"):
            return now
        return moved(now, poly.const(1), 1 if node.op == "++" else -1)

    def _kill(self, names: set[str]) -> None:
        level = len(self.frames) - 1
        for key in [k for k in self.env if k[0] == level and k[1] in names]:
            self.env[key] = None
        for key in [
            k
            for k in self.env_ptr
            if k[0] == level and (k[1] in names or k[1].split(".", 1)[0] in names)
        ]:
            del self.env_ptr[key]  # a pointer, or a pointer member of a struct (``cu.at``)
        # values built from a killed name are stale too
        stale = {self._params[n] for n in names if n in self._params}
        grew = True
        while grew:  # and so are the defined values built from them (``m = n / 2``)
            grew = False
            for b in self.defined_bounds:
                if b.sym not in stale and b.defined is not None:
                    if any(poly.symbols(p) & stale for p in b.defined[1:]):
                        stale.add(b.sym)
                        grew = True
        for key, value in list(self.env.items()):
            if value is not None and poly.symbols(value) & stale:
                self.env[key] = None


def _const_value(decl: c_ast.Decl | None) -> poly.Poly | None:
    """``const int m = 6;``, ``static const int nb = 1 << 4;``: a const-qualified scalar
    whose initializer is a constant (its value cannot change)."""
    if decl is None or "const" not in (getattr(decl, "quals", None) or []):
        return None
    if decl.init is None or not isinstance(decl.type, c_ast.TypeDecl):
        return None
    value = poly.literal(decl.init)
    return value if value is not None and poly.constant_of(value) is not None else None


_INTEGER_WORDS = {"char", "short", "int", "long", "signed", "unsigned"}


def const_table(decl: c_ast.Decl | None) -> tuple[int, ...] | None:
    """The entries of ``const int t[] = {3, 1, 4}`` (a one-dimensional ``const`` array of
    an integer type, its initializer of integer constants, the rest of a declared length
    zeros); None for anything else."""
    if decl is None or not isinstance(decl.type, c_ast.ArrayDecl):
        return None
    inner = decl.type.type
    if not isinstance(inner, c_ast.TypeDecl) or not isinstance(inner.type, c_ast.IdentifierType):
        return None
    if "const" not in (inner.quals or []) + (decl.quals or []):
        return None
    if not set(inner.type.names) <= _INTEGER_WORDS or not isinstance(decl.init, c_ast.InitList):
        return None
    values = []
    for expr in decl.init.exprs or []:
        v = poly.literal(expr)
        c = poly.constant_of(v) if v is not None else None
        if c is None:
            return None
        values.append(c)
    dim = poly.literal(decl.type.dim) if decl.type.dim is not None else None
    size = poly.constant_of(dim) if dim is not None else len(values)
    if size is None or size < len(values) or not 0 < size <= MAX_TABLE:
        return None
    return tuple(values + [0] * (size - len(values)))
