"""Shapes of statements the structure walk names: sections, directive labels, leading names."""

from __future__ import annotations

from pycparser import c_ast

from autotune.frontend.records import Directive


def omp_label(d: Directive) -> str:
    text = d.text if d.text.startswith("omp") else f"omp {d.text}"
    return text if len(text) <= 48 else text[:45] + "..."


def leading_name(stmt: c_ast.Node) -> str | None:
    """The identifier a statement's text starts with (callee or lvalue), if plain."""
    node = stmt
    while True:
        if isinstance(node, c_ast.ID):
            return node.name
        if isinstance(node, c_ast.FuncCall):
            node = node.name
        elif isinstance(node, c_ast.Assignment):
            node = node.lvalue
        elif isinstance(node, (c_ast.ArrayRef,)):
            node = node.name
        elif isinstance(node, c_ast.StructRef):
            node = node.name
        else:
            return None
