"""Run-time tests that the memory a loop reaches through two pointers does not overlap.

A kernel handed its arrays as parameters (``triad(double *a, const double *b, ...)``)
from another file, from a table of buffers or from an allocator the points-to cannot
follow, is kept by the proof: ``a`` and ``b`` may point into one array, at any offset.
As LLVM Polly does (Grosser, Doerfert, Hack: run-time alias checks), the loop is proven
again assuming that the elements it reaches through each such pair of pointers lie in
disjoint address ranges, and its variants run behind a test of exactly that: the lowest
and one past the highest address each pointer reaches, computed by isl from the
subscripts and the loops' bounds over the sizes at the directive. Wherever the ranges
overlap, the loop runs as written.

What is assumed is narrow on purpose: pointers named by a variable the directive reads
as every thread does and the loop never changes, subscripts affine in the loops (or
flattened rows ``i * n + j`` with ``0 <= j < n`` proven), every reference through such a
pointer made in the loop's own text (a called function's parameter is another name).
Pointer members (``p->x``) are such pointers while no store reaches their struct, which
the test then keeps apart too (``*p``). The ranges themselves: ``overlap_ranges``."""

from __future__ import annotations

import re

from pycparser import c_ast, c_generator

from autotune.analysis import guards
from autotune.analysis.astutil import walk
from autotune.analysis.gate_pass import kept_by_schedule, loop_prover
from autotune.analysis.names import call_name
from autotune.analysis.overlap_ranges import Reach, apart_text, reaches, whole_struct
from autotune.analysis.proof import conditions, deps, poly
from autotune.analysis.proof.decls import access_type
from autotune.analysis.proof.facts import Ref
from autotune.analysis.proof.program import Program
from autotune.analysis.proof.sizes_read import HOLDER, size_hits
from autotune.analysis.proof.syntax import (
    PARAM_TEXTS,
    for_header,
    member_path,
    param_symbol,
    scalar_root,
    side_effect_free,
    surely_evaluates,
)
from autotune.analysis.proof.verdict import Prover
from autotune.analysis.symbols import Scope, file_info
from autotune.frontend.finder import FoundLoop, FoundRegion
from autotune.frontend.records import LoopRecord

MAX_PAIRS = 64  # address comparisons in one test (a struct of arrays: 6 written, 3 read)
EQUAL_PAIRS = 4  # pairs that may also be equal: every subset is proven (16 proofs)
ROUNDS = 4  # a proof stops at its first failing question: more pairs surface under the first


def overlap_pass(
    pairs: list[tuple[FoundLoop, LoopRecord]],
    regions: list[FoundRegion],
    ast: c_ast.FileAST,
    prog: Program,
    shared: tuple[dict, Prover] | None = None,
) -> None:
    """Each loop kept only by its own proof for pointers that may overlap, proven again
    assuming they do not; proven so, it varies behind a test of their ranges."""
    sites, prover = shared or loop_prover(pairs, regions, ast, prog)
    for found, record, site in kept_by_schedule(pairs, sites):
        apart = _pairs_to_part(prover, site)  # first: most loops leave at their first pair
        if not apart:
            continue
        first = prover.prove(site)
        if first.schedule_only or record.kept["schedule"] != "; ".join(first.order):
            continue  # kept for more than its own questions (a region's rule, a call)
        equal = _equal_cases(prover, site, apart)
        guard = _guard(apart, equal, prover, site, found, regions, ast, prog)
        if guard is None:
            continue
        was = record.kept.pop("schedule")
        if found.parallel is found.directive and record.kept.get("threads") == was:
            del record.kept["threads"]
        record.guard = guard
        names = _pairs_named(apart)
        same = ""
        if equal:
            which = "the two of each pair" if equal == apart else _pairs_named(equal)
            same = f", or where {which} hold one address (an update in place)"
        record.warnings.append(
            f"proven only where the memory the loop reaches through {names} does not "
            f"overlap{same}: variants run behind a test of their address ranges, and the "
            f"loop as written where they overlap ({was})"
        )


def _equal_cases(
    prover: Prover, site, apart: frozenset[frozenset[str]]
) -> frozenset[frozenset[str]]:
    """The pairs whose pointers the test may also find equal: a kernel called in place
    (``waxpby(n, 1.0, r, beta, p, p)``, ``w == y``) reaches one array through both, each
    element at the same iteration. The loop must be proven in every case the test lets
    through: each subset of these pairs equal, the others apart. A pair that fails
    alone, or the last of a subset that fails, stays apart only (``smooth3(c, c)`` beside
    a weight pointer that may be ``c``)."""
    pairs = sorted(
        (p for p in apart if not any(x.startswith(HOLDER) for x in p)), key=lambda p: sorted(p)
    )
    if len(pairs) > 2 * EQUAL_PAIRS:
        return frozenset()

    def proven(same: frozenset[frozenset[str]]) -> bool:
        with conditions.assuming_apart(apart - same, same):
            proof = prover.prove(site)
        return not proof.order and not proof.schedule_only

    admitted = [p for p in pairs if proven(frozenset({p}))][:EQUAL_PAIRS]
    while len(admitted) > 1:
        failing = next(
            (
                mask
                for mask in range(1, 1 << len(admitted))
                if bin(mask).count("1") > 1
                and not proven(frozenset(p for k, p in enumerate(admitted) if mask >> k & 1))
            ),
            None,
        )
        if failing is None:
            break
        del admitted[failing.bit_length() - 1]  # the subset's last pair stays apart only
    return frozenset(admitted)


def _pairs_named(apart: frozenset[frozenset[str]]) -> str:
    """``a and b, a and c``; past a few pairs, the pointers alone (``*at`` for a struct
    known by its address)."""
    pairs = sorted(tuple(sorted(_shown(x) for x in p)) for p in apart)
    if len(pairs) <= 3:
        return ", ".join(f"{a} and {b}" for a, b in pairs)
    names = sorted({x for p in pairs for x in p})
    return f"each two of {', '.join(names)}"


def _shown(root: str) -> str:
    return f"*{root[len(HOLDER) :]}" if root.startswith(HOLDER) else root


def _pairs_to_part(prover: Prover, site) -> frozenset[frozenset[str]] | None:
    """The pointer pairs whose overlap alone keeps the loop (None: something else keeps
    it, or too many pairs)."""
    apart: frozenset[frozenset[str]] = frozenset()
    inside = {id(n) for n in walk(site.for_node)}
    for _ in range(ROUNDS):
        new: set[frozenset[str]] = set()
        with conditions.assuming_apart(apart):
            for ctx, facts in prover.walks(site) or []:
                shared = [r for r in facts.refs if r.owner == "shared"]
                for c in deps.conflicts(shared, ctx.collapse, MAX_PAIRS + 1):
                    pair = _pointer_pair(c, inside)
                    if pair is None:
                        return None
                    new.add(pair)
                for hit in size_hits(facts):  # a store that may move a size or a pointer
                    root = deps.reference_root(hit.ref)
                    node = getattr(hit.ref.text, "node", None)
                    if hit.untested or not root or id(node) not in inside:
                        return None
                    new |= {frozenset((root, h)) for h in hit.holders}
        if not new:
            break
        apart = apart | new
        if len(apart) > MAX_PAIRS:
            return None
    with conditions.assuming_apart(apart):
        proof = prover.prove(site)
    if proof.order or proof.schedule_only:
        return None
    return apart


def _pointer_pair(c: deps.Conflict, inside: set[int]) -> frozenset[str] | None:
    """The two variables a conflict's references go through, when they differ and both
    references are the loop's own text."""
    if c.why not in ("carried", "unanalysable", "sizes"):  # sizes: two element types
        return None
    ra, rb = deps.reference_root(c.a), deps.reference_root(c.b)
    if not ra or not rb or ra == rb:
        return None
    if not all(id(getattr(r.text, "node", None)) in inside for r in (c.a, c.b)):
        return None
    if _one_place(c.a, c.b):
        return None  # both placed in one named object: the conflict is there, tested or not
    return frozenset((ra, rb))


def _one_place(a: Ref, b: Ref) -> bool:
    """Both references go into one named object (an array, not a heap site that may stand
    for many blocks) from places in it the walk knows (``p = a + 1``): the proof compared
    them as they are, and a test of their ranges would fail at every run."""
    if a.objects is None or a.objects != b.objects or len(a.objects) != 1:
        return False
    if not next(iter(a.objects)).startswith("var:"):
        return False
    return all(
        r.start is not None
        and r.start[-1] is not None
        and not any(PARAM_TEXTS.get(x, "").startswith("&") for x in poly.symbols(r.start[-1]))
        for r in (a, b)
    )


def _guard(
    apart: frozenset[frozenset[str]],
    equal: frozenset[frozenset[str]],
    prover: Prover,
    site,
    found: FoundLoop,
    regions: list[FoundRegion],
    ast: c_ast.FileAST,
    prog: Program,
) -> str | None:
    """The test that every pair's reaches are apart (None: a pointer or a size the test
    cannot read, or a reference whose range isl cannot bound)."""
    roots = set().union(*apart)
    scope = Scope(found.func, ast) if found.func is not None else None
    if scope is None or not all(_readable(x, scope, found, regions, ast, prog) for x in roots):
        return None
    inside = {id(n) for n in walk(found.for_node)}
    holders = {x for x in roots if x.startswith(HOLDER)}
    refs: dict[str, list[Ref]] = {root: [] for root in roots - holders}
    for _ctx, facts in prover.walks(site) or []:
        for r in facts.refs:
            root = deps.reference_root(r)
            if root not in refs:
                continue
            node = getattr(r.text, "node", None)
            if id(node) not in inside or not _contiguous(node, root, len(r.index or []), scope):
                return None  # another function's names, or rows reached through pointers
            refs[root].append(r)

    def usable(params: set[str]) -> set[str]:
        return guards.usable_at(prog, ast, found, regions, params)

    reached: dict[str, list[Reach]] = {h: [whole_struct(h)] for h in holders}
    for root, mine in refs.items():
        got = reaches(root, mine, usable)
        if got is None:
            return None
        reached[root] = got
    tests = []
    for x, y in sorted(tuple(sorted(p)) for p in apart):
        mine = list(dict.fromkeys(apart_text(a, b) for a in reached[x] for b in reached[y]))
        if frozenset((x, y)) in equal and mine:
            both = " && ".join(mine)
            mine = [f"({both} || (const void *)({x}) == (const void *)({y}))"]
        tests += mine
    tests = list(dict.fromkeys(tests))
    if not tests or len(tests) > MAX_PAIRS:
        return None
    text = " && ".join(tests)
    if any(_valid_from_first_iteration(x, found.for_node) for x in roots):
        entry = _entry_text(found.for_node)
        if entry is None:
            return None
        text = f"!({entry}) || ({text})"  # no iteration: nothing runs, the test unread
    return text


def _contiguous(node: c_ast.Node | None, root: str, dims: int, scope: Scope) -> bool:
    """``node`` subscripts ``root`` ``dims`` times and every level below the first is an
    array row: the element lies at the pointer plus the flattened offset (through a
    ``double **`` it lies in another block). ``root`` may be a pointer member
    (``at->x``)."""
    at, depth = node, 0
    while isinstance(node, c_ast.ArrayRef):
        node, depth = node.name, depth + 1
    if depth != dims or not dims:
        return False
    if isinstance(node, c_ast.StructRef):
        path = member_path(node)
        if path is None or path[0] != root:
            return False
        decl, _kind = scope.find_decl(path[1], at)
        t = access_type(scope, node, decl.type) if decl is not None else None
        t = scope.resolve_typedef(t) if t is not None else None
        if not isinstance(t, c_ast.PtrDecl):
            return False
    elif isinstance(node, c_ast.ID) and node.name == root:
        decl, _kind = scope.find_decl(root, at)
        t = scope.resolve_typedef(decl.type) if decl is not None else None
    else:
        return False
    for level in range(dims):
        if not isinstance(t, c_ast.ArrayDecl | c_ast.PtrDecl):
            return False
        if level and not isinstance(t, c_ast.ArrayDecl):
            return False
        t = scope.resolve_typedef(t.type)
    return not isinstance(t, c_ast.ArrayDecl | c_ast.PtrDecl)


def _readable(
    root: str, scope: Scope, found: FoundLoop, regions, ast: c_ast.FileAST, prog: Program
) -> bool:
    """A pointer (or array) the test at the directive reads as every thread of the team
    does, and the loop never moves: each reference reaches from the value tested. A
    struct known by its address (``@at``) needs ``at`` so; a pointer member ``at->x``
    needs ``at`` so and a valid ``*at`` at the directive: the loop's header reads
    through it (``i < at->n``), as the original does before its first iteration."""
    if root.startswith(HOLDER):
        address = root[len(HOLDER) :]
        if address.startswith("&"):
            return guards.one_object_at(prog, ast, found, regions, address[1:])
        return _readable(address, scope, found, regions, ast, prog)
    if "->" in root or "." in root:
        var = re.match(r"[A-Za-z_]\w*", root).group(0)
        if "->" in root:
            header = guards.read_at_entry(found.for_node)
            valid = any(t.startswith(f"{var}->") for t in header)
            valid = valid or _valid_from_first_iteration(root, found.for_node)
            return valid and _readable(var, scope, found, regions, ast, prog)
        return _unmoved(var, found.for_node, _global(var, scope, found), prog, scope) and bool(
            guards.usable_at(prog, ast, found, regions, {param_symbol(root)})
        )
    decl, kind = scope.find_decl(root, found.for_node)
    if decl is None or not isinstance(decl.type, c_ast.PtrDecl | c_ast.ArrayDecl):
        return False
    if not _unmoved(root, found.for_node, kind == "global", prog, scope):
        return False
    if isinstance(decl.type, c_ast.ArrayDecl) and kind == "global":
        return True
    return bool(guards.usable_at(prog, ast, found, regions, {param_symbol(root)}))


def _global(name: str, scope: Scope, found: FoundLoop) -> bool:
    return scope.find_decl(name, found.for_node)[1] == "global"


def _valid_from_first_iteration(root: str, loop: c_ast.For) -> bool:
    """A pointer member ``at->x`` whose ``at`` the loop's header does not read through
    (``int n = at->n; for (i = 0; i < n; i++)``) but every iteration does, in a statement
    of the body that runs before any branch or jump: wherever the loop runs, ``*at`` is
    valid, so the test reads it behind a check that the loop runs at all."""
    if "->" not in root:
        return False
    var = root.split("->", 1)[0]
    if any(t.startswith(f"{var}->") for t in guards.read_at_entry(loop)):
        return False
    body = loop.stmt
    items = (body.block_items or []) if isinstance(body, c_ast.Compound) else [body]
    for item in items:
        if not isinstance(item, c_ast.Decl | c_ast.Assignment | c_ast.FuncCall | c_ast.UnaryOp):
            return False  # a branch, a loop, a block or a jump: what follows may not run
        if _reads_through(item, var):
            return True
    return False


def _reads_through(node: c_ast.Node, var: str) -> bool:
    """``node`` surely reads through ``var`` (``var->f``) when it runs."""

    def through(n: c_ast.Node) -> bool:
        return (
            isinstance(n, c_ast.StructRef)
            and n.type == "->"
            and isinstance(n.name, c_ast.ID)
            and n.name.name == var
        )

    return surely_evaluates(node, through)


def _entry_text(loop: c_ast.For) -> str | None:
    """The C test that the loop runs at least once (``0 < n``), from its header's own
    bounds, which the original evaluates whenever it reaches the loop (None: not
    canonical, or a bound with side effects)."""
    header = for_header(loop)
    if header is None:
        return None
    _var, lo, hi, op, _step = header
    if not side_effect_free(lo, hi):
        return None
    gen = c_generator.CGenerator()
    return f"({gen.visit(lo)}) {op} ({gen.visit(hi)})"


def _unmoved(root: str, loop: c_ast.Node, file_scope: bool, prog: Program, scope: Scope) -> bool:
    """Nothing in the loop assigns ``root`` or takes its address; for a file-scope pointer,
    no function the loop calls (transitively) assigns it or takes its address either, and
    no call goes through a pointer (it might reach one that does)."""
    for n in walk(loop):
        if isinstance(n, c_ast.Assignment) and scalar_root(n.lvalue) == root:
            return False
        if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&"):
            if scalar_root(n.expr) == root:
                return False
    if not file_scope:
        return True
    reached = _functions_called(loop, scope, prog)
    if reached is None:
        return False
    if reached and prog.address_taken_var(root, loop, scope.func, scope.ast):
        return False  # stored through its address where no walk of the callees sees
    for node, func, ast in prog.uses(root):
        if func.decl.name not in reached or not _sets_itself(node, ast):
            continue
        if Scope(func, ast).find_decl(root, node)[1] == "global":
            return False
    return True


def _functions_called(loop: c_ast.Node, scope: Scope, prog: Program) -> set[str] | None:
    """The program's functions a run of ``loop`` may call, transitively (None: a call
    through a pointer, which may reach any of them). Library functions are not among
    them: they assign none of the program's variables."""
    reached: set[str] = set()
    todo: list[tuple[c_ast.Node, Scope]] = [(loop, scope)]
    while todo:
        node, where = todo.pop()
        for n in walk(node):
            if not isinstance(n, c_ast.FuncCall):
                continue
            name = call_name(n)
            if name is None:
                return None
            if name not in prog.funcs:
                decl, _kind = where.find_decl(name, n)
                if decl is not None and not isinstance(decl.type, c_ast.FuncDecl):
                    return None  # a function pointer variable
                continue
            if name not in reached:
                reached.add(name)
                func, ast = prog.funcs[name]
                todo.append((func.body, Scope(func, ast)))
    return reached


def _sets_itself(node: c_ast.ID, ast: c_ast.FileAST) -> bool:
    """``node`` itself is assigned, stepped or has its address taken (``p = q``, ``p++``,
    ``&p``), not an element through it (``p[i] = x``)."""
    parent = file_info(ast).parents.get(id(node))
    if isinstance(parent, c_ast.Assignment):
        return parent.lvalue is node
    return isinstance(parent, c_ast.UnaryOp) and parent.op in ("++", "--", "p++", "p--", "&")
