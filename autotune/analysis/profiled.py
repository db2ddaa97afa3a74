"""Values a profile run measured, standing in for the expressions they name.

The front end re-analyses a loop sized at run time with what one run of the
original measured at the loop's entry (``autotune.measure.profile``): every
sub-expression whose C text was measured becomes its value before the bound
or subscript is turned into an ``Expr``, so trip counts, work and footprints
follow as for constants.
"""

from __future__ import annotations

import copy

from pycparser import c_ast

from autotune.analysis import exprs
from autotune.analysis.names import names_in


class ProfiledValues:
    """C expression text -> value at the loop's entry; ``used`` says which served."""

    def __init__(self, values: dict[str, int] | None, written: set[str]) -> None:
        self.values = dict(values or {})
        self.written = written  # names the nest assigns: their entry value does not hold
        self.used: set[str] = set()

    def substitute(self, node: c_ast.Node) -> c_ast.Node:
        """``node`` with every measured sub-expression replaced by its value (a copy where
        anything changed; the AST itself is never modified)."""
        if not self.values:
            return node
        text = exprs.to_c_node(node)
        if text in self.values and not (names_in(node).names & self.written):
            self.used.add(text)
            return c_ast.Constant("long long", str(self.values[text]), node.coord)
        children = dict(node.children())
        changed = {name: self.substitute(child) for name, child in children.items()}
        if all(changed[n] is children[n] for n in children):
            return node
        clone = copy.copy(node)
        for name, child in changed.items():
            if "[" in name:  # a list member (ExprList.exprs[0]): rebuild the list
                attr, idx = name[:-1].split("[")
                items = list(getattr(clone, attr))
                items[int(idx)] = child
                setattr(clone, attr, items)
            else:
                setattr(clone, name, child)
        return clone
