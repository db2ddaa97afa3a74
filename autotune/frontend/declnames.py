"""Which names a top-level declaration defines and which it uses.

The kept system-header parse (``headercache``) is a thousand declarations of
which a program names a few dozen; unpickling all of them was a tenth of
``autotune rank``. With these sets the cache hands back only the declarations
the program reaches: the ones defining a name it uses, then, transitively, the
ones those use (``FILE`` -> ``struct _IO_FILE`` -> ``__off_t``).

Ordinary identifiers (objects, functions, typedefs, enumerators) share one
namespace in C; tags are kept apart as ``struct X``, ``union X``, ``enum X``.
"""

from __future__ import annotations

from pycparser import c_ast

_TAG_KIND = {c_ast.Struct: "struct", c_ast.Union: "union", c_ast.Enum: "enum"}


class NameUses(c_ast.NodeVisitor):
    """One walk: names used (``uses``), tags given a body and enumerators (``defines``)."""

    def __init__(self) -> None:
        self.uses: set[str] = set()
        self.defines: set[str] = set()

    def visit_ID(self, node: c_ast.ID) -> None:
        self.uses.add(node.name)

    def visit_IdentifierType(self, node: c_ast.IdentifierType) -> None:
        self.uses.update(node.names)

    def visit_Struct(self, node: c_ast.Struct) -> None:
        self._tag(node, node.decls is not None)

    def visit_Union(self, node: c_ast.Union) -> None:
        self._tag(node, node.decls is not None)

    def visit_Enum(self, node: c_ast.Enum) -> None:
        self._tag(node, node.values is not None)

    def visit_Enumerator(self, node: c_ast.Enumerator) -> None:
        self.defines.add(node.name)
        self.generic_visit(node)

    def _tag(self, node: c_ast.Node, has_body: bool) -> None:
        if node.name:
            tag = f"{_TAG_KIND[type(node)]} {node.name}"
            (self.defines if has_body else self.uses).add(tag)
        self.generic_visit(node)


def declared(decl: c_ast.Node) -> tuple[set[str], set[str]]:
    """(names ``decl`` defines, names it uses) for one external declaration. A bare
    ``struct X;`` defines its tag too (a forward declaration is one of its definers)."""
    walk = NameUses()
    walk.visit(decl)
    defines = set(walk.defines)
    name = getattr(decl, "name", None)
    if isinstance(decl, c_ast.FuncDef):
        name = decl.decl.name
    if isinstance(name, str) and name:
        defines.add(name)
    kind = _TAG_KIND.get(type(getattr(decl, "type", None)))
    if isinstance(decl, c_ast.Decl) and kind and decl.type.name:
        defines.add(f"{kind} {decl.type.name}")
    return defines, walk.uses - defines


def used_names(nodes: list[c_ast.Node]) -> set[str]:
    """Every name the declarations ``nodes`` use or define (a program's own part)."""
    walk = NameUses()
    for node in nodes:
        walk.visit(node)
    return walk.uses | walk.defines


def reached(uses: list[set[str]], definers: dict[str, list[int]], roots: set[str]) -> list[int]:
    """Indices of the declarations reached from ``roots`` (names), in their order."""
    seen: set[int] = set()
    todo = [i for name in roots for i in definers.get(name, ())]
    while todo:
        i = todo.pop()
        if i in seen:
            continue
        seen.add(i)
        todo.extend(j for name in uses[i] for j in definers.get(name, ()))
    return sorted(seen)
