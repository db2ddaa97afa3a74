"""Find OpenMP worksharing loops (and the regions around them) in a parsed file.

pycparser keeps ``#pragma`` lines as ``Pragma`` nodes placed just before the
statement they govern (wrapping pragma + statement in a ``Compound`` when the
statement is the body of an ``if`` or ``for``). A run of directives before one
statement stacks: ``parallel`` then ``for`` both govern the loop.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

from autotune.errors import UserError
from autotune.frontend.preprocess import is_system_file
from autotune.frontend.records import Directive
from autotune.frontend.runs import make_directive, pragma_runs
from autotune.frontend.teamcycle import TeamEvent, team_cycle

WORKSHARING_LOOP_KINDS = {
    "for",
    "for simd",
    "parallel for",
    "parallel for simd",
    "loop",
    "parallel loop",
    "distribute parallel for",
    "teams distribute parallel for",
    "target teams distribute parallel for",
    "target parallel for",
    "taskloop",
}
REGION_KINDS = {
    "parallel",
    "sections",
    "parallel sections",
    "task",
    "single",
    "master",
    "masked",
    "critical",
    "taskgroup",
    "target",
    "teams",
    "target teams",
}


@dataclass
class FoundLoop:
    """A worksharing loop with the AST context the analysis needs."""

    directive: Directive
    parallel: Directive | None
    for_node: c_ast.For | None  # None when the directive is not followed by a for
    func: c_ast.FuncDef
    enclosing: list[c_ast.For]
    in_while: bool = False  # some enclosing loop is a while/do: executions unknown
    # the teams (parallel directives, outermost only) one step of the innermost sequential
    # loop around this loop's own team starts, in order, this loop's team among them
    # (``frontend.teamcycle``, ``LoopRecord.team_cycle``)
    team_cycle: list[Directive] = field(default_factory=list)
    team_step: str = ""  # "file:line" of that sequential loop


@dataclass
class FoundRegion:
    directive: Directive
    func: c_ast.FuncDef
    node: c_ast.Node
    loops: list[FoundLoop] = field(default_factory=list)
    sections: list[c_ast.Node] = field(default_factory=list)  # for sections regions


class OmpFinder(c_ast.NodeVisitor):
    """One walk over the file: collects loops, regions and threadprivate names."""

    def __init__(self) -> None:
        self.loops: list[FoundLoop] = []
        self.regions: list[FoundRegion] = []
        self.threadprivate: set[str] = set()
        self.problems: list[str] = []  # directives we could not attach
        self._func: c_ast.FuncDef | None = None
        self._fors: list[c_ast.For] = []
        self._whiles = 0
        self._parallel: list[Directive] = []
        self._regions: list[FoundRegion] = []
        # per function, the teams started and the calls made outside any team, in order
        self.team_events: dict[str, list[TeamEvent]] = {}

    # -- file and functions -------------------------------------------------
    def visit_FileAST(self, node: c_ast.FileAST) -> None:
        for ext in node.ext:
            if isinstance(ext, c_ast.Pragma):
                self._note_declarative(ext)
            elif isinstance(ext, c_ast.FuncDef):
                if not is_system_file(ext.coord.file if ext.coord else None):
                    self.visit(ext)

    def visit_FuncDef(self, node: c_ast.FuncDef) -> None:
        self._func, self._fors, self._whiles = node, [], 0
        self._parallel, self._regions = [], []
        self.visit(node.body)
        self._func = None

    def _note_declarative(self, pragma: c_ast.Pragma) -> None:
        d = make_directive(pragma)
        if d is not None and d.kind == "threadprivate":
            for arg in d.clauses.other:
                self.threadprivate.update(a.strip() for a in arg.strip("()").split(","))

    # -- statements -----------------------------------------------------------
    def visit_Compound(self, node: c_ast.Compound) -> None:
        for run in pragma_runs(node.block_items, also_standalone=frozenset({"section"})):
            if run.dangling:
                for d in run.directives:
                    self.problems.append(
                        f"{d.file}:{d.line}: '#pragma {d.text}' governs no statement"
                    )
            elif run.stmt is None:
                d, pragma = run.directives[0], run.pragmas[0]
                if d.kind == "threadprivate":
                    self._note_declarative(pragma)
                elif d.kind == "section" and self._regions:
                    self._regions[-1].sections.append(pragma)
            elif run.directives:
                self._construct(run.directives, run.stmt)
            else:
                self.visit(run.stmt)

    def visit_For(self, node: c_ast.For) -> None:
        self._fors.append(node)
        self.generic_visit(node)
        self._fors.pop()

    def visit_While(self, node: c_ast.While) -> None:
        self._whiles += 1
        self.generic_visit(node)
        self._whiles -= 1

    visit_DoWhile = visit_While

    # -- OpenMP constructs ------------------------------------------------------
    def _construct(self, directives: list[Directive], stmt: c_ast.Node) -> None:
        d, rest = directives[0], directives[1:]
        if d.kind in WORKSHARING_LOOP_KINDS:
            self._loop(d, stmt)
            if rest:
                self.problems.append(
                    f"{rest[0].file}:{rest[0].line}: '#pragma {rest[0].text}' between a loop "
                    "directive and its loop"
                )
            return
        if d.kind in REGION_KINDS or d.kind.startswith("parallel"):
            region = FoundRegion(d, self._func, stmt)  # type: ignore[arg-type]
            self.regions.append(region)
            self._regions.append(region)
            owns_threads = d.kind.startswith("parallel")
            if owns_threads:
                self._start_team(d)
                self._parallel.append(d)
            if rest:
                self._construct(rest, stmt)
            else:
                self.visit(stmt)
            if owns_threads:
                self._parallel.pop()
            self._regions.pop()
            return
        # critical, atomic, ordered, ... : nothing to record, look inside.
        if rest:
            self._construct(rest, stmt)
        else:
            self.visit(stmt)

    def _loop(self, d: Directive, stmt: c_ast.Node) -> None:
        if isinstance(stmt, c_ast.Compound) and _unwrap_for(stmt) is not None:
            # braces of the user's: pycparser's own wrapping holds the pragma too
            raise UserError(
                f"'#pragma {d.text}' must be followed by its for loop, not by a block "
                "around it (gcc: 'for statement expected'; clang rejects it too)",
                location=f"{d.file}:{d.line}",
            )
        for_node = _unwrap_for(stmt)
        owner = (
            d
            if d.kind.startswith("parallel") or "parallel for" in d.kind
            else (self._parallel[-1] if self._parallel else None)
        )
        found = FoundLoop(
            directive=d,
            parallel=owner,
            for_node=for_node,
            func=self._func,  # type: ignore[arg-type]
            enclosing=list(self._fors),
            in_while=self._whiles > 0,
        )
        self.loops.append(found)
        for region in self._regions:
            region.loops.append(found)
        if for_node is None:
            self.visit(stmt)
            return
        pushed = d.kind.startswith("parallel")
        if pushed:
            self._start_team(d)
            self._parallel.append(d)
        self.visit(for_node)
        if pushed:
            self._parallel.pop()

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        if isinstance(node.name, c_ast.ID):
            self._team_event(TeamEvent(tuple(self._fors), callee=node.name.name))
        self.generic_visit(node)

    def _start_team(self, d: Directive) -> None:
        self._team_event(TeamEvent(tuple(self._fors), team=d))

    def _team_event(self, event: TeamEvent) -> None:
        """Note a team start or a call outside any team (inside one, a team is nested and
        runs in its parent's threads)."""
        if self._func is not None and not self._parallel:
            self.team_events.setdefault(self._func.decl.name, []).append(event)

    def team_cycles(self) -> None:
        """Fill each loop's ``team_cycle`` once the walk has seen every function."""
        for found in self.loops:
            if found.parallel is not None and found.func is not None:
                name = found.func.decl.name
                teams, step = team_cycle(self.team_events, name, found.parallel)
                found.team_cycle = teams
                if step is not None and step.coord is not None:
                    found.team_step = f"{step.coord.file}:{step.coord.line}"


def _unwrap_for(stmt: c_ast.Node) -> c_ast.For | None:
    """The for statement a loop directive governs (pycparser may wrap it in braces)."""
    while isinstance(stmt, c_ast.Compound) and stmt.block_items and len(stmt.block_items) == 1:
        stmt = stmt.block_items[0]
    return stmt if isinstance(stmt, c_ast.For) else None


class SyncCounter(c_ast.NodeVisitor):
    """Counts ``atomic`` and ``critical`` constructs in a loop nest, noting whether
    each sits in the innermost loop body (runs every iteration) or above it."""

    def __init__(self) -> None:
        self.inner = 0  # inside a for nested in the distributed loop
        self.outer = 0  # directly in the distributed loop's body
        self._depth = 0

    def count(self, loop: c_ast.For) -> tuple[int, int]:
        self._depth = 0
        self.generic_visit(loop)
        return self.outer, self.inner

    def visit_For(self, node: c_ast.For) -> None:
        self._depth += 1
        self.generic_visit(node)
        self._depth -= 1

    def visit_Pragma(self, node: c_ast.Pragma) -> None:
        d = make_directive(node)
        if d is not None and d.kind in ("atomic", "critical"):
            if self._depth:
                self.inner += 1
            else:
                self.outer += 1
