"""Initializer lists as stores to struct members (``proof/initlists.py``): positional,
designated, nested, arrays of structs, typedefs and compound literals, read from a C
file through the front end; a list that cannot be matched is reported."""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.proof.initlists import init_stores
from autotune.frontend.cparse import parse_file
from autotune.frontend.options import SourceOptions

SOURCE = r"""
typedef struct { double *data; int n; } view_t;
struct grid { view_t cur; double *next; };
static double a[10], b[10], c[10];
view_t by_position = { a + 1, 9 };
view_t by_name = { .n = 9, .data = b };
struct grid nested = { { c, 10 }, a };
view_t pairs[2] = { { a, 10 }, { .data = b + 2 } };
union either { double *p; long bits; } u = { a };
"""


def _decls(tmp_path) -> tuple[c_ast.FileAST, dict[str, c_ast.Decl]]:
    src = tmp_path / "views.c"
    src.write_text(SOURCE)
    ast = parse_file(str(src), SourceOptions({}, [], []))
    return ast, {e.name: e for e in ast.ext if isinstance(e, c_ast.Decl) and e.init is not None}


def _stores(tmp_path, name: str) -> tuple[list[tuple[str, str]], bool]:
    from pycparser import c_generator

    ast, decls = _decls(tmp_path)
    d = decls[name]
    stores, opaque = init_stores(d.type, d.init, ast)
    text = c_generator.CGenerator().visit
    return [(member, text(value)) for member, value in stores], opaque


def test_positional_and_designated_members(tmp_path):
    assert _stores(tmp_path, "by_position") == ([("data", "a + 1"), ("n", "9")], False)
    assert _stores(tmp_path, "by_name") == ([("n", "9"), ("data", "b")], False)


def test_nested_structs_and_arrays_of_structs(tmp_path):
    assert _stores(tmp_path, "nested") == ([("data", "c"), ("n", "10"), ("next", "a")], False)
    assert _stores(tmp_path, "pairs") == ([("data", "a"), ("n", "10"), ("data", "b + 2")], False)


def test_a_list_it_cannot_match_is_reported(tmp_path):
    stores, opaque = _stores(tmp_path, "u")
    assert stores == [] and opaque
