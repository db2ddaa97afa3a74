"""What may stand for a size in a loop's formulas (``symbolic.py``), and its value.

A name in a bound or subscript as the source writes it (after macro expansion) that is
not a loop variable and not declared or assigned inside the nest; its value where the
analysis knows it (a bound's resolved value, a subscript's, a profile run's), so that
every formula can be checked against the analysis's own figure.
"""

from __future__ import annotations

import re

from pycparser import c_ast, c_parser

from autotune.analysis import exprs
from autotune.analysis.cexpr import build
from autotune.analysis.exprs import Symbolic
from autotune.analysis.formulas import NotAffine, isl_name, size_text
from autotune.frontend.records import LoopRecord

WORD = re.compile(r"[A-Za-z_]\w*")


class Sizes:
    """The names a loop's bounds and subscripts may use as sizes, their isl names, and
    their values where the analysis knows them."""

    def __init__(self, record: LoopRecord) -> None:
        domains = [ac["domain"] for a in record.arrays for ac in a["accesses"]]
        domains += [body["levels"] for body in record.op_bodies]
        self.loop_vars = {lv["var"] for dom in domains for lv in dom}
        self.loop_vars |= {lv.var for lv in record.nest}
        self.banned = (set(record.nest_locals) | set(record.nest_written)) - self.loop_vars
        self.values: dict[str, int] = {}
        self.open = False
        for dom in domains:
            for lv in dom:
                self._learn(lv)
        for acc in (ac for a in record.arrays for ac in a["accesses"]):
            self._learn_subscripts(acc)
        for text, value in (record.profile.get("values") or {}).items():
            if isinstance(value, int) and WORD.fullmatch(plain(text)):
                self.values.setdefault(isl_name(text), value)

    def _learn(self, lv: dict) -> None:
        for key, resolved in (("lower", lv.get("start")), ("upper", lv.get("limit"))):
            text = (lv.get(key) or "").strip()
            if set(WORD.findall(text)) - self.loop_vars:
                self.open = True
            if (
                WORD.fullmatch(plain(text))
                and text not in self.loop_vars
                and isinstance(resolved, int)
            ):
                self.values.setdefault(isl_name(text), resolved)

    def _learn_subscripts(self, acc: dict) -> None:
        """A subscript written as one name the analysis knows the value of (``i = 1;``
        before an NPB plane loop): that value, as a bound's name gives its own."""
        subs = written_subscripts(acc.get("text") or "") or []
        for sub, resolved in zip(subs, acc.get("index_exprs") or [], strict=False):
            if (
                isinstance(sub, c_ast.ID)
                and sub.name not in self.loop_vars
                and isinstance(resolved, int)
            ):
                self.values.setdefault(isl_name(sub.name), resolved)

    def usable(self, names: set[str]) -> bool:
        return not names & self.banned


def consistent(node: c_ast.Node, resolved, sizes: Sizes) -> bool:
    """The expression as written names only loop variables and usable sizes, and with the
    known sizes' values it is the analysis's resolved expression (so a local computed in
    the nest is never taken for a size)."""
    names = size_names(node)
    if not sizes.usable(names):
        return False
    free = names - sizes.loop_vars
    if not free:
        return True
    if resolved is None or not all(isl_name(n) in sizes.values for n in free):
        return resolved is None and all(isl_name(n) not in sizes.values for n in free)
    mine = expr_at(node, {n: sizes.values[isl_name(n)] for n in free})
    return (
        mine is not None
        and exprs.affine(mine) is not None
        and exprs.affine(mine) == exprs.affine(resolved)
    )


def size_names(node: c_ast.Node) -> set[str]:
    """The names (variables, member chains, elements at constant subscripts) in
    ``node``, by their C text."""
    found: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.StructRef | c_ast.ArrayRef):
            try:
                found.add(size_text(n))
                continue
            except NotAffine:
                pass
        if isinstance(n, c_ast.ID):
            found.add(n.name)
        stack.extend(child for _, child in n.children())
    return found


def expr_at(node: c_ast.Node, values: dict[str, int]):
    """``node`` as an analysis Expr with the sizes' values in (affine nodes only): the
    sizes' C text replaced by their values, longest first."""
    text = exprs.to_c_node(node)
    for name in sorted(values, key=len, reverse=True):
        pattern = rf"(?<![\w.>\]]){re.escape(name)}(?![\w\[])"
        text = re.sub(pattern, f"({values[name]})", text)
    try:
        return build(parse(text), lambda name: name, lambda _t: None)
    except (Symbolic, NotAffine):
        return None


def plain(text: str) -> str:
    """A member chain or constant element as one word (``g->nx`` -> ``g_nx``,
    ``grid_points[0]`` -> ``grid_points_0_``), to tell a bare size."""
    return text.replace("->", "_").replace(".", "_").replace("[", "_").replace("]", "_")


def parse(text: str) -> c_ast.Node:
    try:
        ast = c_parser.CParser().parse(f"long __autotune_f(void) {{ return ({text}); }}")
    except Exception as exc:  # pycparser raises several kinds
        raise NotAffine(f"cannot read {text!r}") from exc
    return ast.ext[0].body.block_items[0].expr


def written_subscripts(text: str) -> list[c_ast.Node] | None:
    """The subscripts of an access as written (``a[i][j + 1]``: ``i``, ``j + 1``), outermost
    first; None when the text does not read as C."""
    try:
        node = parse(text)
    except NotAffine:
        return None
    subs: list[c_ast.Node] = []
    while isinstance(node, c_ast.ArrayRef):
        subs.insert(0, node.subscript)
        node = node.name
    return subs
