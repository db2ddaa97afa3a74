"""Small pycparser helpers shared by the body walker."""

from __future__ import annotations

from pycparser import c_ast


def decl_ids(node: c_ast.Node) -> set[int]:
    out = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Decl):
            out.add(id(n))
        stack.extend(c for _, c in n.children())
    return out


def written_names(node: c_ast.Node) -> set[str]:
    out = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, c_ast.ID):
            out.add(n.lvalue.name)
        elif (
            isinstance(n, c_ast.UnaryOp)
            and n.op in ("++", "--", "p++", "p--")
            and isinstance(n.expr, c_ast.ID)
        ):
            out.add(n.expr.name)
        stack.extend(c for _, c in n.children())
    return out


def deref_as_arrayref(e: c_ast.Node) -> c_ast.ArrayRef | None:
    """``*p`` -> ``p[0]``; ``*(p + i)`` -> ``p[i]``."""
    if isinstance(e, c_ast.ID):
        return c_ast.ArrayRef(e, c_ast.Constant("int", "0"), e.coord)
    if isinstance(e, c_ast.BinaryOp) and e.op == "+":
        if isinstance(e.left, c_ast.ID):
            return c_ast.ArrayRef(e.left, e.right, e.coord)
        if isinstance(e.right, c_ast.ID):
            return c_ast.ArrayRef(e.right, e.left, e.coord)
    return None


def walk(node: c_ast.Node):
    """Every node below ``node`` (itself included), in no particular order."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(c for _, c in n.children())


def lvalues(node: c_ast.Node) -> list[c_ast.Node]:
    """What ``node`` assigns: left sides of ``=``/``op=`` and operands of ``++``/``--``."""
    out = []
    for n in walk(node):
        if isinstance(n, c_ast.Assignment):
            out.append(n.lvalue)
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
            out.append(n.expr)
    return out


def local_names(func: c_ast.FuncDef) -> set[str]:
    """Names a function declares (its parameters and locals): not in scope in a caller."""
    names = {n.name for n in walk(func.body) if isinstance(n, c_ast.Decl) and n.name}
    params = func.decl.type.args.params if func.decl.type.args else []
    return names | {p.name for p in params if isinstance(p, c_ast.Decl) and p.name}


def path_to(root: c_ast.Node, target: c_ast.Node) -> list[c_ast.Node] | None:
    """The nodes from ``root`` down to ``target``, both included (None: not below)."""
    path = [root]

    def find(node: c_ast.Node) -> bool:
        if node is target:
            return True
        for _, child in node.children():
            path.append(child)
            if find(child):
                return True
            path.pop()
        return False

    return path if find(root) else None


def loop_var_name(node: c_ast.For) -> str | None:
    """The variable a ``for`` header starts: ``i`` of ``i = 0`` or ``int i = 0``."""
    init = node.init
    if isinstance(init, c_ast.DeclList) and init.decls:
        return init.decls[0].name
    if isinstance(init, c_ast.Assignment) and isinstance(init.lvalue, c_ast.ID):
        return init.lvalue.name
    return None


def team_shared(decl: c_ast.Decl) -> bool:
    """Declared ``static`` or ``extern``: one object for the whole team, even inside a
    parallel region or a function every thread calls (DataRaceBench DRB090)."""
    return bool({"static", "extern"} & set(decl.storage or []))


def subscripts(lv: c_ast.Node) -> list[c_ast.Node]:
    """The subscripts of an element or member chain (``a[i].f[j]``: ``j``, ``i``)."""
    out = []
    while isinstance(lv, c_ast.ArrayRef | c_ast.StructRef):
        if isinstance(lv, c_ast.ArrayRef):
            out.append(lv.subscript)
        lv = lv.name
    return out
