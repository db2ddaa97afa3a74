"""Which user functions hold parallel structure, and which recurse through tasks.

The tree walk follows a call only into a function that (itself or through
its callees) contains an OpenMP construct; every other call is sequential
work that ends up in its caller's remainder. A function that spawns calls to
itself as ``#pragma omp task`` is divide and conquer: the walk stops at its
top call and models the whole recursion with the dc skeleton.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

from autotune.frontend.finder import WORKSHARING_LOOP_KINDS
from autotune.frontend.preprocess import is_system_file
from autotune.frontend.records import Directive
from autotune.frontend.runs import make_directive, pragma_runs
from autotune.structure.facts import constant

# Constructs that make a node of the tree (or hold one).
STRUCTURAL = WORKSHARING_LOOP_KINDS | {"sections", "task"}


def is_structural(d: Directive) -> bool:
    return d.kind in STRUCTURAL or d.kind.startswith("parallel")


def callee(call: c_ast.FuncCall) -> str | None:
    return call.name.name if isinstance(call.name, c_ast.ID) else None


def directed(block: c_ast.Compound) -> list[tuple[list[Directive], c_ast.Node]]:
    """The (directives, statement) pairs of one block: a run of pragmas governs the next item."""
    return [
        (run.directives, run.stmt)
        for run in pragma_runs(block.block_items)
        if run.stmt is not None and run.directives
    ]


@dataclass
class DepthRule:
    """``if (param < LIMIT)`` guarding the task spawns; recursive calls pass param + step."""

    index: int  # position of the depth parameter
    name: str
    op: str  # "<" or "<="
    limit: int
    step: int

    def depth(self, first: int) -> int:
        """Levels of task spawning below a top call that passes ``first``."""
        last = self.limit if self.op == "<=" else self.limit - 1
        return max(0, (last - first) // self.step + 1) if self.step > 0 else 0


@dataclass
class FunctionInfo:
    node: c_ast.FuncDef
    name: str
    calls: set[str] = field(default_factory=set)
    constructs: int = 0  # structural directives written in the body
    omp: bool = False  # holds constructs itself or through a callee
    task_calls: int = 0  # task directives whose statement calls this function
    depth_rule: DepthRule | None = None

    @property
    def task_recursive(self) -> bool:
        return self.task_calls > 0


class _Scan(c_ast.NodeVisitor):
    """One walk over a function body: its callees and its OpenMP constructs."""

    def __init__(self, info: FunctionInfo) -> None:
        self.info = info

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        name = callee(node)
        if name:
            self.info.calls.add(name)
        self.generic_visit(node)

    def visit_Compound(self, node: c_ast.Compound) -> None:
        for directives, stmt in directed(node):
            if any(is_structural(d) for d in directives):
                self.info.constructs += 1
            if any(d.kind == "task" for d in directives) and self.info.name in _called(stmt):
                self.info.task_calls += 1
        self.generic_visit(node)


def _called(node: c_ast.Node) -> set[str]:
    names: set[str] = set()

    class Calls(c_ast.NodeVisitor):
        def visit_FuncCall(self, call: c_ast.FuncCall) -> None:
            if callee(call):
                names.add(callee(call))  # type: ignore[arg-type]
            self.generic_visit(call)

    Calls().visit(node)
    return names


class FunctionTable:
    """Every user function of a file with its structural facts."""

    def __init__(self, ast: c_ast.FileAST) -> None:
        self.ast = ast
        self.functions: dict[str, FunctionInfo] = {}
        for ext in ast.ext:
            if isinstance(ext, c_ast.FuncDef) and not is_system_file(
                ext.coord.file if ext.coord else None
            ):
                info = FunctionInfo(ext, ext.decl.name)
                _Scan(info).visit(ext.body)
                self.functions[info.name] = info
        self._propagate()
        for info in self.functions.values():
            if info.task_recursive:
                info.depth_rule = _depth_rule(info, ast)

    def _propagate(self) -> None:
        for info in self.functions.values():
            info.omp = info.constructs > 0
        changed = True
        while changed:
            changed = False
            for info in self.functions.values():
                if not info.omp and any(
                    self.functions[c].omp for c in info.calls if c in self.functions
                ):
                    info.omp = changed = True

    def get(self, name: str | None) -> FunctionInfo | None:
        return self.functions.get(name) if name else None

    def holds_structure(self, node: c_ast.Node) -> bool:
        """Does the statement contain a structural directive or call a function that does?"""
        probe = _StructureProbe(self)
        probe.visit(node)
        return probe.found


class _StructureProbe(c_ast.NodeVisitor):
    """Finds a structural directive, or a call of a function that holds one."""

    def __init__(self, table: FunctionTable) -> None:
        self.table = table
        self.found = False

    def visit_Pragma(self, p: c_ast.Pragma) -> None:
        d = make_directive(p)
        if d is not None and is_structural(d):
            self.found = True

    def visit_FuncCall(self, call: c_ast.FuncCall) -> None:
        info = self.table.get(callee(call))
        if info is not None and info.omp:
            self.found = True
        self.generic_visit(call)


def _depth_rule(info: FunctionInfo, ast: c_ast.FileAST) -> DepthRule | None:
    """Find ``if (d < LIMIT) { task f(.., d + s, ..) ... }`` in a task-recursive function."""
    finder = _DepthGuard(info, ast)
    finder.visit(info.node.body)
    return finder.rule


class _DepthGuard(c_ast.NodeVisitor):
    """The first ``if (param < LIMIT)`` whose true branch recurses with ``param + step``."""

    def __init__(self, info: FunctionInfo, ast: c_ast.FileAST) -> None:
        self.info, self.ast = info, ast
        self.params = _param_names(info.node)
        self.rule: DepthRule | None = None

    def visit_If(self, node: c_ast.If) -> None:
        cond = node.cond
        if (
            self.rule is None
            and isinstance(cond, c_ast.BinaryOp)
            and cond.op in ("<", "<=")
            and isinstance(cond.left, c_ast.ID)
            and cond.left.name in self.params
        ):
            index = self.params.index(cond.left.name)
            limit = constant(cond.right, self.info.node, self.ast)
            step = _recursive_step(node.iftrue, self.info.name, index, cond.left.name)
            if isinstance(limit, int) and step:
                self.rule = DepthRule(index, cond.left.name, cond.op, limit, step)
        self.generic_visit(node)


def _param_names(func: c_ast.FuncDef) -> list[str]:
    decl = func.decl.type
    args = getattr(decl, "args", None)
    return [getattr(p, "name", None) or "" for p in (args.params if args else [])]


def _recursive_step(block: c_ast.Node, name: str, index: int, param: str) -> int | None:
    """The increment ``s`` in recursive calls ``name(.., param + s, ..)`` under ``block``."""
    calls = _RecursiveSteps(name, index, param)
    calls.visit(block)
    return calls.steps.pop() if len(calls.steps) == 1 else None


class _RecursiveSteps(c_ast.NodeVisitor):
    """The constant ``s`` of every recursive call ``name(.., param + s, ..)``."""

    def __init__(self, name: str, index: int, param: str) -> None:
        self.name, self.index, self.param = name, index, param
        self.steps: set[int] = set()

    def visit_FuncCall(self, call: c_ast.FuncCall) -> None:
        if callee(call) == self.name and call.args and len(call.args.exprs) > self.index:
            arg = call.args.exprs[self.index]
            if (
                isinstance(arg, c_ast.BinaryOp)
                and arg.op == "+"
                and isinstance(arg.left, c_ast.ID)
                and arg.left.name == self.param
                and isinstance(arg.right, c_ast.Constant)
            ):
                try:
                    self.steps.add(int(arg.right.value.rstrip("uUlL"), 0))
                except ValueError:
                    pass
        self.generic_visit(call)
