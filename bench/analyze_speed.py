"""Time `autotune analyze` on every kernel (target: under 0.5 s per file), and analysis plus
ranking of a triangular nest (a symmetric rank-k update, N x M) over a sweep of sizes: the cost
should not grow with the problem.

Prints the median of 5 in-process runs per file (preprocess + parse + analysis), then the
size sweep (analysis; ranking of the default variant space with the shipped model).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from autotune.analysis import analyze_file

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    files = sorted((ROOT / "kernels").glob("*.c")) + sorted((ROOT / "tests/data/c").glob("*.c"))
    print(f"{'file':40s} {'loops':>5s} {'median s':>9s} {'max s':>7s}")
    worst = 0.0
    for f in files:
        times, loops = [], 0
        for _ in range(5):
            t0 = time.perf_counter()
            try:
                loops = len(analyze_file(str(f)).loops)
            except Exception as exc:  # noqa: BLE001 - a bench reports, it does not stop
                loops = -1
                print(f"{f.name}: {exc}", file=sys.stderr)
                break
            times.append(time.perf_counter() - t0)
        if times:
            med = statistics.median(times)
            worst = max(worst, med)
            print(f"{str(f.relative_to(ROOT)):40s} {loops:5d} {med:9.3f} {max(times):7.3f}")
    print(f"\nslowest median {worst:.3f} s per file (target < 0.5 s)")
    size_sweep()
    return 0


SYRK = r"""
static double A[N][M], C[N][N];
void syrk(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        for (int j = 0; j <= i; j++)
            for (int k = 0; k < M; k++)
                C[i][j] += 1.5 * A[i][k] * A[j][k];
}
"""


def size_sweep() -> None:
    """Analysis and ranking time of the triangular nest at growing sizes."""
    import tempfile

    from autotune.measure.machine import detect_machine
    from autotune.tuning.modelchoice import choose_model
    from autotune.tuning.ranking import rank_loop
    from autotune.variants.space import default_space

    machine = detect_machine()
    chosen = choose_model(machine, None, "auto", "wall")
    head = f"{'N x M':>12s} {'iterations':>12s} {'analyze s':>10s} {'rank s':>8s}"
    print(f"\n{head} {'variants':>9s}")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "syrk.c"
        src.write_text(SYRK)
        for n, m in ((240, 200), (600, 500), (1200, 1000), (2400, 2000), (4800, 4000)):
            t0 = time.perf_counter()
            (rec,) = analyze_file(
                str(src), defines={"N": str(n), "M": str(m)}, threads=machine.cores
            ).loops
            t1 = time.perf_counter()
            ranking = rank_loop(rec, default_space(rec, machine.cores), chosen, machine)
            t2 = time.perf_counter()
            print(
                f"{n:>5d} x {m:<5d} {rec.iterations or 0:12d} {t1 - t0:10.3f} {t2 - t1:8.3f} "
                f"{len(ranking.variants):9d}"
            )


if __name__ == "__main__":
    raise SystemExit(main())
