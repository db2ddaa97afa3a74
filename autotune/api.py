"""The public Python API: what the CLI does, for scripts, notebooks and experiments.

A ``Session`` holds what every step shares (the database, the compiler and its
flags, the program's arguments, repetitions); its methods return the
dataclasses the pipeline passes between stages, each with ``to_dict()``::

    import autotune
    s = autotune.Session(db="runs.db", defines={"N": "2000"})
    unit = s.analyze("stream.c")              # loops, trip counts, footprints
    ranked = s.rank("stream.c")               # predicted times, nothing compiled
    tuned = s.tune("stream.c", top=5)         # measured, confirmed, stored
    print(tuned.to_dict()["loops"][0]["speedup"])

The module-level functions (``autotune.analyze``, ``rank``, ``tune``,
``measure``, ``calibrate``, ``campaign``, ``report``, ``export``) do the same
with a default session. Documented with a worked experiment in docs/api.md.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from autotune.campaign.plan import CampaignPlan, load_plan
from autotune.campaign.progress import CampaignProgress
from autotune.errors import UserError, require_c_file
from autotune.frontend.records import TranslationUnit, select_loops
from autotune.measure.outcomes import Outcome, load_outcomes
from autotune.measure.results import LoopResult
from autotune.measure.store import Store
from autotune.measure.sweep import Sweep
from autotune.tuning.pipeline import (
    FileRanking,
    FileTuneResult,
    RankOptions,
    TuneOptions,
    rank_file,
    tune_file,
)
from autotune.tuning.settings import Settings
from autotune.variants.space import space_from_strings

if TYPE_CHECKING:  # Dask is imported by a campaign only
    from autotune.campaign.runner import CampaignResult
    from autotune.campaign.tasks import LoopOutcome
    from autotune.tuning.calibrate_run import CalibrationRun

__all__ = [
    "Session",
    "apply",
    "analyze",
    "calibrate",
    "campaign",
    "export",
    "measure",
    "rank",
    "report",
    "tune",
]


@dataclass
class Session(Settings):
    """What every step shares (``Settings``: the database, the compiler and its flags, the
    program's arguments, repetitions, checking, the model), and the steps themselves."""

    @contextlib.contextmanager
    def store(self) -> Iterator[Store]:
        """The database, open for the duration of a ``with`` block."""
        store = Store(self.db)
        try:
            yield store
        finally:
            store.close()

    # -- the steps ---------------------------------------------------------------
    def analyze(self, path: str | Path, loops: Sequence[str] = ()) -> TranslationUnit:
        """Loops, trip counts, footprints and operation counts (a profile run when a
        loop is sized at run time and the session gives the program's arguments)."""
        from autotune.measure.profile import analyze_with_profile

        _exists(path)
        with self.store() as store:
            req = self.profile_request(path) if self.args or self.stdin else None
            unit, _note = analyze_with_profile(
                str(path), self.source_options(), req, store, formulas=True
            )
        if loops:
            unit.loops = select_loops(unit.loops, loops)
        return unit

    def rank(
        self,
        path: str | Path,
        *,
        loops: Sequence[str] = (),
        schedules: str | Sequence[str] | None = None,
        chunks: str | Sequence[int | None] | None = None,
        threads: str | Sequence[int] | None = None,
    ) -> FileRanking:
        """Every variant of every selected loop, by predicted time; nothing compiled
        (a profile run only when the session gives the program's arguments or input)."""
        options = self.rank_options(
            loops=loops, schedules=schedules, chunks=chunks, threads=threads
        )
        with self.store() as store:
            return self._rank(store, path, options, profile=bool(self.args or self.stdin))

    def tune(
        self,
        path: str | Path,
        *,
        top: int = 5,
        search: str = "sequential",
        exhaustive: bool = False,
        confirm_runs: int = 5,
        loops: Sequence[str] = (),
        fresh: bool = False,
        on_run: Callable[[str], None] | None = None,
        min_share: float | None = None,
    ) -> FileTuneResult:
        """Rank, measure the original and at most ``top`` variants per loop, confirm
        the winners as one program, store everything. Nothing of the user's is
        written: ``apply(result, out)`` does that."""
        if top < 1 or confirm_runs < 1:
            raise UserError("top and confirm_runs must be at least 1")
        with self.store() as store:
            ranked = self._rank(store, path, self.rank_options(loops=loops), profile=True)
            return tune_file(
                ranked,
                self.build_options(),
                self.sweep_options(fresh),
                store,
                TuneOptions(top, search, exhaustive, confirm_runs, min_share=min_share),
                on_run=on_run,
            )

    def _rank(
        self, store: Store, path: str | Path, options: RankOptions, profile: bool
    ) -> FileRanking:
        """``rank_file`` with this session's sources; ``profile``: run the program once
        when a loop is sized at run time (as ``tune`` does)."""
        _exists(path)
        request = self.profile_request(path) if profile else None
        return rank_file(str(path), self.source_options(), options, store, request)

    def measure(
        self,
        path: str | Path,
        *,
        loops: Sequence[str] = (),
        schedules: str | Sequence[str] | None = None,
        chunks: str | Sequence[int | None] | None = None,
        threads: str | Sequence[int] | None = None,
        fresh: bool = False,
        on_run: Callable[[str], None] | None = None,
    ) -> list[LoopResult]:
        """Measure every variant of the space (or the given part of it), no model."""
        unit = self.analyze(path, loops)
        with self.store() as store:
            sweep = Sweep(
                path, self.build_options(), self.sweep_options(fresh), store, on_run=on_run
            )
            cores = sweep.machine.cores
            return [
                sweep.measure_loop(r, space_from_strings(r, schedules, chunks, threads, cores))
                for r in unit.loops
            ]

    def campaign(
        self,
        plan: str | Path | CampaignPlan,
        *,
        scheduler: str | None = None,
        client: object | None = None,
        on_loop: Callable[[LoopOutcome], None] | None = None,
        progress: CampaignProgress | None = None,
    ) -> CampaignResult:
        """Run a campaign plan on Dask: ``client`` if given, else the cluster at
        ``scheduler`` (``tcp://host:8786``), else a local one started for it.
        Results go to this session's database; running it again resumes."""
        from autotune.campaign.environ import openmp_environment
        from autotune.campaign.runner import CampaignRunner, connect

        if not isinstance(plan, CampaignPlan):
            plan = load_plan(plan)
        environment = openmp_environment()  # the user's, before Dask starts anything here
        with contextlib.ExitStack() as stack:
            if client is None:
                client = stack.enter_context(connect(scheduler))
            store = stack.enter_context(self.store())
            return CampaignRunner(plan, store, client, on_loop, progress, environment).run()

    def calibrate(self, **options: object) -> CalibrationRun:
        """Fit the models on this machine from calibration kernels (``CalibrateOptions``:
        kernels, sample, repetitions, run_timeout_s, microbench, force); the new
        coefficients are adopted only if they rank held-out kernels at least as well."""
        from autotune.tuning.calibrate_run import CalibrateOptions, run_calibration

        with self.store() as store:
            return run_calibration(CalibrateOptions(cc=self.cc, **options), store)

    def outcomes(self, label: str | None = None) -> list[Outcome]:
        """Every loop outcome stored (of one tune label or campaign name), oldest first."""
        with self.store() as store:
            return load_outcomes(store, label)

    def report(self, output: str | Path, label: str | None = None) -> Path:
        """One static HTML page of what this session's database holds."""
        from autotune.report.html import write_report

        with self.store() as store:
            return write_report(store, output, label)

    def export(self, fmt: str = "csv", table: str | None = None) -> str:
        """Runs, decisions and model quality as CSV (one table) or JSON text."""
        from autotune.report.export import TABLES, export_text

        if fmt not in ("csv", "json") or (table is not None and table not in TABLES):
            raise UserError(f"export: format csv or json, table one of {', '.join(TABLES)}")
        with self.store() as store:
            return export_text(store, fmt, table)


def _exists(path: str | Path) -> None:
    require_c_file(path)


def apply(result: FileTuneResult, output: str | Path, *, backup: bool = False) -> Path | None:
    """Write the confirmed choices of ``result`` to ``output`` atomically (with a
    ``.orig`` backup when asked); None when nothing was chosen."""
    from autotune.variants.apply import apply_variants, write_atomic

    if not result.final:
        return None
    write_atomic(output, apply_variants(result.source_text, result.final), backup=backup)
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
