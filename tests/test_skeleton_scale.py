"""``autotune scale``: the harness feeds (n, p, time) rows to the skeleton predictor."""

import json
from pathlib import Path

import pytest

from autotune.cli import scale
from autotune.cli.main import main

KERNEL = Path(__file__).resolve().parents[1] / "kernels" / "compute.c"


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "runs.db"))
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path


def test_scale_logic_on_a_model_grid(isolated, monkeypatch, capsys):
    # The harness replaced by an exact model: the predictor must recover it, and the
    # target is "measured" after the prediction and scored.
    def fake_measure(self, size, threads):
        return {"k.c:7": [(size, p, 1e-6 * size / p + 0.002 * p) for p in threads]}

    monkeypatch.setattr(scale.Grid, "measure", fake_measure)
    rc = main(["scale", str(KERNEL), "--sizes", "N=1000,2000,4000,8000", "--threads", "1,2",
               "--predict", "N=16000,p=2", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert rc == 0 and doc["target"] == {"N": 16000, "p": 2}
    loop = doc["loops"][0]
    assert len(loop["measurements"]) == 8
    pred = loop["prediction"]
    assert pred["direction"] == "n"
    expected = 1e-6 * 16000 / 2 + 0.004
    assert pred["T_n_p"] == pytest.approx(expected, rel=1e-6)
    assert pred["measured"] == pytest.approx(expected) and abs(pred["relative_error"]) < 1e-6


def test_scale_bad_arguments(isolated, capsys):
    rc = main(["scale", str(KERNEL), "--sizes", "N=1000"])
    assert rc == 2 and "at least two" in capsys.readouterr().err
    rc = main(["scale", str(KERNEL), "--sizes", "N=1000,2000", "--predict", "M=5,p=1"])
    assert rc == 2 and "macro of --sizes" in capsys.readouterr().err


def test_scale_measures_a_real_kernel(isolated, capsys):
    # Real builds and runs (small sizes, one repetition); the error is reported, not asserted.
    rc = main(["scale", str(KERNEL), "--sizes", "N=1500,3000,6000", "--threads", "1",
               "--predict", "N=12000,p=1", "--method", "lm", "--repetitions", "1", "-D", "K=32",
               "--quiet"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "compute.c" in out and "measured T(n,1)" in out and "relative error" in out
