"""Front end: preprocessing, parsing, pragma clauses and loop discovery on real C."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from autotune.analysis import analyze_file
from autotune.cli.main import main
from autotune.errors import UserError
from autotune.frontend.pragmas import parse_omp, split_items

HEADERS = """#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <omp.h>
#include <sys/time.h>
#include <string.h>
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_parse_omp_clauses_kept_verbatim():
    kind, c = parse_omp(
        "omp parallel for schedule( dynamic , 8 ) reduction(+:s,t) "
        "private(i, j) firstprivate(x) lastprivate(y) nowait collapse(2) "
        "num_threads(n/2) if(n > 100) proc_bind(close)"
    )
    assert kind == "parallel for"
    assert (c.schedule, c.chunk, c.collapse) == ("dynamic", "8", 2)
    assert c.reduction == ["+:s,t"] and c.private == ["i", "j"]
    assert c.firstprivate == ["x"] and c.lastprivate == ["y"]
    assert c.nowait and c.num_threads == "n/2" and c.if_clause == "n > 100"
    assert c.other == ["proc_bind(close)"]
    assert parse_omp("GCC ivdep") is None
    assert parse_omp("omp for ordered")[1].ordered
    assert split_items("for schedule(static,4), nowait") == ["for", "schedule(static,4)", "nowait"]


def test_update_is_a_clause_of_atomic_and_a_directive_after_target():
    """'atomic update' is the atomic construct (the proof walks it as one); 'target
    update' is a standalone directive of its own."""
    assert parse_omp("omp atomic update")[0] == "atomic"
    kind, c = parse_omp("omp atomic seq_cst update")
    assert kind == "atomic" and c.other == ["seq_cst", "update"]
    assert parse_omp("omp atomic update relaxed")[0] == "atomic"
    assert parse_omp("omp target update to(a[0:n])")[0] == "target update"


def test_finds_loops_with_system_headers_and_macros(tmp_path):
    src = write(
        tmp_path,
        "prog.c",
        HEADERS
        + """
#ifndef N
#define N 1000
#endif
double a[N], b[N];
int main(void) {
  double s = 0.0;
  int t, i;
  for (t = 0; t < 3; t++) {
#pragma omp parallel for reduction(+:s) schedule(static)
    for (i = 0; i < N; i++) { a[i] = sqrt(b[i]) * 2.0; s += a[i]; }
  }
#pragma omp parallel num_threads(2)
  {
#pragma omp for nowait
    for (i = 0; i < N; i++) a[i] = b[i];
    if (N > 10) {
#pragma omp for
      for (i = 0; i < N; i++) b[i] = a[i];
    }
  }
  printf("%f\\n", s);
  return 0;
}
""",
    )
    unit = analyze_file(src, defines={"N": "500"})
    lines = [(r.line, r.directive.kind) for r in unit.loops]
    assert lines == [(17, "parallel for"), (22, "for"), (25, "for")]
    first, second, third = unit.loops
    assert first.id.endswith("prog.c:17") and first.function == "main"
    assert first.directive.line == 16 and first.directive.clauses.reduction == ["+:s"]
    assert first.parallel is first.directive
    # num_threads belongs to the enclosing parallel region
    assert second.parallel.kind == "parallel" and second.parallel.clauses.num_threads == "2"
    assert third.parallel is second.parallel and second.directive.clauses.nowait
    region = [g for g in unit.regions if g.directive.kind == "parallel"]
    assert region and region[0].children == [second.id, third.id]


def test_missing_file_is_one_line_exit_2(capsys, tmp_path):
    rc = main(["analyze", str(tmp_path / "nope.c")])
    err = capsys.readouterr().err
    assert rc == 2 and "nope.c" in err and "no such file" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_syntax_error_reports_user_file_and_line(capsys, tmp_path):
    src = write(tmp_path, "bad.c", HEADERS + "int main(void) {\n  int x = ;\n  return 0;\n}\n")
    rc = main(["analyze", src])
    err = capsys.readouterr().err.strip()
    assert rc == 2 and f"{src}:8" in err and len(err.splitlines()) == 1


def test_preprocessor_error_names_the_include(capsys, tmp_path):
    src = write(tmp_path, "inc.c", '#include "missing_header.h"\nint main(void){return 0;}\n')
    rc = main(["analyze", src])
    err = capsys.readouterr().err
    assert rc == 2 and "missing_header.h" in err and "Traceback" not in err


def test_complex_arithmetic_parses_and_counts_its_functions(capsys, tmp_path):
    """<complex.h>'s I is an imaginary constant (1.0iF) pycparser has no type for; the
    loop is read, and cexp and cabs are weighed as the math they evaluate."""
    src = write(
        tmp_path,
        "z.c",
        HEADERS
        + """#include <complex.h>
double complex z[256];
double m[256];
int main(void) {
#pragma omp parallel for
  for (int k = 0; k < 256; k++) {
    z[k] = cexp(I * 0.01 * k) + 2.0fi;
    m[k] = cabs(z[k]);
  }
  printf("%f\\n", m[9]);
  return 0;
}
""",
    )
    assert main(["analyze", src, "--json"]) == 0
    out = capsys.readouterr().out
    (loop,) = json.loads(out)["loops"]
    assert loop["tunable"] and "call" not in loop["ops"], loop["ops"]
    assert loop["ops"]["cexp"] == 256 and loop["ops"]["cabs"] == 256


def test_a_parse_error_on_a_line_a_system_macro_expanded_names_the_users_line(capsys, tmp_path):
    """gcc flags the user's line a system header's macro expanded into as system code
    (C11's atomic_load uses __auto_type): the error still names the user's file:line."""
    src = write(
        tmp_path,
        "a.c",
        "#include <stdatomic.h>\natomic_int hits;\n\nint get(void) {\n"
        "  return atomic_load(&hits);\n}\n",
    )
    assert main(["analyze", src]) == 2
    err = capsys.readouterr().err.strip()
    assert f"{src}:5:" in err and "<system>" not in err and len(err.splitlines()) == 1


def test_inline_assembly_parses_and_only_the_loops_that_run_it_are_kept(capsys, tmp_path):
    """A cycle-counter header (``__asm__ __volatile__("rdtsc" ...)`` in a static inline
    function) made every file including it unparseable; a declaration's asm label and a
    register variable's are erased. A loop that runs no asm is proven as before; one that
    calls the counter is kept, naming the asm's line in the header."""
    (tmp_path / "cycles.h").write_text(
        "#include <stdint.h>\n"
        "static inline uint64_t read_tsc(void) {\n"
        "  uint32_t lo, hi;\n"
        '  __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));\n'
        "  return ((uint64_t)hi << 32) | lo;\n"
        "}\n"
    )
    src = write(
        tmp_path,
        "k.c",
        '#include <stdio.h>\n#include "cycles.h"\n#define N 4096\n'
        "static double a[N];\nstatic uint64_t stamp[N];\n"
        'long helper(void) __asm__("helper_v2");\nlong helper(void) { return 3; }\n'
        "int main(void) {\n"
        '  register long r asm("r12") = 5;\n'
        "#pragma omp parallel for\n"
        "  for (int i = 0; i < N; i++) a[i] = i * 0.5;\n"
        "#pragma omp parallel for\n"
        "  for (int i = 0; i < N; i++) stamp[i] = read_tsc();\n"
        '  printf("%f %ld %ld\\n", a[7], helper(), r);\n'
        "  return 0;\n}\n",
    )
    assert main(["analyze", src, "--json"]) == 0
    loops = {lp["line"]: lp for lp in json.loads(capsys.readouterr().out)["loops"]}
    assert loops[11]["tunable"], loops[11]
    assert not loops[13]["tunable"]
    assert "inline assembly at" in loops[13]["reason"] and "cycles.h:4" in loops[13]["reason"]
    # the word in a string or character literal is no statement
    from autotune.frontend.inlineasm import replace_asm

    text = '# 1 "a.c"\nvoid f(void) { printf("asm(%d)", 1); char c = \'(\'; asm("pause"); }\n'
    assert replace_asm(text) == text.replace('asm("pause")', "__autotune_asm__()")


def test_the_x86_intrinsics_header_parses_and_lines_after_an_asm_macro_stay_right(capsys, tmp_path):
    """<immintrin.h> failed to parse: its asm macros, expanded with our command-line
    ``__volatile__``, came out with line markers between ``__asm__``, ``volatile`` and
    the parenthesis. A user's asm macro spans them too, and the loop after it keeps its
    line."""
    src = write(
        tmp_path,
        "v.c",
        "#include <stdio.h>\n#include <immintrin.h>\n"
        '#define PAUSE() __asm__ __volatile__("pause")\n'
        "#define N 4096\nstatic double x[N], y[N];\n"
        "int main(void) {\n"
        "#pragma omp parallel for\n"
        "  for (int i = 0; i < N; i += 4)\n"
        "    _mm256_storeu_pd(&y[i], _mm256_loadu_pd(&x[i]));\n"
        "  PAUSE();\n"
        "#pragma omp parallel for\n"
        "  for (int i = 0; i < N; i++)\n"
        "    y[i] += 1.0;\n"
        '  printf("%f\\n", y[5]);\n'
        "  return 0;\n}\n",
    )
    assert main(["analyze", src, "--json"]) == 0
    loops = {lp["line"]: lp for lp in json.loads(capsys.readouterr().out)["loops"]}
    assert sorted(loops) == [8, 12]
    assert loops[8]["tunable"] and loops[12]["tunable"]


@pytest.mark.parametrize(
    "code, line, what",
    [
        (
            "#define SWAP(a, b) do { typeof(a) t_ = (a); (a) = (b); (b) = t_; } while (0)\n"
            "void f(double *x, double *y) {\n  SWAP(*x, *y);\n}\n",
            3,
            "typeof (GNU C, C23)",
        ),
        (
            "int f(int c) {\n  switch (c) { case 1 ... 5: return 1; }\n  return 0;\n}\n",
            2,
            "a case range (GNU C)",
        ),
        ("int f(int x) {\n  return x ?: 7;\n}\n", 2, "x ?: y (GNU C)"),
        ("int f(int x) {\n  __auto_type y = x;\n  return y;\n}\n", 2, "__auto_type (GNU C)"),
        # pycparser's error for _Generic has no line: the construct is found by name
        (
            "int twice(double x) {\n  return 2 * _Generic(x, double: 1, default: 0);\n}\n",
            2,
            "a _Generic selection (C11)",
        ),
    ],
)
def test_gnu_constructs_the_parser_cannot_read_are_named(capsys, tmp_path, code, line, what):
    """pycparser says 'before: t_' or 'Invalid expression'; the message names the GNU C
    construct (in a macro's expansion too) on the user's line. A construct the installed
    pycparser reads (3.12 reads _Generic) is analysed instead: the user sees either."""
    from autotune.frontend.unsupported import known_constructs, parser_reads

    named = next(k for k in known_constructs() if what in k)
    src = write(tmp_path, "gnu.c", code)
    if parser_reads(named):
        assert main(["analyze", src]) == 0
        out = capsys.readouterr().out
        assert "0 OpenMP loop(s)" in out, out
        return
    assert main(["analyze", src]) == 2
    err = capsys.readouterr().err.strip()
    assert f"{src}:{line}: cannot parse C: " in err and what in err, err
    assert "the compiler accepts this file" in err and len(err.splitlines()) == 1


def test_autotunes_own_preprocessing_failing_is_not_called_the_compilers(
    capsys, tmp_path, monkeypatch
):
    """When the definitions that neutralise GCC's extensions break a header's macro,
    the message says the compiler accepts the file (it is autotune's limit), not that
    the compiler rejects it. The one-argument __typeof__ autotune used to define meets
    <stdatomic.h>'s __typeof__ ((void)0, *p)."""
    from autotune.frontend import preprocess

    defines = [
        d if not d.startswith("-D__typeof__(") else "-D__typeof__(x)=int"
        for d in preprocess.NEUTRALISE_DEFINES
    ]
    monkeypatch.setattr(preprocess, "NEUTRALISE_DEFINES", defines)
    src = write(
        tmp_path,
        "a.c",
        "#include <stdatomic.h>\natomic_int hits;\nint get(void) { return atomic_load(&hits); }\n",
    )
    assert main(["analyze", src]) == 2
    err = capsys.readouterr().err.strip()
    assert "cannot preprocess the file for analysis" in err and "compiler accepts" in err, err


def test_include_dir_and_cflags_defines(tmp_path):
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "sizes.h").write_text("#define LEN (M * 2)\n")
    src = write(
        tmp_path,
        "p.c",
        '#include "sizes.h"\nint a[LEN];\nvoid f(void) {\n'
        "#pragma omp parallel for\n  for (int i = 0; i < LEN; i++) a[i] = i;\n}\n",
    )
    with pytest.raises(UserError):
        analyze_file(src)  # M undefined: the parse (or preprocess) fails clearly
    unit = analyze_file(src, include_dirs=[str(inc)], cflags=["-DM=21"])
    assert len(unit.loops) == 1 and unit.loops[0].line == 5


def test_orphaned_and_non_loop_directives(tmp_path):
    src = write(
        tmp_path,
        "o.c",
        """
void work(double *a, int n) {
  int i;
#pragma omp for schedule(dynamic, 4)
  for (i = 0; i < n; i++) a[i] *= 2.0;
}
void ordered_loop(double *a) {
  int i;
#pragma omp parallel for ordered
  for (i = 0; i < 100; i++) {
#pragma omp ordered
    a[i] = a[i] + 1.0;
  }
}
void doacross(double *a) {
  int i;
#pragma omp parallel for ordered(1)
  for (i = 1; i < 100; i++) {
#pragma omp ordered depend(sink: i - 1)
    a[i] = a[i - 1] * 0.5 + i;
#pragma omp ordered depend(source)
  }
}
""",
    )
    unit = analyze_file(src)
    orphan, ordered, doacross = unit.loops
    assert orphan.parallel is None and orphan.directive.clauses.schedule == "dynamic"
    assert ordered.tunable  # the ordered region runs in the iterations' order
    assert not doacross.tunable and "doacross" in doacross.reason


def test_analyze_json_fields(capsys, tmp_path):
    src = write(
        tmp_path,
        "j.c",
        HEADERS
        + """
#define N 64
double x[N];
int main(void) {
#pragma omp parallel for schedule(static, 4)
  for (int i = 0; i < N; i++) x[i] = i * 0.5;
  printf("%f\\n", x[3]);
  return 0;
}
""",
    )
    assert main(["analyze", src, "--json", "--threads", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    (loop,) = data["loops"]
    for key in (
        "id",
        "file",
        "line",
        "function",
        "directive",
        "clauses",
        "trip_count",
        "iterations",
        "weighted_ops",
        "ops",
        "footprint_bytes",
        "footprint_bytes_per_thread",
        "tunable",
        "reason",
    ):
        assert key in loop, key
    assert loop["line"] == 12 and loop["directive"] == "parallel for"
    assert loop["clauses"]["schedule"] == "static" and loop["clauses"]["chunk"] == "4"


def test_stub_headers_parse_common_programs(tmp_path):
    """The fallback headers (used when pycparser cannot parse the system's) must
    carry the declarations and macros real programs use."""
    from autotune.frontend.cparse import parse_text
    from autotune.frontend.options import SourceOptions
    from autotune.frontend.preprocess import preprocess

    src = write(
        tmp_path,
        "s.c",
        HEADERS
        + """#include <stdint.h>
#include <time.h>
#include <limits.h>
#include <float.h>
#include <assert.h>
#include <stdbool.h>
#include <unistd.h>
int main(void) {
  struct timeval tv; gettimeofday(&tv, NULL);
  double *x = (double *)malloc(100 * sizeof(double));
  assert(x != NULL);
  bool ok = true;
  x[0] = sqrt(M_PI) + DBL_EPSILON + (double)RAND_MAX + INT_MAX + omp_get_wtime();
  memset(x, 0, sizeof(double));
  printf("%f %d\\n", x[0], (int)ok);
  free(x);
  return EXIT_SUCCESS;
}
""",
    )
    pre = preprocess(src, SourceOptions(), use_stubs=True)
    assert pre.used_stubs and "-nostdinc" in pre.argv
    ast = parse_text(pre.text, src)
    assert any(getattr(e, "decl", None) and e.decl.name == "main" for e in ast.ext)


def test_atomic_and_critical_executions_are_counted(tmp_path):
    src = write(
        tmp_path,
        "sync.c",
        """
#define N 100
int hist[8]; double total;
void f(const int *key) {
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < 3; j++) {
#pragma omp atomic
      hist[(key[i] + j) & 7] += 1;
    }
#pragma omp critical
    total += key[i];
  }
}
""",
    )
    (loop,) = analyze_file(src).loops
    assert loop.sync_ops == 100 * 3 + 100  # inner atomic per iteration + critical per row


def test_a_file_under_usr_local_src_is_the_users_code(tmp_path):
    """Where a file lives does not make it a system header: the preprocessor's line
    markers do. A program under /usr/local/src analyses like the same file elsewhere."""
    import os
    import shutil
    import uuid

    src = "/usr/local/src"
    if not (os.path.isdir(src) and os.access(src, os.W_OK)):
        pytest.skip("/usr/local/src is not writable here")
    text = (
        "#include <stdio.h>\n#define N 1000\ndouble a[N];\nint main(void) {\n"
        "#pragma omp parallel for\n  for (int i = 0; i < N; i++) a[i] = i * 2.0;\n"
        '  printf("%f\\n", a[N - 1]);\n  return 0;\n}\n'
    )
    home = tmp_path / "prog.c"
    home.write_text(text)
    folder = os.path.join(src, f"autotune-test-{uuid.uuid4().hex[:8]}")
    os.makedirs(folder)
    try:
        there = os.path.join(folder, "prog.c")
        with open(there, "w") as fh:
            fh.write(text)
        here_loops = analyze_file(str(home)).loops
        there_loops = analyze_file(there).loops
    finally:
        shutil.rmtree(folder)
    assert len(here_loops) == len(there_loops) == 1
    assert there_loops[0].trip_count == here_loops[0].trip_count == 1000
    assert there_loops[0].tunable == here_loops[0].tunable


def test_one_rule_for_pragma_runs():
    """A run of pragmas governs the next statement; standalone directives govern
    nothing; pragmas at a block's end dangle. Every walk uses this one helper."""
    from pycparser import c_parser

    from autotune.frontend.runs import pragma_runs

    src = (
        "void f(int n, double *a) {\n"
        "#pragma omp parallel\n{\n"
        "#pragma omp barrier\n"
        "#pragma omp for nowait\n"
        "for (int i = 0; i < n; i++) a[i] = 0;\n"
        "#pragma omp section\n"
        "a[0] = 1;\n"
        "#pragma omp single\n"
        "}\n}\n"
    )
    body = c_parser.CParser().parse(src).ext[0].body.block_items[1]  # the region's block
    runs = list(pragma_runs(body.block_items))
    kinds = [([d.kind for d in r.directives], type(r.stmt).__name__, r.dangling) for r in runs]
    assert kinds == [
        (["barrier"], "NoneType", False),
        (["for"], "For", False),
        (["section"], "NoneType", False),  # a marker inside sections
        ([], "Assignment", False),
        (["single"], "NoneType", True),
    ]
    marked = list(pragma_runs(body.block_items, also_standalone=frozenset({"single"})))
    assert not marked[-1].dangling and marked[-1].standalone.kind == "single"


def test_the_users_headers_are_named_and_system_ones_left_out(tmp_path):
    """What a kept decision depends on: the user's headers (also one that only defines a
    size), never the system's, also where a system macro (``stderr``) expands into the
    user's lines and gcc flags them as from a system header."""
    from autotune.frontend.options import SourceOptions
    from autotune.frontend.preprocess import preprocess

    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "gridparams.h").write_text("#define NX 12\n")
    (tmp_path / "local.h").write_text('#include "gridparams.h"\nstatic double u[NX];\n')
    src = tmp_path / "solver.c"
    src.write_text(
        '#include <stdio.h>\n#include <stdlib.h>\n#include "local.h"\n'
        'int main(void)\n{\n    if (!u) {\n        fprintf(stderr, "none\\n");\n'
        "        exit(1);\n    }\n    return 0;\n}\n"
    )
    pre = preprocess(str(src), SourceOptions({}, [str(inc)], []))
    assert pre.headers == [str(inc / "gridparams.h"), str(tmp_path / "local.h")]


def test_labels_as_values_cost_only_the_loop_that_jumps_through_them(capsys, tmp_path):
    """An interpreter dispatching through ``&&label`` tables (GNU C) failed the whole
    file's parse; now the loop that runs it is kept for its computed goto, with the
    place, and the file's other loop varies; its variants compile from the user's text
    (the labels untouched) and print what the original prints."""
    src = Path(__file__).parent / "data" / "c" / "proof" / "label_dispatch.c"
    assert main(["analyze", str(src), "--json"]) == 0
    loops = {lp["line"]: lp for lp in json.loads(capsys.readouterr().out)["loops"]}
    assert sorted(loops) == [40, 43]
    assert f"kept as written: a goto at {src}:18" in loops[40]["kept"]["schedule"]
    assert set(loops[40]["kept"]) == {"schedule", "threads"} and loops[43]["kept"] == {}
    out = tmp_path / "v"
    assert main(["variants", str(src), "-o", str(out), "--threads", "3"]) == 0
    capsys.readouterr()
    manifest = {lp["line"]: lp for lp in json.loads((out / "manifest.json").read_text())["loops"]}
    made = {
        line: [v["file"] for v in lp.get("variants", []) if v["key"] != "baseline"]
        for line, lp in manifest.items()
    }
    files = made[43]
    assert files and not made[40]
    exe = tmp_path / "orig"
    subprocess.run(["gcc", "-O1", "-fopenmp", str(src), "-o", str(exe)], check=True)
    want = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    for f in files:
        text = (out / f).read_text()
        assert "goto *dispatch[program[pc]];" in text and "&&push" in text
        subprocess.run(["gcc", "-O1", "-fopenmp", str(out / f), "-o", str(exe)], check=True)
        got = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
        assert got == want, f
