"""Calls met in an iteration: what each kind of callee does to the proof.

A function defined in one of the program's files is walked in place, its
parameters bound to the arguments (pointers to what they point at, integers to
their values). Library calls are walked by what the library documents them to
read and write (``libcalls``); I/O, hidden state, thread and team queries, and
functions whose body is not among the files make the loop's order visible.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.allocators import STORE_FREE, STORES_FRESH
from autotune.analysis.names import call_name
from autotune.analysis.ops import ATOMIC_PREFIXES, math_name
from autotune.analysis.proof import poly
from autotune.analysis.proof.atomics import rmw_update
from autotune.analysis.proof.decls import derivations
from autotune.analysis.proof.formats import format_text, printf_stores
from autotune.analysis.proof.indirect import named_targets, pointer_targets, target_call
from autotune.analysis.proof.inttypes import ExprTypes
from autotune.analysis.proof.libcalls import (
    BUILTIN,
    FORMAT_FUNCS,
    builtin_call,
    copy_call,
    format_call,
    fresh_out_call,
    is_pointer,
    is_stream,
    pointee,
    pure_call,
    read_args,
    state_arg_call,
)
from autotune.analysis.proof.library import IO_STORES, OUT_PARAMS, READS_POINTEES, SORTS
from autotune.analysis.proof.localmembers import bind_members
from autotune.analysis.proof.pointers import pointer_value
from autotune.analysis.proof.program import is_omp_call, thread_dependent_call
from autotune.analysis.proof.refs import IterationWalker
from autotune.analysis.proof.syntax import assigned, meet, where
from autotune.analysis.proof.threadslots import THREAD_NUM
from autotune.analysis.proof.walkstate import (
    COPY_FUNCS,
    ENDS_PROGRAM,
    IO_FUNCS,
    MAX_INLINE,
    PURE_FUNCS,
    STATE_ARG_FUNCS,
    STATEFUL_FUNCS,
    Frame,
    PtrVal,
)
from autotune.analysis.proof.wide import argument_unit
from autotune.analysis.symbols import Scope, _params
from autotune.frontend.inlineasm import ASM_CALL
from autotune.frontend.preprocess import is_system_file


def walk_call(w: IterationWalker, node: c_ast.FuncCall) -> None:
    """A call met in an iteration: through a pointer or a thread query it keeps the loop;
    a call of the C library (or a gcc builtin standing for one) is walked by what the
    library reads and writes; a function of the program is walked in place."""
    name = call_name(node)
    args = list(node.args.exprs) if node.args is not None else []
    if name is not None and _is_pointer_variable(w, name, node):
        name = None  # ``f(x)`` with ``double (*f)(double)``: a call through a pointer
    if name is None:
        _pointer_call(w, node, args)
        return
    if thread_dependent_call(name):
        why = (
            f"calls {name}() at {w.place(node)}: its answer depends on the thread, the team or "
            "the runtime's settings"
        )
        if name == THREAD_NUM and not args and len(w.frames) == 1:
            w.facts.thread_subscripts.append((node, why))  # the verdict decides (threadslots)
        else:
            w.facts.effect(why)
        read_args(w, args)
        return
    if name.startswith(BUILTIN) and name not in w.ctx.prog.funcs and not is_omp_call(name):
        name = builtin_call(w, node, name, args)
        if name is None:
            return
    if not _library_call(w, node, name, args):
        _program_call(w, node, name, args)


def _pointer_call(w: IterationWalker, node: c_ast.FuncCall, args: list[c_ast.Node]) -> None:
    """``f(x)`` through a pointer: walked as each function the pointer may hold, from
    the same state (``indirect``); kept where those cannot be known."""
    targets = pointer_targets(w.ctx.prog, len(args))
    if not targets or _shadowed(w, node, targets):
        w.facts.effect(
            f"kept as written: a call through a function pointer at {where(node)}, which the "
            "proof cannot follow"
        )
        read_args(w, args)
        return
    w._read_only(node.name)  # the pointer itself: a value the call reads
    calls = [target_call(w.ctx.prog, node, t, args) for t in targets]
    w._branches(calls) if len(calls) > 1 else w.visit(calls[0])


def _shadowed(w: IterationWalker, node: c_ast.Node, targets: list[str]) -> bool:
    """A target whose name a variable hides at the call: its call would not name it."""
    return any(_is_pointer_variable(w, t, node) for t in targets)


def _library_call(
    w: IterationWalker, node: c_ast.FuncCall, name: str, args: list[c_ast.Node]
) -> bool:
    """Walk a call of the C library by what it reads and writes; False when ``name`` is
    none the proof knows."""
    if is_omp_call(name) or name in ENDS_PROGRAM or name in STORE_FREE:
        read_args(w, args)
        for i in READS_POINTEES.get(name, ()):  # strdup's source, up to its terminator
            if i < len(args):
                pointee(w, node, f"{name}()", args[i], None, "r", string=True)
        if name in ENDS_PROGRAM:
            w.defined = None  # nothing after it runs
            if not all(same_in_every_iteration(w, a) for a in args):
                w.facts.effect(
                    f"calls {name}() at {w.place(node)} with a status that differs between "
                    "iterations: which iteration ends the program follows the schedule"
                )
    elif name in IO_FUNCS:
        _io_call(w, node, name, args)
    elif name in STATEFUL_FUNCS:
        if not w.ordered:  # in the ordered region: its state advances in the iterations' order
            w.facts.effect(
                f"calls {name}() at {w.place(node)}, which keeps hidden state: its results "
                "follow the iteration order"
            )
        read_args(w, args)
    elif name in FORMAT_FUNCS:
        format_call(w, node, name, args)
    elif name in COPY_FUNCS:
        copy_call(w, node, name, args)
    elif name in STATE_ARG_FUNCS and args:
        state_arg_call(w, node, name, args)
    elif name in PURE_FUNCS or math_name(name) or name in OUT_PARAMS:
        pure_call(w, node, math_name(name) or name, args)
    elif name in STORES_FRESH:
        fresh_out_call(w, node, name, args)
    elif name in SORTS and len(args) == len(SORTS[name]):
        _sort(w, node, name, args)
    else:
        return False
    return True


def _io_call(w: IterationWalker, node: c_ast.FuncCall, name: str, args: list[c_ast.Node]) -> None:
    """I/O follows the schedule, except in the ordered region, which runs in the
    iterations' order: there what it prints from memory must not race with other
    iterations, and what stores into memory is not followed."""
    if not w.ordered:
        reason = f"calls {name}() at {w.place(node)}: the order of its I/O follows the schedule"
        w.facts.effect(reason)
        if not all(same_in_every_iteration(w, a) for a in args):
            w.facts.varying_io.add(reason)
    elif name in IO_STORES or _prints_count(name, args):
        w.facts.effect(
            f"kept as written: {name}() at {where(node)} stores into memory the proof "
            "does not follow"
        )
    else:
        for a in args:
            if is_pointer(w, a) and not is_stream(w, a):
                pointee(w, node, f"{name}()", a, None, "r")
    read_args(w, args)


def _prints_count(name: str, args: list[c_ast.Node]) -> bool:
    """``printf("%d%n", x, &count)`` stores through its argument (or may: a format that
    is not a literal)."""
    at = {"printf": 0, "fprintf": 1}.get(name)
    if at is None or at >= len(args):
        return False
    return printf_stores(format_text(args[at]))


def _program_call(
    w: IterationWalker, node: c_ast.FuncCall, name: str, args: list[c_ast.Node]
) -> None:
    """A function of the program is walked in place; an atomic builtin, a library
    function no rule names, or a function whose body is not among the files keeps the
    loop, and so does recursion or a call too deep."""
    entry = w.ctx.prog.funcs.get(name)
    update = rmw_update(w.ctx.prog, node, name, args) if entry is None else None
    if update is not None:  # __atomic_fetch_add(&n, 1, ...) as a statement: an atomic n += 1
        saved = w.sync, w.lock
        w.sync = w.lock = "atomic"
        w.visit(update)
        w.sync, w.lock = saved
        return
    if name == ASM_CALL:
        w.facts.effect(
            f"kept as written: inline assembly at {where(node)}, whose reads and writes the "
            "proof cannot see"
        )
    elif entry is None and name.startswith(ATOMIC_PREFIXES):
        w.facts.effect(
            f"calls {name}() at {where(node)}, an atomic builtin: what it reads and hands "
            "out follows the order threads reach it"
        )
    elif entry is None:
        w.facts.effect(
            f"kept as written: a call of {name}() at {where(node)}, "
            + (
                "a library function whose effects the proof does not know"
                if _system_declared(w, name, node)
                else "whose definition is not among the program's files (give its file "
                "with --extra-source)"
            )
        )
    elif len(w.frames) > MAX_INLINE or any(f.func is entry[0] for f in w.frames):
        w.facts.effect(
            f"kept as written: a call of {name}() at {where(node)}, recursive or more than "
            f"{MAX_INLINE} calls deep, which the proof cannot follow"
        )
    else:
        _inline(w, entry[0], entry[1], args)
        return
    read_args(w, args)


def _sort(w: IterationWalker, node: c_ast.FuncCall, name: str, args: list[c_ast.Node]) -> None:
    """``qsort(base, n, size, cmp)`` reads and writes the ``n`` elements at ``base`` and
    calls ``cmp`` on pairs of them; ``bsearch(key, base, n, size, cmp)`` reads the key and
    the elements. The comparison is walked as a call with both its pointers into ``base``
    (a comparison with effects, or one the proof cannot see, keeps the loop)."""
    read_args(w, args)
    roles = dict(zip(SORTS[name], args, strict=True))
    size = poly.constant_of(w.value(roles["size"]) or {})
    count = w.value(roles["count"])
    nbytes = None
    if size is not None and count is not None:
        nbytes = {m: c * size for m, c in count.items()}
    kinds = ("r", "w") if name == "qsort" else ("r",)
    for kind in kinds:
        pointee(w, node, f"{name}()", roles["base"], nbytes, kind)
    if "key" in roles:
        pointee(w, node, f"{name}()", roles["key"], None, "r")
    targets = named_targets(w.ctx.prog, roles["cmp"], 2)
    if not targets or len(w.frames) > MAX_INLINE or _shadowed(w, node, targets):
        w.facts.effect(
            f"kept as written: {name}() at {where(node)} calls a comparison the proof cannot follow"
        )
        return
    pair = [roles["base"], roles["base"]]
    calls = [target_call(w.ctx.prog, node, t, pair) for t in targets]
    w._branches(calls) if len(calls) > 1 else w.visit(calls[0])


def _system_declared(w: IterationWalker, name: str, node: c_ast.Node) -> bool:
    """``name`` is declared by a system header (``qsort`` from <stdlib.h>): a library
    function, not one whose file the user could give."""
    decl, kind = w._decl(name, node)
    coord = getattr(decl, "coord", None)
    return kind == "global" and coord is not None and is_system_file(coord.file)


def _is_pointer_variable(w: IterationWalker, name: str, node: c_ast.Node) -> bool:
    decl, kind = w._decl(name, node)
    if decl is None:
        return False
    return kind in ("local", "param") or not isinstance(decl.type, c_ast.FuncDecl)


def same_in_every_iteration(w: IterationWalker, node: c_ast.Node | None) -> bool:
    """``node`` has one value whichever iteration computes it: a constant, a size, a
    shared value the loop does not write (an error path's message printing the bad
    arguments ``m, n`` is the same message from any iteration; one printing ``i`` or
    ``a[i]`` is not)."""
    if node is None or isinstance(node, c_ast.Constant):
        return True
    if ExprTypes(w.frame.scope).of(node) is not None:  # an integer: its value says
        value = w.value_quietly(node)
        if value is not None:
            return all(s.startswith("P_") for s in poly.symbols(value))
    if isinstance(node, c_ast.ID):
        return (
            w._class(node.name, node) in ("shared", "invariant")
            and node.name not in w.ctx.written
            and not w.address_taken(node.name, node)
        )
    if isinstance(node, c_ast.Cast):
        return same_in_every_iteration(w, node.expr)
    if isinstance(node, c_ast.UnaryOp) and node.op in ("-", "+", "!", "~"):
        return same_in_every_iteration(w, node.expr)
    if isinstance(node, c_ast.BinaryOp):
        return same_in_every_iteration(w, node.left) and same_in_every_iteration(w, node.right)
    if isinstance(node, c_ast.TernaryOp):
        parts = (node.cond, node.iftrue, node.iffalse)
        return all(same_in_every_iteration(w, p) for p in parts)
    return False


def _inline(w: IterationWalker, func: c_ast.FuncDef, ast: c_ast.FileAST, args: list) -> None:
    """Walk ``func``'s body in place with its parameters bound to ``args``."""
    scope = Scope(func, ast)
    frame = Frame(func, ast, scope)
    moved = assigned(func.body)
    for param, arg in zip(_params(func), args, strict=False):
        if not param.name:
            continue
        if derivations(scope, param.type):
            pv = pointer_value(w, arg)
            if not isinstance(arg, c_ast.ID):
                read_args(w, [arg]) if not isinstance(arg, c_ast.UnaryOp) else None
            if pv is None:
                pv = PtrVal(None, None)
            elif param.name in moved:  # the callee moves it (y++): where it points is lost
                pv = PtrVal(pv.objects, None, pv.owner, pv.name, pv.group)
            frame.ptrs[param.name] = pv
            frame.units[param.name] = argument_unit(w, arg)
        else:
            w._read_only(arg)
            frame.ints[param.name] = w.value_as(arg, param.type)
    own = {d.name for d in _params(func)} | {n.name for n in _walk_decls(func.body) if n.name}
    w._kill(assigned(func.body) - own)  # a global the callee sets is stale in the caller
    saved_exits, saved_cont = w.ret_exits, w.cont_exits
    w.ret_exits, w.cont_exits = [], []
    w.frames.append(frame)
    level = len(w.frames) - 1
    for param, arg in zip(_params(func), args, strict=False):
        if param.name and not derivations(scope, param.type):
            bind_members(w, arg, param.name, level)  # a span passed by value
    early = _returns_early(func.body)  # what follows a return taken on some path is not sure
    w.cond_depth += early
    try:
        w.visit(func.body)
    finally:
        w.frames.pop()
        w.cond_depth -= early
    w.defined = meet([w.defined, *w.ret_exits])
    w.ret_exits, w.cont_exits = saved_exits, saved_cont
    for key in [k for k in w.env if k[0] >= level]:
        del w.env[key]
    for key in [k for k in w.env_ptr if k[0] >= level]:
        del w.env_ptr[key]
    _ = poly  # the bound values are polynomials


def _walk_decls(node: c_ast.Node) -> list[c_ast.Decl]:
    out = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Decl):
            out.append(n)
        stack.extend(c for _, c in n.children())
    return out


def _returns_early(body: c_ast.Compound) -> int:
    """1 when a ``return`` can end the function before its last statement, else 0."""
    items = list(body.block_items or [])
    last = items[-1] if items else None
    stack = [n for n in items]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Return) and n is not last:
            return 1
        if isinstance(n, c_ast.FuncDef):
            continue
        stack.extend(c for _, c in n.children())
    return 0
