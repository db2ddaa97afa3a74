"""Sizes read from memory: a parameter only while the loop leaves that memory alone.

The walk takes an element or member the loop reads (``d[2]``, ``g->nx``) as an isl
parameter, one value for every iteration. That holds only if no iteration writes it;
checked here, after the walk, against the loop's shared writes, for the sizes that
matter: those in a subscript or a bound (an element read only for arithmetic, a
boundary temperature, fixes nothing) and every measured value (a constant the proof
cannot follow back).
"""

from __future__ import annotations

from autotune.analysis.proof import poly
from autotune.analysis.proof.facts import IterationFacts, Proof
from autotune.analysis.proof.syntax import PARAM_TEXTS


def judge_sizes_read(facts: IterationFacts, out: Proof) -> None:
    """Keep the loop when a write may reach a size it was proven with."""
    sizes = sizes_in_use(facts)
    for ref in facts.refs if sizes else []:
        if ref.kind == "r" or ref.owner != "shared":
            continue
        hit = sorted(t for t, held in sizes.items() if not ref.objects or ref.objects & held)
        if hit:  # a write to objects not known may be to any
            out.add(
                f"reads the size {', '.join(hit)} from memory the loop may write "
                f"({ref.at}: {ref.text})"
            )
            return


def sizes_in_use(facts: IterationFacts) -> dict[str, set[str]]:
    """The sizes that count, by C text, with the objects they live in."""
    used: set[str] = set()
    for ref in facts.refs:
        polys = list(ref.index or [])
        for b in (*ref.domain, *ref.given):
            polys += [b.lower, b.upper, b.start, *(b.defined[1:] if b.defined else ())]
        for p in polys:
            if p is not None:
                used |= poly.symbols(p)
    out = dict(facts.sizes_fixed)
    for sym, holder in facts.sizes_read.items():
        if sym in used:
            out.setdefault(PARAM_TEXTS.get(sym, sym), set()).update(holder)
    return out
