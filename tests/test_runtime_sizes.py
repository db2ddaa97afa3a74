"""Loops sized at run time (argv, input files, structs, malloc'd arrays): one profile run
of the original fills in what the source cannot tell, through the commands a user runs."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from tune_support import output_of, tune_json

from autotune.analysis import analyze_file
from autotune.cli.main import main
from autotune.measure.build import BuildOptions
from autotune.measure.profile import ProfileRequest, run_profile

DATA = Path(__file__).parent / "data" / "c" / "runtime"
ROOT = Path(__file__).parent.parent


def analyze(path: Path, args: str, capsys) -> dict[int, dict]:
    assert main(["analyze", str(path), "--args", args, "--json"]) == 0
    return {lp["line"]: lp for lp in json.loads(capsys.readouterr().out)["loops"]}


@pytest.mark.parametrize("n,steps", [(300, 5), (64, 2)])
def test_sizes_from_flags_in_a_struct(n, steps, env, capsys):
    (loop,) = analyze(DATA / "heat_flags.c", f"-n {n} -s {steps}", capsys).values()
    # brute force: i in [1, n-1), j in [1, n-1), once per time step
    assert loop["trip_count"] == n - 2 and loop["iterations"] == (n - 2) ** 2
    assert loop["executions"] == steps and loop["facts"] == "profile" and loop["tunable"]
    assert loop["footprint_bytes"] is not None and loop["profile"]["args"] == [
        "-n",
        str(n),
        "-s",
        str(steps),
    ]


def test_static_analysis_alone_says_unknown(env, capsys):
    assert main(["analyze", str(DATA / "heat_flags.c"), "--json"]) == 0
    (loop,) = json.loads(capsys.readouterr().out)["loops"]
    assert loop["facts"] == "unknown" and loop["trip_count"] is None and not loop["tunable"]


def test_rows_read_from_an_input_file(env, capsys):
    loops = analyze(DATA / "csr_file.c", str(DATA / "matrix.txt"), capsys)
    (loop,) = loops.values()
    nrows = int((DATA / "matrix.txt").read_text().split()[0])
    assert loop["trip_count"] == nrows and loop["facts"] == "profile"


def test_sizes_that_change_per_call_and_a_loop_never_run(env, capsys):
    loops = analyze(DATA / "solver_sizes.c", "2000 3", capsys)
    smooth, diag = loops[11], loops[19]
    # calls with count 2000, 1000, 500: the figures are for the mean count, 1167 (so three
    # executions of it carry the run's total work), i from 1 to count - 2
    assert smooth["executions"] == 3 and smooth["trip_count"] == 1165
    assert smooth["profile"]["ranges"]["count"] == [500, 2000]
    assert smooth["profile"]["medians"]["count"] == 1000
    assert any("sizes change between its 3 executions" in w for w in smooth["warnings"])
    assert not diag["tunable"] and diag["reason"].startswith("the profile run never reached it")
    loops = analyze(DATA / "solver_sizes.c", "2000 3 -v", capsys)
    assert loops[19]["tunable"] and loops[19]["trip_count"] == 2000


def test_a_failing_profile_run_is_one_line_and_nothing_is_stored(env, capsys):
    assert main(["analyze", str(DATA / "solver_sizes.c"), "--args", "4 3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "exit status 3" in err and "grid too small" in err
    assert main(["analyze", str(DATA / "solver_sizes.c"), "--args", "4 3"]) == 2  # not cached


def test_a_text_the_compiler_rejects_at_the_loop_leaves_its_own_bounds_measured(
    env, capsys, monkeypatch
):
    # a text of the full plan the loop's file cannot compile (as a called function's
    # bound or a struct among the proof's sizes once did): the profile is built again
    # with each loop's own bounds, and the trip count is still measured
    from autotune.measure import profile

    full = profile.expressions
    monkeypatch.setattr(
        profile,
        "expressions",
        lambda r, minimal=False: full(r, minimal) + ([] if minimal else ["no_such_name"]),
    )
    (loop,) = analyze(DATA / "heat_flags.c", "-n 300 -s 5", capsys).values()
    assert loop["facts"] == "profile" and loop["trip_count"] == 298 and loop["executions"] == 5


def test_rank_makes_the_profile_once_and_says_so(env, capsys):
    for expected in ("made now", "reused from the database"):
        assert (
            main(["rank", str(DATA / "heat_flags.c"), "--args", "-n 200 -s 3", "--top", "3"]) == 0
        )
        out = capsys.readouterr().out
        assert expected in out and "not ranked" not in out


def test_tune_with_arguments_end_to_end(env, capsys):
    src = DATA / "heat_flags.c"
    out = env / "tuned.c"
    f = tune_json(capsys, src, "--args", "-n 200 -s 4", apply=out)
    (loop,) = f["loops"]
    assert loop["tunable"] and loop["facts"] == "profile" and loop["trip_count"] == 198
    assert loop["baseline"] is not None  # measured with the arguments
    args = ["-n", "200", "-s", "4"]
    assert output_of(src, env / "o", args) == output_of(out, env / "t", args)


@pytest.mark.skipif(shutil.which("make") is None, reason="make not installed")
@pytest.mark.slow
def test_build_hook_tunes_with_autotune_args(tmp_path):
    from buildhook_support import hook_env, run, warnings_in

    proj = tmp_path / "proj"
    proj.mkdir()
    shutil.copy(DATA / "heat_flags.c", proj / "heat.c")
    (proj / "Makefile").write_text(
        "CFLAGS = -O2 -fopenmp\nheat: heat.c\n\t$(CC) $(CFLAGS) -o heat heat.c\n"
    )
    env = hook_env(
        tmp_path,
        AUTOTUNE_MODE="tune",
        AUTOTUNE_ARGS="-n 160 -s 3",
        AUTOTUNE_TUNE_ARGS="--top 1 --repetitions 1 --confirm-runs 2 --allow-busy",
    )
    build = run(["make", "-s", "CC=autotune-cc gcc"], proj, env)
    assert warnings_in(build.stderr) == [], build.stderr
    log = (tmp_path / "results.tune.log").read_text()
    assert "'--args=-n 160 -s 3'" in log and "profile run of the original" in log
    assert "trip count of the parallel loop is unknown" not in log


@pytest.mark.slow
def test_static_and_profile_agree_on_our_kernels():
    """Where both give a value, they agree: every profiled expression the source also
    fixes evaluates to the same number, and a loop in main runs as often as counted."""
    for path in sorted((ROOT / "kernels").glob("*.c")):
        static = analyze_file(str(path)).loops
        doc = run_profile(ProfileRequest(path, path.read_text(), BuildOptions(), []), static)
        for r in static:
            p = doc[r.key]
            for text, value in p["values"].items():
                level = next(lv for lv in r.nest if text in (lv.lower, lv.upper))
                assert eval(text) == value, (path.name, text)  # integer text
                assert level.trip_count is not None
            if r.function == "main" and r.executions is not None:
                assert p["executions"] == r.executions, (path.name, r.line)


def _row_lengths(path: Path) -> list[int]:
    return [int(x) for x in path.read_text().split()[1:]]


def test_data_dependent_rows_reach_the_model_as_imbalance(env, capsys):
    """CSR rows read from a file: their lengths are sampled by the profile run, become the
    loop's per-iteration work, and rank then prefers a dynamic or guided schedule."""
    (loop,) = analyze(DATA / "csr_file.c", str(DATA / "matrix.txt"), capsys).values()
    rows = _row_lengths(DATA / "matrix.txt")  # brute force: every row sampled here
    assert loop["iterations"] == sum(rows) and loop["profile"]["inner"]["max"] == max(rows)

    skewed = DATA / "skewed.txt"  # 20000 rows by degree: the heavy ones last
    (loop,) = analyze(DATA / "csr_file.c", str(skewed), capsys).values()
    rows = _row_lengths(skewed)
    assert loop["profile"]["inner"]["samples"] >= 2000
    assert abs(loop["iterations"] - sum(rows)) <= 0.05 * sum(rows)  # sampled every 10th row
    assert (
        main(["rank", str(DATA / "csr_file.c"), "--args", str(skewed), "--top", "3", "--json"]) == 0
    )
    ranked = json.loads(capsys.readouterr().out)["files"][0]["loops"][0]["variants"]
    assert ranked[0]["schedule"] in ("dynamic", "guided"), ranked[:3]


def test_neighbour_lists_scale_the_loops_inside_them(env, capsys):
    """Cell lists: the neighbour loop's trip count is data (1 + nn per cell) and two
    particle loops of fixed length run inside each of its steps. The sampled counts
    must scale those loops too, not stand for the innermost body alone."""
    side, per_cell = 5, 16
    (loop,) = analyze(DATA / "cell_lists.c", str(side), capsys).values()
    per_axis = sum(len([d for d in (-1, 0, 1) if 0 <= a + d < side]) for a in range(side))
    steps = per_axis**3  # brute force: neighbours (and the cell itself) of every cell
    assert loop["profile"]["inner"]["total"] == steps
    assert loop["iterations"] == steps * per_cell * per_cell
    assert loop["ops"]["exp"] == loop["iterations"]  # one exp per particle pair
    body = loop["ops_per_iteration"]["weighted"]
    assert body * loop["iterations"] <= loop["weighted_ops"] <= 1.01 * body * loop["iterations"]


def test_other_loops_of_the_body_are_sized_by_the_profile(env, capsys):
    """The merge loop under the lock is bounded by a run-time option; the nest follows
    the longer weights loop beside it. The profile run measures that bound too, so the
    merge's divisions are counted once per cell merged, not once per particle."""
    particles, order = 5000, 3
    (loop,) = analyze(DATA / "shape_order.c", f"{particles} {order}", capsys).values()
    assert loop["tunable"] and loop["profile"]["values"]["order"] == order
    assert loop["ops"]["div"] == particles * order  # one w[k] / s per cell merged


def test_a_loop_in_a_time_loop_counts_its_executions_by_the_profile(env, capsys):
    """Rodinia hotspot3D's shape: the worksharing loop in a do-while of the region. The
    source cannot count its executions and says so; the profile run counts them, and
    then the figures must not call them unknown."""
    path = ROOT / "tests" / "data" / "c" / "proof" / "swap_region_locals.c"
    assert main(["analyze", str(path), "--json"]) == 0
    (loop,) = json.loads(capsys.readouterr().out)["loops"]
    unknown = "inside a while/do loop: executions per program run unknown"
    assert unknown in loop["warnings"]
    (loop,) = analyze(path, "24 6", capsys).values()
    assert loop["executions"] == 5 and loop["facts"] == "profile"
    assert unknown not in loop["warnings"]


def test_structure_uses_the_profile(env, capsys):
    assert main(["structure", str(DATA / "heat_flags.c"), "--args", "-n 200 -s 3"]) == 0
    out = capsys.readouterr().out
    assert "profile run of the original" in out and "198 it." in out


def test_a_loop_that_cannot_be_instrumented_leaves_sizes_unknown(env, capsys):
    assert main(["analyze", str(DATA / "macro_loop.c"), "--args", "5000", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (loop,) = doc["loops"]
    assert loop["facts"] == "unknown" and not loop["tunable"]
    assert any("no profile run" in w and "macro" in w for w in doc["warnings"])


def test_sizes_read_from_standard_input(env, capsys):
    src, data = DATA / "stdin_sizes.c", DATA / "stdin_input.txt"
    assert main(["analyze", str(src), "--stdin", str(data), "--json"]) == 0
    (loop,) = json.loads(capsys.readouterr().out)["loops"]
    assert loop["trip_count"] == int(data.read_text().split()[0]) and loop["facts"] == "profile"
    out = env / "tuned.c"
    f = tune_json(capsys, src, "--stdin", str(data), apply=out)
    assert f["loops"][0]["baseline"] is not None  # the sweep ran it with that input
    outs = []
    for name, path in (("o", src), ("t", out)):
        subprocess.run(["gcc", "-O2", "-fopenmp", str(path), "-o", str(env / name)], check=True)
        with open(data, "rb") as fh:
            outs.append(subprocess.run([str(env / name)], stdin=fh, capture_output=True).stdout)
    assert outs[0] == outs[1] and outs[0].startswith(b"axpy")


def test_build_hook_applies_a_variant_tuned_with_a_profile(tmp_path, capsys):
    """Apply mode has no arguments to profile with: a stored variant of a loop sized at
    run time is still compiled (the gate's verdicts hold), not refused."""
    from buildhook_support import (
        by_source,
        hook_env,
        report,
        run,
        save_choices,
        symbols,
        warnings_in,
        wrapper_exe,
    )

    proj = tmp_path / "proj"
    proj.mkdir()
    shutil.copy(DATA / "heat_flags.c", proj / "heat.c")
    env = hook_env(tmp_path, AUTOTUNE_MODE="apply")
    db = Path(env["AUTOTUNE_DB"])
    save_choices(db, proj / "heat.c", {}, "dynamic,8,t-")
    build = run([wrapper_exe(), "gcc", "-O2", "-fopenmp", "-c", "heat.c"], proj, env)
    assert warnings_in(build.stderr) == [], build.stderr
    assert "GOMP_loop_nonmonotonic_dynamic" in symbols(
        proj / "heat.o"
    ) or "GOMP_loop_dynamic" in symbols(proj / "heat.o")
    assert by_source(report(db, capsys))["heat.c"]["used"] == "tuned"


def test_a_size_passed_to_a_called_function_is_profiled_in_the_callers_terms(env, capsys):
    """particlefilter's resampling: the parallel loop calls findIndex(CDF, Nparticles, u)
    whose loop runs to its parameter lengthCDF; the profile build must not name lengthCDF
    in the caller (gcc: undeclared), and the run gives the loop its size."""
    assert main(["analyze", str(DATA / "particle_resample.c"), "--args", "3000", "--json"]) == 0
    captured = capsys.readouterr()
    assert "profile build failed" not in captured.err + captured.out
    (loop,) = json.loads(captured.out)["loops"]
    assert loop["facts"] == "profile" and loop["trip_count"] == 3000 and loop["tunable"]
    # the callee's loop bound, rewritten into the caller's terms
    levels = {lv["var"]: lv for lv in loop["nest"]}
    assert levels["findIndex.x"]["upper"] == "(Nparticles)"


def test_a_program_that_exits_1_by_design(env, capsys, tmp_path):
    """XSBench exits 1 ("invalid checksum") for any lookup count but its default: the
    profile run says so in one line with the way out; with --expect-status 1 the loop is
    sized by the profile, tuned, and a variant must exit 1 too."""
    src = DATA / "lookup_checksum.c"
    args = ["--args", "-l 200000"]
    assert main(["analyze", str(src), *args]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "exit status 1" in err[0] and "--expect-status 1" in err[0]
    (loop,) = analyze_file(str(src)).loops
    assert not loop.tunable  # the lookup count is only known at run time
    out = tmp_path / "tuned.c"
    f = tune_json(capsys, src, *args, "--expect-status", "1", "--allow-busy", apply=out)
    (tuned,) = f["loops"]
    assert tuned["facts"] == "profile" and tuned["trip_count"] == 200000 and tuned["tunable"]
    ok = [v for v in tuned["variants"] if v["status"] == "ok"]
    assert len(ok) >= 2  # the original and a variant ran, each exiting 1 as expected
    # the program as written and the tuned one both exit 1 with the same checksum
    for path in (src, out):
        exe = tmp_path / f"{path.stem}.exe"
        subprocess.run(["gcc", "-O2", "-fopenmp", str(path), "-o", str(exe)], check=True)
        run = subprocess.run([str(exe), "-l", "200000"], capture_output=True, text=True)
        assert run.returncode == 1 and "Verification checksum: 99278489" in run.stdout


USAGE = r"""#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "Usage: %s <rows> <iterations>\n", argv[0]);
        fprintf(stderr, "\t<rows>  - number of rows in the grid\n");
        exit(1);
    }
    int n = atoi(argv[1]), steps = atoi(argv[2]);
    double *g = calloc((size_t)n, sizeof(double));
    for (int s = 0; s < steps; s++) {
#pragma omp parallel for
        for (int i = 0; i < n; i++)
            g[i] += i * 0.5;
    }
    printf("%f\n", g[n / 2]);
    free(g);
    return 0;
}
"""


def test_a_program_run_without_its_arguments_says_how_it_is_run(env, capsys):
    """Rodinia's programs print their usage and exit 1 when run without arguments: the
    profile run's message quotes that line (with the program's name, not autotune's
    build path) and names --args, not --expect-status."""
    src = env / "grid.c"
    src.write_text(USAGE)
    assert main(["tune", str(src), "-q"]) == 2
    (err,) = capsys.readouterr().err.strip().splitlines()
    assert "it printed 'Usage: grid <rows> <iterations>'" in err, err
    assert '--args "..."' in err and "--expect-status" not in err
    assert main(["analyze", str(src), "--args", "4000 3"]) == 0


def test_analyze_profile_on_a_file_sized_by_macros_says_none_was_needed(env, capsys):
    """``--profile`` where every size is in the source: no run, and one line says why
    (the JSON's ``profile`` had been an empty list with no word)."""
    kernel = str(ROOT / "kernels" / "triangular.c")
    assert main(["analyze", kernel, "--profile"]) == 0
    assert "no profile run needed: every loop's sizes are known" in capsys.readouterr().out
    assert main(["analyze", kernel, "--profile", "--json"]) == 0
    (note,) = json.loads(capsys.readouterr().out)["profile"]
    assert note.endswith(
        "no profile run needed: every loop's sizes are known from the source and its defines"
    )
