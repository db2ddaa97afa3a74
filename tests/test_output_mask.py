"""Programs that report their own run time, as NPB, STREAM and Rodinia codes do: the
times and rates are left out of verification (and said), every result is still
compared. Driven through ``autotune measure`` and ``autotune tune`` with real gcc."""

from __future__ import annotations

import json

import pytest
from measure_support import write_program
from tune_support import SMALL_BUDGET, tune_json

from autotune.cli.main import main
from autotune.measure import verify
from autotune.measure.outputmask import HIDDEN, OutputMask

# An NPB-style report (coarse "Time in seconds", a Mop/s rate) and a STREAM-style table of
# rates under a header, around a kernel written with far more threads than cores (so a
# variant is faster and tune reaches the whole-program check).
REPORTING = r"""#include <stdio.h>
#include <math.h>
#include <omp.h>
#define N 2000000
static double x[N], y[N];
int main(void)
{
    double t0 = omp_get_wtime();
#pragma omp parallel for schedule(dynamic, 1) num_threads(64)
    for (int i = 0; i < N; i++)
        x[i] = sqrt(i + 1.0);
#pragma omp parallel for schedule(dynamic, 1) num_threads(64)
    for (int i = 0; i < N; i++)
        y[i] = x[i] * 0.5 + 1.0;
    double t = omp_get_wtime() - t0;
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += x[i] + y[i];
    printf(" Checksum        = %20.13e\n", s);
    printf(" Time in seconds = %12.2f\n", t);
    printf(" Mop/s total     = %12.2f\n", N / t * 1e-6);
    printf("-------------------------------------------------------------\n");
    printf("Function    Best Rate MB/s  Avg time     Min time     Max time\n");
    printf("Copy:    %12.1f  %11.6f  %11.6f  %11.6f\n", 8.0 * N / t * 1e-6, t, t, t);
    printf("-------------------------------------------------------------\n");
    printf(" Verification    = SUCCESSFUL\n");
    return 0;
}
"""


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "r.db"))


def _measure(capsys, path, *extra: str, loop: int = 10) -> dict:
    argv = ["measure", str(path), "--variants", "static,-,t2", "--loop", str(loop), "--json"]
    argv += extra
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)["loops"][0]


def test_reported_times_are_not_compared_and_said(tmp_path, capsys):
    path = write_program(tmp_path, REPORTING, "report.c")
    loop = _measure(capsys, path)
    assert loop["variants"][0]["status"] == "ok", loop["variants"][0]["message"]
    (note,) = [w for w in loop["warnings"] if w.startswith("not compared: ")]
    assert "'Time in seconds = …'" in note and "'Mop/s total = …'" in note
    assert "'Copy: … … … …'" in note and "Checksum" not in note
    assert not any("differs between runs" in w for w in loop["warnings"])
    # every number compared: the program's own times differ from run to run
    loop = _measure(capsys, path, "--check-timings", "--fresh")
    assert loop["variants"][0]["status"] == "not-verified"
    assert any("differs between runs" in w for w in loop["warnings"])


def test_the_whole_program_check_leaves_the_times_out_too(tmp_path, capsys):
    path = write_program(tmp_path, REPORTING, "report.c")
    f = tune_json(capsys, path, "--allow-busy")
    conf = f["program"]
    assert conf["original"]["status"] == "ok", conf["original"]
    assert conf["tries"], conf
    for tried in conf["tries"]:
        assert tried["status"] not in ("wrong-output", "not-verified"), tried
    if conf["kept"]:
        assert "but for the times the program reports" in conf["decision"]


def test_a_wrong_result_beside_the_times_is_still_caught():
    """What the mask hides is numbers on timing lines; a checksum line is compared."""
    ref = REPORT_TEXT.format(checksum="1.8856180831641e+09", secs="0.05", rate="40.12")
    again = REPORT_TEXT.format(checksum="1.8856180831641e+09", secs="0.07", rate="28.57")
    wrong = REPORT_TEXT.format(checksum="1.8856180831642e+09", secs="0.04", rate="50.00")
    mask = OutputMask()
    mask.learn(ref, again)
    assert verify.compare_outputs(mask.apply(ref), mask.apply(again))[0]
    same, diff = verify.compare_outputs(mask.apply(ref), mask.apply(wrong))
    assert not same and "1.8856180831642e+09" in diff
    assert diff.startswith("line 1 ('Checksum = 1.8856180831641e+09'): expected"), diff
    # a line whose words differ is never excused
    worded = ref.replace("SUCCESSFUL", "UNSUCCESSFUL")
    assert not verify.compare_outputs(mask.apply(ref), mask.apply(worded))[0]
    # a result that changes between runs of the original, on a line not about time, is not
    # hidden: the original is unstable there and no variant can be verified
    seeded = OutputMask()
    seeded.learn("XE: 64.499214\n", "XE: 64.502905\n")
    assert seeded.apply("XE: 64.499214\n") == "XE: 64.499214"
    assert OutputMask(compare_timings=True).apply(ref) == ref
    assert "--check-file" not in (mask.note(ref) or "")
    # a program that prints only its timings (srad's stages) verifies no number: said
    stages = "Time spent in different stages:\n 0.000001 s, 0.5 % : SETUP\n 0.2 s, 99.5 % : SOLVE\n"
    again = stages.replace("0.000001 s, 0.5", "0.000002 s, 0.7").replace("99.5", "99.3")
    srad = OutputMask()
    srad.learn(stages, again)
    assert "only its words are compared" in (srad.note(stages) or "")
    # a table's columns under a header word of time are hidden, its residuals are not
    table = "Iter   Residual     Time(s)\n   1   1.2000e-03     0.0500\n"
    assert OutputMask().apply(table).splitlines()[1] == f"1 1.2000e-03 {HIDDEN}"
    # a log line's clock stamp is hidden, its result is not; a count after a word of time
    # is compared
    stamped = "[10:35:12] residual 1.5e-03\nTotal time steps: 100\n"
    assert OutputMask().apply(stamped).splitlines() == [
        f"[{HIDDEN}] residual 1.5e-03",
        "Total time steps: 100",
    ]
    # a rate printed in groups of digits is one number however many groups it has: a
    # faster variant's "1,026,103" lookups/s is not a different line from "162,601"
    slow, fast = "Lookups/s: 162,601\n", "Lookups/s: 1,026,103\n"
    rates = OutputMask()
    rates.learn(slow, fast)  # the runs of the original may differ the same way
    assert verify.compare_outputs(rates.apply(slow), rates.apply(fast))[0]
    # on a line that also holds a result, only the time beside its unit or word is hidden
    log = "Iteration 10: residual = 1.5e-05, time = 0.01 s\n"
    assert OutputMask().apply(log) == f"Iteration 10: residual = 1.5e-05, time = {HIDDEN} s"


def test_what_the_original_teaches_the_mask_reaches_the_next_comparison():
    """The reference's masked form is kept between comparisons, until a run of the
    original changes what is left out; equal outputs are equal without masking."""
    ref, varied = "result 42\nrate 5.1\n", "result 42\nrate 6.3\n"
    mask = OutputMask()
    assert mask.compare(ref, ref, 1e-6, 1e-9, False) == (True, "")
    assert not mask.compare(ref, varied, 1e-6, 1e-9, False)[0]
    mask.learn(ref, "result 42\nrate 5.7\n")  # the original's own rate varies
    assert mask.compare(ref, varied, 1e-6, 1e-9, False) == (True, "")
    assert not mask.compare(ref, "result 43\nrate 6.3\n", 1e-6, 1e-9, False)[0]


def test_a_long_table_under_a_header_of_times_is_compared_row_by_row():
    """Only the rows that differ are masked, each under the header above it, as the whole
    output would be: a time column that differs is left out, a residual is not."""
    head = "Iter   Residual     Time(s)\n"
    rows = "".join(f"{i:5d}   {1.0 / (i + 1):.4e}   0.0500\n" for i in range(3000))
    ref = "result file\n" + head + rows
    slower = ref.replace("   0.0500\n", "   0.0700\n", 5)
    mask = OutputMask()
    assert mask.compare(ref, slower, 1e-6, 1e-9, False) == (True, "")
    wrong = ref.replace("1.0000e-03", "1.0001e-03")  # row 999's residual
    same, diff = mask.compare(ref, wrong, 1e-6, 1e-9, False)
    assert not same and diff.startswith("line 1002 ("), diff
    # the same row under a header of no times: every number is compared
    plain = ref.replace("Time(s)", "Count")
    assert not mask.compare(
        plain, plain.replace("   0.0500\n", "   0.0700\n", 1), 1e-6, 1e-9, False
    )[0]


REPORT_TEXT = """ Checksum        = {checksum}
 Time in seconds = {secs}
 Mop/s total     = {rate}
 Verification    = SUCCESSFUL
"""


def test_tune_says_it_once_per_file(tmp_path, capsys):
    """Both loops' sweeps leave the same lines out: the text report says it once."""
    path = write_program(tmp_path, REPORTING, "report.c")
    argv = ["tune", str(path), *SMALL_BUDGET, "-q", "--allow-busy"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.count("note: not compared: the times and rates") == 1, out
    assert out.count("variants not measured") == 0, out


# particlefilter-style: the estimate is seeded from the clock, so two runs of the original
# print other results; no rule may hide them
SEEDED = r"""#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define N 100000
static double w[N];
int main(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    srand((unsigned)ts.tv_nsec);
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        w[i] = 1.0 / (i + 1.0);
    double xe = 64.0 + rand() / (double)RAND_MAX, ye = 64.0 + rand() / (double)RAND_MAX;
    printf("XE: %f\nYE: %f\n%f\n", xe * w[0], ye * w[0], xe - ye);
    return 0;
}
"""


def test_an_unstable_result_is_named_line_by_line(tmp_path, capsys):
    path = write_program(tmp_path, SEEDED, "seeded.c")
    loop = _measure(capsys, path, "--repetitions", "1", loop=12)
    assert loop["variants"][0]["status"] == "not-verified"
    (said,) = [w for w in loop["warnings"] if "differs between runs" in w]
    assert "lines that change: 'XE: " in said and "'YE: " in said, said
    assert "--check-ignore '^XE:' --check-ignore '^YE:' (and a REGEX for lines like" in said


ADDRESSES = r"""#include <stdio.h>
#include <stdlib.h>
#define N 1000000
int main(void)
{
    double *grid = malloc(N * sizeof(double));
    printf("grid: %zu bytes at %p\n", (size_t)N * sizeof(double), (void *)grid);
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++)
        grid[i] = (i % 13) * 0.5;
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += grid[i];
    printf("hash 0x%08lx sum %.3f\n", (unsigned long)s * 2654435761ul % 4294967291ul, s);
    free(grid);
    return 0;
}
"""


def test_a_printed_pointer_that_moves_between_runs_is_left_out(tmp_path, capsys):
    """A pointer printed with %p moves between runs (address-space randomisation): its
    line made the original 'unstable' and every variant unverifiable. It is left out
    where the original's runs differ, and said; a hex checksum that every run prints
    alike is still compared."""
    path = write_program(tmp_path, ADDRESSES, "grid.c")
    loop = _measure(capsys, path, loop=9)
    assert loop["variants"][0]["status"] == "ok", loop["variants"][0]["message"]
    (note,) = [w for w in loop["warnings"] if w.startswith("not compared: ")]
    assert "addresses the program prints" in note and "'grid: 8000000 bytes at …'" in note
    mask = OutputMask()
    mask.learn("at 0x7f4fc1ff9010\nhash 0x1a2b3c4d\n", "at 0x7f83a1c29010\nhash 0x1a2b3c4d\n")
    assert mask.apply("at 0x55d4c3a2b2a0\nhash 0x1a2b3c4d\n") == f"at {HIDDEN}\nhash 0x1a2b3c4d"
    same, _ = verify.compare_outputs(
        mask.apply("at 0x7f4fc1ff9010\nhash 0x1a2b3c4d\n"),
        mask.apply("at 0x7f4fc1ff9010\nhash 0x1a2b3c4e\n"),
    )
    assert not same


# Rodinia particlefilter's shape: every particle seeded from the clock, a likelihood loop
# over the particles in a time loop, the weighted position printed each frame.
PARTICLES = r"""#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define NP 20000
#define FRAMES 6
static int seed[NP];
static double x[NP], w[NP];
static double randu(int *s, int i)
{
    s[i] = (1103515245 * s[i] + 12345) & 0x7fffffff;
    return s[i] / 2147483648.0;
}
int main(void)
{
    for (int i = 0; i < NP; i++)
        seed[i] = (int)time(0) * i + (int)clock();
    for (int k = 0; k < FRAMES; k++) {
#pragma omp parallel for
        for (int i = 0; i < NP; i++) {
            double l = 0.0;
            x[i] += 1.0 + randu(seed, i);
            for (int y = 0; y < 200; y++)
                l += sin(x[i] + y) * cos(x[i] - y);
            w[i] = exp(l / 200.0);
        }
#pragma omp parallel for
        for (int i = 0; i < NP; i++)
            w[i] = w[i] * w[i];
        double xe = 0.0, s = 0.0;
        for (int i = 0; i < NP; i++) {
            xe += x[i] * w[i];
            s += w[i];
        }
        printf("XE: %f\n", xe / s);
    }
    return 0;
}
"""


@pytest.mark.slow
def test_a_clock_seeded_program_calls_no_variant_wrong(tmp_path, capsys, monkeypatch):
    """Its original's own runs print other positions: a variant that differs from the
    original is not verified, not wrong (the gate did not fail), the search measures no
    more variants that nothing could verify, and the tune says why the original is kept;
    the thread counts of the frame's teams, tried on the whole program, are not called
    wrong either."""
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "r.db"))
    path = write_program(tmp_path, PARTICLES, "particles.c")
    f = tune_json(capsys, path)
    loop = f["loops"][0]
    measured = [v for v in loop["variants"] if v["status"] not in ("ranked", "pruned")]
    assert [v["status"] for v in measured] == ["not-verified"], measured  # then it stops
    assert "no variant can be verified" in loop["search"]["stopped"]
    assert "the original program's output differs between its own runs" in loop["decision"]
    assert loop["best"] is None and f["written"] is None
    (step,) = f["regions"]
    assert step["tries"] and all(t["status"] == "not-verified" for t in step["tries"]), step
