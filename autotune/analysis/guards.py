"""Run-time guards for loops proven only at sizes above a bound (loop versioning).

The gate proves each loop once for every size; a loop kept only because of
what happens at small sizes is proved again assuming larger ones
(``proof.conditions``). What a guard may test is narrow on purpose: a value
every thread reads alike at the directive, and reads as the proof did, so
that the test and the proof speak of one value:
a variable (or a constant subscript or field of one) that the loop's directive
sees as shared: file scope, or a local or parameter of the loop's function
declared outside the parallel region and never assigned (nor its address taken)
inside it; not threadprivate, never named in a privatising clause. An orphaned
loop reads only file-scope data (its function's locals are each thread's own).
"""

from __future__ import annotations

import copy
import re

from pycparser import c_ast

from autotune.analysis.astutil import decl_ids, lvalues, walk
from autotune.analysis.proof.facts import clause_names
from autotune.analysis.proof.program import Program
from autotune.analysis.proof.scans import SCANS
from autotune.analysis.proof.syntax import PARAM_TEXTS, param_symbol, scalar_root
from autotune.analysis.region_stores import leaves_alone
from autotune.analysis.symbols import Scope
from autotune.frontend.finder import FoundLoop, FoundRegion
from autotune.frontend.records import LoopRecord

_PLAIN = re.compile(r"[A-Za-z_]\w*(\[\d+\]|\.[A-Za-z_]\w*|->[A-Za-z_]\w*)*")
GATED = (
    "kept",
    "reassociates",
    "region_threads",
    "sets_schedule",
    "runtime_elsewhere",
    "reads_schedule",
    "warnings",
)


def snapshot(record: LoopRecord) -> dict:
    """The fields the gate fills, copied (to run it again from the same start)."""
    return {f: copy.deepcopy(getattr(record, f)) for f in GATED}


def restore(record: LoopRecord, saved: dict) -> None:
    for f, value in saved.items():
        setattr(record, f, copy.deepcopy(value))


def usable_at(
    prog: Program,
    ast: c_ast.FileAST,
    found: FoundLoop,
    regions: list[FoundRegion],
    params: set[str],
) -> set[str]:
    """Those of ``params`` (isl parameters) a run-time test placed at ``found``'s
    directive can read: a value every thread of the team sees alike there, named by the
    same text the proof read it by."""
    region = _region_of(found, regions)
    orphaned = found.parallel is None  # its function's locals are each thread's own
    scope = Scope(found.func, ast)
    header = read_at_entry(found.for_node)
    counters = _enclosing_counters(found)
    out = set()
    for param in params:
        scan = SCANS.get(param)
        if scan is not None:  # read through a variable the test can read, as the loop does
            # before its own region starts; in a region, where nothing the region runs
            # besides the loop stores to the counts (``region_stores``): otherwise
            # another thread may still be storing them (a loop before it with nowait),
            # and threads that saw different counts would take different branches
            combined = found.parallel is not None and found.parallel is found.directive
            alike = combined or (
                region is not None
                and leaves_alone(prog, ast, found.func, region.node, found.for_node, scan.holder)
            )
            if alike and _scan_root_usable(prog, ast, found, regions, scan.root):
                out.add(param)
            continue
        text = PARAM_TEXTS.get(param)
        if text is None or not _PLAIN.fullmatch(text):
            continue
        root = re.match(r"[A-Za-z_]\w*", text).group(0)
        decl, kind = scope.find_decl(root, found.for_node)
        if decl is None or root in prog.threadprivate:
            continue
        if root in _clause_names(found, region) and not _copied_in(found, root):
            continue
        if root in counters:
            continue
        if not _safe_to_read(text, root, decl, scope, header):
            continue
        if kind == "global":
            out.add(param)
        elif kind in ("local", "param") and not orphaned and _shared_at(decl, root, found, region):
            out.add(param)
    return out


def _scan_root_usable(
    prog: Program, ast: c_ast.FileAST, found: FoundLoop, regions: list[FoundRegion], root: str
) -> bool:
    """The variable a scan reads its array through names one array for the whole team
    at the directive: a file-scope array (``rowstr``), or a pointer (or struct) a test
    there can read."""
    decl, kind = Scope(found.func, ast).find_decl(root, found.for_node)
    if decl is not None and kind == "global" and root not in prog.threadprivate:
        if isinstance(decl.type, c_ast.ArrayDecl):
            return True
    return bool(usable_at(prog, ast, found, regions, {param_symbol(root)}))


def one_object_at(
    prog: Program, ast: c_ast.FileAST, found: FoundLoop, regions: list[FoundRegion], name: str
) -> bool:
    """The variable ``name`` is one object for the whole team at ``found``'s directive, so
    a test there may take its address (``&s`` of a struct whose members the loop reads):
    a file-scope variable, or the function's own, shared and never assigned in the region."""
    region = _region_of(found, regions)
    decl, kind = Scope(found.func, ast).find_decl(name, found.for_node)
    if decl is None or name in prog.threadprivate or name in _clause_names(found, region):
        return False
    if kind == "global":
        return True
    return found.parallel is not None and _shared_at(decl, name, found, region)


def _enclosing_counters(found: FoundLoop) -> set[str]:
    """Counters of the loops around the directive (``for (t = 0; t < 10; t++)``): the
    proof knows their range, so a failure is bounded by the loop's own bound and a test
    above it would never hold: a time step is not a size."""
    target = id(found.for_node)
    out: set[str] = set()
    for n in walk(found.func.body) if found.func is not None else []:
        if isinstance(n, c_ast.For) and id(n) != target:
            if any(id(m) == target for m in walk(n.stmt)):
                for part in (n.init, n.next):
                    out |= {x for x in map(scalar_root, lvalues(part)) if x} if part else set()
    return out


def read_at_entry(loop: c_ast.For) -> set[str]:
    """Element and member texts the loop's own header reads (``k < d[2]``): memory the
    original reads whenever it reaches the loop."""
    from autotune.analysis.proof.poly import literal
    from autotune.analysis.proof.syntax import element_text

    out = set()
    for part in (loop.init, loop.cond):
        for n in walk(part) if part is not None else []:
            if isinstance(n, c_ast.ArrayRef | c_ast.StructRef):
                text = element_text(n, literal)
                if text:
                    out.add(text)
    return out


def _safe_to_read(text: str, root: str, decl: c_ast.Decl, scope: Scope, header: set[str]) -> bool:
    """The test may read ``text`` at the directive although the loop might not (it reads
    it only under a branch, or not at all with no iterations): a read that cannot fault.
    Each ``[k]`` must fall in a declared array dimension (a parameter's declared size
    taken as its contract) or, through a pointer, in a row the header reads at ``[j]``,
    ``j >= k``; each ``.f`` must be a member of a struct value, and what is read a
    number. Through ``->`` only what the header itself reads (``k < g->nx * g->ny``:
    the loop faults there first)."""
    from autotune.analysis.layout import struct_member_type
    from autotune.analysis.proof.poly import constant_of, literal

    if text in header:
        return True
    if "->" in text:
        return False
    t = decl.type
    prefix = root
    for k, member in re.findall(r"\[(\d+)\]|\.([A-Za-z_]\w*)", text[len(root) :]):
        t = scope.resolve_typedef(t)
        if member:
            if not (isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.Struct)):
                return False
            t = struct_member_type(scope, t, member)
            prefix += f".{member}"
            if t is None:
                return False
            continue
        dim = None
        if isinstance(t, c_ast.ArrayDecl) and t.dim is not None:
            built = literal(t.dim)
            dim = constant_of(built) if built is not None else None
        read = re.compile(re.escape(prefix) + r"\[(\d+)\]")
        ahead = [int(m.group(1)) for h in header if (m := read.match(h))]
        if not (dim is not None and int(k) < dim) and not any(j >= int(k) for j in ahead):
            return False
        if not isinstance(t, c_ast.ArrayDecl | c_ast.PtrDecl):
            return False
        t = t.type
        prefix += f"[{k}]"
    return _number(scope.resolve_typedef(t))


def _number(t: c_ast.Node) -> bool:
    """A value a test can compare and a profile can print: not a struct or union passed
    whole (RSBench hands its ``Input`` and ``SimulationData`` by value to the lookup
    kernel, and ``(long long)(data)`` stopped the profile build), nor an array."""
    if isinstance(t, c_ast.ArrayDecl):
        return False
    return not (isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.Struct | c_ast.Union))


def _region_of(found: FoundLoop, regions: list[FoundRegion]) -> FoundRegion | None:
    return next((r for r in regions if r.directive is found.parallel), None)


def _clause_names(found: FoundLoop, region: FoundRegion | None) -> set[str]:
    names: set[str] = set()
    for c in (found.directive.clauses, region.directive.clauses if region else None):
        if c is not None:
            names |= set(clause_names(c.private + c.firstprivate + c.lastprivate))
            names |= {r.split(":")[-1].strip() for r in clause_names(c.reduction)}
    return names


def _copied_in(found: FoundLoop, root: str) -> bool:
    """``firstprivate(n)`` on a combined ``parallel for`` and nothing else: every thread's
    copy starts as the value a test before the region reads (hotspot's
    ``firstprivate(row, col, num_chunk)``); ``_shared_at`` still asks that the loop
    never assigns it."""
    if found.parallel is not found.directive:
        return False
    c = found.directive.clauses
    others = set(clause_names(c.private + c.lastprivate))
    others |= {r.split(":")[-1].strip() for r in clause_names(c.reduction)}
    return root in set(clause_names(c.firstprivate)) - others


def _shared_at(decl: c_ast.Decl, root: str, found: FoundLoop, region: FoundRegion | None) -> bool:
    """A local or parameter of the loop's function, declared outside the parallel region
    (so the team shares it) and never assigned or handed out by address inside it."""
    inside = region.node if region is not None else found.for_node
    if inside is None or id(decl) in decl_ids(inside):
        return False
    for n in walk(inside):
        if isinstance(n, c_ast.Assignment) and scalar_root(n.lvalue) == root:
            return False
        if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&"):
            if scalar_root(n.expr) == root or _root_id(n.expr) == root:
                return False
    return True


def _root_id(node: c_ast.Node) -> str | None:
    while isinstance(node, c_ast.ArrayRef | c_ast.StructRef):
        node = node.name
    return node.name if isinstance(node, c_ast.ID) else None


def guard_text(bounds: dict[str, int]) -> str:
    """The C test of an assumption: ``grid_points[0] >= 6 && grid_points[1] >= 6``."""
    return " && ".join(f"{PARAM_TEXTS[p]} >= {k}" for p, k in sorted(bounds.items()))
