"""The calling contexts of a loop's function: what its pointer parameters point at.

A loop in ``bpnn_layerforward(l1, l2, conn, ...)`` is independent only if ``l2``
is never the same array as ``l1`` or ``conn``'s rows; that holds at each call
site separately (the two calls pass different layers) though not for the union
of all calls. So the proof runs once per call site (at most ``MAX_CONTEXTS``),
each with its parameters bound to what that site passes, and where in it.
"""

from __future__ import annotations

from collections.abc import Callable

from pycparser import c_ast

from autotune.analysis.proof import poly
from autotune.analysis.proof.decls import derivations, is_fresh, narrows
from autotune.analysis.proof.inttypes import ExprTypes
from autotune.analysis.proof.levels import distinct_levels
from autotune.analysis.proof.outparams import address_stores
from autotune.analysis.proof.pointsto import PointsTo
from autotune.analysis.proof.program import Program, Site, param_names
from autotune.analysis.proof.swaps import swap_group
from autotune.analysis.proof.walkstate import PtrVal
from autotune.analysis.symbols import Scope, _params

MAX_CONTEXTS = 8


def calling_contexts(
    site, prog: Program, pointsto: PointsTo
) -> list[dict[str, PtrVal]]:  # a verdict.LoopSite
    """One binding of the function's pointer parameters per call site (at most 8)."""
    func = site.func
    scope = Scope(func, site.ast)
    params = [p for p in _params_of(func) if p.name and derivations(scope, p.type)]
    fname = func.decl.name
    sites = prog.calls.get(fname, [])
    if not params or not sites or fname in prog.address_taken or fname == "main":
        return [{}]
    if not prog.all_calls_seen(func):
        return [{}]  # other files may call it with anything: the parameters stay unknown
    if len(sites) > MAX_CONTEXTS:
        merged = {
            p.name: PtrVal(pointsto.param_objects(func, p.name, 0), None, "shared", p.name)
            for p in params
        }
        return [merged]
    out = []
    names = param_names(func)
    for s in sites:
        args = s.node.args.exprs if s.node.args is not None else []
        binding = {}
        for p in params:
            k = names.index(p.name)
            binding[p.name] = (
                _argument(args[k], s, pointsto) if k < len(args) else PtrVal(None, None)
            )
        positions = {p.name: names.index(p.name) for p in params}
        out.append(distinct_levels(args, binding, positions, s, pointsto))
    return out


def _params_of(func: c_ast.FuncDef) -> list[c_ast.Decl]:
    return _params(func)


def _argument(arg: c_ast.Node, site: Site, pointsto: PointsTo) -> PtrVal:
    """What an argument passed at a call site outside the loop points at."""
    objs = pointsto.objects(arg, site)
    base = _arg_base(arg, site, pointsto)
    group = None
    if isinstance(arg, c_ast.ID) and site.func is not None:
        gid = swap_group(pointsto, site.func, site.ast, arg.name)
        if gid is not None:
            group = (id(site.func) * 64 + gid, arg.name)
            starts = [
                s
                for s in pointsto.prog.var_stores.get(arg.name, [])
                if s.func is site.func and not isinstance(s.node, c_ast.ID)
            ]
            if starts and all(_fresh_or_array(s, pointsto) for s in starts):
                base = [poly.const(0)]  # the buffers' starts, exchanged whole
    return PtrVal(objs, base if objs is not None else None, "shared", root_name(arg), group)


def _arg_base(
    arg: c_ast.Node, site: Site, pointsto: PointsTo, depth: int = 0
) -> list[poly.Poly] | None:
    while isinstance(arg, c_ast.Cast):
        arg = arg.expr
    scope = pointsto.scope(site)

    def lookup(name: str, node: c_ast.Node) -> poly.Poly | None:
        return poly.symbol(f"Parg_{name}")

    if isinstance(arg, c_ast.ID):
        decl, kind = scope.find_decl(arg.name, arg)
        if decl is None:
            return None
        derivs = derivations(scope, decl.type)
        if derivs and derivs[0] == "array" and kind != "param":
            return [poly.const(0)]
        if kind == "param":
            return param_base(site.func, arg.name, pointsto, depth)
        stores = [
            s
            for s in pointsto.prog.var_stores.get(arg.name, [])
            if s.func is site.func or kind == "global"
        ]
        if pointsto.prog.address_taken_var(arg.name, arg, site.func, site.ast):
            through = address_stores(pointsto.prog, decl, site) if kind == "local" else None
            if through is None:
                return None
            stores += through  # ``alloc_vector(&x, n)``: what its ``*out = ...`` stores
        if kind != "param" and stores and all(_fresh_or_array(s, pointsto) for s in stores):
            return [poly.const(0)]
        return None
    if isinstance(arg, c_ast.BinaryOp) and arg.op in ("+", "-"):
        base = _arg_base(arg.left, site, pointsto, depth)
        off = _offset(lookup, scope, arg.right)
        if base is None or off is None:
            return None
        return base[:-1] + [poly.add(base[-1], off, 1 if arg.op == "+" else -1)]
    if isinstance(arg, c_ast.UnaryOp) and arg.op == "&" and isinstance(arg.expr, c_ast.ArrayRef):
        inner = arg.expr
        if not isinstance(inner.name, c_ast.ID):
            return None
        base = _arg_base(inner.name, site, pointsto, depth)
        off = _offset(lookup, scope, inner.subscript)
        if base is None or off is None:
            return None
        return base[:-1] + [poly.add(base[-1], off)]
    if isinstance(arg, c_ast.ArrayRef):
        # an element of an array whose every element is a new allocation (a level of
        # ``double ****r``, passed as ``r[k]``): the start of one
        rows = pointsto.objects(arg.name, site)
        if rows is not None and pointsto.fresh_rows(rows):
            return [poly.const(0)]
        return None
    if isinstance(arg, c_ast.StructRef):
        stores = pointsto.prog.field_stores.get(arg.field.name, [])
        if (
            stores
            and not pointsto.prog.opaque_inits
            and all(_fresh_or_array(s, pointsto) for s in stores)
        ):
            return [poly.const(0)]  # every store to the field is a new allocation
        return None
    return None


def param_base(
    func: c_ast.FuncDef | None, name: str, pointsto: PointsTo, depth: int
) -> list[poly.Poly] | None:
    """A pointer parameter that every caller passes the start of an object: index 0."""
    prog = pointsto.prog
    if func is None or depth > 3:
        return None
    fname = func.decl.name
    sites = prog.calls.get(fname, [])
    if not sites or fname in prog.address_taken or fname == "main":
        return None
    if not prog.all_calls_seen(func):
        return None
    names = param_names(func)
    if name not in names:
        return None
    k = names.index(name)
    for s in sites:
        args = s.node.args.exprs if s.node.args is not None else []
        if k >= len(args):
            return None
        base = _arg_base(args[k], s, pointsto, depth + 1)
        if base is None or len(base) != 1 or poly.constant_of(base[0]) != 0:
            return None
    return [poly.const(0)]


def _fresh_or_array(s: Site, pointsto: PointsTo) -> bool:
    """A store that puts the start of an object in a pointer (a new allocation or an
    array's name)."""
    node = s.node
    while isinstance(node, c_ast.Cast):
        node = node.expr
    if isinstance(node, c_ast.FuncCall):
        return is_fresh(node, pointsto.prog)
    if isinstance(node, c_ast.ID):
        decl, kind = pointsto.scope(s).find_decl(node.name, node)
        return (
            decl is not None
            and kind != "param"
            and (derivations(pointsto.scope(s), decl.type) or ["?"])[0] == "array"
        )
    return False


def root_name(node: c_ast.Node) -> str:
    """The name an argument is known by in messages (``net->input_units``: input_units)."""
    while isinstance(node, c_ast.Cast):
        node = node.expr
    if isinstance(node, c_ast.StructRef):
        return node.field.name
    while not isinstance(node, c_ast.ID):
        kids = [c for _, c in node.children()]
        if not kids:
            return ""
        node = kids[0]
    return node.name


# ---- judging one walk ----------------------------------------------------------------------


def _offset(
    lookup: Callable[[str, c_ast.Node], poly.Poly | None], scope: Scope, node: c_ast.Node
) -> poly.Poly | None:
    """An argument's offset from its base (``p + k``, ``&a[k]``), wrapping as C does."""
    builder = poly.PolyBuilder(lookup, None, lambda t: narrows(scope, t), types=ExprTypes(scope))
    return builder.build(node)
