"""The public Python API: what the CLI does, for scripts, notebooks and experiments.

``Session`` (``autotune.api.session``) holds what every step on C files shares (the
database, the compiler and its flags, the program's arguments, repetitions); its
methods return the dataclasses the pipeline passes between stages, each with
``to_dict()``::

    import autotune
    s = autotune.Session(db="runs.db", defines={"N": "2000"})
    unit = s.analyze("stream.c")              # loops, trip counts, footprints
    ranked = s.rank("stream.c")               # predicted times, nothing compiled
    tuned = s.tune("stream.c", top=5)         # measured, confirmed, stored
    print(tuned.to_dict()["loops"][0]["speedup"])

The module-level functions (``analyze``, ``rank``, ``tune``, ``measure``,
``calibrate``, ``campaign``, ``report``, ``export``) do the same with a default
session. Every performance model, by name (``autotune.api.models``): ``model``,
``paper_model``, ``model_cards``. Documented with a worked experiment in docs/api.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from autotune.api.models import (
    model,
    model_cards,
    paper_model,
    paper_tables,
    paper_tables_models,
)
from autotune.api.session import Session

if TYPE_CHECKING:
    from autotune.campaign.plan import CampaignPlan
    from autotune.campaign.runner import CampaignResult
    from autotune.frontend.records import TranslationUnit
    from autotune.measure.results import LoopResult
    from autotune.tuning.calibrate_run import CalibrationRun
    from autotune.tuning.pipeline import FileRanking, FileTuneResult

__all__ = [
    "Session",
    "analyze",
    "apply",
    "calibrate",
    "campaign",
    "export",
    "measure",
    "model",
    "model_cards",
    "paper_model",
    "paper_tables",
    "paper_tables_models",
    "rank",
    "report",
    "tune",
]


def apply(result: FileTuneResult, output: str | Path, *, backup: bool = False) -> Path:
    """Write the confirmed choices of ``result`` to ``output`` atomically (with a
    ``.orig`` backup when asked), as ``tune --apply`` does: with nothing confirmed, an
    unchanged copy of the source (``result.final`` is empty then)."""
    from autotune.variants.apply import apply_variants, write_atomic

    text = apply_variants(result.source_text, result.final) if result.final else result.source_text
    write_atomic(output, text, backup=backup)
    return Path(output)


def _session(session: Session | None) -> Session:
    return session if session is not None else Session()


def analyze(path: str | Path, session: Session | None = None, **kw: object) -> TranslationUnit:
    return _session(session).analyze(path, **kw)


def rank(path: str | Path, session: Session | None = None, **kw: object) -> FileRanking:
    return _session(session).rank(path, **kw)


def tune(path: str | Path, session: Session | None = None, **kw: object) -> FileTuneResult:
    return _session(session).tune(path, **kw)


def measure(path: str | Path, session: Session | None = None, **kw: object) -> list[LoopResult]:
    return _session(session).measure(path, **kw)


def calibrate(session: Session | None = None, **kw: object) -> CalibrationRun:
    return _session(session).calibrate(**kw)


def report(output: str | Path, session: Session | None = None, **kw: object) -> Path:
    return _session(session).report(output, **kw)


def export(fmt: str = "csv", session: Session | None = None, **kw: object) -> str:
    return _session(session).export(fmt, **kw)


def campaign(
    plan: str | Path | CampaignPlan, session: Session | None = None, **kw: object
) -> CampaignResult:
    return _session(session).campaign(plan, **kw)
