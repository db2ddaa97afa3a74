"""Does a ``critical`` section commute? Only then may its loop's order change.

A section whose statements are commutative updates (``x += e``, ``x = x * e``,
``if (v > m) m = v;``) whose operands read nothing the section writes leaves the
same result in any entry order (up to floating-point reassociation, which the
gate notes); anything else (appending to a list, an argmax with its index) does
not.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.astutil import loop_var_name, subscripts
from autotune.analysis.names import assigned_names, names_in, written_root
from autotune.analysis.ops import math_name
from autotune.analysis.proof.updates import extreme, update_form
from autotune.analysis.symbols import Scope
from autotune.frontend.runs import block_items

COMMUTATIVE_ASSIGN = frozenset({"+=", "-=", "*=", "|=", "&=", "^="})


def critical_order(stmt: c_ast.Node, scope: Scope) -> str:
    """Why a critical section's effect depends on entry order ('' when it commutes)."""
    items = _flatten(stmt)
    written = {w for s in items for w in assigned_names(s)}
    for s in items:
        why = _commuting(s, written)
        if why:
            return why
    return ""


def _flatten(stmt: c_ast.Node) -> list[c_ast.Node]:
    out = []
    for s in block_items(stmt):
        out += _flatten(s) if isinstance(s, c_ast.Compound) else [s]
    return out


def _commuting(s: c_ast.Node, written: set[str]) -> str:
    """'' when ``s`` is a commutative update whose operands read nothing the section writes."""
    line = s.coord.line if s.coord else 0
    if isinstance(s, c_ast.UnaryOp) and s.op in ("++", "--", "p++", "p--"):
        return _operands_ok(subscripts(s.expr), written, line)  # as for ``x += 1``
    if isinstance(s, c_ast.Assignment):
        target = written_root(s.lvalue)
        if s.op in COMMUTATIVE_ASSIGN:
            return _operands_ok([s.rvalue, *subscripts(s.lvalue)], written, line)
        form = update_form(s)  # x = x + e, x = e > x ? e : x, x = fmax(x, e)
        if form is not None:
            return _operands_ok([form[1], *subscripts(s.lvalue)], written, line)
        return f"assigns {target or 'a value'} at line {line} from shared state"
    if isinstance(s, c_ast.If) and s.iffalse is None:
        body = _flatten(s.iftrue)
        # ``if (v > m) m = v;``: a max (or min) only when the value stored is the one
        # compared (``m = v * 0.5`` under that test keeps a damped peak, which follows
        # the order)
        if (
            len(body) == 1
            and isinstance(body[0], c_ast.Assignment)
            and body[0].op == "="
            and extreme(s.cond, body[0].rvalue, body[0].lvalue, body[0].lvalue) is not None
        ):
            target = written_root(body[0].lvalue)
            return _operands_ok([body[0].rvalue], written - {target}, line)
    if isinstance(s, c_ast.If):
        # a test of what the section does not write (``if (r > cut) far++;``) takes the
        # same branch in any order: the branches must commute themselves
        if _operands_ok([s.cond], written, line):
            return f"makes a decision at line {line} on shared state"
        for branch in (s.iftrue, s.iffalse):
            for item in _flatten(branch) if branch is not None else []:
                why = _commuting(item, written)
                if why:
                    return why
        return ""
    if isinstance(s, c_ast.Decl | c_ast.EmptyStatement):
        return ""
    if isinstance(s, c_ast.For):
        return _commuting_loop(s, written, line)
    return f"runs a {type(s).__name__} statement at line {line}"


def _commuting_loop(s: c_ast.For, written: set[str], line: int) -> str:
    """A loop of commutative updates (``for (i = 0; i < n; i++) g[v[i]] += w[v[i]];``,
    a thread's partial results merged under the lock): each entry runs every step, so
    the entry order only reorders the updates. Its variable, and what its body
    declares, belong to the entry; its bounds read nothing the section writes."""
    var = loop_var_name(s)
    if var is None:
        return f"runs a For statement at line {line} whose variable is not plain"
    body = _flatten(s.stmt) if s.stmt is not None else []
    own = {var} | {d.name for d in body if isinstance(d, c_ast.Decl) and d.name}
    shared = written - own
    header = [e for e in (s.cond, s.next) if e is not None]
    if isinstance(s.init, c_ast.DeclList):
        header += [d.init for d in s.init.decls if d.init is not None]
    elif s.init is not None:
        header.append(s.init.rvalue if isinstance(s.init, c_ast.Assignment) else s.init)
    why = _operands_ok(header, shared, line)
    if why:
        return why
    for item in body:
        why = _commuting(item, shared)
        if why:
            return why
    return ""


def _same(a: c_ast.Node, b: c_ast.Node) -> bool:
    if isinstance(a, c_ast.ID) and isinstance(b, c_ast.ID):
        return a.name == b.name
    if isinstance(a, c_ast.ArrayRef) and isinstance(b, c_ast.ArrayRef):
        return _same(a.name, b.name) and _same(a.subscript, b.subscript)
    if isinstance(a, c_ast.Constant) and isinstance(b, c_ast.Constant):
        return a.value == b.value
    return False


def _operands_ok(exprs_: list[c_ast.Node], written: set[str], line: int) -> str:
    for e in exprs_:
        reads = names_in(e)
        clash = sorted(reads.names & written)
        if clash:
            return f"uses {clash[0]}, which it also updates, at line {line}"
        bad = [c for c in reads.calls if not math_name(c)]
        if bad:
            return f"calls {bad[0]}() at line {line}"
    return ""
