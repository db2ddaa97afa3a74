"""bench/gate_mutations.py on one program of our own: each mutant of its subscripts is
judged as the probe judges ours (kept, undefined as written, or run with its variants
and found clean), and none is a hole."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # real builds and many runs: the long suite (-m slow)

BENCH = Path(__file__).resolve().parents[1] / "bench" / "gate_mutations.py"

PROGRAM = """#include <stdio.h>
#define N 4000
static double a[N], b[N];
int main(void)
{
    int i;
    for (i = 0; i < N; i++)
        a[i] = i % 7;
#pragma omp parallel for
    for (i = 0; i < N; i++)
        b[i] = 2.0 * a[i];
    double s = 0.0;
    for (i = 0; i < N; i++)
        s += b[i] * (i % 3);
    printf("%.1f\\n", s);
    return 0;
}
"""


def _probe(folder: Path, *args: str) -> dict[tuple[int, str], str]:
    """Run the probe on the C files of ``folder``: (line, mutated text) -> verdict."""
    out = folder / "mutants.json"
    argv = [sys.executable, str(BENCH), "--dir", str(folder), *args, "--json", str(out)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return {(r["line"], r["now"]): r["verdict"] for r in json.loads(out.read_text())["mutants"]}


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc with OpenMP")
def test_mutants_of_a_scaling_loop_are_kept_undefined_or_clean(tmp_path):
    (tmp_path / "scale.c").write_text(PROGRAM)
    rows = _probe(tmp_path, "--count", "40")
    # the loop's own write folded: two iterations write one element, the gate keeps it
    assert rows[(11, "b[i / 2] = 2.0 * a[i];")] == "kept"
    # one past the end of b: kept now, and undefined as written
    assert rows[(11, "b[i + 1] = 2.0 * a[i];")] == "kept"
    # a read folded onto three elements: still independent, its variants print the same
    assert rows[(11, "b[i] = 2.0 * a[i % 3];")] == "clean"
    # the checksum reading before b: undefined as written, whatever the gate says
    assert rows[(14, "s += b[i - 1] * (i % 3);")] == "undefined"
    assert "hole" not in rows.values()


STEPS = """#include <stdio.h>
#define N 4000
static double a[N], b[N], c[N], d[N];
int main(void)
{
#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < N; i++)
            a[i] = (i % 7) * 0.5;
#pragma omp for
        for (int i = 0; i < N; i++)
            b[i] = a[i] + 1.0;
#pragma omp for nowait
        for (int i = 0; i < N; i++)
            c[i] = b[i] * 2.0;
#pragma omp barrier
#pragma omp for
        for (int i = 0; i < N; i++)
            d[i] = c[N - 1 - i];
    }
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += d[i] * (i % 3);
    printf("%.1f\\n", s);
    return 0;
}
"""


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc with OpenMP")
def test_a_nowait_added_or_a_barrier_taken_out_is_judged_with_the_variants(tmp_path):
    (tmp_path / "steps.c").write_text(STEPS)
    rows = _probe(tmp_path, "--only", "nowait") | _probe(tmp_path, "--only", "barrier")
    # a nowait on the first two loops: the next loop reads the same iterations, so the
    # static mapping keeps the program as it was; the gate keeps both schedules, and the
    # variants it emits for the others print the same
    assert rows[(8, "#pragma omp for nowait")] == "clean"
    assert rows[(11, "#pragma omp for nowait")] == "clean"
    assert rows[(18, "#pragma omp for nowait")] == "clean"
    # the barrier taken out: the last loop reads the other end of c, which no mapping
    # keeps on one thread; every loop of the region is kept
    assert rows[(17, "")] == "kept"
    assert len(rows) == 4 and "hole" not in rows.values()
