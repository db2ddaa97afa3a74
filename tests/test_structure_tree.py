"""``autotune structure FILE.c``: the parallel structure tree, driven as a user would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autotune.cli.main import main

KERNELS = Path(__file__).resolve().parent.parent / "kernels"


def run_json(capsys, *argv: str) -> dict:
    rc = main(["structure", *argv, "--json"])
    out = capsys.readouterr().out
    assert rc == 0, out
    return json.loads(out)


def nodes(d: dict) -> list[dict]:
    out = [d]
    for c in d["children"]:
        out.extend(nodes(c))
    return out


def only(d: dict, kind: str) -> dict:
    found = [n for n in nodes(d) if n["kind"] == kind]
    assert len(found) == 1, [n["kind"] for n in nodes(d)]
    return found[0]


def test_stencil_is_an_iteration_over_a_parallel_loop(capsys):
    tree = run_json(capsys, str(KERNELS / "stencil2d.c"), "-D", "TSTEPS=7", "-D", "N=50")["tree"]
    assert tree["kind"] == "program" and tree["skeleton"] == "sequence"
    call = tree["children"][0]
    assert call["kind"] == "call" and call["label"] == "jacobi()"
    (it,) = call["children"]
    assert it["kind"] == "iteration" and it["skeleton"] == "iteration"
    assert it["trip_count"] == 7  # TSTEPS from -D, through the analysis
    assert it["line"] == 34 and it["timed"]
    (loop,) = it["children"]
    assert loop["kind"] == "loop" and loop["skeleton"] == "parmap"
    assert loop["id"].endswith("stencil2d.c:36") and loop["trip_count"] == 48
    assert loop["facts"]["uniform_work"] is True


def test_sections_are_a_binary_composition(capsys):
    tree = run_json(capsys, str(KERNELS / "sections.c"))["tree"]
    it = only(tree, "iteration")
    assert it["trip_count"] == 12
    sec = only(tree, "sections")
    assert sec["skeleton"] == "composition" and sec["line"] == 51
    parts = sec["children"]
    assert [p["kind"] for p in parts] == ["section", "section"]
    assert [p["line"] for p in parts] == [54, 56]
    assert all(p["timing"]["samples"] for p in parts)  # every execution recorded
    assert "collatz_range" in parts[0]["label"] and "series" in parts[1]["label"]


def test_task_recursion_is_divide_and_conquer(capsys):
    tree = run_json(capsys, str(KERNELS / "mergesort_task.c"), "-D", "CUTOFF=3")["tree"]
    kinds = [c["kind"] for c in tree["children"]]
    assert kinds == ["parallel", "loop"]
    dc = only(tree, "dc")
    assert dc["skeleton"] == "dc" and dc["line"] == 85
    assert dc["facts"]["branching"] == 2  # two recursive task calls
    assert dc["facts"]["depth"] == 3  # tasks while depth < CUTOFF, from depth 0
    assert dc["context"] == "one"  # under single: one thread makes the top call
    assert tree["children"][1]["skeleton"] == "parmap"


def test_readable_tree(capsys):
    rc = main(["structure", str(KERNELS / "stencil2d.c")])
    out = capsys.readouterr().out
    assert rc == 0
    lines = out.splitlines()
    assert any(ln.startswith("program main()") for ln in lines)
    it = next(ln for ln in lines if "iteration for (t = 0; t < TSTEPS; t++)" in ln)
    assert "k=100" in it and "stencil2d.c:34" in it
    loop = next(ln for ln in lines if "omp parallel for" in ln)
    assert "└─" in loop and "parMap" in loop and "998 it." in loop


PROGRAM = r"""#include <stdio.h>
#define N 64
static double a[N], b[N];

static void phase(int r)
{
#pragma omp parallel
    {
#pragma omp for nowait
        for (int i = 0; i < N; i++)
            a[i] = i * r;
#pragma omp for
        for (int i = 0; i < N; i++)
            for (int j = 0; j < i; j++)
                b[i] += a[j];
    }
}

static double total(void)
{
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += a[i] + b[i];
    return s;
}

int main(void)
{
    int r;
    for (r = 0; r < 3; r++) phase(r);
    phase(9);
    printf("%.1f\n", total());
    return 0;
}
"""


def test_regions_calls_and_duplicates(tmp_path, capsys):
    src = tmp_path / "prog.c"
    src.write_text(PROGRAM)
    tree = run_json(capsys, str(src))["tree"]
    first, second = tree["children"]
    assert first["kind"] == "iteration" and first["trip_count"] == 3
    call = first["children"][0]
    assert call["kind"] == "call" and call["label"] == "phase()"
    region = call["children"][0]
    assert region["kind"] == "parallel"
    nowait, plain = region["children"]
    assert nowait["timing"]["mode"] == "team_ws_nowait"  # thread 0 after a barrier
    assert plain["timing"]["mode"] == "team_ws" and plain["skeleton"] == "farm"
    # total() holds no OpenMP: sequential work, not a node; phase(9) reaches the same code
    assert second["kind"] == "call" and second["line"] == 31 and second["timed"]
    assert second["children"][0]["duplicate_of"] == region["id"]
    assert not second["children"][0]["timed"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["structure", "nope.c"], "no such file"),
        (["structure", "{k}", "--predict", "N=10,p=1"], "--predict needs --sizes"),
        (["structure", "{k}", "--sizes", "N=1,2", "--predict", "M=10,p=1"], "N=VALUE,p=THREADS"),
        (["structure", "{k}", "--sizes", "N=100", "--predict", "N=10,p=1"], "at least two sizes"),
    ],
)
def test_bad_input_is_one_line(capsys, argv, message):
    argv = [a.replace("{k}", str(KERNELS / "stencil2d.c")) for a in argv]
    rc = main(argv)
    err = capsys.readouterr().err
    assert rc == 2 and message in err and "Traceback" not in err


def test_no_main(tmp_path, capsys):
    src = tmp_path / "lib.c"
    src.write_text(
        "void f(double *a) {\n#pragma omp parallel for\nfor (int i = 0; i < 8; i++) a[i] = i;\n}\n"
    )
    rc = main(["structure", str(src)])
    assert rc == 2 and "no main()" in capsys.readouterr().err


IMPLICIT = r"""#include <stdio.h>
static double x, y, z;
int main(void)
{
#pragma omp parallel sections
    {
        x = 1.0;
        z = 3.0;
#pragma omp section
        y = 2.0;
    }
    printf("%g\n", x + y + z);
    return 0;
}
"""


def test_first_section_without_its_directive(tmp_path, capsys):
    """OpenMP lets the first section omit '#pragma omp section'; it may hold several statements."""
    src = tmp_path / "implicit.c"
    src.write_text(IMPLICIT)
    sec = only(run_json(capsys, str(src))["tree"], "sections")
    first, second = sec["children"]
    assert (first["line"], first["timing"]["begin_line"], first["timing"]["end_line"]) == (7, 7, 8)
    assert (second["line"], second["timing"]["end_line"]) == (10, 10)


def test_the_api_gives_the_tree_the_command_prints(capsys, tmp_path):
    """``Session.structure`` is the command's counterpart: the same tree, same sizes."""
    from autotune.api import Session

    src = str(KERNELS / "stencil2d.c")
    printed = run_json(capsys, src, "-D", "TSTEPS=7", "-D", "N=50")
    session = Session(db=str(tmp_path / "r.db"), defines={"TSTEPS": "7", "N": "50"})
    assert session.structure(src).to_dict() == printed
