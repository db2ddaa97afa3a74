"""``linear(j: s)`` for the iteration walk (``refs.py``).

On a loop of unit step, each iteration starts with its own j: the value at the loop's
entry (one parameter for every iteration) plus s times the iterations before it, and
j's value after the loop is the sequentially last iteration's, as with lastprivate.
That holds only if the body moves j by exactly s on every path: gcc starts each chunk
at the entry value plus s times the chunk's first iteration and leaves the rest to the
body's own steps, so a body that does not gives values that follow the chunks a
schedule hands out (checked under gcc: a cursor never advanced prints another result
under every schedule).
"""

from __future__ import annotations

from autotune.analysis.names import is_integral
from autotune.analysis.proof import poly


def bind_linear(w) -> dict[str, poly.Poly]:  # an IterationWalker
    """Bind each followed linear variable to its value at the iteration's start; the
    start values, by name (a variable left out stays a private read before set)."""
    steps = w.ctx.linear
    bound: dict[str, poly.Poly] = {}
    if not steps or not w.domain:
        return bound
    b = w.domain[0]
    if b.step not in (1, -1) or b.start is None:
        for name, step in steps.items():
            _not_followed(w, name, step, "on a loop whose step is not 1")
        return bound
    done = poly.add(poly.symbol(b.sym), b.start, sign=-1)  # iterations before this one
    if b.step == -1:
        done = poly.add(b.start, poly.symbol(b.sym), sign=-1)
    for name, step in steps.items():
        if not is_integral(w.frame.scope, name, w.ctx.loop):
            _not_followed(w, name, step, f"where {name} is not an integer")
            continue
        if w.address_taken(name, w.ctx.loop):  # a store through &j would move it unseen
            _not_followed(w, name, step, f"where the address of {name} is taken")
            continue
        moved = poly.mul(poly.const(step), done)
        if moved is None:
            continue
        bound[name] = poly.add(poly.symbol(w._param(f"{name}@linear-entry")), moved)
        w.env[w._key(name)] = bound[name]
        w._define(name)
    return bound


def check_linear(w, bound: dict[str, poly.Poly], jumped: bool) -> None:
    """An effect for each bound variable the body does not move by exactly its step on
    every path (``jumped``: a ``continue`` may skip the step)."""
    for name, start in bound.items():
        step = w.ctx.linear[name]
        end = w.env.get(w._key(name))
        if jumped or end is None or end != poly.add(start, poly.const(step)):
            w.facts.effect(
                f"linear({name}: {step}): the body does not move {name} by exactly {step} "
                "on every path of an iteration, so the values it sees follow the chunks a "
                "schedule hands out"
            )


def _not_followed(w, name: str, step: int, where: str) -> None:
    w.facts.effect(
        f"kept as written: linear({name}: {step}) {where}, which the proof does not follow"
    )
