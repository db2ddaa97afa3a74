"""Tuning time in proportion to what can win: a loop that is a sliver of the program's
run cannot make the program measurably faster, so its variants are not measured."""

from __future__ import annotations

import json
from pathlib import Path

# STREAM-style setup dominated by sequential work (about 0.35 s); the parallel loop is
# microseconds: even a preemption of a shared core while it runs (a few milliseconds,
# seen on the 2-core CI machine) leaves it far below the 3% share
NEGLIGIBLE = r"""#include <stdio.h>
#define N 256
static double a[N];
int main(void)
{
    double s = 0.0;
    for (long k = 0; k < 300000000L; k++)
        s += (double)(k % 7) * 1e-9;
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        a[i] = i * 0.5;
    for (int i = 0; i < N; i++)
        s += a[i];
    printf("%.6e\n", s);
    return 0;
}
"""


def test_a_loop_too_small_to_pay_for_its_variants_is_not_measured(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "r.db"))
    src = tmp_path / "negligible.c"
    src.write_text(NEGLIGIBLE)
    from autotune.cli.main import main

    args = [
        "tune",
        str(src),
        "--top",
        "2",
        "--repetitions",
        "1",
        "--confirm-runs",
        "2",
        "--allow-busy",
    ]
    assert main([*args, "--json", "-q"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["budget"]["program_runs"] >= 1 and doc["budget"]["seconds"] > 0
    (f,) = doc["files"]
    (loop,) = f["loops"]
    assert loop["measured_programs"] == 1, loop["decision"]  # the original only
    assert loop["run_share_too_small"] is not None and loop["run_share_too_small"] < 0.03
    assert "variants not measured" in loop["decision"] and loop["best"] is None
    assert all(v["status"] in ("pruned", "not-run", "ok") for v in loop["variants"])
    assert [v for v in loop["variants"] if v["status"] == "ok"] == []
    assert main([*args, "-q", "--fresh"]) == 0  # the table says it too
    assert "1 loop(s) too small a share of the run" in capsys.readouterr().out


def test_a_time_budget_stops_measuring_and_decides_on_what_was_measured(tmp_path, capsys):
    """--time-budget spent at once: no loop is measured, each says why and stays as
    written; exit 0. (A budget spent during a loop's search stops the search there.)"""
    from autotune.cli.main import main

    src = tmp_path / "sd.c"
    src.write_text(
        (Path(__file__).parent / "data" / "profile" / "stringized_directive.c").read_text()
    )
    argv = ["tune", str(src), "--args", "20000", "--min-share", "0", "--repetitions", "1"]
    argv += ["--allow-busy", "--json", "-q", "--time-budget", "0.001"]
    assert main(argv) == 0
    loops = json.loads(capsys.readouterr().out)["files"][0]["loops"]
    assert len(loops) == 3
    for lp in loops:
        assert lp["out_of_time"] == "the time budget (0.001 s, --time-budget) was spent"
        assert lp["decision"] == (
            "not measured: the time budget (0.001 s, --time-budget) was spent before this "
            "loop: original kept"
        ), lp
        assert lp["baseline_status"] is None
        assert all(v["status"] == "pruned" for v in lp["variants"]), lp["variants"]
