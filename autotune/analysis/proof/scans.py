"""Counts an iteration reads at its own index, bounded by a scan at run time.

Cell lists keep each cell's atoms in one slab of a fixed stride and the count in an
array (CoMD's ``nAtoms[iBox]`` with slabs of ``MAXATOMS``, miniMD's bins): iteration
``iBox`` writes ``f[iBox * MAXATOMS + k]`` for ``k < nAtoms[iBox]``. The slabs stay
apart only while every count is at most the stride, a fact of the data, not of the
code. The walk gives such a count a value of its own per iteration, bounded above by
one parameter: the largest count over the loop's iterations. A question that fails
only where that largest count is large becomes a relation (``conditions``) the
variant runs behind, with the parameter computed by a scan of the counts at the
directive (as Polly checks its assumptions at run time).

The scan reads exactly what the loop reads: the element at each of its iterations'
own index, which every iteration reads before any branch, call or jump, from an array
no store of the loop reaches (``sizes_read`` checks that after the walk). So the scan
reads nothing the original would not, and sees the values the iterations see.
"""

from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast, c_generator

from autotune.analysis.astutil import walk
from autotune.analysis.names import floating_type
from autotune.analysis.proof import poly
from autotune.analysis.proof.decls import access_type, derivations
from autotune.analysis.proof.facts import Bound
from autotune.analysis.proof.syntax import (
    for_header,
    member_path,
    side_effect_free,
    surely_evaluates,
)
from autotune.analysis.symbols import file_info


@dataclass(frozen=True)
class Scan:
    """The largest of ``base[var]`` over the loop's iterations, read at its directive;
    or (``kind`` "sorted") 1 where ``base[var + offset]`` never exceeds the next element
    over them, else 0 (the row offsets of a compressed layout: ``segments``)."""

    base: str  # the array's C text at the directive (``s->nAtoms``)
    root: str  # the variable it is read through (``s``): the test must be able to read it
    var: str  # the loop's counter
    kind: str = "max"
    offset: int = 0
    # the objects the counts live in, and the structs the path to them goes through
    # (empty: one of those not known): what no store of a region around may reach
    holder: frozenset[str] = frozenset()

    def shown(self) -> str:
        if self.kind == "sorted":
            at = f"{self.var} + {self.offset}" if self.offset else self.var
            return f"{self.base}[{at}] <= {self.base}[{at} + 1] at every {self.var}"
        return f"max {self.base}[{self.var}]"


SCANS: dict[str, Scan] = {}  # isl parameter -> the scan that measures it


def is_scan(param: str) -> bool:
    return param in SCANS


def shown_text(param: str, texts: dict[str, str]) -> str:
    """How a message names a parameter: a scan by what it scans, a size by its C text."""
    scan = SCANS.get(param)
    return scan.shown() if scan is not None else texts.get(param, param)


def scanned_count(w, node: c_ast.Node) -> poly.Poly | None:
    """``base[i]`` of an integer array, ``i`` the worksharing loop's own counter, read
    at the iteration's top level before anything that could skip it: a value of this
    iteration's own, at most the scan's parameter. None where any of that is not so."""
    if not isinstance(node, c_ast.ArrayRef):
        return None
    header = scan_header(w)
    if header is None or w.value_quietly(node.subscript) != poly.symbol(w.domain[0].sym):
        return None
    holder = counts_array(w, node.name, node)
    if holder is None or not read_first(w.ctx.loop, node, w.frame.ast):
        return None
    base, root = c_generator.CGenerator().visit(node.name), array_root(node.name)
    scan = Scan(base, root, header[0], holder=held_with_path(w, node.name, holder))
    sym = w._param(scan_text(scan, header))
    SCANS[sym] = scan
    w.facts.sizes_read.setdefault(sym, set()).update(holder)
    count = w._fresh("u")
    w.defined_bounds.append(Bound(count, None, poly.symbol(sym)))
    return poly.symbol(count)


def held_with_path(w, base: c_ast.Node, holder: frozenset[str]) -> frozenset[str]:
    """``holder`` with the structs ``base`` is read through (``s`` of ``s->nAtoms``, and
    each struct of ``s->boxes->nAtoms``); empty where one of them is not known."""
    out = set(holder)
    while isinstance(base, c_ast.StructRef):
        container = w._holder(base)
        if not container:
            return frozenset()
        out |= container
        base = base.name
    return frozenset(out) if isinstance(base, c_ast.ID) else frozenset()


def scan_header(w) -> tuple | None:
    """The worksharing loop's header, where the walk is at its iteration's top level
    (no branch, no inner loop around) and a scan can repeat the header: one counter
    stepping by one, bounds without side effects."""
    if not w.frame.top or w.cond_depth or w.ctx.collapse != 1 or len(w.domain) != 1:
        return None  # inside an inner loop (its header is walked before its bound is)
    if w.domain[0].step not in (1, -1):
        return None
    header = for_header(w.ctx.loop)
    return header if header is not None and _plain_bounds(header) else None


def counts_array(w, base: c_ast.Node, at: c_ast.Node) -> frozenset[str] | None:
    """The objects of the integer array ``base`` (``counts``, ``s->nAtoms``) that every
    thread reads alike and the loop does not store to by that name; None otherwise."""
    root = array_root(base)
    if root is None or w._class(root, at) not in ("shared", "invariant"):
        return None
    if isinstance(base, c_ast.ID) and root in w.ctx.array_written:
        return None  # the loop stores to it (IS's key_buff2[i]): a value, not a count
    decl, _ = w._decl(root, at)
    read = access_type(w.frame.scope, at, decl.type) if decl is not None else None
    if read is None or floating_type(w.frame.scope, read) or derivations(w.frame.scope, read):
        return None
    pv = w.pointer(base)  # a pointer the loop moves has no place: no scan
    if pv is None or pv.base is None or not pv.objects:
        return None
    return pv.objects  # what the counts live in: no store of the loop may reach it


def scan_text(scan: Scan, header: tuple) -> str:
    """The C of the scan: a GNU statement expression (gcc and clang), the loop's own
    header with the counter a ``long long`` of the scan's own."""
    var, lo, hi, op, step = header
    gen = c_generator.CGenerator()
    loop = (
        f"for (long long {var} = ({gen.visit(lo)}); {var} {op} ({gen.visit(hi)}); {var} += {step})"
    )
    if scan.kind == "sorted":
        ok = "__autotune_sorted"
        at = f"{var} + {scan.offset}" if scan.offset else var
        here, after = f"({scan.base})[{at}]", f"({scan.base})[{at} + 1]"
        return (
            f"__extension__({{ int {ok} = 1; {loop} if ({here} > {after}) {{ {ok} = 0; "
            f"break; }} {ok}; }})"
        )
    top = "__autotune_max"
    elem = f"({scan.base})[{var}]"
    return (
        f"__extension__({{ long long {top} = -__LONG_LONG_MAX__ - 1; "
        f"{loop} if ({elem} > {top}) {top} = {elem}; {top}; }})"
    )


def is_sorted_scan(param: str) -> bool:
    scan = SCANS.get(param)
    return scan is not None and scan.kind == "sorted"


def _plain_bounds(header: tuple) -> bool:
    """Bounds with no side effects (the scan evaluates them once more)."""
    _var, lo, hi, op, step = header
    if step not in (1, -1) or op not in ("<", "<=", "!=", ">", ">="):
        return False
    return side_effect_free(lo, hi)


def array_root(base: c_ast.Node) -> str | None:
    """``counts`` or ``s->nAtoms`` / ``s.nAtoms``: the one variable the array is read
    through, by a text that means the same at the directive."""
    if isinstance(base, c_ast.ID):
        return base.name
    path = member_path(base, nested=True) if isinstance(base, c_ast.StructRef) else None
    return path[1] if path is not None else None


def read_first(loop: c_ast.For, node: c_ast.Node, ast: c_ast.FileAST) -> bool:
    """``node`` is surely evaluated in a statement of the loop's body before which only
    declarations and assignments without calls run: every iteration reads it."""
    parents = file_info(ast).parents
    item, parent = node, parents.get(id(node))
    while parent is not None and parent is not loop:
        if parent is loop.stmt and isinstance(parent, c_ast.Compound):
            break  # ``item`` is one of the body's statements
        item, parent = parent, parents.get(id(parent))
    if parent is None:
        return False
    items = loop.stmt.block_items or [] if isinstance(loop.stmt, c_ast.Compound) else [loop.stmt]
    for before in items:
        if before is item:  # and nothing it calls first may end the program
            head = [item.init, item.cond] if isinstance(item, c_ast.For) else [item]
            if any(isinstance(n, c_ast.FuncCall) for p in head if p for n in walk(p)):
                return False
            return surely_evaluates(item, lambda n: n is node)
        if not isinstance(before, c_ast.Decl | c_ast.Assignment):
            return False
        if any(isinstance(n, c_ast.FuncCall) for n in walk(before)):
            return False
    return False
