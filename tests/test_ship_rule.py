"""The rank mode's rule for compiling a first pick unmeasured: fitted on held-out picks,
stored with the model, and obeyed by ``autotune rank`` and the build hook."""

from __future__ import annotations

import json
from pathlib import Path

from buildhook_support import by_source, copy_project, hook_env, report, run, wrapper_exe

from autotune.cli.main import main
from autotune.measure.machine import detect_machine
from autotune.measure.store import Store
from autotune.models.defaults import load_model
from autotune.tuning.modelchoice import PREFERENCE
from autotune.tuning.ship_rule import FLOOR, MIN_GAIN, ShipRule


def test_the_rule_ships_only_above_the_largest_predicted_gain_that_lost():
    # (predicted gain of the first pick, measured gain) on held-out loops
    picks = [(1.05, 0.52), (1.19, 0.70), (1.10, 1.20), (1.50, 1.21), (2.0, 1.8)]
    rule = ShipRule.fit(picks)
    assert (rule.min_gain, rule.loops, rule.lost) == (1.19, 5, 2)
    assert rule.ships(1.2) and not rule.ships(1.19) and not rule.ships(1.1)
    assert "2 of 5 held-out picks lost" in rule.why_not(1.1)
    # a loss within the noise (2% slower) is not a loss; no loss: the floor
    assert ShipRule.fit([(1.1, 0.985), (1.3, 1.2), (1.05, 1.1)]).min_gain == FLOOR == 1.10
    assert ShipRule.fit([(1.1, 0.5), (1.3, 1.2)]) == ShipRule()  # too few: the default
    assert ShipRule().min_gain == MIN_GAIN
    assert ShipRule.from_dict(rule.to_dict()) == rule


def _store_rule(db: Path, min_gain: float) -> None:
    """This machine's model in ``db``: the shipped coefficients with a fitted rule."""
    doc = load_model("extended", None).to_dict()
    doc["ship_rule"] = {"min_gain": min_gain, "loops": 5, "lost": 2}
    with Store(str(db)) as store:
        fp = store.add_machine(detect_machine())
        store.save_model("extended", fp, "wall", doc)
        store.save_model(PREFERENCE, fp, "wall", {"model": "extended", "reason": "test"})


def _rank_mode_build(tmp_path: Path, capsys, min_gain: float) -> tuple[Path, Path, list]:
    """The two-file project built in rank mode under a stored rule: (project, database,
    the loops' decisions); the program prints what the plain build prints."""
    proj = copy_project("two_files", tmp_path)
    run(["gcc", "-fopenmp", "-O2", "main.c", "fill.c", "-o", "plain"], proj)
    expected = run(["./plain"], proj).stdout
    env = hook_env(tmp_path, AUTOTUNE_MODE="rank")
    db = Path(env["AUTOTUNE_DB"])
    _store_rule(db, min_gain)
    argv = [wrapper_exe(), "gcc", "-fopenmp", "-O2", "main.c", "fill.c", "-o", "prog"]
    run(argv, proj, env)
    assert run(["./prog"], proj).stdout == expected
    rep = by_source(report(db, capsys))
    return proj, db, rep["main.c"]["loops"] + rep["fill.c"]["loops"]


def test_rank_mode_compiles_a_pick_that_clears_the_stored_rule(tmp_path, capsys):
    _, _, loops = _rank_mode_build(tmp_path, capsys, 1.0)
    gains = [ld for ld in loops if "faster" in ld["reason"]]
    assert gains, loops
    assert all(ld["used"] == "tuned" and ld["variant"] != "baseline" for ld in gains)


def test_rank_mode_keeps_the_original_below_the_stored_rule(tmp_path, capsys):
    proj, db, loops = _rank_mode_build(tmp_path, capsys, 1000.0)  # no prediction clears it
    assert all(ld["used"] == "original" for ld in loops)
    ranked = [ld for ld in loops if "faster" in ld["reason"]]  # predicted a gain, kept
    assert ranked, loops
    for ld in ranked:
        assert ld["used"] == "original" and ld["variant"] == "baseline"
        assert "not above the 1000.00x an unmeasured pick needs" in ld["reason"]
    # the same rule, shown by rank: the loop's first pick stays unmeasured
    assert main(["rank", str(proj / "fill.c"), "--db", str(db), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {lp["unmeasured_min_gain"] for f in doc["files"] for lp in f["loops"]} == {1000.0}
    assert main(["rank", str(proj / "fill.c"), "--db", str(db)]) == 0
    assert "rank mode would keep the original" in capsys.readouterr().out


def test_an_ordered_loop_never_ships_unmeasured(tmp_path, capsys):
    """The ordered region serialises the threads in a way the model does not see: even
    under a rule that ships every predicted gain, rank mode compiles it as written."""
    src = Path(__file__).parent / "data" / "c" / "proof" / "ordered_output.c"
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "ordered_output.c").write_text(src.read_text())
    env = hook_env(tmp_path, AUTOTUNE_MODE="rank")
    db = Path(env["AUTOTUNE_DB"])
    _store_rule(db, 1.0)
    argv = [wrapper_exe(), "gcc", "-fopenmp", "-O2", "ordered_output.c", "-o", "prog"]
    run(argv, proj, env)
    (loop,) = by_source(report(db, capsys))["ordered_output.c"]["loops"]
    assert loop["used"] == "original" and "ordered region" in loop["reason"], loop
    assert main(["rank", str(proj / "ordered_output.c"), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "rank mode would keep the original" in out and "ordered region" in out


def test_an_unmeasured_pick_never_runs_more_threads_than_cores():
    """Rank 1 at twice the cores is passed over for the best pick within them: on the
    recorded 16-core sweeps no loop ran fastest at 32 threads (the best at 32 took 2.0x
    the best at 16 at the median, up to 300x)."""
    from autotune.tuning.ship_rule import first_pick

    predicted, threads = [0.8, 0.9, 1.1], [32, 16, None]
    assert first_pick(2.0, predicted, threads, cores=16) == (1, 2.0 / 0.9)
    assert first_pick(2.0, predicted, threads) == (0, 2.5)  # cores unknown: any
    assert first_pick(2.0, [0.8], [32], cores=16) == (0, 2.5)  # nothing within: rank 1


TRIANGLE_MAX = """#include <stdio.h>
#define N 6000
static long a[N];
int main(void) {
  for (int i = 0; i < N; i++) a[i] = (i * 7919L) % 10007;
  long m = 0;
#pragma omp parallel for reduction(max:m)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < i; j++) m = (a[i] * a[j]) % 9973 > m ? (a[i] * a[j]) % 9973 : m;
  printf("%ld\\n", m);
  return 0;
}
"""


def test_rank_mode_compiles_no_oversubscribed_pick(tmp_path, capsys):
    """A triangular loop, under a rule that ships every predicted gain: whatever the
    model ranks first, what the hook compiles runs at most as many threads as cores
    (on the 2-core VM the model's rank 1 was dynamic,256 at 4 threads)."""
    import os

    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "tri.c").write_text(TRIANGLE_MAX)
    env = hook_env(tmp_path, AUTOTUNE_MODE="rank")
    db = Path(env["AUTOTUNE_DB"])
    _store_rule(db, 1.0)
    run([wrapper_exe(), "gcc", "-fopenmp", "-O2", "tri.c", "-o", "prog", "-lm"], proj, env)
    (loop,) = by_source(report(db, capsys))["tri.c"]["loops"]
    assert loop["used"] == "tuned", loop
    threads = loop["variant"].rsplit(",t", 1)[1]
    assert threads == "-" or int(threads) <= (os.cpu_count() or 1), loop


def test_rank_says_why_the_hook_would_not_compile_rank_1(tmp_path, capsys, monkeypatch):
    """``rank`` with a thread count far above the cores on offer: when its first pick is
    past them, the line that names the hook's pick says so (it had named "rank 5" alone)."""
    import os
    import re

    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "r.db"))
    src = tmp_path / "tri.c"
    src.write_text(TRIANGLE_MAX)
    many = 8 * (os.cpu_count() or 1)
    assert main(["rank", str(src), "--threads", f"1,2,{many}", "--top", "8"]) == 0
    out = capsys.readouterr().out
    first = re.search(r"^\s*1\s+\S+\s+\S+\s+(\d+|-)\s", out, re.M)
    said = re.search(r"would compile rank (\d+)( \(rank 1 runs (\d+) threads on (\d+) cores)?", out)
    assert first and said, out
    if first.group(1) == str(many) and said.group(1) != "1":  # rank 1 oversubscribes
        assert said.group(3) == str(many) and said.group(4) == str(os.cpu_count()), out
    else:
        assert said.group(2) is None, out
