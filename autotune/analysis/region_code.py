"""What code of a parallel region, outside its loops, does to the team it runs with.

Code every thread runs has an effect that may depend on how many run it (a print, a
shared update, a call); code one thread runs (``master``, ``single``) may ask for the
team (``nthreads = omp_get_num_threads()`` for the final report); a ``cancel parallel``
ends the region early for every thread. Each keeps the region's thread count, or its
loops, as written (``region_rules``).
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.allocators import DEALLOCATORS, RETURNS_FRESH
from autotune.analysis.astutil import lvalues, walk
from autotune.analysis.body import THREAD_API
from autotune.analysis.names import assigned_names, call_name, names_in, written_root
from autotune.analysis.ops import math_name
from autotune.analysis.proof.program import STEADY_OMP, is_omp_call, thread_dependent_call
from autotune.analysis.proof.walkstate import ENDS_PROGRAM, LIBRARY_FUNCS, PURE_FUNCS
from autotune.frontend.records import Directive
from autotune.frontend.runs import make_directive, section_groups

# code one thread runs: with the team's barrier after it (unless nowait), and without
ONCE_WITH_BARRIER = {"single", "sections", "workshare"}
ONCE_NO_BARRIER = {"master", "masked"}

# calls code run by every thread may make without its effect depending on how many do
SAFE_CALLS = PURE_FUNCS | STEADY_OMP | {"memcpy", "memmove", "memset", "rand_r", "assert"}


def calls_thread_api(node: c_ast.Node, tainted: set[str]) -> bool:
    """``node`` computes from a thread number or count (directly or via such a name)."""
    reads = names_in(node)
    return bool(set(reads.calls) & set(THREAD_API)) or bool(reads.names & tainted)


def stores_thread_value(n: c_ast.Assignment, tainted: set[str], private: set[str]) -> bool:
    """An assignment stores what differs from thread to thread. Into a copy of the
    thread's own, anything computed from a thread number does (``x = f[tid]``, and
    ``buf[tid % 4] = 1`` picks which element of its copy is set). Into shared data only a
    value that is one does (``v[k] += f[k]`` for a thread's cyclic ``k`` leaves one array
    all threads see alike); a shared scalar is judged as a copy (every thread's store
    races with the others')."""
    root = written_root(n.lvalue)
    if root is None or root in private or isinstance(n.lvalue, c_ast.ID):
        return calls_thread_api(n.rvalue, tainted) or calls_thread_api(n.lvalue, tainted)
    calls = {call_name(c) for c in walk(n.rvalue) if isinstance(c, c_ast.FuncCall)}
    return bool(_value_names(n.rvalue) & tainted) or bool(calls & set(THREAD_API))


def _value_names(node: c_ast.Node) -> set[str]:
    """The names whose values ``node`` computes with: subscripts only pick elements."""
    out: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.ID):
            out.add(n.name)
        elif isinstance(n, c_ast.ArrayRef):
            stack.append(n.name)
        elif isinstance(n, c_ast.FuncCall):
            stack.extend(n.args.exprs if n.args is not None else [])
        elif isinstance(n, c_ast.StructRef):
            stack.append(n.name)
        else:
            stack.extend(child for _, child in n.children())
    return out


def thread_dependence(node: c_ast.Node, private: set[str], line: int) -> str:
    """Why code run by every thread has an effect that depends on how many run it."""
    reads = names_in(node)
    for call in reads.calls:
        if call in RETURNS_FRESH or (call in DEALLOCATORS and _frees_own(node, private)):
            continue  # a block of the thread's own, made or given back: the lvalues say
        if not (math_name(call) or call in SAFE_CALLS):
            return f"calls {call}() at line {line} on every thread"
    for lv in lvalues(node):
        name = written_root(lv)
        if name is None or name not in private:
            return f"writes {name or 'shared data'} at line {line} on every thread"
        if not isinstance(lv, c_ast.ID | c_ast.StructRef | c_ast.ArrayRef):
            return f"writes through {name} at line {line} on every thread"
    return ""


def _frees_own(node: c_ast.Node, private: set[str]) -> bool:
    """Every deallocation in ``node`` gives back a block held in the thread's own
    pointer (``free(w)`` of a region-local ``w``): as many blocks go as were made."""
    return all(
        n.args is not None
        and len(n.args.exprs) == 1
        and isinstance(n.args.exprs[0], c_ast.ID)
        and n.args.exprs[0].name in private
        for n in walk(node)
        if isinstance(n, c_ast.FuncCall) and call_name(n) in DEALLOCATORS
    )


# calls that print a message of their own and no data
MESSAGE_CALLS = frozenset("fprintf printf puts fputs perror".split())
STREAMS = frozenset({"stderr", "stdout"})


def error_exit(stmt: c_ast.Node | None) -> bool:
    """A branch that prints a fixed message and ends the program (``fprintf(stderr,
    "out of memory\n"); exit(1);``): whichever thread takes it, the run ends with the
    same words, so what it does says nothing about the team or the schedule."""
    items = stmt.block_items or [] if isinstance(stmt, c_ast.Compound) else [stmt]
    if not items or not (
        isinstance(items[-1], c_ast.FuncCall) and call_name(items[-1]) in ENDS_PROGRAM
    ):
        return False
    for item in items[:-1]:
        if not (isinstance(item, c_ast.FuncCall) and call_name(item) in MESSAGE_CALLS):
            return False
        for arg in item.args.exprs if item.args is not None else []:
            fixed = isinstance(arg, c_ast.Constant) and arg.type == "string"
            if not (fixed or (isinstance(arg, c_ast.ID) and arg.name in STREAMS)):
                return False
    return all(
        isinstance(a, c_ast.Constant)
        for a in (items[-1].args.exprs if items[-1].args is not None else [])
    )


def team_query(node: c_ast.Node, funcs: dict, seen: set[str] | None = None) -> str:
    """What in code one thread runs (``master``, ``single``) asks about the team: a
    thread or team query, in it or in a function of the program it calls, or a call the
    proof cannot see into. ``nthreads = omp_get_num_threads()`` in a master block
    reports the region's thread count: varying it changes what the program prints."""
    seen = set() if seen is None else seen
    for n in walk(node):
        if not isinstance(n, c_ast.FuncCall):
            continue
        name = call_name(n)
        if name is None:
            return "calls through a function pointer"
        if thread_dependent_call(name):
            return f"calls {name}()"
        if name in funcs:
            if name not in seen:
                seen.add(name)
                inner = team_query(funcs[name][0].body, funcs, seen)
                if inner:
                    return f"calls {name}(), which {inner}"
        elif not (math_name(name) or is_omp_call(name) or name in LIBRARY_FUNCS):
            return f"calls {name}(), whose definition is not among the program's files"
    return ""


LOCK_CALLS = frozenset(
    "omp_set_lock omp_test_lock omp_unset_lock omp_set_nest_lock omp_test_nest_lock "
    "omp_unset_nest_lock".split()
)


def waits_for_another(node: c_ast.Node) -> str:
    """What in code one thread runs (a section, a single) may hand data to, or wait for,
    code another thread runs: a flush, an atomic access, a lock. With fewer threads the
    sections run one after another, and a section spinning on a flag another one sets
    waits for ever (``num_threads(1)`` hung such a program)."""
    for n in walk(node):
        if isinstance(n, c_ast.Pragma):
            d = make_directive(n)
            if d is not None and d.kind in ("flush", "atomic"):
                return f"'#pragma {d.text}' at line {d.line}"
        elif isinstance(n, c_ast.FuncCall) and call_name(n) in LOCK_CALLS:
            line = n.coord.line if n.coord else 0
            return f"{call_name(n)}() at line {line}"
    return ""


def sections_handoff(stmt: c_ast.Node) -> str:
    """A section reading a shared name another section writes (a flag spun on, even a
    ``volatile`` one without flush or atomic): the sections hand data to one another,
    which they can do only while they run side by side."""
    groups = section_groups(stmt)
    sets = []
    for group in groups:
        block = c_ast.Compound(group)
        local = {n.name for n in walk(block) if isinstance(n, c_ast.Decl) and n.name}
        sets.append((names_in(block).names - local, assigned_names(block) - local, group))
    for i, (reads, _, group) in enumerate(sets):
        for j, (_, writes, other) in enumerate(sets):
            shared = sorted(reads & writes) if i != j else []
            if shared:
                line = group[0].coord.line if group[0].coord else 0
                at = other[0].coord.line if other[0].coord else 0
                return (
                    f"read of {shared[0]} in the section at line {line} (the section at "
                    f"line {at} writes it)"
                )
    return ""


def cancels_region(node: c_ast.Node) -> Directive | None:
    """A ``cancel parallel`` anywhere in the region's text: a thread that meets it ends
    the region for the team at their next cancellation point (a loop's barrier among
    them), so no loop of the region runs all of its iterations for certain."""
    for n in walk(node):
        if isinstance(n, c_ast.Pragma):
            d = make_directive(n)
            if d is not None and d.kind == "cancel parallel":
                return d
    return None
