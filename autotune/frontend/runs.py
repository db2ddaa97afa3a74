"""Group a block's items into "directives, then the statement they govern".

pycparser keeps each ``#pragma`` as a ``Pragma`` node just before the
statement it governs; a run of several (``parallel`` then ``for``) stacks.
Standalone directives (``barrier``, ``flush`` ...) govern nothing and come
out as a run of their own with ``stmt`` None.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from pycparser import c_ast

from autotune.frontend.finder import make_directive
from autotune.frontend.pragmas import STANDALONE
from autotune.frontend.records import Directive


@dataclass
class Run:
    """OpenMP directives (possibly none) and the statement they govern (None: standalone)."""

    directives: list[Directive] = field(default_factory=list)
    stmt: c_ast.Node | None = None

    @property
    def standalone(self) -> Directive | None:
        return self.directives[0] if self.stmt is None and self.directives else None


def pragma_runs(items: list[c_ast.Node] | None) -> Iterator[Run]:
    """The runs of one block, in order; non-OpenMP pragmas are dropped."""
    pending: list[Directive] = []
    for item in items or []:
        if isinstance(item, c_ast.Pragma):
            d = make_directive(item)
            if d is None:
                continue
            if d.kind in STANDALONE or d.kind.startswith("declare"):
                yield Run([d], None)
            else:
                pending.append(d)
            continue
        yield Run(pending, item)
        pending = []


def block_items(stmt: c_ast.Node | None) -> list[c_ast.Node]:
    """A statement as a list of block items (a lone statement is a block of one)."""
    if stmt is None:
        return []
    if isinstance(stmt, c_ast.Compound):
        return list(stmt.block_items or [])
    return [stmt]
