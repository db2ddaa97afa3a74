"""Coefficient files: format, round trip, shipped defaults, one-line errors."""

import datetime as dt
import json

import numpy as np
import pytest

from autotune.errors import UserError
from autotune.measure.machine import Machine
from autotune.models.defaults import (
    DEFAULT_PATH,
    FILE_FORMAT,
    load_model,
    machine_label,
    read_coefficients,
    save_coefficients,
)
from autotune.models.features import EXTENDED_FEATURES
from autotune.models.fitted import FittedPowerLaw
from autotune.models.powerlaw import ExtendedPowerLawModel, PowerLawModel

MACHINE = Machine(
    cpu_model="Test CPU 3000",
    cores=2,
    l1d_bytes=32768,
    l1d_assoc=8,
    l2_bytes=1 << 20,
    l2_assoc=8,
    l3_bytes=32 << 20,
    l3_assoc=16,
    line_bytes=64,
    compiler_version="gcc 12",
)


def fitted(cls, k, target="wall", seed=0):
    rng = np.random.default_rng(seed)
    X = 10 ** rng.uniform(0, 3, (30, k))
    X[:, k - 2 :] = np.where(rng.random((30, 2)) < 0.5, 0.0, 1.0) if k == 9 else X[:, k - 2 :]
    y = 1e-6 * X[:, 0] ** 0.5 * np.exp(rng.normal(0, 0.01, 30))
    features = EXTENDED_FEATURES[:k] if cls is ExtendedPowerLawModel else None
    return cls(target=target, features=features).fit(X, y), X


def test_save_and_load_round_trip(tmp_path):
    faithful, Xf = fitted(PowerLawModel, 4)
    extended, Xe = fitted(ExtendedPowerLawModel, 9)
    cpu, _ = fitted(PowerLawModel, 4, target="cpu", seed=1)
    path = save_coefficients(
        [faithful, extended, cpu], tmp_path / "c.json", MACHINE, date=dt.date(2024, 5, 1)
    )
    doc = json.loads(path.read_text())
    assert doc["format"] == FILE_FORMAT
    assert doc["label"] == "fitted on Test CPU 3000 (2 cores, gcc 12), 2024-05-01"
    assert doc["machine"]["fingerprint"] == MACHINE.fingerprint
    assert [(m["model"], m["target"]) for m in doc["models"]] == [
        ("faithful", "wall"),
        ("extended", "wall"),
        ("faithful", "cpu"),
    ]
    back = load_model("powerlaw", path)
    assert isinstance(back, FittedPowerLaw) and back.name == "faithful"
    assert back.predict(Xf) == pytest.approx(faithful.predict(Xf))
    assert back.metadata_["label"].startswith("fitted on Test CPU 3000")
    ext = load_model("extended", path)
    assert ext.predict(Xe) == pytest.approx(extended.predict(Xe))
    assert load_model("faithful", path, target="cpu").coef_ == pytest.approx(cpu.coef_)


def test_errors_are_user_errors(tmp_path):
    faithful, _ = fitted(PowerLawModel, 4)
    path = save_coefficients([faithful], tmp_path / "c.json", MACHINE)
    with pytest.raises(UserError, match="target 'cpu'"):
        load_model("faithful", path, target="cpu")
    with pytest.raises(UserError, match="unknown model"):
        load_model("neural", path)
    with pytest.raises(UserError, match="not found"):
        load_model("faithful", tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text('{"format": "other"}')
    with pytest.raises(UserError, match="not an autotune coefficients file"):
        read_coefficients(tmp_path / "bad.json")
    (tmp_path / "broken.json").write_text("{")
    with pytest.raises(UserError, match="cannot read"):
        read_coefficients(tmp_path / "broken.json")


def test_label_from_dict():
    assert machine_label({"cpu_model": "X"}, dt.date(2020, 1, 2)) == "fitted on X, 2020-01-02"


def test_shipped_defaults_load_or_say_so():
    if DEFAULT_PATH.exists():
        for name in ("faithful", "extended"):
            m = load_model(name)
            assert m.metadata_["label"].startswith("fitted on ")
            assert len(m.coef_) == len(m.feature_names_)
    else:
        with pytest.raises(UserError, match="autotune calibrate"):
            load_model("faithful")


def test_ranking_never_imports_scikit_learn_or_scipy(tmp_path):
    """rank evaluates stored coefficients with numpy: the estimators (scikit-learn), the
    search's Gaussian process and scipy are for calibrate and tune only."""
    import subprocess
    import sys

    src = tmp_path / "k.c"
    src.write_text(
        "#define N 4096\nstatic double a[N];\nint main(void) {\n"
        "#pragma omp parallel for\n  for (int i = 0; i < N; i++) a[i] = i * 0.5;\n"
        "  return (int)a[7];\n}\n"
    )
    code = (
        "import sys\nfrom autotune.cli.main import main\n"
        f"rc = main(['rank', {str(src)!r}, '--top', '2'])\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('sklearn', 'scipy', 'matplotlib'))\n"
        "print('HEAVY', heavy, rc)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path
    ).stdout
    assert "HEAVY [] 0" in out, out


def test_an_uncalibrated_machine_gets_the_shipped_fit_nearest_its_core_count():
    """Two shipped fits: the 2-core VM's and the 16-core sweeps' (wall time). A machine
    without calibration ranks with the one nearest its cores, and says which."""
    import dataclasses

    from autotune.models.defaults import MANY_CORE_PATH, shipped_path
    from autotune.tuning.modelchoice import choose_model

    assert shipped_path(None) == shipped_path(2) == shipped_path(4) == DEFAULT_PATH
    assert shipped_path(8) == shipped_path(16) == shipped_path(64) == MANY_CORE_PATH
    many = choose_model(dataclasses.replace(MACHINE, cores=16))
    few = choose_model(dataclasses.replace(MACHINE, cores=2))
    assert "16 cores" in many.source and "2 cores" in few.source
    assert many.model.metadata_["source"] == str(MANY_CORE_PATH)
    assert list(many.model.coef_) != list(few.model.coef_)
    # the 16-core fit carries what leave one program out said about it
    assert many.model.metadata_["search_prior"]["loops"] == 20
    assert many.model.metadata_["ship_rule"]["min_gain"] >= 1.10
    cpu = choose_model(dataclasses.replace(MACHINE, cores=16), target="cpu")
    assert cpu.model.coef_ is not None  # CPU time: the 2-core fit, copied (said in the label)
