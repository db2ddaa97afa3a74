"""The model layer driven through ``autotune rank``, with coefficients we choose.

With Y = 1e-9 * X2 * imbalance (every other exponent 0), the predicted times of
a triangular loop's variants differ only by the simulated load imbalance, which
is known by hand: with 2 threads and a static schedule the second thread gets
3/4 of the work, i.e. 1.5x the mean, while dynamic,1 is balanced.
"""

import json
import math
from pathlib import Path

import pytest

from autotune.cli.main import main
from autotune.measure.machine import detect_machine
from autotune.models import defaults
from autotune.models.features import EXTENDED_FEATURES
from autotune.models.powerlaw import ExtendedPowerLawModel

KERNEL = Path(__file__).resolve().parents[1] / "kernels" / "triangular.c"


@pytest.fixture
def imbalance_only_coefficients(tmp_path, monkeypatch):
    model = ExtendedPowerLawModel()
    model.feature_names_ = list(EXTENDED_FEATURES)
    model.coef_ = [
        1.0 if n in ("x2_ops_per_thread", "imbalance") else 0.0 for n in EXTENDED_FEATURES
    ]
    model.intercept_ = math.log(1e-9)
    path = defaults.save_coefficients([model], tmp_path / "coef.json", detect_machine())
    monkeypatch.setattr(defaults, "DEFAULT_PATH", path)
    monkeypatch.delenv("AUTOTUNE_DB", raising=False)
    return path


def test_rank_orders_triangular_variants_by_simulated_imbalance(
    imbalance_only_coefficients, capsys
):
    rc = main(
        [
            "rank",
            str(KERNEL),
            "--model",
            "extended",
            "--threads",
            "2",
            "--schedules",
            "static,dynamic",
            "--chunks",
            "none,1",
            "--json",
            "--top",
            "50",
        ]
    )
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    f = out["files"][0]
    assert f["model"] == "extended" and f["target"] == "wall"
    variants = f["loops"][0]["variants"]
    pred = {(v["schedule"], v["chunk"]): v["predicted_s"] for v in variants}
    # dynamic,1 is libgomp's dynamic without a chunk: ranked once, listed as equivalent
    assert {"key": "dynamic,1,t2", "equivalent_to": "dynamic,-,t2"}.items() <= f["loops"][0][
        "equivalent"
    ][0].items()
    ratio = pred[("static", None)] / pred[("dynamic", None)]
    assert ratio == pytest.approx(1.5, abs=0.01)
    assert variants[-1]["schedule"] == "static" and variants[-1]["chunk"] is None


def test_models_cite_the_papers_not_the_project_seed_numbers(capsys):
    """The repository has no seeds folder: a user is told which paper each model is."""
    assert main(["models"]) == 0
    out = capsys.readouterr().out
    assert "seed 0" not in out
    assert "Lobachev and Loogen" in out and "Przeglad Elektrotechniczny" in out
