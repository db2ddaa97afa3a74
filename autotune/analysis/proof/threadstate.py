"""What each thread keeps for itself beyond the program's variables: ``errno`` and the
floating-point exception flags.

A failing ``log`` sets the errno of the thread that ran it, and a division by zero
raises the flag of that thread's floating-point environment; after a loop, the master
thread's are what the program sees. So a loop that may set them is kept when the
program reads them where the loop's effect can reach: a read of errno that an
``errno = 0`` just before it (with only library calls between) cleared cannot see any
loop, as argument parsing does (``errno = 0; n = strtol(...); if (errno) ...``); nor
can one in the failure branch of a call that sets errno whenever it fails, right after
it (``fp = fopen(...); if (fp == NULL) perror(...);``).
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.astutil import path_to
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
            if _after_failed_call(node, ast, prog):
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


# calls that POSIX says set errno whenever they fail, by how they fail: a null pointer
# (streams, directories) or -1 (descriptors, paths). Not malloc and its kin (malloc(0)
# may return NULL without failing) nor popen (it "may" set errno).
FAILS_WITH_NULL = frozenset("fopen freopen fdopen tmpfile opendir".split())
FAILS_WITH_MINUS_ONE = frozenset(
    "open creat stat lstat fstat mkdir rmdir remove rename unlink chdir close pipe dup dup2".split()
)


def _after_failed_call(node: c_ast.Node, ast: c_ast.FileAST, prog: Program) -> bool:
    """A read in the true branch of a failure test of what a call that sets errno whenever
    it fails just returned, with nothing between that may run a loop: ``fp =
    fopen(...); if (fp == NULL) { perror(...); }`` reads what ``fopen`` set, not a loop's
    thread's errno."""
    parents = file_info(ast).parents
    child, cur = node, parents.get(id(node))
    while cur is not None and not (isinstance(cur, c_ast.If) and cur.iftrue is child):
        if isinstance(cur, c_ast.FuncDef):
            return False
        child, cur = cur, parents.get(id(cur))
    if cur is None:
        return False
    tested = _failure_test(cur.cond)
    if tested is None:
        return False
    name, call, fails = tested
    if call is None:
        call = _set_just_before(cur, name, parents)
    failing = FAILS_WITH_NULL if fails == "null" else FAILS_WITH_MINUS_ONE
    if call is None or call_name(call) not in failing:
        return False
    # nothing between the test and the read may run a loop
    branch = cur.iftrue
    items = (branch.block_items or []) if isinstance(branch, c_ast.Compound) else [branch]
    for item in items:
        if path_to(item, node) is not None:
            return not _may_run_a_loop(item, prog)
        if _may_run_a_loop(item, prog):
            return False
    return False


def _failure_test(cond: c_ast.Node) -> tuple[str, c_ast.FuncCall | None, str] | None:
    """(variable, the call assigned in the test itself or None, "null" or "minus one")
    of a test that holds exactly when the call failed: ``!v``, ``v == NULL`` (either
    side) for a pointer; ``v < 0``, ``v == -1`` (either side) for a descriptor;
    ``(v = f(...)) == NULL`` too."""
    if isinstance(cond, c_ast.UnaryOp) and cond.op == "!":
        return _tested(cond.expr, "null")
    if not isinstance(cond, c_ast.BinaryOp):
        return None
    if cond.op == "<":
        return _tested(cond.left, "minus one") if _null_or_negative(cond.right) == 0 else None
    if cond.op != "==":
        return None
    for var, other in ((cond.left, cond.right), (cond.right, cond.left)):
        value = _null_or_negative(other)
        if value is not None:
            return _tested(var, "null" if value == 0 else "minus one")
    return None


def _tested(e: c_ast.Node, fails: str) -> tuple[str, c_ast.FuncCall | None, str] | None:
    if isinstance(e, c_ast.ID):
        return e.name, None, fails
    if (
        isinstance(e, c_ast.Assignment)
        and e.op == "="
        and isinstance(e.lvalue, c_ast.ID)
        and isinstance(e.rvalue, c_ast.FuncCall)
    ):
        return e.lvalue.name, e.rvalue, fails
    return None


def _null_or_negative(e: c_ast.Node) -> int | None:
    """0 for ``NULL``/``0``, -1 for ``-1``; None otherwise."""
    while isinstance(e, c_ast.Cast):
        e = e.expr
    if isinstance(e, c_ast.Constant) and e.value in ("0", "0L", "0UL"):
        return 0
    if isinstance(e, c_ast.UnaryOp) and e.op == "-" and isinstance(e.expr, c_ast.Constant):
        return -1 if e.expr.value == "1" else None
    return None


def _set_just_before(stmt: c_ast.If, name: str, parents: dict) -> c_ast.FuncCall | None:
    """The call of ``name = f(...)`` (or ``T *name = f(...)``) right before ``stmt``."""
    block = parents.get(id(stmt))
    if not isinstance(block, c_ast.Compound):
        return None
    items = block.block_items or []
    at = next((k for k, item in enumerate(items) if item is stmt), None)
    if not at:
        return None
    prev = items[at - 1]
    if isinstance(prev, c_ast.Assignment) and prev.op == "=" and isinstance(prev.lvalue, c_ast.ID):
        if prev.lvalue.name == name and isinstance(prev.rvalue, c_ast.FuncCall):
            return prev.rvalue
    if isinstance(prev, c_ast.Decl) and prev.name == name and isinstance(prev.init, c_ast.FuncCall):
        return prev.init
    return None


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
