"""Footprints, trip counts and iterations against brute-force enumeration."""

from __future__ import annotations

import pytest
from analysis_support import analyze, array, brute, distinct_bytes, per_thread_static

from autotune.analysis.loop import per_thread_footprint

# (name, C snippet, brute-force levels, innermost touches, collapse)
N = 23
CASES = [
    (
        "streaming",
        """double a[1003], b[1003], c[1003];
     void f(double s) { int i;
     #pragma omp parallel for
     for (i = 0; i < 1003; i++) c[i] = a[i] + s * b[i]; }""",
        [("i", lambda e: range(0, 1003))],
        [("a", 8, lambda e: e["i"]), ("b", 8, lambda e: e["i"]), ("c", 8, lambda e: e["i"])],
        1,
    ),
    (
        "stencil5",
        f"""double u[{N}][{N}], v[{N}][{N}];
     void f(void) {{ int i, j;
     #pragma omp parallel for
     for (i = 1; i < {N} - 1; i++)
       for (j = 1; j < {N} - 1; j++)
         v[i][j] = 0.25 * (u[i-1][j] + u[i+1][j] + u[i][j-1] + u[i][j+1]) - u[i][j]; }}""",
        [("i", lambda e: range(1, N - 1)), ("j", lambda e: range(1, N - 1))],
        [("v", 8, lambda e: e["i"] * N + e["j"])]
        + [
            ("u", 8, lambda e, di=di, dj=dj: (e["i"] + di) * N + e["j"] + dj)
            for di, dj in ((-1, 0), (1, 0), (0, -1), (0, 1), (0, 0))
        ],
        1,
    ),
    (
        "matmul",
        """float A[13][11], B[11][17], C[13][17];
     void f(void) { int i, j, k;
     #pragma omp parallel for
     for (i = 0; i < 13; i++)
       for (j = 0; j < 17; j++)
         for (k = 0; k < 11; k++)
           C[i][j] += A[i][k] * B[k][j]; }""",
        [("i", lambda e: range(13)), ("j", lambda e: range(17)), ("k", lambda e: range(11))],
        [
            ("A", 4, lambda e: e["i"] * 11 + e["k"]),
            ("B", 4, lambda e: e["k"] * 17 + e["j"]),
            ("C", 4, lambda e: e["i"] * 17 + e["j"]),
        ],
        1,
    ),
    (
        "lower_triangle",
        """double a[40][40], x[40], y[40];
     void f(void) { int i, j;
     #pragma omp parallel for
     for (i = 0; i < 37; i++)
       for (j = 0; j <= i; j++)
         y[i] += a[i][j] * x[j]; }""",
        [("i", lambda e: range(37)), ("j", lambda e: range(0, e["i"] + 1))],
        [
            ("a", 8, lambda e: e["i"] * 40 + e["j"]),
            ("x", 8, lambda e: e["j"]),
            ("y", 8, lambda e: e["i"]),
        ],
        1,
    ),
    (
        "upper_triangle_transposed",
        """double a[40][40], y[40];
     void f(void) { int i, j;
     #pragma omp parallel for
     for (i = 0; i < 37; i++)
       for (j = i; j < 37; j++)
         y[i] += a[j][i] + a[i][j]; }""",
        [("i", lambda e: range(37)), ("j", lambda e: range(e["i"], 37))],
        [
            ("a", 8, lambda e: e["j"] * 40 + e["i"]),
            ("a", 8, lambda e: e["i"] * 40 + e["j"]),
            ("y", 8, lambda e: e["i"]),
        ],
        1,
    ),
    (
        "decrementing",
        """int a[200], b[200];
     void f(void) { int i;
     #pragma omp parallel for
     for (i = 150; i >= 3; i--) a[i] = b[150 - i] + b[i - 3]; }""",
        [("i", lambda e: range(150, 2, -1))],
        [
            ("a", 4, lambda e: e["i"]),
            ("b", 4, lambda e: 150 - e["i"]),
            ("b", 4, lambda e: e["i"] - 3),
        ],
        1,
    ),
    (
        "step3",
        """double a[400], b[400];
     void f(void) { int i;
     #pragma omp parallel for
     for (i = 2; i < 301; i += 3) a[i] = b[i + 1] + b[2 * i - 4] + b[i + 6]; }""",
        [("i", lambda e: range(2, 301, 3))],
        [
            ("a", 8, lambda e: e["i"]),
            ("b", 8, lambda e: e["i"] + 1),
            ("b", 8, lambda e: 2 * e["i"] - 4),
            ("b", 8, lambda e: e["i"] + 6),
        ],
        1,
    ),
    (
        "step_down_assign",
        """double a[400];
     void f(void) { int i;
     #pragma omp parallel for
     for (i = 299; i > 10; i = i - 4) a[i] = a[i - 2] * 2.0; }""",
        [("i", lambda e: range(299, 10, -4))],
        [("a", 8, lambda e: e["i"]), ("a", 8, lambda e: e["i"] - 2)],
        1,
    ),
    (
        "collapse2",
        """double a[30][20], b[30][20];
     void f(void) { int i, j;
     #pragma omp parallel for collapse(2)
     for (i = 0; i < 29; i++)
       for (j = 0; j < 19; j++)
         a[i][j] = b[i][j + 1] + b[i + 1][j]; }""",
        [("i", lambda e: range(29)), ("j", lambda e: range(19))],
        [
            ("a", 8, lambda e: e["i"] * 20 + e["j"]),
            ("b", 8, lambda e: e["i"] * 20 + e["j"] + 1),
            ("b", 8, lambda e: (e["i"] + 1) * 20 + e["j"]),
        ],
        2,
    ),
    (
        "linearised_mixed_strides",
        """double A[31 * 31];
     void f(void) { int i, j;
     #pragma omp parallel for
     for (i = 0; i < 31; i++)
       for (j = 0; j < i; j++)
         A[i * 31 + j] += A[j * 31 + i]; }""",
        [("i", lambda e: range(31)), ("j", lambda e: range(e["i"]))],
        [("A", 8, lambda e: e["i"] * 31 + e["j"]), ("A", 8, lambda e: e["j"] * 31 + e["i"])],
        1,
    ),
    (
        "three_level_triangle",
        """double a[20][20], b[20];
     void f(void) { int i, j, k;
     #pragma omp parallel for
     for (i = 0; i < 20; i++)
       for (j = 0; j < i; j++)
         for (k = j; k < i; k++)
           b[k] += a[j][k]; }""",
        [
            ("i", lambda e: range(20)),
            ("j", lambda e: range(e["i"])),
            ("k", lambda e: range(e["j"], e["i"])),
        ],
        [("b", 8, lambda e: e["k"]), ("a", 8, lambda e: e["j"] * 20 + e["k"])],
        1,
    ),
    (
        "rank_k_update",  # A[j][k] over j <= i: the j ranges are merged, not enumerated
        """double A[30][9], C[30][30];
     void f(void) { int i, j, k;
     #pragma omp parallel for
     for (i = 3; i < 30; i++)
       for (j = 2; j <= i - 1; j++)
         for (k = 0; k < 9; k++)
           C[i][j] += A[i][k] * A[j][k]; }""",
        [
            ("i", lambda e: range(3, 30)),
            ("j", lambda e: range(2, e["i"])),
            ("k", lambda e: range(9)),
        ],
        [
            ("C", 8, lambda e: e["i"] * 30 + e["j"]),
            ("A", 8, lambda e: e["i"] * 9 + e["k"]),
            ("A", 8, lambda e: e["j"] * 9 + e["k"]),
        ],
        1,
    ),
    (
        "nonaffine_index",
        """double a[2000], b[100];
     void f(void) { int i;
     #pragma omp parallel for
     for (i = 0; i < 40; i++) b[i / 2] = a[i * i] + a[i % 7]; }""",
        [("i", lambda e: range(40))],
        [
            ("b", 8, lambda e: e["i"] // 2),
            ("a", 8, lambda e: e["i"] * e["i"]),
            ("a", 8, lambda e: e["i"] % 7),
        ],
        1,
    ),
    (
        "not_equal_and_reverse_index",
        """double a[100], b[100];
     void f(void) { int i;
     #pragma omp parallel for
     for (i = 4; i != 64; i += 2) a[99 - i] = b[i / 2 + 1]; }""",
        [("i", lambda e: range(4, 64, 2))],
        [("a", 8, lambda e: 99 - e["i"]), ("b", 8, lambda e: e["i"] // 2 + 1)],
        1,
    ),
    (
        # a library copy is the element loop it performs: a row of a 2-D array per call
        "memcpy_rows",
        """double a[40][24], b[40][24];
     void *memcpy(void *d, const void *s, unsigned long n);
     void f(void) { int i;
     #pragma omp parallel for
     for (i = 0; i < 40; i++) memcpy(a[i], b[39 - i], sizeof a[i]); }""",
        [("i", lambda e: range(40)), ("k", lambda e: range(24))],
        [("a", 8, lambda e: e["i"] * 24 + e["k"]), ("b", 8, lambda e: (39 - e["i"]) * 24 + e["k"])],
        1,
    ),
    (
        "memset_memmove_flat",
        """double c[30 * 17], d[30 * 17];
     void *memset(void *d, int v, unsigned long n);
     void *memmove(void *d, const void *s, unsigned long n);
     void f(void) { int i;
     #pragma omp parallel for
     for (i = 0; i < 30; i++) {
       memset(&c[i * 17], 0, 17 * sizeof(double));
       memmove(d + i * 17, c + i * 17, sizeof c[0] * 17); } }""",
        [("i", lambda e: range(30)), ("k", lambda e: range(17))],
        [("c", 8, lambda e: e["i"] * 17 + e["k"]), ("d", 8, lambda e: e["i"] * 17 + e["k"])],
        1,
    ),
    (
        # Rodinia hotspot3D's cell index: declared, then set in a statement of its own
        "index_set_apart",
        """float p[5 * 6 * 7], q[5 * 6 * 7];
     void f(int nx, int ny, int nz) { int z;
     #pragma omp parallel for
     for (z = 0; z < nz; z++) { int y;
       for (y = 0; y < ny; y++) { int x;
         for (x = 0; x < nx; x++) { int c;
           c = x + y * nx + z * nx * ny;
           q[c] = 0.5f * p[c]; } } } }
     void g(void) { f(7, 6, 5); }""",
        [("z", lambda e: range(5)), ("y", lambda e: range(6)), ("x", lambda e: range(7))],
        [("p", 4, lambda e: e["x"] + 7 * e["y"] + 42 * e["z"])]
        + [("q", 4, lambda e: e["x"] + 7 * e["y"] + 42 * e["z"])],
        1,
    ),
    (
        # NAS BT's helpers take a block by row (lhs[i][j][AA]) and a vector by address
        # (&rhs[i][j][0]): the elements the helper touches, not the whole block, and
        # the vector too (before: every block whole, the vector not at all)
        "blocks_by_row",
        """double lhs[9][7][2][5][5], rhs[9][7][5];
     static void scale(double blk[5][5], double r[5]) { int m;
       for (m = 0; m < 5; m++) r[m] = r[m] / blk[m][m]; }
     void f(void) { int i, j;
     #pragma omp parallel for
     for (i = 0; i < 9; i++)
       for (j = 0; j < 7; j++) scale(lhs[i][j][1], &rhs[i][j][0]); }""",
        [("i", lambda e: range(9)), ("j", lambda e: range(7)), ("m", lambda e: range(5))],
        [
            ("lhs", 8, lambda e: ((e["i"] * 7 + e["j"]) * 2 + 1) * 25 + 6 * e["m"]),
            ("rhs", 8, lambda e: (e["i"] * 7 + e["j"]) * 5 + e["m"]),
        ],
        1,
    ),
]


@pytest.mark.parametrize("name,code,levels,touches,collapse", CASES, ids=[c[0] for c in CASES])
def test_matches_brute_force(name, code, levels, touches, collapse):
    ref = brute(levels, touches, collapse)
    for p in (1, 2, 3):
        r = analyze(code, threads=p)
        assert r.tunable, r.reason
        assert r.trip_count == ref["trip"]
        assert r.iterations == ref["iterations"]
        assert r.footprint_bytes == distinct_bytes(ref)
        assert r.footprint_bytes_per_thread == per_thread_static(ref, p), f"p={p}"
        assert per_thread_footprint(r, p, "static", None) == per_thread_static(ref, p)


def test_per_thread_uneven_split_follows_libgomp():
    # 10 iterations on 4 threads: libgomp gives 3,3,2,2 (not 3,3,3,1)
    code = """double a[10];
    void f(void) { int i;
    #pragma omp parallel for
    for (i = 0; i < 10; i++) a[i] = 1.0; }"""
    r = analyze(code, threads=4)
    assert r.footprint_bytes_per_thread == 3 * 8
    assert per_thread_footprint(r, 3, "static", None) == 4 * 8
    assert per_thread_footprint(r, 20, "static", None) == 8  # idle threads are ignored


def chunk_owners(n: int, p: int, schedule: str, chunk: int | None) -> list[set[int]]:
    """Iterations each thread owns under the documented round-robin chunk hand-out
    (guided chunks shrink as libgomp's do), computed independently of the analysis."""
    c = chunk or 1
    if schedule == "guided":
        sizes, rem = [], n
        while rem:
            sizes.append(min(rem, max(-(-rem // p), c)))
            rem -= sizes[-1]
    else:
        sizes = [min(c, n - s) for s in range(0, n, c)]
    starts = [sum(sizes[:k]) for k in range(len(sizes))]
    return round_robin([range(s, s + z) for s, z in zip(starts, sizes, strict=True)], p)


def round_robin(chunks: list[range], p: int) -> list[set[int]]:
    owned = [set() for _ in range(p)]
    for k, c in enumerate(chunks):
        owned[k % p] |= set(c)
    return owned


@pytest.mark.parametrize(
    "schedule,chunk", [("static", 4), ("dynamic", 3), ("dynamic", None), ("guided", 2)]
)
def test_chunked_schedules_against_round_robin(schedule, chunk):
    """Per-thread footprint under the documented round-robin chunk hand-out."""
    code = """double u[60][60], v[60][60];
    void f(void) { int i, j;
    #pragma omp parallel for
    for (i = 1; i < 59; i++)
      for (j = 0; j < 60; j++)
        v[i][j] = u[i - 1][j] + u[i + 1][j]; }"""
    ref = brute(
        [("i", lambda e: range(1, 59)), ("j", lambda e: range(60))],
        [
            ("v", 8, lambda e: e["i"] * 60 + e["j"]),
            ("u", 8, lambda e: (e["i"] - 1) * 60 + e["j"]),
            ("u", 8, lambda e: (e["i"] + 1) * 60 + e["j"]),
        ],
    )
    n, p = ref["trip"], 3
    owned = chunk_owners(n, p, schedule, chunk)
    expect = max(distinct_bytes(ref, lambda it, o=o: it in o) for o in owned)
    r = analyze(code, threads=p)
    assert per_thread_footprint(r, p, schedule, chunk) == expect


def test_large_stencil_is_exact():
    """4000 x 4000 Jacobi sweep: closed-form counts (no enumeration of 16M points)."""
    n = 4000
    code = f"""double u[{n}][{n}], v[{n}][{n}];
    void f(void) {{ int t, i, j;
    for (t = 0; t < 10; t++) {{
    #pragma omp parallel for
    for (i = 1; i < {n} - 1; i++)
      for (j = 1; j < {n} - 1; j++)
        v[i][j] = 0.25 * (u[i-1][j] + u[i+1][j] + u[i][j-1] + u[i][j+1]); }} }}"""
    r = analyze(code, threads=2)
    inner = n - 2
    assert r.trip_count == inner and r.iterations == inner * inner and r.executions == 10
    # u: all rows 0..n-1 over columns 1..n-2, plus columns 0 and n-1 of rows 1..n-2
    u = n * inner + 2 * inner
    assert array(r, "u")["distinct_elements"] == u
    assert r.footprint_bytes == 8 * (inner * inner + u)
    rows = inner // 2  # rows 1..1999 and 2000..3998
    u_thread = (rows + 2) * inner + 2 * rows
    assert r.footprint_bytes_per_thread == 8 * (rows * inner + u_thread)


def test_long_stream_and_imperfect_nest():
    code = """double x[10000000], y[10000000];
    void f(void) { int i;
    #pragma omp parallel for
    for (i = 0; i < 10000000; i++) y[i] = y[i] + 2.0 * x[i]; }"""
    r = analyze(code, threads=3)
    assert r.footprint_bytes == 16 * 10_000_000
    assert r.footprint_bytes_per_thread == 16 * 3_333_334
    assert r.work_per_iteration is None  # too long to keep


def test_imperfect_nest_with_sibling_loops():
    code = """double a[50][60], s[50], t[50][10];
    void f(void) { int i, j, k;
    #pragma omp parallel for
    for (i = 0; i < 50; i++) {
      s[i] = 0.0;
      for (j = 0; j < 60; j++) s[i] += a[i][j];
      for (k = 0; k < i % 10; k++) t[i][k] = s[i];
    } }"""
    ref = brute(
        [("i", lambda e: range(50)), ("j", lambda e: range(60))],
        [("a", 8, lambda e: e["i"] * 60 + e["j"])],
        at_depth={0: [("s", 8, lambda e: e["i"])]},
    )
    tk = {(i, k) for i in range(50) for k in range(i % 10)}
    r = analyze(code)
    assert r.iterations == 50 * 60  # the busier inner loop is the nest
    assert [lv.var for lv in r.nest] == ["i", "j"]
    assert r.footprint_bytes == distinct_bytes(ref) + 8 * len(tk)


def test_malloc_and_indirect_whole_array_bound():
    code = """
    void *malloc(unsigned long);
    int n = 500;
    double *x; int *col; double *y;
    void init(void) { x = malloc(n * sizeof(double)); col = malloc(sizeof(int) * 2000);
                      y = (double *) malloc(n * sizeof *y); }
    void f(void) { int i, k;
    #pragma omp parallel for
    for (i = 0; i < 500; i++)
      for (k = 0; k < 4; k++) y[i] += x[col[4 * i + k]]; }"""
    r = analyze(code)
    assert array(r, "x")["distinct_elements"] == 500 and not array(r, "x")["exact"]
    assert array(r, "col")["distinct_elements"] == 2000 and array(r, "col")["exact"]
    assert r.footprint_bytes == 500 * 8 + 2000 * 4 + 500 * 8
    assert any(w.startswith("line 10: x[col[") and "upper bound" in w for w in r.warnings)


def test_unknown_pointer_size_is_reported_unknown():
    code = """double *p;
    void f(double *q) { int i;
    #pragma omp parallel for
    for (i = 0; i < 100; i++) q[i] = p[i / 2] + q[i]; }"""
    r = analyze(code)
    assert r.tunable and r.trip_count == 100
    # affine/enumerable indices still give exact element counts without sizes
    assert array(r, "q")["distinct_elements"] == 100
    assert array(r, "p")["distinct_elements"] == 50
    r2 = analyze(code.replace("p[i / 2]", "p[(int) q[i]]"))
    assert r2.footprint_bytes is None
    assert any("p[(int) q[i]]" in w and "unknown" in w for w in r2.warnings)


def test_struct_elements_and_pointer_rows():
    code = """struct pt { double x, y; int id; };
    struct pt pts[100]; double **rows;
    void f(void) { int i, j;
    #pragma omp parallel for
    for (i = 0; i < 50; i++)
      for (j = 0; j < 7; j++) rows[i][j] = pts[2 * i].x + pts[i].y; }"""
    r = analyze(code)
    assert array(r, "pts")["elem_size"] == 24  # 8 + 8 + 4 padded to 8
    assert array(r, "pts")["distinct_elements"] == len({2 * i for i in range(50)} | set(range(50)))
    assert array(r, "rows")["distinct_elements"] == 350
    assert array(r, "rows")["layout"] == "rows"


def test_per_thread_footprint_from_json_plain_data():
    """The model may load records from JSON: arrays must be enough on their own."""
    import json

    from autotune.frontend.records import Clauses, Directive, LoopRecord

    code = """double a[80][80], b[80][80];
    void f(void) { int i, j;
    #pragma omp parallel for collapse(2)
    for (i = 1; i < 79; i++)
      for (j = 1; j < 79; j++) a[i][j] = b[i - 1][j] + b[i][j + 1]; }"""
    r = analyze(code, threads=2)
    d = Directive("omp parallel for collapse(2)", "parallel for", "t.c", 1, Clauses(collapse=2))
    clone = LoopRecord(
        "x",
        "t.c",
        1,
        "f",
        d,
        d,
        trip_count=r.trip_count,
        footprint_bytes=r.footprint_bytes,
        arrays=json.loads(json.dumps(r.arrays)),
    )
    for p, sched, chunk in ((2, "static", None), (3, "dynamic", 5), (4, "guided", None)):
        assert per_thread_footprint(clone, p, sched, chunk) == per_thread_footprint(
            r, p, sched, chunk
        )
    assert per_thread_footprint(clone, 2, "static", None) == r.footprint_bytes_per_thread


def test_pointer_moved_inside_loop_is_not_trusted():
    code = """double *p; double a[100];
    void f(void) { int i;
    #pragma omp parallel for private(p)
    for (i = 0; i < 100; i++) { p = &a[i]; p[1] = 2.0; } }"""
    r = analyze(code)
    assert r.footprint_bytes is None
    assert any("pointer p is reassigned" in w for w in r.warnings)


def test_member_array_of_an_element_counts_the_element():
    code = """struct cell { double v[4]; int n; }; struct cell grid[30];
    void f(void) { int i;
    #pragma omp parallel for
    for (i = 0; i < 30; i += 2) grid[i].v[i % 4] = grid[i + 1].n; }"""
    r = analyze(code)
    assert array(r, "grid")["elem_size"] == 40
    assert r.footprint_bytes == 40 * 30


@pytest.mark.parametrize(
    "schedule,chunk", [("static", None), ("static", 2), ("dynamic", 3), ("guided", 1)]
)
def test_triangular_rows_per_thread_against_brute_force(schedule, chunk):
    """The merged-range path (j only bounded by i) gives each thread's exact footprint."""
    code = """double A[40][7], C[40][40];
    void f(void) { int i, j, k;
    #pragma omp parallel for
    for (i = 0; i < 40; i++)
      for (j = 0; j <= i; j++)
        for (k = 0; k < 7; k++)
          C[i][j] += A[j][k]; }"""
    ref = brute(
        [("i", lambda e: range(40)), ("j", lambda e: range(e["i"] + 1)), ("k", lambda e: range(7))],
        [("C", 8, lambda e: e["i"] * 40 + e["j"]), ("A", 8, lambda e: e["j"] * 7 + e["k"])],
    )
    n, p = ref["trip"], 3
    if schedule == "static" and chunk is None:
        from analysis_support import static_blocks

        owned = [set(b) for b in static_blocks(n, p)]
    else:
        owned = chunk_owners(n, p, schedule, chunk)
    expect = max(distinct_bytes(ref, lambda it, o=o: it in o) for o in owned)
    r = analyze(code, threads=p)
    assert per_thread_footprint(r, p, schedule, chunk) == expect
