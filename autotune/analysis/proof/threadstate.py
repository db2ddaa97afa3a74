"""What each thread keeps for itself beyond the program's variables: ``errno`` and the
floating-point exception flags.

A failing ``log`` sets the errno of the thread that ran it, and a division by zero
raises the flag of that thread's floating-point environment; after a loop, the master
thread's are what the program sees. So a loop that may set them is kept when the
program reads them where the loop's effect can reach: a read of errno that an
``errno = 0`` just before it (with only library calls between) cleared cannot see any
loop, as argument parsing does (``errno = 0; n = strtol(...); if (errno) ...``).
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.names import call_name
from autotune.analysis.proof.library import ERRNO, FLAG_TESTS
from autotune.analysis.proof.program import Program
from autotune.analysis.proof.syntax import where
from autotune.analysis.symbols import file_info

ERRNO_READERS = frozenset({"perror"})  # library calls that print errno's message


def errno_read(prog: Program) -> str:
    """``file:line`` of the first place the program reads ``errno`` where a loop's
    failing call may have set it; "" when there is none."""
    key = ("errno read",)
    if key not in prog.memo:
        prog.memo[key] = ""
        sites = [(node, ast) for node, _, ast in prog.uses(ERRNO)]
        sites += [(s.node, s.ast) for name in ERRNO_READERS for s in prog.calls.get(name, [])]
        for node, ast in sites:
            if _sets_errno(node, ast) or _cleared_before(node, ast, prog):
                continue
            prog.memo[key] = where(node)
            break
    return prog.memo[key]


def _sets_errno(node: c_ast.Node, ast: c_ast.FileAST) -> bool:
    """``node`` (the ``__errno_location`` of ``errno``) is what ``errno = e`` sets."""
    parents = file_info(ast).parents
    call = parents.get(id(node))
    deref = parents.get(id(call)) if isinstance(call, c_ast.FuncCall) else None
    target = parents.get(id(deref)) if deref is not None else None
    return isinstance(target, c_ast.Assignment) and target.lvalue is deref and _clears(target)


def _cleared_before(node: c_ast.Node, ast: c_ast.FileAST, prog: Program) -> bool:
    """An ``errno = ...`` earlier in the same block clears errno before this read, with
    nothing between (the read's own statement included) that may run a loop: no call of
    a function of the program, no OpenMP directive."""
    parents = file_info(ast).parents
    stmt, block = node, parents.get(id(node))
    while block is not None and not isinstance(block, c_ast.Compound):
        stmt, block = block, parents.get(id(block))
    if block is None or _may_run_a_loop(stmt, prog):
        return False
    items = block.block_items or []
    at = next((k for k, item in enumerate(items) if item is stmt), None)
    for item in reversed(items[:at] if at is not None else []):
        if isinstance(item, c_ast.Assignment) and _clears(item):
            return True
        if _may_run_a_loop(item, prog):
            return False
    return False


def _clears(stmt: c_ast.Assignment) -> bool:
    """``errno = e``: a plain store to errno (``errno += 1`` reads it first)."""
    lv = stmt.lvalue
    return (
        stmt.op == "="
        and isinstance(lv, c_ast.UnaryOp)
        and lv.op == "*"
        and isinstance(lv.expr, c_ast.FuncCall)
        and call_name(lv.expr) == ERRNO
    )


def _may_run_a_loop(node: c_ast.Node, prog: Program) -> bool:
    """``node`` holds an OpenMP directive or calls a function of the program."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Pragma):
            return True
        if isinstance(n, c_ast.FuncCall) and call_name(n) in prog.funcs:
            return True
        stack.extend(c for _, c in n.children())
    return False


def flag_test(prog: Program) -> str:
    """``fetestexcept() at file:line`` where the program first reads the floating-point
    exception flags; "" when it never does."""
    for name in sorted(FLAG_TESTS):
        for site in prog.calls.get(name, []):
            return f"{name}() at {where(site.node)}"
    return ""
