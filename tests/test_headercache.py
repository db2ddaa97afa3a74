"""What the front end does once and keeps: the system headers parsed once per header set
(the joined parse is the parse of the whole unit, every node and coordinate, with a cold
cache, a warm one and a corrupt one), and the OpenMP runtime probed once per compiler."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

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


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_joined_parse_is_the_whole_parse(path, tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path))
    options = SourceOptions({}, [], [])
    whole = _dump(parse_text(preprocess(str(path), options).text, str(path)))
    cold = parse_file(str(path), options)
    kept = list((tmp_path / "headers").glob("*.pickle"))
    assert len(kept) == 1  # the system headers' parse, kept for the next unit
    warm = parse_file(str(path), options)
    assert _dump(cold) == whole
    assert _dump(warm) == whole
    kept[0].write_bytes(b"not a pickle")
    assert _dump(parse_file(str(path), options)) == whole


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
