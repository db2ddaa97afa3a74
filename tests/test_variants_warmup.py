"""The harness's warm-up (AUTOTUNE_WARMUP=1) starts the OpenMP threads before
main: same output, same executions counted, nothing else changes."""

from __future__ import annotations

from pathlib import Path

from variants_support import build, records_for, run, timing_lines

from autotune.variants.emit import emit_runtime, runtime_env
from autotune.variants.space import Variant

PROG = """#include <stdio.h>
#define N 1000
double a[N];
int main(void) {
  int t, i;
  for (t = 0; t < 3; t++) {
#pragma omp parallel for
    for (i = 0; i < N; i++) a[i] += i * 0.5;
  }
  printf("%f\\n", a[N - 1]);
  return 0;
}
"""


def test_warm_up_keeps_output_and_execution_count(tmp_path: Path):
    src = tmp_path / "w.c"
    src.write_text(PROG)
    (rec,) = records_for(src)
    exe = build(tmp_path, emit_runtime(PROG, rec), "w")
    outputs = []
    for warm in ("0", "1"):
        timing = tmp_path / f"t{warm}.txt"
        env = runtime_env(Variant("static", None, 2), rec) | {"AUTOTUNE_WARMUP": warm}
        outputs.append(run(exe, timing, **env))
        ((loop_id, wall, _cpu, executions),) = timing_lines(timing)
        assert loop_id == rec.id and executions == 3 and wall > 0
    assert outputs[0] == outputs[1] == "1498.500000\n"
