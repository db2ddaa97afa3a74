"""What a thread's own scalar holds after a worksharing loop, and whether it is read.

After ``#pragma omp for``, each thread's copy of a region's scalar (a local of the
region, a ``parallel private(t)``, a local of an orphaned loop's function) holds the
value of the last iteration that thread ran: another schedule or thread count changes
it. The loop's result shows it only where a read can see that value before the
variable is set again. A forward scan of the statements after the loop, to the end
of the region and around again through a loop that holds it, answers that: a plain
``t = e`` sets it on every path (BT's ``xi = 1.0;`` between two loops of one region),
so does a sequential loop's header ``for (j = 1; ...)``; a worksharing loop's own
variable is its own copy; a set inside a branch or a loop body that may not run sets
nothing for sure.
"""

from __future__ import annotations

from collections.abc import Callable

from pycparser import c_ast

from autotune.analysis.astutil import loop_var_name, walk
from autotune.analysis.proof.facts import LoopSite
from autotune.analysis.symbols import file_info

Rewrites = Callable[[c_ast.Node, str], bool]
LOOPS = (c_ast.For, c_ast.While, c_ast.DoWhile)


def leftover_read(rewrites: Rewrites, site: LoopSite, name: str) -> int | None:
    """The line of a read that may see what the loop left in ``name`` (None: none)."""
    scan = _Scan(name, rewrites, site.ast)
    parents = file_info(site.ast).parents
    top = site.region_node if site.region_node is not None else site.func.body
    node: c_ast.Node = site.for_node
    while node is not top:
        parent = parents.get(id(node))
        if parent is None:
            return None
        if isinstance(parent, c_ast.Compound):
            items = parent.block_items or []
            k = next((i for i, item in enumerate(items) if item is node), None)
            if k is not None:
                again = isinstance(parents.get(id(parent)), LOOPS)
                for part in (items[k + 1 :], items[:k] if again else []):
                    seen = scan.sequence(part)
                    if seen is not None:
                        return seen or None  # 0: set again before any read
        elif isinstance(parent, LOOPS):
            for part in (parent.cond, getattr(parent, "next", None)):
                line = scan.read_line(part)
                if line:
                    return line
        node = parent
    return None


def assigned_to(node: c_ast.ID, ast: c_ast.FileAST) -> bool:
    """``node`` is the whole target of a plain assignment (``t = 0``): set, not read."""
    parent = file_info(ast).parents.get(id(node))
    return isinstance(parent, c_ast.Assignment) and parent.op == "=" and parent.lvalue is node


class _Scan:
    """Statements in the order they run: the line of the first read of ``name`` (> 0),
    0 when every path sets it first, None when they do neither."""

    def __init__(self, name: str, rewrites: Rewrites, ast: c_ast.FileAST) -> None:
        self.name = name
        self.rewrites = rewrites
        self.ast = ast

    def sequence(self, stmts: list[c_ast.Node]) -> int | None:
        for k, stmt in enumerate(stmts):
            before = stmts[k - 1] if k > 0 else None
            shared = isinstance(before, c_ast.Pragma) and _worksharing(before.string)
            if isinstance(stmt, c_ast.Pragma):
                continue
            if shared and isinstance(stmt, c_ast.For):
                seen = self._worksharing_loop(stmt)
            else:
                seen = self.statement(stmt)
            if seen is not None:
                return seen
        return None

    def _worksharing_loop(self, loop: c_ast.For) -> int | None:
        """A thread runs some of its iterations, maybe none: it reads, never sets for sure.
        Its own loop variable is the loop's private copy."""
        if loop_var_name(loop) == self.name:
            return None
        ids = [n for n in walk(loop) if isinstance(n, c_ast.ID) and n.name == self.name]
        if ids and all(self.rewrites(n, self.name) for n in ids):
            return None  # every iteration sets it before reading it
        return self._maybe(loop.init, loop.cond, loop.stmt, loop.next)

    def statement(self, node: c_ast.Node | None) -> int | None:
        if node is None:
            return None
        if isinstance(node, c_ast.Compound):
            return self.sequence(node.block_items or [])
        if isinstance(node, c_ast.For):
            if loop_var_name(node) == self.name and not self.read_line(node.init):
                return 0  # the header sets it before the condition reads it
            return self._maybe(node.init, node.cond, node.stmt, node.next)
        if isinstance(node, c_ast.While | c_ast.DoWhile):
            return self._maybe(node.cond, node.stmt)
        if isinstance(node, c_ast.If):
            line = self.read_line(node.cond)
            if line:
                return line
            yes, no = self.statement(node.iftrue), self.statement(node.iffalse)
            if yes or no:
                return yes or no
            return 0 if yes == 0 and no == 0 else None
        if isinstance(node, c_ast.Assignment) and node.op == "=" and self._is_name(node.lvalue):
            return self.read_line(node.rvalue) or 0
        return self.read_line(node) or None

    def _maybe(self, *parts: c_ast.Node | None) -> int | None:
        """Parts that may not run: their reads count, their sets do not."""
        for part in parts:
            seen = self.statement(part) if isinstance(part, c_ast.Node) else None
            if seen:
                return seen
        return None

    def _is_name(self, node: c_ast.Node) -> bool:
        return isinstance(node, c_ast.ID) and node.name == self.name

    def read_line(self, node: c_ast.Node | None) -> int:
        """The line of the first read of ``name`` in ``node`` (0: none)."""
        if node is None:
            return 0
        for n in walk(node):
            if self._is_name(n) and not assigned_to(n, self.ast):
                return n.coord.line if n.coord else 1
        return 0


def _worksharing(pragma: str) -> bool:
    """``omp for``, ``omp parallel for``, ``omp for simd``, ``omp taskloop``: a directive
    whose loop variable is private to the loop."""
    words = pragma.replace("(", " ").split()
    return bool(words) and words[0] == "omp" and ("for" in words[1:3] or "taskloop" in words)
