"""calibrate end to end on two tiny kernels: real sweeps, fitted models stored and used."""

from __future__ import annotations

import json

from autotune.cli.main import main
from autotune.models.defaults import load_model

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
    rc = main(["calibrate", "--kernels", str(kdir), "--sample", "4", "--repetitions", "1",
               "--db", str(db), "--save", str(save), "--json", "--quiet"])
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    assert data["samples"] >= 9
    fitted = {(f["model"], f["target"]) for f in data["fit"]}
    assert ("faithful", "wall") in fitted and ("faithful", "cpu") in fitted
    assert data["preferred"] in ("faithful", "extended") and data["reason"]
    assert {h["kernel"] for h in data["held_out"]} == {
        str(kdir / name) + ":7" for name in ("heavy.c", "light.c", "third.c")}
    model = load_model("faithful", save)  # the saved file is a valid coefficients file
    assert len(model.coef_) == 4 and "fitted on" in model.metadata_["label"]
    assert main(["rank", str(kdir / "light.c"), "--db", str(db)]) == 0
    assert "calibrated on this machine" in capsys.readouterr().out
