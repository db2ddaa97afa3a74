"""Build the program's parallel structure tree: one walk from ``main``.

``build_tree(path, options)`` preprocesses and parses the file (the front
end's ``parse_file``), analyses its loops (``analyze_options``: trip counts,
work per iteration), and walks ``main`` with ``StructureWalker``, following
calls into user functions that hold OpenMP constructs. What each construct
becomes is documented in nodes.py; each node also gets the text span its
timing goes around (spans.py), or a note saying why it cannot be timed.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune import textfile
from autotune.analysis import analyze_options
from autotune.errors import UserError
from autotune.frontend.cparse import parse_file
from autotune.frontend.finder import WORKSHARING_LOOP_KINDS
from autotune.frontend.options import SourceOptions
from autotune.frontend.records import Directive, LoopRecord
from autotune.frontend.runs import pragma_runs, section_groups
from autotune.structure import facts
from autotune.structure.callgraph import FunctionInfo, FunctionTable, callee
from autotune.structure.nodes import ProgramTree, StructNode, TextSpan
from autotune.structure.spans import SourceText, SpanError
from autotune.structure.stmt_shapes import leading_name, omp_label

_EXPR_STATEMENTS = (
    c_ast.FuncCall,
    c_ast.Assignment,
    c_ast.UnaryOp,
    c_ast.BinaryOp,
    c_ast.Cast,
    c_ast.TernaryOp,
    c_ast.ExprList,
)
_ONE_THREAD = {"single", "master", "masked", "task", "critical"}


def build_tree(
    path: str, options: SourceOptions, cc: str = "gcc", profiles: dict[str, dict] | None = None
) -> ProgramTree:
    """The structure tree of ``path`` under ``options`` (its -D values fix the trip counts;
    ``profiles``, from a profile run, the sizes known only at run time)."""
    try:
        text = textfile.read_bytes_text(path)
    except OSError as exc:
        raise UserError(f"cannot read: {exc.strerror}", path) from None
    unit = analyze_options(path, options, cc=cc, profiles=profiles)
    ast = parse_file(path, options, cc)
    walker = StructureWalker(ast, SourceText(text), {r.id: r for r in unit.loops})
    root = walker.build()
    return ProgramTree(path, dict(options.defines), root, walker.warnings)


class StructureWalker(c_ast.NodeVisitor):
    """One walk from ``main``: statements in, ``StructNode`` tree out."""

    def __init__(
        self, ast: c_ast.FileAST, source: SourceText, records: dict[str, LoopRecord]
    ) -> None:
        self.ast = ast
        self.source = source
        self.records = records
        self.table = FunctionTable(ast)
        self.warnings: list[str] = []
        self.file = ""
        self._parents: list[StructNode] = []
        self._funcs: list[FunctionInfo] = []
        self._context = "serial"  # serial | team | one
        self._conditional = 0  # if/switch depth inside the current team
        self._stmt: c_ast.Node | None = None  # statement holding the current expression
        self._stmt_used = False  # its span already belongs to a node
        self._made: dict[tuple[str, str], str] = {}  # (kind, id) -> id of the first node
        self._ids: set[str] = set()

    # -- entry -------------------------------------------------------------------------
    def build(self) -> StructNode:
        main = self.table.get("main")
        if main is None:
            raise UserError("no main() function in the file: the structure starts at main")
        node = main.node
        self.file = str(node.coord.file) if node.coord else ""
        root = StructNode(
            "program",
            "sequence",
            f"{self.file}:{node.coord.line}",
            self.file,
            node.coord.line,
            "main()",
            "main",
        )
        self._ids.add(root.id)
        self._parents.append(root)
        self._funcs.append(main)
        self.visit(node.body)
        return root

    # -- helpers ---------------------------------------------------------------------------
    @property
    def _func(self) -> FunctionInfo:
        return self._funcs[-1]

    def _new(self, kind: str, skeleton: str, file: str, line: int, label: str) -> StructNode:
        """A node under the current parent; a second visit of the same text is a duplicate."""
        file = file or self.file
        node_id = f"{file}:{line}"
        node = StructNode(
            kind, skeleton, node_id, file, line, label, self._func.name, context=self._context
        )
        first = self._made.get((kind, node_id))
        if first is not None:
            node.duplicate_of = first
            node.notes.append(f"same code as {first} (reached again): measured there")
        elif node_id in self._ids:
            node.id = f"{node_id}:{kind}"
        self._made.setdefault((kind, node_id), node.id)
        while node.id in self._ids:
            node.id += "'"
        self._ids.add(node.id)
        self._parents[-1].children.append(node)
        return node

    def _time(self, node: StructNode, locate, mode: str, samples: bool = False) -> None:
        """Attach the node's text span, or a note saying why it is not timed."""
        if node.duplicate_of is not None:
            return
        if node.file != self.file:
            node.notes.append(f"in {node.file}, not the main file: not timed")
            return
        if mode == "team_block" and self._conditional:
            node.notes.append(
                "conditional code inside a parallel region: not timed "
                "(a barrier there could deadlock)"
            )
            return
        try:
            begin, end = locate()
        except SpanError as exc:
            node.notes.append(f"not timed: {exc}")
            return
        node.span = TextSpan(
            begin, end, self.source.line_of(begin), self.source.line_of(end), mode, samples
        )

    def _block_mode(self) -> str:
        """Mode of a statement (loop, call, region) run by whoever reaches it."""
        return "team_block" if self._context == "team" else "encounter"

    def _label(self, line: int, fallback: str) -> str:
        text = " ".join(self.source.line_text(line).split()).rstrip("{ ").strip()
        text = text or fallback
        return text if len(text) <= 48 else text[:45] + "..."

    def _under(
        self, node: StructNode, visit, context: str | None = None, conditional: int | None = None
    ) -> None:
        saved = self._context, self._conditional
        if context is not None:
            self._context = context
        if conditional is not None:
            self._conditional = conditional
        self._parents.append(node)
        try:
            visit()
        finally:
            self._parents.pop()
            self._context, self._conditional = saved

    def _statement(self, stmt: c_ast.Node | None) -> None:
        if stmt is None:
            return
        saved = self._stmt, self._stmt_used
        self._stmt, self._stmt_used = stmt, False
        self.visit(stmt)
        self._stmt, self._stmt_used = saved

    # -- statements ------------------------------------------------------------------------
    def visit_Compound(self, node: c_ast.Compound) -> None:
        # sections are split by _section_groups: here "section" only marks
        for run in pragma_runs(node.block_items, also_standalone=frozenset({"section"})):
            if run.stmt is None:
                continue
            if run.directives:
                self._construct(run.directives, run.stmt)
            else:
                self._statement(run.stmt)

    def visit_If(self, node: c_ast.If) -> None:
        self.visit(node.cond)
        self._conditional += 1
        self._statement(node.iftrue)
        self._statement(node.iffalse)
        self._conditional -= 1

    def visit_Switch(self, node: c_ast.Switch) -> None:
        self.visit(node.cond)
        self._conditional += 1
        self._statement(node.stmt)
        self._conditional -= 1

    def visit_Case(self, node: c_ast.Case) -> None:
        for s in node.stmts or []:
            self._statement(s)

    def visit_Default(self, node: c_ast.Default) -> None:
        for s in node.stmts or []:
            self._statement(s)

    def visit_Label(self, node: c_ast.Label) -> None:
        self._statement(node.stmt)

    def visit_For(self, node: c_ast.For) -> None:
        self._sequential_loop(node, "for")

    def visit_While(self, node: c_ast.While) -> None:
        self._sequential_loop(node, "while")

    def visit_DoWhile(self, node: c_ast.DoWhile) -> None:
        self._sequential_loop(node, "do")

    def _sequential_loop(self, node: c_ast.Node, word: str) -> None:
        """A loop around parallel work is an iteration node; any other loop is sequential."""
        if not self.table.holds_structure(node.stmt):
            return
        line = node.coord.line
        it = self._new(
            "iteration", "iteration", str(node.coord.file), line, self._label(line, word)
        )
        if isinstance(node, c_ast.For):
            k, why = facts.trip_count(node, self._func.node, self.ast)
        else:
            k, why = None, f"a {word} loop has no trip count"
        it.trip_count = k
        col = node.coord.column or 1
        self._time(it, lambda: self.source.statement_at(line, col, word), self._block_mode())
        self._under(it, lambda: self._statement(node.stmt))
        if k is None:
            it.trip_count = self._measured_k(it)
            if it.trip_count is None:
                it.notes.append(f"k unknown ({why}): executions taken as measured")
            else:
                it.notes.append(f"k = {it.trip_count}: the profile run counted it ({why})")

    def _measured_k(self, it: StructNode) -> int | None:
        """k of an iteration node the source does not tell, from a profile run: the
        executions it measured of a loop run once per pass, over the passes of the
        iteration nodes around it (in main itself, run once: no call multiplies them)."""
        if len(self._funcs) != 1:
            return None
        counts = {
            self.records[c.id].executions
            for c in it.children
            if c.kind == "loop" and c.id in self.records and self.records[c.id].profile
        }
        counts.discard(None)
        if len(counts) != 1:
            return None
        (runs,) = counts
        around = 1
        for parent in self._parents:
            if parent.kind == "iteration":
                if not parent.trip_count:
                    return None
                around *= parent.trip_count
        return int(runs) // around if runs and int(runs) % around == 0 else None

    # -- calls -----------------------------------------------------------------------------
    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        if node.args is not None:
            self.visit(node.args)
        info = self.table.get(callee(node))
        if info is None or not info.omp:
            return
        if any(f is info for f in self._funcs):
            self.warnings.append(
                f"{node.coord.file}:{node.coord.line}: recursive call of "
                f"{info.name}() without tasks: not followed"
            )
            return
        stmt_line = (
            self._stmt.coord.line
            if self._stmt is not None and self._stmt.coord
            else node.coord.line
        )
        if info.task_recursive:
            self._dc(node, info, stmt_line)
            return
        call = self._new("call", "sequence", str(node.coord.file), stmt_line, f"{info.name}()")
        self._time_call(call)
        saved = self._stmt, self._stmt_used
        self._funcs.append(info)
        try:
            self._under(call, lambda: self.visit(info.node.body))
        finally:
            self._funcs.pop()
            self._stmt, self._stmt_used = saved

    def _time_call(self, node: StructNode) -> None:
        stmt = self._stmt
        if stmt is None or not isinstance(stmt, _EXPR_STATEMENTS):
            what = type(stmt).__name__ if stmt is not None else "no statement"
            node.notes.append(
                f"call inside a {what.lower()}, not an expression statement: not timed"
            )
            return
        if self._stmt_used:
            node.notes.append("another call in the same statement is timed: not timed")
            return
        self._stmt_used = True
        token = leading_name(stmt)
        line, col = stmt.coord.line, stmt.coord.column or 1
        self._time(node, lambda: self.source.statement_at(line, col, token), self._block_mode())

    def _dc(self, call: c_ast.FuncCall, info: FunctionInfo, line: int) -> None:
        node = self._new("dc", "dc", str(call.coord.file), line, f"{info.name}() task recursion")
        node.facts["branching"] = info.task_calls
        rule = info.depth_rule
        if rule is not None and call.args is not None and len(call.args.exprs) > rule.index:
            first = facts.constant(call.args.exprs[rule.index], self._func.node, self.ast)
            if isinstance(first, int):
                node.facts["depth"] = rule.depth(first)
                node.facts["depth_rule"] = (
                    f"tasks while {rule.name} {rule.op} {rule.limit}, "
                    f"{rule.name} += {rule.step} per level, top call "
                    f"{rule.name} = {first}"
                )
        if "depth" not in node.facts:
            node.notes.append(
                "task depth not found (no 'if (depth < LIMIT)' guard): "
                "the dc skeleton is used without the tree form"
            )
        self._time_call(node)

    # -- OpenMP constructs -----------------------------------------------------------------
    def _construct(self, directives: list[Directive], stmt: c_ast.Node) -> None:
        d, rest = directives[0], directives[1:]
        if d.kind in WORKSHARING_LOOP_KINDS:
            self._loop(d, stmt)
        elif d.kind in ("sections", "parallel sections"):
            self._sections(d, stmt)
        elif d.kind.startswith("parallel"):
            node = self._new("parallel", "sequence", d.file, d.line, omp_label(d))
            self._time(node, lambda: self.source.construct(d.line), self._block_mode())
            inner = (
                (lambda: self._construct(rest, stmt)) if rest else (lambda: self._statement(stmt))
            )
            self._under(node, inner, context="team", conditional=0)
        else:
            context = "one" if d.kind in _ONE_THREAD else None
            inner = (
                (lambda: self._construct(rest, stmt)) if rest else (lambda: self._statement(stmt))
            )
            saved = self._context
            if context:
                self._context = context
            try:
                inner()
            finally:
                self._context = saved

    def _worksharing_mode(self, d: Directive) -> str:
        if d.kind.startswith("parallel") or self._context != "team":
            return self._block_mode()
        return "team_ws_nowait" if d.clauses.nowait else "team_ws"

    def _loop(self, d: Directive, stmt: c_ast.Node) -> None:
        for_node = stmt
        while isinstance(for_node, c_ast.Compound) and len(for_node.block_items or []) == 1:
            for_node = for_node.block_items[0]
        coord = for_node.coord if isinstance(for_node, c_ast.For) else None
        line = coord.line if coord else d.line
        loop = self._new("loop", "parmap", str(coord.file) if coord else d.file, line, omp_label(d))
        record = self.records.get(loop.id) or next(
            (r for r in self.records.values() if r.file == loop.file and r.line == line), None
        )
        if record is None:
            loop.skeleton = "farm"
            loop.notes.append("no loop analysis: modelled as a farm")
        else:
            loop.trip_count = record.trip_count
            uniform = facts.uniform_work(record.work_per_iteration)
            loop.facts.update(
                {
                    "iterations": record.iterations,
                    "uniform_work": uniform,
                    "schedule": d.clauses.schedule or "as default",
                }
            )
            loop.skeleton = "parmap" if uniform else "farm"
            if uniform is None:
                loop.notes.append("work per iteration unknown: modelled as a farm")
        if d.clauses.nowait and self._context == "team":
            loop.notes.append("nowait: thread 0's share is timed (a lower bound)")
        self._time(loop, lambda: self.source.construct(d.line), self._worksharing_mode(d))

    def _sections(self, d: Directive, stmt: c_ast.Node) -> None:
        node = self._new("sections", "composition", d.file, d.line, omp_label(d))
        self._time(node, lambda: self.source.construct(d.line), self._worksharing_mode(d))
        groups = section_groups(stmt)
        try:
            parts = self.source.sections_parts(d.line) if node.file == self.file else []
        except SpanError as exc:
            node.notes.append(f"sections not timed: {exc}")
            parts = []
        if parts and len(parts) != len(groups):
            node.notes.append(
                f"{len(groups)} sections in the program, {len(parts)} in the "
                "text: sections not timed"
            )
            parts = []
        context = "team" if d.kind.startswith("parallel") else self._context

        def visit_sections() -> None:
            for i, group in enumerate(groups):
                first = group[0]
                sec = self._new(
                    "section",
                    "task",
                    str(first.coord.file),
                    first.coord.line,
                    f"{i + 1}: {self._label(first.coord.line, '...')}",
                )
                sec.context = "one"
                if parts:
                    a, b = parts[i]
                    self._time(sec, lambda a=a, b=b: (a, b), "encounter", samples=True)
                elif not sec.notes:
                    sec.notes.append("not timed")
                self._under(sec, lambda g=group: [self._statement(s) for s in g], context="one")

        self._under(node, visit_sections, context=context)
