"""Which teams run one after another: the teams a sequential loop starts at each step.

libgomp starts threads whenever a team is larger than the one before it (see
``models/teams.py``), so what a loop's thread count costs depends on the teams around
it in the program's order: the ones a time step starts beside it. The finder notes, per
function, every team started outside any team and every call made outside any team,
each with the for statements around it (``TeamEvent``); this module reads from them the
teams one step of the innermost sequential loop around a loop's team starts, following
calls (a proxy app's time step calls one function per phase, each with its own
``parallel for``) and, when the team is started at the top of its function, the one
call site that runs the function inside a loop.
"""

from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from autotune.frontend.records import Directive

MAX_CALL_DEPTH = 8  # how far up callers, and down callees, a cycle is followed


@dataclass(frozen=True, eq=False)
class TeamEvent:
    """A team started (``team``) or a function called (``callee``) outside any team, with
    the for statements around it in its function, outermost first."""

    fors: tuple[c_ast.For, ...]
    team: Directive | None = None
    callee: str = ""


def _expand(events: dict[str, list[TeamEvent]], items: list[TeamEvent], seen: tuple) -> list:
    """The teams ``items`` start in order, a call standing for every team its callee
    starts (a recursive call, or one deeper than ``MAX_CALL_DEPTH``, for none)."""
    teams: list[Directive] = []
    for ev in items:
        if ev.team is not None:
            teams.append(ev.team)
        elif ev.callee in events and ev.callee not in seen and len(seen) < MAX_CALL_DEPTH:
            teams += _expand(events, events[ev.callee], (*seen, ev.callee))
    return teams


def _step(events: dict[str, list[TeamEvent]], func: str, loop: c_ast.For) -> list[Directive]:
    """The teams one step of for statement ``loop`` (in ``func``) starts."""
    inside = [ev for ev in events.get(func, []) if any(f is loop for f in ev.fors)]
    return _expand(events, inside, (func,))


def _call_sites(events: dict[str, list[TeamEvent]], callee: str) -> list[tuple[str, TeamEvent]]:
    return [(f, ev) for f, evs in events.items() for ev in evs if ev.callee == callee]


def team_cycle(
    events: dict[str, list[TeamEvent]], func: str, owner: Directive
) -> tuple[list[Directive], c_ast.For | None]:
    """The teams started by one step of the innermost sequential loop around ``owner``'s
    team (``owner`` among them), and that loop; ([], None) when the team is started
    once, inside another team, or by functions called from several places."""
    start = next((ev for ev in events.get(func, []) if ev.team is owner), None)
    if start is None:
        return [], None  # a nested team, or a worksharing loop's team started elsewhere
    depth = 0
    while not start.fors and depth < MAX_CALL_DEPTH:
        sites = _call_sites(events, func)
        if len(sites) != 1:
            return [], None  # never called, or from several places: no one order
        func, start = sites[0]
        depth += 1
    if not start.fors:
        return [], None
    return _step(events, func, start.fors[-1]), start.fors[-1]
