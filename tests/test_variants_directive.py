"""Reading pragmas from the user's text, rewriting clauses, finding statement ends."""

from __future__ import annotations

import pytest

from autotune.variants import cscan
from autotune.variants.directive import ClauseEdit, flat_text, parse_pragma, rewrite
from autotune.variants.errors import EmitError


def _pragma(src: str, line: int):
    return parse_pragma(src, cscan.line_starts(src), line, "t.c")


def test_spacing_comments_and_commas_survive() -> None:
    src = (
        "int x;\n"
        "  #  pragma   omp parallel   for reduction(+:s), /* keep */ "
        "if(n > (2*3)) schedule( static , 4 ) nowait // hot\n"
        "for(;;);\n"
    )
    p = _pragma(src, 2)
    assert p.construct == "parallel for"
    assert [c.name for c in p.clauses] == ["reduction", "if", "schedule", "nowait"]
    assert p.clause("if").text == "if(n > (2*3))"
    new = rewrite(src, p, ClauseEdit("dynamic", 8, "3"))
    assert new == (
        "  #  pragma   omp parallel   for reduction(+:s), /* keep */ "
        "if(n > (2*3)) schedule(dynamic, 8) nowait num_threads(3) // hot"
    )
    # nothing asked, nothing changed
    assert rewrite(src, p, ClauseEdit()) == src[p.start : p.end]


def test_continued_pragma_keeps_its_line_count() -> None:
    src = (
        "#pragma omp parallel for \\\n"
        "    reduction(+:sum) schedule(dynamic, \\\n"
        "    4) \\\n"
        "    collapse(2)\n"
        "for (;;);\n"
    )
    p = _pragma(src, 1)
    assert p.end == src.index("\nfor")
    assert [c.name for c in p.clauses] == ["reduction", "schedule", "collapse"]
    new = rewrite(src, p, ClauseEdit("guided", None, "2"))
    assert new.count("\n") == src[p.start : p.end].count("\n") == 3
    assert flat_text(new) == (
        "#pragma omp parallel for reduction(+:sum) schedule(guided) collapse(2) num_threads(2)"
    )


def test_existing_clauses_are_replaced_in_place() -> None:
    src = "#pragma omp parallel num_threads(n+1) private(t) if(go)\n{}\n"
    p = _pragma(src, 1)
    new = rewrite(src, p, ClauseEdit(num_threads="4"))
    assert new == "#pragma omp parallel num_threads(4) private(t) if(go)"


def test_not_a_pragma_line_is_an_emit_error() -> None:
    src = "int x;\nPRAGMA_FOR\nfor(;;);\n"
    with pytest.raises(EmitError, match="comes from a macro.*left as written"):
        _pragma(src, 2)
    with pytest.raises(EmitError):
        _pragma(src, 9)


@pytest.mark.parametrize(
    "stmt,expected_end",
    [
        ("for (i = 0; i < n; i++) { a[i] = '}'; /* } */ s = \"}{;\"; }  rest", "}"),
        ('for (i = 0; i < n; i++)\n  a[i] = f(i, (b[0]), c[";"[0]]);  // x;\nrest', ";"),
        (
            "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n"
            "    if (i < j) x = 1; else { y = 2; }"
            " rest",
            "}",
        ),
        ("for (i = 0; i < n; i++)\n  if (i) x = 1;\n  rest = 2;", ";"),
        ("for (i = 0; i < n; i++)\n#pragma omp simd\n  for (j = 0; j < n; j++) x += j;\nrest", ";"),
        ("for (i = 0; i < n; i++) do { x++; } while (x < 3); rest", ";"),
        ("for (i = 0; i < n; i++) s = (struct p){1, 2}.x; rest", ";"),
    ],
)
def test_statement_end(stmt: str, expected_end: str) -> None:
    end = cscan.statement_end(stmt, 0)
    assert stmt[end - 1] == expected_end
    assert stmt[end:].strip().startswith("rest") or stmt[end:].strip().startswith("//")


def test_statement_end_errors() -> None:
    with pytest.raises(cscan.ScanError):
        cscan.statement_end("for (i = 0; i < n; i++) { x = 1;", 0)
    with pytest.raises(cscan.ScanError):
        cscan.statement_end('for (i = 0; i < n; i++) x = "open;\n', 0)
