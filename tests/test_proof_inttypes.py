"""Integer expressions as the proof reads them, against what gcc computes: unsigned
arithmetic wraps modulo 2^32 (2^64 before a remainder, a division, a shift or a mask),
conversions to a type that cannot hold the value wrap, signed arithmetic does not
(its overflow is undefined). Each expression is folded by ``poly.PolyBuilder`` with the
types of ``proof.inttypes`` and compared with the same expression compiled and run. A
conversion to a type narrower than ``int`` is no value to the proof (``decls.narrows``),
so none is listed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from pycparser import c_ast

from autotune.analysis.proof import poly
from autotune.analysis.proof.decls import narrows
from autotune.analysis.proof.inttypes import ExprTypes
from autotune.analysis.symbols import Scope
from autotune.frontend.cparse import parse_file
from autotune.frontend.options import SourceOptions

EXPRESSIONS = [
    "7u - 9u",
    "-1u",
    "~0u",
    "2654435761u * 999u",
    "(unsigned)999 * 2654435761u % 1000u",
    "(unsigned)(-3) % 10u",
    "(unsigned)(5 - 505) % 1000",
    "0xFFFFFFFF + 1",
    "0xFFFFFFFFu + 1u",
    "4294967295 + 1",
    "(int)4294967297L",
    "(int)(3000000000u)",
    "(long)(unsigned)-1",
    "(1u << 31) * 2u",
    "(unsigned long)999 * 0x9E3779B97F4A7C15ull % 1000",
    "(unsigned long)-1 >> 60",
    "(unsigned)-1 & 255u",
    "-7 / 2",
    "-7 % 3",
    "1000000 * 3000L",
]


def fold(node: c_ast.Node, scope: Scope) -> int | None:
    def no_names(_name: str, _at: c_ast.Node) -> poly.Poly | None:
        return None

    builder = poly.PolyBuilder(no_names, narrow=lambda t: narrows(scope, t), types=ExprTypes(scope))
    value = builder.build(node)
    return poly.constant_of(value) if value is not None else None


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_constants_fold_as_gcc_computes_them(tmp_path: Path):
    body = "\n".join(f'    printf("%lld\\n", (long long)({e}));' for e in EXPRESSIONS)
    src = tmp_path / "exprs.c"
    src.write_text(f"#include <stdio.h>\nint main(void)\n{{\n{body}\n    return 0;\n}}\n")
    exe = tmp_path / "exprs"
    subprocess.run(["gcc", "-w", str(src), "-o", str(exe)], check=True)
    expected = [
        int(x)
        for x in subprocess.run(
            [str(exe)], capture_output=True, text=True, check=True
        ).stdout.split()
    ]
    ast = parse_file(str(src), SourceOptions())
    main = next(n for n in ast.ext if isinstance(n, c_ast.FuncDef))
    scope = Scope(main, ast)
    calls = [s for s in main.body.block_items if isinstance(s, c_ast.FuncCall)]
    got = {}
    for text, call, want in zip(EXPRESSIONS, calls, expected, strict=True):
        cast = call.args.exprs[1]  # (long long)(EXPR): long long holds every value here
        value = fold(cast.expr, scope)
        if value is not None:
            got[text] = (value, want)
    wrong = {t: v for t, v in got.items() if v[0] != v[1]}
    assert not wrong, wrong
    # every expression here folds: none is left unknown
    assert sorted(got) == sorted(EXPRESSIONS), set(EXPRESSIONS) - set(got)
