"""Time `autotune analyze` on every kernel (target: under 0.5 s per file).

Prints the median of 5 in-process runs per file (preprocess + parse + analysis).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from autotune.frontend import analyze_file

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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
