"""Which fitted model ranks variants here, and where its coefficients came from.

Preference order: coefficients calibrated on this machine (stored in the
database under its fingerprint) over the defaults shipped with the package,
which were fitted on another machine of the same kind and say so. Which of the
faithful and extended models is used by default is decided by calibration
(the one that ranked held-out kernels better) and stored with them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from autotune.errors import UserError
from autotune.measure.machine import Machine
from autotune.measure.microbench import PROFILE_NAME, RuntimeProfile
from autotune.models import defaults
from autotune.models.fitted import ALIASES, MODEL_NAMES, fitted_from_dict

PREFERENCE = "preference"  # pseudo model name under which calibration records its choice


@dataclass
class ChosenModel:
    model: Any  # a models.fitted.FittedPowerLaw
    name: str  # faithful | extended
    target: str  # wall | cpu
    source: str  # "calibrated on this machine (...)" or "shipped defaults (fitted on ...)"
    calibrated: bool
    why: str  # why this model kind (preference reason)
    profile: RuntimeProfile | None = None  # measured runtime costs the model was fitted with


def _preference_from_store(store, machine: Machine) -> dict | None:
    if store is None:
        return None
    row = store.load_model(PREFERENCE, machine.fingerprint)
    return row.get("params") if row else None


def _shipped_preference(cores: int | None = None) -> dict:
    try:
        doc = defaults.read_coefficients(cores=cores)
    except UserError:
        return {}
    return doc.get("preference") or {}


def stored_profile(store, machine: Machine) -> RuntimeProfile | None:
    """The runtime profile calibration measured on this machine, if any."""
    row = store.load_model(PROFILE_NAME, machine.fingerprint) if store is not None else None
    if row is None:
        return None
    try:
        return RuntimeProfile.from_dict(row["params"])
    except (ValueError, TypeError, AttributeError):
        return None


def choose_model(
    machine: Machine,
    store=None,
    name: str = "auto",
    target: str = "wall",
) -> ChosenModel:
    """The model to rank with; raises UserError when none is available."""
    if target not in ("wall", "cpu"):
        raise UserError(f"unknown target {target!r}: choose wall or cpu")
    pref = _preference_from_store(store, machine) or _shipped_preference(machine.cores)
    if name == "auto":
        kind = pref.get("model", "extended")
        why = pref.get("reason", "default")
    else:
        kind = ALIASES.get(name, name)
        if kind not in MODEL_NAMES:
            raise UserError(f"unknown model {name!r}: choose auto, faithful or extended")
        why = "chosen with --model"
    if store is not None:
        row = store.load_model(kind, machine.fingerprint, target)
        if row is not None:
            model = fitted_from_dict(row["params"])
            return ChosenModel(
                model,
                kind,
                target,
                f"calibrated on this machine ({machine.fingerprint})",
                True,
                why,
                stored_profile(store, machine),
            )
    model = defaults.load_model(kind, target=target, cores=machine.cores)
    label = model.metadata_.get("label", "")
    return ChosenModel(
        model,
        kind,
        target,
        f"shipped defaults ({label}); run 'autotune calibrate' for this machine",
        False,
        why,
    )
