"""What the front end does once and keeps: the system headers parsed once per header set,
shared by every file that includes them alike (the joined parse is the parse of the whole
unit, every node and coordinate, less the header declarations the program does not reach
by name, with a cold cache, a warm one and a corrupt one; the analysis is the same as
from one parse of the whole text), and the OpenMP runtime probed once per compiler."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pycparser import c_ast

from autotune.frontend import headercache
from autotune.frontend.cparse import parse_file, parse_text
from autotune.frontend.options import SourceOptions
from autotune.frontend.preprocess import preprocess

ROOT = Path(__file__).resolve().parents[1]
FILES = [
    ROOT / "kernels" / "triad.c",
    ROOT / "kernels" / "spmv_csr.c",
    ROOT / "tests" / "data" / "c" / "nas_style_cg.c",
    ROOT / "tests" / "data" / "c" / "polybench_style_2mm.c",
]


def _dump(ast) -> str:  # a FileAST
    buf = io.StringIO()
    ast.show(buf=buf, showcoord=True)
    return buf.getvalue()


def _reached_part(whole, joined):  # FileASTs: whole's nodes that joined kept, in order
    dumps = {_dump(c_ast.FileAST([d])) for d in joined.ext}
    return c_ast.FileAST([d for d in whole.ext if _dump(c_ast.FileAST([d])) in dumps])


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_joined_parse_is_the_whole_parse(path, tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path))
    options = SourceOptions({}, [], [])
    text = preprocess(str(path), options).text
    whole = parse_text(text, str(path))
    prefix, _ = headercache.split_system_prefix(text)
    n_head = len(parse_text(prefix, str(path)).ext)
    cold = parse_file(str(path), options)
    kept = list((tmp_path / "headers").glob("*.pickle"))
    assert len(kept) == 1  # the system headers' parse, kept for the next unit
    warm = parse_file(str(path), options)
    # the program's own declarations, every one, after the header ones it reaches
    n_own = len(whole.ext) - n_head
    assert _dump(c_ast.FileAST(cold.ext[-n_own:])) == _dump(c_ast.FileAST(whole.ext[n_head:]))
    assert _dump(cold) == _dump(_reached_part(whole, cold))
    assert 0 < len(cold.ext) - n_own < n_head / 2  # most of the headers are not reached
    assert _dump(warm) == _dump(cold)
    kept[0].write_bytes(b"not a pickle")
    assert _dump(parse_file(str(path), options)) == _dump(cold)


def test_the_headers_a_program_names_are_reached(tmp_path, monkeypatch):
    """A typedef through a struct tag to other typedefs, an enumerator, a function."""
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path))
    src = tmp_path / "io.c"
    src.write_text(
        "#include <stdio.h>\n#include <stdlib.h>\n#include <ctype.h>\n"
        'int main(void) {\n  FILE *f = fopen("x", "r");\n'
        "  int mode = _ISdigit;\n  div_t d = div(7, 2);\n"
        "  return f ? d.quot + mode : 0;\n}\n"
    )
    ast = parse_file(str(src), SourceOptions({}, [], []))
    names = {d.decl.name if isinstance(d, c_ast.FuncDef) else d.name for d in ast.ext}
    assert {"FILE", "fopen", "div_t", "div", "main"} <= names
    tags = {d.type.name for d in ast.ext if isinstance(getattr(d, "type", None), c_ast.Struct)}
    assert "_IO_FILE" in tags  # FILE's struct, and what its members name
    assert "__off_t" in names
    assert any(isinstance(getattr(d, "type", None), c_ast.Enum) for d in ast.ext)  # _IS*
    assert "printf" not in names and "qsort" not in names


def test_files_including_the_same_headers_share_one_parse(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path))
    for name in ("first.c", "second.c"):
        src = tmp_path / name
        src.write_text("#include <stdio.h>\n#include <math.h>\nint main(void) { return 0; }\n")
        parse_file(str(src), SourceOptions({}, [], []))
    assert len(list((tmp_path / "headers").glob("*.pickle"))) == 1


@pytest.mark.parametrize("path", FILES[2:], ids=lambda p: p.name)
def test_the_analysis_is_that_of_one_whole_parse(path, tmp_path, monkeypatch):
    """The records of every loop are the same whether the headers came from the cache
    (as a subset) or the whole text was parsed at once (the cache switched off)."""
    from autotune.analysis import analyze_file

    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path))
    cached = [r.to_dict() for r in analyze_file(str(path)).loops]
    monkeypatch.setattr(headercache, "MIN_LINES", 10**9)  # no split: one parse
    whole = [r.to_dict() for r in analyze_file(str(path)).loops]
    assert cached == whole and cached


def test_the_prefix_ends_at_the_users_first_line(tmp_path):
    src = tmp_path / "p.c"
    src.write_text(
        "#include <stdio.h>\nint n = 3;\n#include <stdlib.h>\nint main(void) { return n; }\n"
    )
    text = preprocess(str(src), SourceOptions({}, [], [])).text
    prefix, rest = headercache.split_system_prefix(text)
    assert "printf" in prefix and "int n = 3;" not in prefix
    assert rest.lstrip().startswith("#") and "int n = 3;" in rest and "malloc" in rest


def test_the_openmp_runtime_is_probed_once_per_compiler(tmp_path, monkeypatch):
    """Asked by every rank and every hooked compile: the link is made once, then read."""
    import json

    from autotune.measure import omp_runtime

    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path))
    omp_runtime.openmp_runtime.cache_clear()
    first = omp_runtime.openmp_runtime("gcc")
    kept = tmp_path / "openmp-runtime.json"
    assert first == "libgomp" and json.loads(kept.read_text()) == {
        omp_runtime._compiler_key("gcc"): "libgomp"
    }
    kept.write_text(json.dumps({omp_runtime._compiler_key("gcc"): "libomp"}))
    omp_runtime.openmp_runtime.cache_clear()
    assert omp_runtime.openmp_runtime("gcc") == "libomp"  # read, not linked again
    kept.write_text("{not json")
    omp_runtime.openmp_runtime.cache_clear()
    assert omp_runtime.openmp_runtime("gcc") == "libgomp"  # a bad file: probed again
    omp_runtime.openmp_runtime.cache_clear()
