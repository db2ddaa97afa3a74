"""Whole-program confirmation: what ships is built plain, run whole, verified and timed
against the original; choices that make it wrong or slower are backed off."""

from __future__ import annotations

from pathlib import Path

from tune_support import tune_json

from autotune.analysis import analyze_file
from autotune.measure.build import BuildOptions
from autotune.measure.sweep import SweepOptions
from autotune.tuning.confirm import Choice, ProgramCheck
from autotune.variants.space import Variant

# The nowait trap of the legality issue, made to race hard: the first loop's
# second half is far heavier, so a thread done with its static block of the
# first loop reaches, under a dynamic second loop, values not written yet.
NOWAIT_RACE = r"""#include <stdio.h>
#include <math.h>
#define N 4000
static double a[N], b[N];
int main(void)
{
    double sum = 0.0;
#pragma omp parallel num_threads(2)
    {
#pragma omp for schedule(static) nowait
        for (int i = 0; i < N; i++) {
            double v = 0.0;
            int work = i < N / 2 ? 10 : 4000;
            for (int k = 0; k < work; k++)
                v += sin(i + 0.001 * k);
            a[i] = 1.0 + fabs(v);
        }
#pragma omp for schedule(static) reduction(+:sum)
        for (int i = 0; i < N; i++) {
            b[i] = 2.0 * a[i];
            sum += b[i] > 0.5 ? 1.0 : 0.0;
        }
    }
    printf("positive %.0f of %d\n", sum, N);
    return 0;
}
"""

HEAVY = r"""#include <stdio.h>
#include <math.h>
#define N 3000000
static double x[N];
int main(void)
{
    double s = 0.0;
#pragma omp parallel for reduction(+:s)
    for (int i = 0; i < N; i++) {
        x[i] = sqrt(i + 1.0) * sin(i * 1e-3);
        s += x[i];
    }
    printf("%.6e\n", s);
    return 0;
}
"""


def loop_at(path: Path, line: int):
    (record,) = [r for r in analyze_file(str(path)).loops if r.line == line]
    return record


def test_a_race_that_instrumented_runs_hide_is_caught_as_shipped(env):
    """The gate would refuse this variant; lifted by hand, the plain build shows the race."""
    src = env / "race.c"
    src.write_text(NOWAIT_RACE)
    second = loop_at(src, 19)
    assert not second.tunable and "nowait chain" in second.reason  # the first line of defence
    second.tunable, second.reason, second.kept = True, "", {}
    check = ProgramCheck(src, NOWAIT_RACE, BuildOptions(), SweepOptions(), runs=5)
    result = check.confirm([Choice(second, Variant("dynamic", 1, None), 1.0)])
    assert result.kept == [] and result.tuned is None
    (tried,) = result.tries
    assert tried[1].status == "wrong-output", tried[1]
    assert result.backed_off[0][0] == second.id and "wrong-output" in result.backed_off[0][1]
    assert "original kept" in result.decision


def test_a_choice_that_slows_the_whole_program_is_backed_off(env):
    src = env / "heavy.c"
    src.write_text(HEAVY)
    loop = loop_at(src, 9)
    check = ProgramCheck(src, HEAVY, BuildOptions(), SweepOptions(), runs=3)
    # a chunk of one iteration fought over by 64 threads on a few cores: 3 million
    # contended hand-outs make the program many times slower, whatever the load
    result = check.confirm([Choice(loop, Variant("dynamic", 1, 64), 0.5)])
    assert result.kept == [] and len(result.backed_off) == 1
    why = result.backed_off[0][1]  # slower on a quiet machine; under load maybe only noise
    assert "interval" in why and ("slower" in why or "within the noise" in why), why
    assert len(result.original.times_s) == 3 and len(result.tries[0][1].times_s) == 3


def test_tune_reports_the_whole_program_check(env, capsys):
    src = env / "heavy.c"
    src.write_text(HEAVY)
    f = tune_json(
        capsys, src, "--schedules", "static,dynamic", "--threads", "1,2", apply=env / "tuned.c"
    )
    (loop,) = f["loops"]
    program = f["program"]
    tuned = (env / "tuned.c").read_text()
    if loop["best"] is None:  # nothing chosen, or the whole program did not confirm it
        assert tuned == HEAVY
        assert program is None or program["kept"] == []
    else:  # what was applied is what the whole-program check kept, and it was faster
        assert program["kept"] == [loop["id"]] and program["speedup"] > 1.0
        assert tuned != HEAVY
