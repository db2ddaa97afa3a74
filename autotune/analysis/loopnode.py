"""The tree a loop nest's body walk builds: loops with their ops and array accesses.

Plain dataclasses between ``body.py`` (which builds them) and ``count.py`` /
``arrays.py`` (which count executions and footprints from them).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from autotune.analysis.exprs import Expr, Symbolic, fold
from autotune.analysis.symbols import ArrayInfo, Scope
from autotune.analysis.tripcount import Header


@dataclass
class Access:
    """One array reference ``name[s0][s1]...`` as written in the body."""

    array: str
    info: ArrayInfo
    subs: list[Expr | None]  # one Expr per subscript; None when not evaluable
    mode: str  # "r" | "w" | "rw"
    text: str
    line: int
    why: str = ""  # why a subscript is not evaluable
    csr_var: str | None = None  # the subscript is a data-dependent loop variable (+ const)
    place: str = ""  # where notes point (``io.c:12`` in another file); "" is ``line {line}``


@dataclass
class LoopNode:
    header: Header | None
    kind: str  # "for" | "while" | "do"
    line: int
    ops: Counter = field(default_factory=Counter)
    children: list[tuple[LoopNode, float]] = field(default_factory=list)
    accesses: list[Access] = field(default_factory=list)
    estimate: float = 1.0  # trips per execution when the header is unknown
    csr: str | None = None  # data-dependent bounds P[e] .. P[e+1]
    csr_total: float | None = None  # total trips over all executions (CSR estimate)
    # enclosing loops' variables its bounds read (fixed at their middle value): its trip
    # count differs between the runs of the parallel loop
    reads_enclosing: set[str] = field(default_factory=set)

    @property
    def var(self) -> str | None:
        return self.header.var if self.header is not None else None

    @property
    def known(self) -> bool:
        return self.header is not None and self.header.known

    def plain(self) -> dict:
        if self.header is None:
            return {"var": "", "unknown": True}
        return self.header.plain()


_IDENT = re.compile(r"\b[A-Za-z_]\w*\b")


@dataclass
class RowAlias:
    """A pointer parameter bound to part of the caller's array: ``&a[i][j]`` or ``a + e``
    (``add``: the parameter's first subscript adds to the last of ``lead``), or a row
    ``a[i]`` of a two-dimensional array (its subscripts follow ``lead``)."""

    array: str
    info: ArrayInfo
    lead: list[Expr | None]  # the caller's subscripts, in its terms (None: not evaluable)
    add: bool
    why: str = ""  # why a subscript of ``lead`` is not evaluable

    def subscripts(self, own: list[Expr | None]) -> list[Expr | None]:
        """The array's subscripts for the parameter's ``own``."""
        if not self.add:
            return [*self.lead, *own]
        if not own:
            return list(self.lead)
        last = self.lead[-1]
        first = None if own[0] is None or last is None else fold("+", [last, own[0]])
        return [*self.lead[:-1], first, *own[1:]]


@dataclass
class Ctx:
    """Where names resolve: the function's scope plus loop variables and bindings."""

    scope: Scope
    loopvars: dict[str, str | None]  # C name -> Expr variable (None: data-dependent)
    fixed: dict[str, Expr | Symbolic]  # enclosing-loop values and inlined parameters
    aliases: dict[str, tuple[str, ArrayInfo]] = field(default_factory=dict)
    prefix: str = ""
    depth: int = 0
    # inside an inlined call: the callee's names in the caller's C terms (a parameter ->
    # its argument's text, a local -> None); empty at the loop's own level
    caller_texts: dict[str, str | None] = field(default_factory=dict)
    rows: dict[str, RowAlias] = field(default_factory=dict)  # parameters bound to part of one

    def in_caller_terms(self, text: str) -> str:
        """``text`` (a bound written in this function) in the terms of the function that
        holds the parallel loop, or "?" when it names a local of a called function."""
        if not self.prefix or text == "?":
            return text
        missing = False

        def swap(m: re.Match) -> str:
            nonlocal missing
            name = m.group()
            if name not in self.caller_texts:
                return name  # a global or a constant: the same in the caller
            arg = self.caller_texts[name]
            missing = missing or arg is None
            return f"({arg})" if arg is not None else name

        out = _IDENT.sub(swap, text)
        return "?" if missing else out
