"""Group a block's items into "directives, then the statement they govern".

pycparser keeps each ``#pragma`` as a ``Pragma`` node just before the
statement it governs; a run of several (``parallel`` then ``for``) stacks.
Standalone directives (``barrier``, ``flush`` ...) govern nothing and come
out as a run of their own with ``stmt`` None. This is the one place the rule
is written: the finder, the analysis and the structure walks all use it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from pycparser import c_ast

from autotune.frontend.pragmas import is_standalone, parse_omp
from autotune.frontend.records import Directive


def make_directive(pragma: c_ast.Pragma) -> Directive | None:
    """The OpenMP directive of a ``#pragma`` node (None: not an OpenMP pragma)."""
    parsed = parse_omp(pragma.string or "")
    if parsed is None:
        return None
    kind, clauses = parsed
    coord = pragma.coord
    return Directive(
        text=" ".join((pragma.string or "").split()),
        kind=kind,
        file=str(coord.file) if coord else "",
        line=int(coord.line) if coord else 0,
        clauses=clauses,
    )


@dataclass
class Run:
    """OpenMP directives (possibly none) and the statement they govern (None: standalone)."""

    directives: list[Directive] = field(default_factory=list)
    stmt: c_ast.Node | None = None
    pragmas: list[c_ast.Pragma] = field(default_factory=list)  # the nodes, same order
    dangling: bool = False  # directives at the end of a block: they govern nothing

    @property
    def standalone(self) -> Directive | None:
        return self.directives[0] if self.stmt is None and self.directives else None


def pragma_runs(
    items: list[c_ast.Node] | None, also_standalone: frozenset[str] = frozenset()
) -> Iterator[Run]:
    """The runs of one block, in order; non-OpenMP pragmas are dropped.

    ``also_standalone``: kinds a walk treats as markers rather than constructs
    (``section`` splits a ``sections`` body for walks that group it themselves).
    """
    pending: list[Directive] = []
    nodes: list[c_ast.Pragma] = []
    for item in items or []:
        if isinstance(item, c_ast.Pragma):
            d = make_directive(item)
            if d is None:
                continue
            if is_standalone(d.kind) or d.kind in also_standalone:
                yield Run([d], None, [item])
            else:
                pending.append(d)
                nodes.append(item)
            continue
        yield Run(pending, item, nodes)
        pending, nodes = [], []
    if pending:
        yield Run(pending, None, nodes, dangling=True)


def block_items(stmt: c_ast.Node | None) -> list[c_ast.Node]:
    """A statement as a list of block items (a lone statement is a block of one)."""
    if stmt is None:
        return []
    if isinstance(stmt, c_ast.Compound):
        return list(stmt.block_items or [])
    return [stmt]


def section_groups(stmt: c_ast.Node) -> list[list[c_ast.Node]]:
    """The statements of each section, split at ``#pragma omp section``."""
    items = stmt.block_items if isinstance(stmt, c_ast.Compound) else [stmt]
    groups: list[list[c_ast.Node]] = []
    current: list[c_ast.Node] | None = None
    for item in items or []:
        if isinstance(item, c_ast.Pragma):
            d = make_directive(item)
            if d is not None and d.kind == "section":
                current = []
                groups.append(current)
            continue
        if current is None:
            current = []
            groups.append(current)
        current.append(item)
    return [g for g in groups if g]
