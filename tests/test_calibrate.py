"""calibrate end to end on two tiny kernels: real sweeps, fitted models stored and used."""

from __future__ import annotations

import json

from autotune.cli.main import main
from autotune.frontend import analyze_file
from autotune.measure.machine import detect_machine
from autotune.models.defaults import load_model
from autotune.models.features import feature_matrix
from autotune.tuning import calibrate as cal
from autotune.variants.space import Variant, default_space

KERNEL = r"""#include <stdio.h>
#include <math.h>
#define N {n}
static double a[N];
int main(void) {{
#pragma omp parallel for
  for (int i = 0; i < N; i++) a[i] = {body};
  double s = 0.0;
  for (int i = 0; i < N; i++) s += a[i];
  printf("%.6e\n", s);
  return 0;
}}
"""


def test_calibrate_fits_stores_and_rank_uses_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    db = tmp_path / "r.db"
    kdir = tmp_path / "kernels"
    kdir.mkdir()
    (kdir / "light.c").write_text(KERNEL.format(n=30000, body="i * 0.5"))
    (kdir / "heavy.c").write_text(KERNEL.format(n=3000, body="sqrt(i + 1.0) * exp(-i * 1e-4)"))
    (kdir / "third.c").write_text(KERNEL.format(n=8000, body="sin(i * 0.01)"))
    save = tmp_path / "coef.json"
    rc = main(
        [
            "calibrate",
            "--kernels",
            str(kdir),
            "--sample",
            "4",
            "--repetitions",
            "1",
            "--db",
            str(db),
            "--save",
            str(save),
            "--force",
            "--json",
            "--quiet",
        ]
    )
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    assert data["samples"] >= 9
    fitted = {(f["model"], f["target"]) for f in data["fit"]}
    assert ("faithful", "wall") in fitted and ("faithful", "cpu") in fitted
    assert data["preferred"] in ("faithful", "extended") and data["reason"]
    assert {h["kernel"] for h in data["held_out"]} == {
        str(kdir / name) + ":7" for name in ("heavy.c", "light.c", "third.c")
    }
    model = load_model("faithful", save)  # the saved file is a valid coefficients file
    assert len(model.coef_) == 4 and "fitted on" in model.metadata_["label"]
    assert data["adopted"] and data["verdict"] and data["current"]["source"]
    assert main(["rank", str(kdir / "light.c"), "--db", str(db)]) == 0
    assert "calibrated on this machine" in capsys.readouterr().out
    assert main(["calibrate", "--show", "--db", str(db)]) == 0
    shown = capsys.readouterr().out
    assert "calibrated on this machine" in shown and "x4_threads" in shown
    assert main(["calibrate", "--reset", "--db", str(db)]) == 0
    assert "shipped defaults" in capsys.readouterr().out
    assert main(["rank", str(kdir / "light.c"), "--db", str(db)]) == 0
    assert "shipped defaults" in capsys.readouterr().out


def test_too_small_a_sample_is_refused_in_one_line(capsys):
    assert main(["calibrate", "--sample", "2"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--sample" in err[0] and "at least 4" in err[0]


def test_a_sample_that_never_varies_the_schedule_cannot_be_fitted(tmp_path):
    """What --sample 2 used to measure (static variants only) leaves the extended
    model's schedule factors undetermined: it is refused, not fitted to nonsense."""
    src = tmp_path / "k.c"
    src.write_text(KERNEL.format(n=30000, body="i * 0.5"))
    (record,) = analyze_file(str(src), threads=2).loops
    machine = detect_machine()
    static = [Variant("static", c, t) for c in (None, 1, 2, 4, 8, 16, 32, 64) for t in (1, 2, 3, 4)]
    samples = [cal.Sample("k.c", record, v, 0.01 / min(v.threads, 2), None) for v in static]
    assert "sched_dynamic" in cal.unidentifiable(samples, machine, "extended")
    assert "at least" in cal.unidentifiable(samples[:3], machine, "faithful")
    result = cal.CalibrationResult()
    cal.fit_models(samples, machine, result)
    assert ("extended", "wall") not in result.models and "extended" in result.refused


def test_stragglers_are_dropped_and_noisy_variants_left_out():
    assert cal.robust_time([0.17, 298.0, 0.18]) == (0.18, 1)
    assert cal.robust_time([0.17]) == (0.17, 0)
    assert cal.robust_time([0.1, 0.2, 0.3])[0] is None  # spread 200%: not data


def test_new_coefficients_that_rank_worse_are_not_adopted(tmp_path):
    """The coefficients in use rank the sampled loops perfectly (the times are their own
    predictions); new ones whose held-out ranking is worse are refused."""
    src = tmp_path / "k.c"
    src.write_text(KERNEL.format(n=30000, body="i * 0.5"))
    (record,) = analyze_file(str(src), threads=2).loops
    machine = detect_machine()
    current = load_model("extended")
    variants = default_space(record, machine.cores)
    X, _ = feature_matrix([(record, v) for v in variants], machine, "extended")
    samples = [
        cal.Sample("k.c", record, v, float(t), None)
        for v, t in zip(variants, current.predict(X), strict=True)
    ]
    result = cal.CalibrationResult()
    result.models[("extended", "wall")] = current
    result.preferred = "extended"
    result.held_out = [cal.HeldOut("k.c:7", "extended", 0.2, 0.5, 0.3, 0.25, True)]
    cal.decide_adoption(result, current, samples, machine)
    assert not result.adopted and "not adopted" in result.verdict
    assert result.current["regret5"] == 0.0
    result.held_out = [cal.HeldOut("k.c:7", "extended", 1.0, 0.1, 0.0, 0.0, False)]
    cal.decide_adoption(result, current, samples, machine)
    assert result.adopted
