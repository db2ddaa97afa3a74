"""Stored coefficients: the file format, and the defaults shipped with the package.

``rank`` and ``tune`` must work on a fresh install before any calibration, so
the package ships coefficients fitted on two machines and labelled with them:
``default_coefficients.json`` (a 2-core VM, calibrated) and
``default_coefficients_16core.json`` (the wall-time models fitted on sweeps recorded on
a 16-core machine, ``bench/recorded_defaults.py``). A machine without calibration gets
the file whose machine is nearest in core count (``shipped_path``): schedule and thread
choices turn on how many cores there are, and a model fitted on 2 cores extrapolates to
16 (leave one program out on the 16-core sweeps, the default search's regret@1 is 3.8%
with the 16-core fit, against 5.5% with the 2-core coefficients).

A coefficients file holds every model and target fitted in one calibration::

    {
      "format": "autotune-coefficients/1",
      "label": "fitted on <cpu model> (<cores> cores, <compiler>), <YYYY-MM-DD>",
      "created": "<YYYY-MM-DD>",
      "machine": {... Machine.to_dict(), with "fingerprint" ...},
      "models": [
        {"format": "autotune-powerlaw/1", "model": "faithful", "target": "wall",
         "feature_names": [...], "coef": [...], "intercept": ..., "scale": ...,
         "n_samples": ..., "params": {...}, ...},
        ...
      ]
    }

Each entry of ``models`` is exactly ``model.to_dict()``, so it can also be
stored on its own (e.g. in the measurement database under the fingerprint).
Other top-level keys (calibration adds ``preference``: which model ranked
held-out kernels better) are kept and ignored here.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from autotune.errors import UserError
from autotune.models.fitted import ALIASES, MODEL_NAMES, FittedPowerLaw, fitted_from_dict

FILE_FORMAT = "autotune-coefficients/1"
DEFAULT_PATH = Path(__file__).resolve().parent.parent / "data" / "default_coefficients.json"
MANY_CORE_PATH = DEFAULT_PATH.with_name("default_coefficients_16core.json")


def shipped_path(cores: int | None = None) -> Path:
    """The shipped coefficients fitted on the machine nearest ``cores`` (by ratio);
    the 2-core file when ``cores`` is unknown."""
    if not cores or cores < 1:
        return DEFAULT_PATH
    shipped = {2: DEFAULT_PATH, 16: MANY_CORE_PATH}  # the cores each was fitted on
    nearest = min(shipped, key=lambda c: (abs(math.log2(cores / c)), c))
    return shipped[nearest] if shipped[nearest].is_file() else DEFAULT_PATH


def machine_label(machine: Any, date: _dt.date | None = None) -> str:
    """ "fitted on <machine>, <date>" from a Machine or its dict."""
    m = machine.to_dict() if hasattr(machine, "to_dict") else dict(machine or {})
    day = (date or _dt.date.today()).isoformat()
    desc = m.get("cpu_model") or "unknown machine"
    extra = [f"{m['cores']} cores" if m.get("cores") else "", m.get("compiler_version") or ""]
    extra = [e for e in extra if e]
    if extra:
        desc += f" ({', '.join(extra)})"
    return f"fitted on {desc}, {day}"


def coefficients_document(
    models: Iterable[Any],  # fitted estimators (to_dict)
    machine: Any,
    label: str | None = None,
    date: _dt.date | None = None,
) -> dict:
    """The JSON document for fitted ``models`` calibrated on ``machine``."""
    mdict = machine.to_dict() if hasattr(machine, "to_dict") else dict(machine or {})
    day = (date or _dt.date.today()).isoformat()
    return {
        "format": FILE_FORMAT,
        "label": label or machine_label(mdict, date),
        "created": day,
        "machine": mdict,
        "models": [m.to_dict() for m in models],
    }


def save_coefficients(
    models: Iterable[Any],  # fitted estimators (to_dict)
    path: str | Path,
    machine: Any,
    label: str | None = None,
    date: _dt.date | None = None,
) -> Path:
    """Write a coefficients file atomically (temp file + rename)."""
    path = Path(path)
    doc = coefficients_document(models, machine, label, date)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name, dir=path.parent)
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(doc, fh, indent=2, sort_keys=True)
            fh.write("\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def read_coefficients(path: str | Path | None = None, cores: int | None = None) -> dict:
    """Parsed coefficients file; the shipped defaults nearest ``cores`` when ``path`` is
    None."""
    p = Path(path) if path is not None else shipped_path(cores)
    try:
        doc = json.loads(p.read_text())
    except FileNotFoundError:
        if path is None:
            raise UserError(
                "no default coefficients are installed; run 'autotune calibrate'", location=str(p)
            ) from None
        raise UserError("coefficients file not found", location=str(p)) from None
    except (OSError, json.JSONDecodeError) as exc:
        raise UserError(f"cannot read coefficients: {exc}", location=str(p)) from None
    if not isinstance(doc, dict) or doc.get("format") != FILE_FORMAT:
        raise UserError(
            f"not an autotune coefficients file (expected {FILE_FORMAT})", location=str(p)
        )
    return doc


def load_model(
    name: str, path: str | Path | None = None, target: str = "wall", cores: int | None = None
) -> FittedPowerLaw:
    """Fitted model ``name`` for ``target`` from a coefficients file (default: the shipped
    one fitted nearest ``cores``).

    The model's ``metadata_`` carries the file's ``label`` and ``machine`` so
    callers can say which coefficients they are using.
    """
    key = ALIASES.get(name, name)
    if key not in MODEL_NAMES:
        raise UserError(f"unknown model {name!r}; choose from {', '.join(sorted(MODEL_NAMES))}")
    doc = read_coefficients(path, cores)
    where = str(path if path is not None else shipped_path(cores))
    for entry in doc.get("models", []):
        if entry.get("model") == key and entry.get("target") == target:
            try:
                model = fitted_from_dict(entry)
            except (KeyError, TypeError, ValueError) as exc:
                raise UserError(f"bad {key}/{target} entry: {exc}", location=where) from None
            model.metadata_.setdefault("label", doc.get("label", ""))
            model.metadata_.setdefault("machine", doc.get("machine", {}))
            model.metadata_["source"] = where
            return model
    raise UserError(f"no {key} model for target {target!r} in coefficients file", location=where)
