"""The ranking bench's intervals: programs are resampled, goals are judged on them."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import program_bootstrap as pb


def _scores(regrets: dict[str, list[float]], method: str = "m") -> list[dict]:
    return [
        {"loop": f"{prog}:{10 + i}", "method": method, "regret1": r}
        for prog, rs in regrets.items()
        for i, r in enumerate(rs)
    ]


def test_a_goal_is_met_only_when_the_whole_interval_is_on_its_side():
    every = _scores({f"p{k}": [0.01, 0.02] for k in range(6)})
    value, lo, hi = pb.interval(every, "m", "regret@1")
    assert lo <= value <= hi <= 0.04
    assert pb.verdict("regret@1", lo, hi) == "met"
    one_bad = _scores({**{f"p{k}": [0.0] for k in range(5)}, "bad": [0.5]})
    value, lo, hi = pb.interval(one_bad, "m", "regret@1")
    assert lo == 0.0 and hi > 0.04  # the figure depends on whether "bad" is drawn
    assert pb.verdict("regret@1", lo, hi) == "not resolved by these programs"
    far = _scores({f"p{k}": [0.3] for k in range(4)})
    assert pb.verdict("regret@1", *pb.interval(far, "m", "regret@1")[1:]) == "not met"


def test_loops_of_one_program_are_drawn_together():
    # two programs, one with many loops: a loop-level draw could mix them freely; a
    # program-level draw gives only the figures of {a}, {b} and {a, b}
    scores = _scores({"a": [0.0] * 9, "b": [1.0]})
    draws = {
        pb.aggregate([s for p in d for s in scores if s["loop"].startswith(p + ":")], "regret@1")
        for d in pb._resamples(["a", "b"], 200, 0)
    }
    together = pb.aggregate(scores, "regret@1")
    assert {round(x, 9) for x in draws} <= {0.0, 1.0, round(together, 9)}


def test_a_paired_comparison_of_a_run_with_itself_moves_nothing():
    run = _scores({f"p{k}": [0.01 * k, 0.02] for k in range(5)})
    d, lo, hi, loops = pb.paired_difference(run, run, "m", "regret@1")
    assert (d, lo, hi, loops) == (0.0, 0.0, 0.0, 10)
    better = [dict(s, regret1=s["regret1"] / 2) for s in run]
    d, lo, hi, _ = pb.paired_difference(better, run, "m", "regret@1")
    assert d < 0 and hi < 0
