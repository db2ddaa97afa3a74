"""The proof for one worksharing loop: the reasons its mapping must stay as written.

A schedule, chunk or thread count changes which thread runs which iteration
and in what order. The result cannot change when (1) no iteration reads or
writes what another writes, except through commutative updates made
atomically or through reduction clauses; (2) every value a thread carries from
one iteration to the next (a private scalar or array, threadprivate data) is
set before it is read, or only accumulated and then combined; (3) nothing in
the iteration sees the thread, the team, the runtime's settings or the order
of I/O. Each rule that cannot be proven becomes one reason, and the loop is
kept as written.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

from autotune.analysis.astutil import decl_ids
from autotune.analysis.names import call_name, is_floating
from autotune.analysis.proof import deps, poly
from autotune.analysis.proof.facts import IterationFacts, Ref
from autotune.analysis.proof.pointsto import PointsTo, derivations
from autotune.analysis.proof.program import (
    Program,
    Site,
    param_names,
    taint_key,
    thread_dependent,
)
from autotune.analysis.proof.refs import (
    IterationWalker,
    LoopContext,
    PtrVal,
    _assigned,
)
from autotune.analysis.symbols import Scope
from autotune.frontend.records import Clauses

MAX_CONTEXTS = 8


@dataclass
class Proof:
    """What the proof found: reasons to keep the mapping (empty: proven), notes."""

    order: list[str] = field(default_factory=list)
    reassociates: list[str] = field(default_factory=list)
    schedule_only: list[str] = field(default_factory=list)  # keep the schedule, not threads

    def add(self, reason: str) -> None:
        if reason not in self.order:
            self.order.append(reason)


@dataclass
class LoopSite:
    """A loop as the finder saw it, with the region around it (None: combined or orphaned)."""

    for_node: c_ast.For
    func: c_ast.FuncDef
    ast: c_ast.FileAST
    clauses: Clauses
    region_clauses: Clauses | None
    region_node: c_ast.Node | None
    orphaned: bool


def prove(site: LoopSite, prog: Program, pointsto: PointsTo) -> Proof:
    """Run the walk in every calling context of the loop's function and judge it."""
    out = Proof()
    ctx_base = _context(site, prog, pointsto)
    for bindings in _calling_contexts(site, prog, pointsto):
        ctx = LoopContext(**{**ctx_base.__dict__, "param_ptrs": bindings})
        try:
            facts = IterationWalker(ctx).run()
        except RecursionError:
            out.add("the loop body is nested too deeply for the proof")
            continue
        _judge(site, ctx, facts, prog, out)
    _non_rectangular(site, out)
    return out


def _context(site: LoopSite, prog: Program, pointsto: PointsTo) -> LoopContext:
    cl = site.clauses
    rc = site.region_clauses
    private = set(_names(cl.private + cl.firstprivate + cl.lastprivate))
    firstprivate = set(_names(cl.firstprivate))
    if rc is not None:
        private |= set(_names(rc.private + rc.firstprivate))
        firstprivate |= set(_names(rc.firstprivate))
    inner = decl_ids(site.for_node)
    if site.region_node is not None:
        private |= {
            n.name
            for n in _decls(site.region_node)
            if id(n) not in inner and n.name
        }
    if site.orphaned:  # every thread calls the function: its locals are the thread's own
        private |= {n.name for n in _decls(site.func.body) if id(n) not in inner and n.name}
        private |= {n for n in param_names(site.func) if n}
    reductions = {}
    for item in cl.reduction + (rc.reduction if rc is not None else []):
        op, _, names = item.rpartition(":")
        op = op.split(",")[-1].strip()
        for name in _names([names]):
            reductions[name] = {"-": "+"}.get(op, op)
    written = _written(site.for_node, prog)
    return LoopContext(
        prog=prog,
        pointsto=pointsto,
        func=site.func,
        ast=site.ast,
        loop=site.for_node,
        collapse=max(1, cl.collapse),
        local=inner,
        private=private,
        firstprivate=firstprivate,
        reductions=reductions,
        written=written,
    )


def _names(items: list[str]) -> list[str]:
    out = []
    for item in items:
        for n in item.split(","):
            n = n.strip()
            if n:
                out.append(n.split("[")[0].strip())
    return out


def _decls(node: c_ast.Node) -> list[c_ast.Decl]:
    out = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Decl) and not isinstance(n.type, c_ast.FuncDecl):
            out.append(n)
        if isinstance(n, c_ast.FuncDef):
            continue
        stack.extend(c for _, c in n.children())
    return out


def _written(node: c_ast.Node, prog: Program, seen: set[str] | None = None) -> set[str]:
    """Names assigned in ``node``, and the globals the functions it calls assign
    (transitively; a callee's own locals and parameters are not the caller's)."""
    seen = seen if seen is not None else set()
    out = _assigned(node)
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.FuncCall):
            name = call_name(n)
            if name and name in prog.funcs and name not in seen:
                seen.add(name)
                func = prog.funcs[name][0]
                own = set(filter(None, param_names(func))) | {d.name for d in _decls(func.body)}
                out |= _written(func.body, prog, seen) - own
        stack.extend(c for _, c in n.children())
    return out


def _calling_contexts(site: LoopSite, prog: Program, pointsto: PointsTo) -> list[dict[str, PtrVal]]:
    """One binding of the function's pointer parameters per call site (at most 8)."""
    func = site.func
    scope = Scope(func, site.ast)
    params = [
        p for p in _params_of(func) if p.name and derivations(scope, p.type)
    ]
    fname = func.decl.name
    sites = prog.calls.get(fname, [])
    if not params or not sites or fname in prog.address_taken or fname == "main":
        return [{}]
    if not prog.whole:
        return [{}]  # other files may call it with anything: the parameters stay unknown
    if len(sites) > MAX_CONTEXTS:
        merged = {
            p.name: PtrVal(pointsto.param_objects(func, p.name, 0), None, "shared", p.name)
            for p in params
        }
        return [merged]
    out = []
    names = param_names(func)
    for s in sites:
        args = s.node.args.exprs if s.node.args is not None else []
        binding = {}
        for p in params:
            k = names.index(p.name)
            binding[p.name] = _argument(args[k], s, pointsto) if k < len(args) else PtrVal(None, None)
        out.append(binding)
    return out


def _params_of(func: c_ast.FuncDef) -> list[c_ast.Decl]:
    from autotune.analysis.symbols import _params

    return _params(func)


def _argument(arg: c_ast.Node, site: Site, pointsto: PointsTo) -> PtrVal:
    """What an argument passed at a call site outside the loop points at."""
    objs = pointsto.objects(arg, site)
    base = _arg_base(arg, site, pointsto)
    return PtrVal(objs, base if objs is not None else None, "shared", _root(arg))


def _arg_base(
    arg: c_ast.Node, site: Site, pointsto: PointsTo, depth: int = 0
) -> list[poly.Poly] | None:
    while isinstance(arg, c_ast.Cast):
        arg = arg.expr
    scope = pointsto.scope(site)

    def lookup(name: str, node: c_ast.Node) -> poly.Poly | None:
        return poly.symbol(f"Parg_{name}")

    if isinstance(arg, c_ast.ID):
        decl, kind = scope.find_decl(arg.name, arg)
        if decl is None:
            return None
        derivs = derivations(scope, decl.type)
        if derivs and derivs[0] == "array" and kind != "param":
            return [poly.const(0)]
        if kind == "param":
            return _param_base(site.func, arg.name, pointsto, depth)
        stores = [s for s in pointsto.prog.var_stores.get(arg.name, []) if s.func is site.func or kind == "global"]
        if kind != "param" and stores and all(_fresh_or_array(s, pointsto) for s in stores):
            return [poly.const(0)]
        return None
    if isinstance(arg, c_ast.BinaryOp) and arg.op in ("+", "-"):
        base = _arg_base(arg.left, site, pointsto, depth)
        off = poly.PolyBuilder(lookup).build(arg.right)
        if base is None or off is None:
            return None
        return base[:-1] + [poly.add(base[-1], off, 1 if arg.op == "+" else -1)]
    if isinstance(arg, c_ast.UnaryOp) and arg.op == "&" and isinstance(arg.expr, c_ast.ArrayRef):
        inner = arg.expr
        if not isinstance(inner.name, c_ast.ID):
            return None
        base = _arg_base(inner.name, site, pointsto, depth)
        off = poly.PolyBuilder(lookup).build(inner.subscript)
        if base is None or off is None:
            return None
        return base[:-1] + [poly.add(base[-1], off)]
    if isinstance(arg, c_ast.StructRef):
        stores = pointsto.prog.field_stores.get(arg.field.name, [])
        if stores and all(_fresh_or_array(s, pointsto) for s in stores):
            return [poly.const(0)]  # every store to the field is a new allocation
        return None
    return None


def _param_base(
    func: c_ast.FuncDef | None, name: str, pointsto: PointsTo, depth: int
) -> list[poly.Poly] | None:
    """A pointer parameter that every caller passes the start of an object: index 0."""
    prog = pointsto.prog
    if func is None or depth > 3:
        return None
    fname = func.decl.name
    sites = prog.calls.get(fname, [])
    if not sites or fname in prog.address_taken or fname == "main" or not prog.whole:
        return None
    names = param_names(func)
    if name not in names:
        return None
    k = names.index(name)
    for s in sites:
        args = s.node.args.exprs if s.node.args is not None else []
        if k >= len(args):
            return None
        base = _arg_base(args[k], s, pointsto, depth + 1)
        if base is None or len(base) != 1 or poly.constant_of(base[0]) != 0:
            return None
    return [poly.const(0)]


def _fresh_or_array(s: Site, pointsto: PointsTo) -> bool:
    from autotune.analysis.proof.pointsto import _is_fresh

    node = s.node
    while isinstance(node, c_ast.Cast):
        node = node.expr
    if isinstance(node, c_ast.FuncCall):
        return _is_fresh(node, pointsto.prog)
    if isinstance(node, c_ast.ID):
        decl, kind = pointsto.scope(s).find_decl(node.name, node)
        return decl is not None and kind != "param" and (
            derivations(pointsto.scope(s), decl.type) or ["?"]
        )[0] == "array"
    return False


def _root(node: c_ast.Node) -> str:
    """The name an argument is known by in messages (``net->input_units``: input_units)."""
    while isinstance(node, c_ast.Cast):
        node = node.expr
    if isinstance(node, c_ast.StructRef):
        return node.field.name
    while not isinstance(node, c_ast.ID):
        kids = [c for _, c in node.children()]
        if not kids:
            return ""
        node = kids[0]
    return node.name


# ---- judging one walk ----------------------------------------------------------------------
def _judge(site: LoopSite, ctx: LoopContext, facts: IterationFacts, prog: Program, out: Proof) -> None:
    for e in facts.effects:
        out.add(e)
    _scalars(site, ctx, facts, prog, out)
    shared = [r for r in facts.refs if r.owner == "shared"]
    for c in deps.conflicts(shared, ctx.collapse):
        out.add(c.reason())
    _private_arrays(site, ctx, facts, out)
    for note in facts.reassociates:
        if note not in out.reassociates:
            out.reassociates.append(note)


def _scalars(site: LoopSite, ctx: LoopContext, facts: IterationFacts, prog: Program, out: Proof) -> None:
    scope = Scope(site.func, site.ast)
    for name, line in facts.exposed.items():
        out.add(
            f"private variable {name} is read at line {line} before every path of the "
            "iteration has set it: its value carries over between the iterations one thread runs"
        )
    for name, ops in facts.updates.items():
        if name in ctx.reductions:
            if name in facts.plain and not _dead_after(site, name):
                out.add(
                    f"reduction variable {name} is also set or read at line "
                    f"{facts.plain[name]} and used after the loop: the value it ends with "
                    "depends on the schedule"
                )
            elif name in facts.plain:
                out.add(
                    f"reduction variable {name} accumulates across iterations besides the "
                    f"reduction (line {facts.plain[name]})"
                )
            continue
        if name in facts.exposed or name in facts.plain or len(ops) != 1:
            continue  # already a reason (exposed), or set in the iteration: not carried
        why = _accumulator_use(site, name, prog)
        if why:
            out.add(
                f"private variable {name} accumulates over the iterations a thread runs and "
                f"{why}: what it holds depends on the schedule"
            )
        elif is_floating(scope, name, site.for_node):
            note = (
                f"{name} is a per-thread partial sum combined after the loop: another schedule "
                "or thread count reassociates it, so results may differ in the last digits"
            )
            if note not in out.reassociates:
                out.reassociates.append(note)
    for name, line in facts.plain.items():
        if name in ctx.reductions and name not in facts.updates and not _dead_after(site, name):
            out.add(
                f"reduction variable {name} is set or read at line {line} other than by its "
                "reduction operator, and used after the loop"
            )
    for name in _names(site.clauses.lastprivate):
        if facts.end_defined is not None and name not in facts.end_defined:
            out.add(
                f"lastprivate({name}) is not set on every path of an iteration: the value left "
                "comes from whichever iteration last set it on the thread that ran the last one"
            )
    for name, line in facts.invariant_reads.items():
        if taint_key(name, site.for_node, site.func, site.ast) in prog.tainted:
            out.add(
                f"reads {name} at line {line}, which holds a value that depends on the thread "
                "(a thread number, a team size or something computed from one)"
            )
    for cl in filter(None, [site.clauses, site.region_clauses]):
        for item in cl.reduction:
            op, _, names = item.rpartition(":")
            op = op.split(",")[-1].strip()
            if op in ("max", "min", "&", "|", "^", "&&", "||"):
                continue
            for name in _names([names]):
                if is_floating(scope, name, site.for_node):
                    note = (
                        f"floating-point reduction({op}:{name}): another thread count or "
                        "schedule reassociates it, so results may differ in the last digits"
                    )
                    if note not in out.reassociates:
                        out.reassociates.append(note)


def _dead_after(site: LoopSite, name: str) -> bool:
    """A local of the loop's function that nothing outside the loop reads."""
    decl, kind = Scope(site.func, site.ast).find_decl(name, site.for_node)
    if decl is None or kind not in ("local", "param") or "static" in (decl.storage or []):
        return False
    inside = {id(n) for n in _walk(site.for_node)}
    for n in _walk(site.func.body):
        if id(n) in inside:
            continue
        if isinstance(n, c_ast.ID) and n.name == name and not _is_store_target(n, site.func):
            return False
        if isinstance(n, c_ast.UnaryOp) and n.op == "&" and _root(n.expr) == name:
            return False
    return True


def _is_store_target(node: c_ast.ID, func: c_ast.FuncDef) -> bool:
    for n in _walk(func.body):
        if isinstance(n, c_ast.Assignment) and n.op == "=" and n.lvalue is node:
            return True
    return False


def _walk(node: c_ast.Node):  # noqa: ANN202
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(c for _, c in n.children())


def _accumulator_use(site: LoopSite, name: str, prog: Program) -> str:
    """'' when a thread's accumulator is only set before the loop and combined in an
    atomic or critical update after it; else what else uses it."""
    if name in prog.threadprivate:
        return "is threadprivate (its value outlives the region)"
    holder = site.region_node if site.region_node is not None else None
    if holder is None:
        if site.orphaned:
            holder = site.func.body
        else:
            return ""  # a private clause of a combined construct: the copy dies with the loop
    inside = {id(n) for n in _walk(site.for_node)}
    combining = _combining_ids(holder, name)
    for n in _walk(holder):
        if id(n) in inside or id(n) in combining:
            continue
        if isinstance(n, c_ast.ID) and n.name == name:
            parent_init = _initialising(holder, n)
            if not parent_init:
                line = n.coord.line if n.coord else 0
                return f"is used at line {line} other than in a combining update"
    return ""


def _combining_ids(holder: c_ast.Node, name: str) -> set[int]:
    """IDs of ``name`` read as the operand of ``shared op= name`` in critical/atomic."""
    from autotune.frontend.runs import pragma_runs

    out: set[int] = set()
    for n in _walk(holder):
        if not isinstance(n, c_ast.Compound):
            continue
        for run in pragma_runs(n.block_items):
            if run.stmt is None or not {d.kind for d in run.directives} & {"atomic", "critical"}:
                continue
            for s in _walk(run.stmt):
                if isinstance(s, c_ast.Assignment) and s.op in ("+=", "*=", "|=", "&=", "^=", "-="):
                    for x in _walk(s.rvalue):
                        if isinstance(x, c_ast.ID) and x.name == name:
                            out.add(id(x))
                    for x in _walk(s.lvalue):
                        if isinstance(x, c_ast.ID) and x.name != name:
                            pass
    return out


def _initialising(holder: c_ast.Node, node: c_ast.ID) -> bool:
    """``name = constant`` or ``name.f = constant``: setting the accumulator up."""
    for n in _walk(holder):
        if isinstance(n, c_ast.Assignment) and n.op == "=":
            lv = n.lvalue
            while isinstance(lv, c_ast.StructRef | c_ast.ArrayRef):
                if lv is node:
                    break
                lv = lv.name
            if (lv is node) and isinstance(n.rvalue, c_ast.Constant):
                return True
    return False


def _private_arrays(site: LoopSite, ctx: LoopContext, facts: IterationFacts, out: Proof) -> None:
    """A thread's own array (or threadprivate data) across iterations: each element read
    must be written earlier in the same iteration, or the array only accumulates."""
    by_obj: dict[str, list[Ref]] = {}
    for r in facts.refs:
        if r.owner != "private":
            continue
        if r.objects is None or len(r.objects) != 1:
            out.add(f"reaches {r.name or 'a private object'} at line {r.line} through a pointer "
                    "the proof cannot follow")
            continue
        (obj,) = r.objects
        by_obj.setdefault(obj, []).append(r)
    for obj, refs in by_obj.items():
        name = obj.split(":", 1)[1]
        if all(r.kind == "u" for r in refs) and len({r.op for r in refs}) == 1:
            why = _accumulator_use(site, name, ctx.prog)
            if why:
                out.add(f"private array {name} accumulates over the iterations a thread runs and "
                        f"{why}")
            continue
        reads = [r for r in refs if r.kind != "w"]
        writes = [r for r in refs if r.kind == "w" and r.must]
        ok = all(deps.covered(r, writes) for r in reads)
        if not ok:
            r = reads[0] if reads else refs[0]
            out.add(
                f"{name}, which each thread keeps across iterations, may be read at line {r.line} "
                "before the iteration has written it: values carry over between the iterations "
                "one thread runs"
            )
            continue
        used = _used_elsewhere(site, name, ctx.prog)
        if used:
            out.add(f"{name} keeps the values of the last iteration each thread ran, and {used}")


def _used_elsewhere(site: LoopSite, name: str, prog: Program) -> str:
    """Where a thread's array is read outside the loop after it (its leftovers seen):
    in the region for a region's array; anywhere in the program for threadprivate data
    (before the loop in its own function is setting it up)."""
    holders: list[tuple[c_ast.Node, c_ast.FuncDef, c_ast.FileAST]] = []
    if name in prog.threadprivate:
        holders = [(f.body, f, a) for f, a in prog.funcs.values()]
    elif site.region_node is not None:
        holders.append((site.region_node, site.func, site.ast))
    inside = {id(n) for n in _walk(site.for_node)}
    loop_line = site.for_node.coord.line if site.for_node.coord else 0
    for holder, func, ast in holders:
        scope = Scope(func, ast)
        for n in _walk(holder):
            if id(n) in inside or not (isinstance(n, c_ast.ID) and n.name == name):
                continue
            _, kind = scope.find_decl(name, n)
            if name in prog.threadprivate and kind != "global":
                continue  # another variable of the same name
            line = n.coord.line if n.coord else 0
            if func is site.func and line < loop_line:
                continue  # set up before the loop
            return f"is used at line {line}"
    return ""


def _non_rectangular(site: LoopSite, out: Proof) -> None:
    """gcc rejects any schedule clause on a collapsed nest whose inner bounds use outer
    collapsed variables: keep the schedule (the thread count may still vary)."""
    n = site.clauses.collapse
    if n <= 1:
        return
    node: c_ast.Node = site.for_node
    outer: list[str] = []
    for _ in range(n):
        while isinstance(node, c_ast.Compound) and node.block_items and len(node.block_items) == 1:
            node = node.block_items[0]
        if not isinstance(node, c_ast.For):
            return
        names = set()
        for part in (node.init, node.cond):
            for x in _walk(part) if part is not None else []:
                if isinstance(x, c_ast.ID):
                    names.add(x.name)
        if outer and names & set(outer):
            out.schedule_only.append(
                f"collapse({n}) of a non-rectangular nest (line {node.coord.line if node.coord else 0}"
                " bounds use an outer collapsed variable): the compiler rejects any schedule "
                "clause on it"
            )
            return
        var = _loop_var(node)
        if var:
            outer.append(var)
        node = node.stmt


def _loop_var(node: c_ast.For) -> str | None:
    init = node.init
    if isinstance(init, c_ast.DeclList) and init.decls:
        return init.decls[0].name
    if isinstance(init, c_ast.Assignment) and isinstance(init.lvalue, c_ast.ID):
        return init.lvalue.name
    return None


def thread_dependent_value(node: c_ast.Node, prog: Program, site: LoopSite) -> str | None:
    return thread_dependent(node, prog, site.func, site.ast)
