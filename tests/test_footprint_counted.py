"""Footprints counted by barvinok (``analysis.polyfoot``) against brute force: every
iteration of every loop of the kernels and the test programs walked at two small
sizes, the flat indices of each array collected in a set, in total and per thread
under static, static,c, dynamic,c and guided,c. And the count does not grow with the
problem: a triangular nest at a size no enumeration finishes is counted exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from autotune.analysis import exprs, polyfoot
from autotune.analysis import footprint as fp
from autotune.analysis.unit import analyze_options
from autotune.errors import UserError
from autotune.frontend.options import SourceOptions

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(ROOT.glob("kernels/*.c")) + sorted((ROOT / "tests/data/c").glob("*.c"))
SIZES = [
    {"N": "37", "M": "23", "K": "19", "NI": "17", "NJ": "13", "NK": "11", "NL": "7"},
    {"N": "64", "M": "9", "K": "33", "NI": "24", "NJ": "31", "NK": "5", "NL": "12"},
]
SMALL = {"WIDTH": "29", "HEIGHT": "21", "NA": "41", "NB": "9", "BINS": "16", "REPS": "1"}
SCHEDULES = [("static", None), ("static", 4), ("dynamic", 3), ("guided", 2)]
CAP = 200_000  # iteration points walked per access


def _holds(v: int, op: str, lim: int) -> bool:
    return {"<": v < lim, "<=": v <= lim, ">": v > lim, ">=": v >= lim, "!=": v != lim}[op]


def _walk(acc: dict) -> list[tuple[int, int]] | None:
    """(iteration number of the outermost loop, flat index) at every point of the nest."""
    out: list[tuple[int, int]] = []
    dom = acc["domain"]

    def rec(k: int, env: dict, it: int) -> None:
        if len(out) > CAP:
            raise OverflowError
        if k == len(dom):
            out.append((it, int(exprs.evaluate(acc["flat"], env))))
            return
        lv = dom[k]
        v, n = int(exprs.evaluate(lv["start"], env)), 0
        while _holds(v, lv["op"], exprs.evaluate(lv["limit"], env)):
            rec(k + 1, {**env, lv["var"]: v}, n if k == 0 else it)
            v += lv["step"]
            n += 1

    try:
        rec(0, {}, -1)
    except OverflowError:
        return None
    return out


def _cases():
    for path in FILES:
        for sizes in SIZES:
            yield pytest.param(path, sizes, id=f"{path.stem}-N{sizes['N']}")
    # NAS BT's blocks: flattened, one subscript moves with five variables (barvinok did not
    # finish counting that projection); small grids, so every point can be walked
    blocks = ROOT / "tests/data/c/nas_style_blocks.c"
    for n in ("8", "11"):
        yield pytest.param(blocks, {**SIZES[0], "N": n}, id=f"{blocks.stem}-N{n}-small")


def _check_cyclic(rec, arr: dict, wants: dict[tuple, list[int]]) -> None:
    """A cyclic hand-out's per-thread counts, both ways: summed over each thread's chunks
    where the array splits into elements every iteration touches and elements one
    iteration touches (``polyfoot._split``), and one count with the thread as a
    parameter; each must be the brute-force count."""
    for (schedule, chunk), want in wants.items():
        if schedule not in ("static", "dynamic") or not chunk:
            continue
        for cap in (polyfoot.SPLIT_CHUNKS, 0):  # 0: never sum the chunks
            with pytest.MonkeyPatch.context() as mp:
                mp.setattr(polyfoot, "SPLIT_CHUNKS", cap)
                got = polyfoot.elements_per_thread(arr, 1, chunk, 3, [0, 1, 2], rec.trip_count)
            assert got is None or got == want, (rec.id, arr["name"], schedule, chunk, cap)


SPLIT = """
#define N 300
double a[N], b[N], c[N][N], w[N];
int main(void) {
  #pragma omp parallel for schedule(guided, 2)
  for (int i = 1; i < N - 1; i++) b[i] = a[i - 1] + a[i + 1];
  #pragma omp parallel for schedule(guided, 2)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < i; j++) c[i][j] = w[j] * c[i][j];
  return 0;
}
"""


def test_split_holds_where_iterations_own_their_elements_and_not_where_they_share(tmp_path):
    """Rows a worksharing loop owns (b[i], c[i][j]) and elements every iteration reads
    (w[j] under a triangular bound is not: row i reads w[0..i-1]) against a stencil's
    a[i-1], a[i+1], which neighbouring iterations share: the split is taken for the
    first and refused for the stencil, and both count as brute force does."""
    src = tmp_path / "split.c"
    src.write_text(SPLIT)
    stencil, tri = analyze_options(str(src), SourceOptions({}, [], []), threads=3).loops
    arrays = {(r.line, a["name"]): a for r in (stencil, tri) for a in r.arrays}
    assert polyfoot._split(arrays[(stencil.line, "a")], 1) is None
    assert polyfoot._split(arrays[(stencil.line, "b")], 1) is not None
    assert polyfoot._split(arrays[(tri.line, "c")], 1) is not None
    assert polyfoot._split(arrays[(tri.line, "w")], 1) is None  # rows i, i+1 share w[0]
    runs = [(0, 3), (10, 2), (200, 5)]
    assert polyfoot.elements(arrays[(stencil.line, "a")], 1, runs) == (3 + 2) + (2 + 2) + (5 + 2)
    assert polyfoot.elements(arrays[(stencil.line, "b")], 1, runs) == 10
    own = sum(i for first, n in runs for i in range(first, first + n))  # row i: i elements
    assert polyfoot.elements(arrays[(tri.line, "c")], 1, runs) == own


@pytest.mark.slow
@pytest.mark.parametrize(("path", "sizes"), list(_cases()))
def test_counted_footprint_is_the_brute_force_count(path: Path, sizes: dict) -> None:
    try:
        unit = analyze_options(str(path), SourceOptions({**sizes, **SMALL}, [], []), threads=3)
    except UserError:
        pytest.skip("not a program the analysis reads (a test of bad input)")
    checked = 0
    for rec in unit.loops:
        if rec.trip_count is None or (rec.directive.clauses.collapse or 1) != 1:
            continue
        for arr in rec.arrays:
            if {a["kind"] for a in arr["accesses"]} != {"affine"}:
                continue
            points = []
            for acc in arr["accesses"]:
                walked = _walk(acc)
                if walked is None:
                    break
                points += walked
            else:
                wants: dict[tuple, list[int]] = {}
                got, exact, _ = fp.array_elements(arr, 1, None)
                assert exact and got == len({e for _, e in points}), (rec.id, arr["name"])
                for schedule, chunk in SCHEDULES:
                    chunks = fp.thread_chunks(rec.trip_count, 3, schedule, chunk)
                    for t, (starts, lengths) in enumerate(chunks):
                        mine = {
                            i
                            for s, n in zip(starts.tolist(), lengths.tolist(), strict=True)
                            for i in range(s, s + n)
                        }
                        want = len({e for it, e in points if it in mine})
                        runs = list(zip(starts.tolist(), lengths.tolist(), strict=True))
                        got, _, _ = fp.array_elements(arr, 1, runs)
                        assert got == want, (rec.id, arr["name"], schedule, chunk, t)
                        wants.setdefault((schedule, chunk), []).append(want)
                _check_cyclic(rec, arr, wants)
                checked += 1
    if not checked:
        pytest.skip("no loop with affine accesses small enough to walk")


def test_per_thread_count_of_a_triangular_nest_does_not_grow_with_it():
    """syrk-like ``for i; for j <= i; for k``: millions of chunks, counted exactly."""
    n, m = 40_000, 30_000
    dom = [
        {"var": "i", "start": 0, "limit": n, "op": "<", "step": 1},
        {"var": "j", "start": 0, "limit": "i", "op": "<=", "step": 1},
        {"var": "k", "start": 0, "limit": m, "op": "<", "step": 1},
    ]
    row_i = {"kind": "affine", "flat": ["+", ["*", "i", m], "k"], "domain": dom, "text": "A[i][k]"}
    row_j = {"kind": "affine", "flat": ["+", ["*", "j", m], "k"], "domain": dom, "text": "A[j][k]"}
    arrays = [{"name": "A", "elem_size": 8, "extent": n * m, "accesses": [row_i, row_j]}]
    # counted, not enumerated (an enumeration of 2.4e13 points would not end)
    assert polyfoot.elements(arrays[0], 1, polyfoot.Cyclic(1, 16, 15)) == n * m
    total, _ = fp.footprint(arrays, 1, None)
    per, exact = fp.per_thread(arrays, 1, n, 16, "dynamic", 1, total)
    assert total == n * m * 8
    # thread 15 of 16 takes rows 15, 31, ..., 39999: rows 0 .. 39999 are all its j's
    assert per == n * m * 8 and exact
    first, _ = fp.per_thread(arrays, 1, n, 16, "static", None, total)
    assert first == n * m * 8  # the last block reaches every row through j <= i


def test_analyze_says_how_each_footprint_was_found(capsys):
    """Counted (any size), enumerated (the cost grows with the nest) or a bound: said per
    array in ``analyze --json`` and ``analyze -v``."""
    import json

    from autotune.cli.main import main

    assert main(["analyze", str(ROOT / "kernels" / "spmv_csr.c"), "--json"]) == 0
    (loop,) = json.loads(capsys.readouterr().out)["loops"]
    how = {a["name"]: a["counted"] for a in loop["arrays"]}
    assert how["rowptr"] == how["y"] == "barvinok"
    assert how["x"] == "upper bound"  # x[col[k]]: the whole array bounds it
    assert main(["analyze", str(ROOT / "kernels" / "triangular.c"), "-v"]) == 0
    out = capsys.readouterr().out
    assert "array x: 117.2 KiB (exact, counted by barvinok)" in out
