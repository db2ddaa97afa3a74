"""Sizes read from memory: a parameter only while the loop leaves that memory alone.

The walk takes an element or member the loop reads (``d[2]``, ``g->nx``) as an isl
parameter, one value for every iteration. That holds only if no iteration writes it;
checked here, after the walk, against the loop's shared writes, for the sizes that
matter: those in a subscript or a bound (an element read only for arithmetic, a
boundary temperature, fixes nothing) and every measured value (a constant the proof
cannot follow back).
"""

from __future__ import annotations

from dataclasses import dataclass

from autotune.analysis.proof import conditions, poly
from autotune.analysis.proof.deps import reference_root
from autotune.analysis.proof.facts import IterationFacts, Proof, Ref
from autotune.analysis.proof.scans import shown_text
from autotune.analysis.proof.syntax import PARAM_TEXTS

HOLDER = "@"  # a struct known only by its address: ``@at`` is ``*at``, ``@&s`` is ``s``


def holder_marker(address: str) -> str:
    """The objects of a struct the points-to does not know, by the C text of its address
    (a run-time test of that address may keep a store apart from it: ``overlap``)."""
    return HOLDER + address


def judge_sizes_read(facts: IterationFacts, out: Proof) -> None:
    """Keep the loop when a write may reach a size it was proven with."""
    for hit in size_hits(facts):
        out.add(
            f"reads {_named(hit.sizes)} from memory the loop may write "
            f"({hit.ref.at}: {hit.ref.text})"
        )
        return


@dataclass(frozen=True)
class SizeHit:
    """A shared store that may reach sizes the proof used; ``untested`` when some of them
    lie in known objects it may reach (no run-time test can part them), else ``holders``
    are the structs known only by their address it would have to be kept apart from."""

    ref: Ref
    sizes: list[str]
    holders: frozenset[str]
    untested: bool


def size_hits(facts: IterationFacts) -> list[SizeHit]:
    """Each shared store with the sizes (by C text) whose memory it may reach: a store
    to objects not known may be to any, and any store may be to a struct known only by
    its address, unless a run-time test keeps the two apart."""
    sizes = sizes_in_use(facts)
    out = []
    for ref in facts.refs if sizes else []:
        if ref.kind == "r" or ref.owner != "shared":
            continue
        root = reference_root(ref)
        hit, holders, untested = [], set(), False
        for text, held in sorted(sizes.items()):
            tag = facts.size_members.get(text)
            if tag and ref.member and ref.member[0] == tag[0] and ref.member[1] != tag[1]:
                continue  # another member of the struct (``f->v[i]`` beside ``f->n``)
            marks = {h for h in held if h.startswith(HOLDER)}
            objs = held - marks
            if ref.objects and objs and not objs & ref.objects:
                continue  # the points-to parts them
            # a store that may reach the holder: apart only by a test of its address
            plain = not marks and (not ref.objects or bool(objs & ref.objects))
            marks = {h for h in marks if not conditions.assumed_apart(root, h)}
            if marks or plain:
                hit.append(text)
                holders |= marks
                untested |= plain
        if hit:
            out.append(SizeHit(ref, hit, frozenset(holders), untested))
    return out


def _named(sizes: list[str]) -> str:
    """``the size n``, ``the pointer at->x``: what each text the proof read stands for."""
    ptrs = [t[1:] for t in sizes if t.startswith("&")]
    rest = [t for t in sizes if not t.startswith("&")]
    parts = [f"the size {', '.join(rest)}"] if rest else []
    if ptrs:
        parts.append(f"the pointer{'s' if len(ptrs) > 1 else ''} {', '.join(ptrs)}")
    return " and ".join(parts)


def sizes_in_use(facts: IterationFacts) -> dict[str, set[str]]:
    """The sizes that count, by C text, with the objects they live in."""
    used: set[str] = set()
    for ref in facts.refs:
        polys = list(ref.index or [])
        for b in (*ref.domain, *ref.given):
            polys += [b.lower, b.upper, b.start, *(b.defined[1:] if b.defined else ())]
            used |= {b.segment.param} if b.segment is not None else set()
        for p in polys:
            if p is not None:
                used |= poly.symbols(p)
    out = dict(facts.sizes_fixed)
    for sym, holder in facts.sizes_read.items():
        if sym in used:
            out.setdefault(shown_text(sym, PARAM_TEXTS), set()).update(holder)
    return out
