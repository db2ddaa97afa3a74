"""``Session``: what the CLI does to C files, for scripts, notebooks and experiments.

A ``Session`` holds what every step shares (the database, the compiler and its
flags, the program's arguments, repetitions); its methods return the
dataclasses the pipeline passes between stages, each with ``to_dict()``::

    import autotune
    s = autotune.Session(db="runs.db", defines={"N": "2000"})
    unit = s.analyze("stream.c")              # loops, trip counts, footprints
    ranked = s.rank("stream.c")               # predicted times, nothing compiled
    tuned = s.tune("stream.c", top=5)         # measured, confirmed, stored
    print(tuned.to_dict()["loops"][0]["speedup"])

Documented with a worked experiment in docs/api.md.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shlex
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from autotune.errors import UserError, require_c_file
from autotune.frontend.records import TranslationUnit, select_loops
from autotune.measure.outcomes import Outcome, load_outcomes
from autotune.measure.results import LoopResult
from autotune.measure.store import Store, open_for_reading
from autotune.textfile import read_source
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

if TYPE_CHECKING:  # a campaign's plan (TOML), progress and Dask: imported by campaign only
    from autotune.campaign.plan import CampaignPlan
    from autotune.campaign.progress import CampaignProgress
    from autotune.campaign.runner import CampaignResult
    from autotune.campaign.tasks import LoopOutcome
    from autotune.frontend.records import LoopRecord
    from autotune.measure.machine import Machine
    from autotune.measure.measure_file import FileMeasurement
    from autotune.structure.nodes import ProgramTree
    from autotune.tuning.calibrate_run import CalibrationRun
    from autotune.tuning.scaling import ScaleRun
    from autotune.variants.space import Variant
    from autotune.variants.write import WrittenVariants

__all__ = ["Session"]


@dataclass
class Session(Settings):
    """What every step shares (``Settings``: the database, the compiler and its flags, the
    program's arguments, repetitions, checking, the model), and the steps themselves."""

    @classmethod
    def of(cls, settings: Settings) -> Session:
        """A session with ``settings`` (the command line's, parsed by the CLI)."""
        return cls(**{f.name: getattr(settings, f.name) for f in dataclasses.fields(settings)})

    @contextlib.contextmanager
    def store(self, read_only: bool = False) -> Iterator[Store]:
        """The database, open for the duration of a ``with`` block (``read_only``: an
        existing one, nothing written: reports and exports)."""
        store = Store(self.db, read_only=read_only)
        try:
            yield store
        finally:
            store.close()

    # -- the steps ---------------------------------------------------------------
    def analyze(
        self,
        path: str | Path,
        loops: Sequence[str] = (),
        *,
        threads: int | None = None,
        profile: bool | None = None,
        formulas: str = "counts",
    ) -> TranslationUnit:
        """Loops, trip counts, footprints and operation counts, per-thread figures for
        ``threads`` (default: the cores). A loop sized at run time gets one profile run
        of the program when the session gives its arguments or input, or ``profile`` is
        True (False: never); ``unit.profile_note`` says what happened. ``formulas``:
        counts as formulas in the sizes too (``analysis.symbolic``): "counts", "threads"
        (also the first and last thread's footprints: seconds on deep nests), "" none."""
        from autotune.measure.profile import analyze_with_profile

        _exists(path)
        if threads is not None and threads < 1:
            raise UserError("threads must be at least 1")
        wanted = bool(self.args or self.stdin) if profile is None else profile
        with contextlib.ExitStack() as stack:  # the database only when a profile may run
            store = stack.enter_context(self.store()) if wanted else None
            req = self.profile_request(path) if wanted else None
            unit, _note = analyze_with_profile(
                str(path),
                self.source_options(),
                req,
                store,
                threads=threads,
                cc=self.cc,
                formulas=formulas,
            )
        if loops:
            unit.loops = select_loops(unit.loops, loops)
        return unit

    @contextlib.contextmanager
    def reading_store(self, create: bool = False) -> Iterator[tuple[Store | None, str]]:
        """(database, note) for reading: ``measure.store.open_for_reading`` (read when
        named or present, made only when ``create``), closed after the block."""
        store, note = open_for_reading(self.db, create)
        try:
            yield store, note
        finally:
            if store is not None:
                store.close()

    def profiles(self, path: str | Path) -> tuple[dict | None, str]:
        """(values, note): the run-time sizes of the file's loops from one profile run of
        the program with the session's arguments, kept in the database and reused;
        (None, "") when no loop needs one."""
        from autotune.measure.profile import file_profiles

        _exists(path)
        with self.store() as store:
            return file_profiles(
                str(path), self.source_options(), self.profile_request(path), store, self.cc
            )

    def structure(self, path: str | Path, profiles: dict | None | str = "run") -> ProgramTree:
        """The program's parallel structure from ``main()`` as a skeleton tree (regions,
        sections, tasks, time-step loops), each node with its trip counts; with the
        session's ``args``, sizes known only at run time come from one profile run
        (``profiles``: the values of one made already, ``s.profiles(path)[0]``)."""
        from autotune.structure.tree import build_tree

        _exists(path)
        if profiles == "run":
            profiles = self.profiles(path)[0] if self.args else None
        return build_tree(str(path), self.source_options(), cc=self.cc, profiles=profiles)

    def variants(
        self,
        path: str | Path,
        output: str | Path,
        *,
        loops: Sequence[str] = (),
        schedules: str | Sequence[str] | None = None,
        chunks: str | Sequence[int | None] | None = None,
        threads: str | Sequence[int] | None = None,
        cores: int | None = None,
        instrument: bool = False,
        max_bytes: int | None = None,
    ) -> WrittenVariants:
        """Write the legal variants of the file's loops as C files into ``output``, with
        ``manifest.json`` (the original included as a variant); nothing is compiled.
        ``cores``: the machine the thread counts are for (default: this one's).
        ``max_bytes``: refuse, before writing, what would pass it (default 1 GiB; 0: no
        limit)."""
        from autotune.analysis import analyze_options
        from autotune.variants.write import DEFAULT_MAX_BYTES, write_variants

        _exists(path)
        if cores is not None and cores < 1:
            raise UserError(f"cores {cores}: must be at least 1")
        cores = cores or os.cpu_count() or 1
        options = self.source_options()
        unit = analyze_options(str(path), options, threads=cores, cc=self.cc)
        if not unit.loops:
            raise UserError(
                "no OpenMP worksharing loop in the file: no variant to write", str(path)
            )
        done = write_variants(
            str(path),
            read_source(path),
            select_loops(unit.loops, loops),
            Path(output),
            lambda r: space_from_strings(r, schedules, chunks, threads, cores),
            instrument=instrument,
            defines=options.defines,
            max_bytes=DEFAULT_MAX_BYTES if max_bytes is None else (max_bytes or None),
        )
        if done.errors and not done.written:
            raise UserError(done.errors[0])
        return done

    def rank(
        self,
        path: str | Path,
        *,
        loops: Sequence[str] = (),
        schedules: str | Sequence[str] | None = None,
        chunks: str | Sequence[int | None] | None = None,
        threads: str | Sequence[int] | None = None,
        profile: bool | None = None,
        store: Store | None = None,
    ) -> FileRanking:
        """Every variant of every selected loop, by predicted time; nothing compiled. A
        loop sized at run time gets a profile run when the session gives the program's
        arguments or input, or ``profile`` is True. ``store``: an open database to use
        (default: ``reading_store``)."""
        options = self.rank_options(
            loops=loops, schedules=schedules, chunks=chunks, threads=threads
        )
        wanted = bool(self.args or self.stdin) if profile is None else profile
        if store is not None:
            return self._rank(store, path, options, profile=wanted)
        with self.reading_store(create=wanted) as (opened, _note):
            return self._rank(opened, path, options, profile=wanted)

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
        time_budget_s: float | None = None,
    ) -> FileTuneResult:
        """Rank, measure the original and at most ``top`` variants per loop, confirm
        the winners as one program, store everything. Nothing of the user's is
        written: ``apply(result, out)`` does that. ``time_budget_s``: stop measuring
        variants after that long and decide on what was measured."""
        if top < 1 or confirm_runs < 1:
            raise UserError("top and confirm_runs must be at least 1")
        if time_budget_s is not None and time_budget_s <= 0:
            raise UserError("time_budget_s must be a positive number of seconds")
        with self.store() as store:
            ranked = self._rank(store, path, self.rank_options(loops=loops), profile=True)
            return tune_file(
                ranked,
                self.build_options(),
                self.sweep_options(fresh),
                store,
                TuneOptions(
                    top,
                    search,
                    exhaustive,
                    confirm_runs,
                    min_share=min_share,
                    time_budget_s=time_budget_s,
                ),
                on_run=on_run,
            )

    def _rank(
        self, store: Store | None, path: str | Path, options: RankOptions, profile: bool
    ) -> FileRanking:
        """``rank_file`` with this session's sources; ``profile``: run the program once
        when a loop is sized at run time (as ``tune`` does)."""
        _exists(path)
        request = self.profile_request(path) if profile else None
        return rank_file(str(path), self.source_options(), options, store, request)

    def machine(self) -> Machine:
        """This machine as the session's compiler sees it (cores, caches, OpenMP)."""
        from autotune.measure.machine import detect_machine

        words = shlex.split(self.cc) if self.cc.strip() else []
        return detect_machine(words[0] if words else "gcc")

    def measure_file(
        self,
        path: str | Path,
        variants_for: Callable[[LoopRecord], Sequence[Variant]],
        *,
        loops: Sequence[str] = (),
        strict: bool = False,
        fresh: bool = False,
        machine: Machine | None = None,
        on_plan: Callable[[int], None] | None = None,
        on_run: Callable[[str], None] | None = None,
    ) -> FileMeasurement:
        """Measure ``variants_for(loop)`` and the original of every selected loop (a
        profile run first when a loop is sized at run time), every run stored.
        ``strict`` (loops or variants named by the user): a loop that cannot be
        measured is an error, not a skipped result."""
        from autotune.measure.measure_file import measure_file

        _exists(path)
        machine = machine or self.machine()
        with self.store() as store:
            return measure_file(
                str(path),
                self.source_options(),
                self.build_options(),
                self.sweep_options(fresh),
                store,
                machine,
                variants_for,
                loops=loops,
                profile=self.profile_request(path),
                strict=strict,
                on_plan=on_plan,
                on_run=on_run,
            )

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
        machine = self.machine()
        done = self.measure_file(
            path,
            lambda r: space_from_strings(r, schedules, chunks, threads, machine.cores),
            loops=loops,
            fresh=fresh,
            machine=machine,
            on_run=on_run,
        )
        return done.results

    def scale(
        self,
        path: str | Path,
        macro: str,
        target: tuple[int, int],
        *,
        sizes: Sequence[int] = (),
        threads: Sequence[int] = (1, 2, 4),
        budget_s: float | None = None,
        measure_target: bool = True,
        loops: Sequence[str] = (),
        fresh: bool = False,
        on_plan: Callable[[int], None] | None = None,
        on_run: Callable[[str], None] | None = None,
        **predict: object,
    ) -> ScaleRun:
        """Measure the program's loops at each size (``-D macro=size``, or ``{macro}`` in
        the session's program arguments) and thread count,
        or on a grid planned for ``budget_s`` seconds, and predict each loop's time at
        ``target`` = (size, threads) with a skeleton (``predict``: skeleton, method,
        method_abar, epsilon, holdout); the target is measured too when
        ``measure_target`` and this machine has the threads."""
        from autotune.tuning.scaling import ScaleGrid, scale_program

        _exists(path)
        if not sizes and budget_s is None:
            raise UserError("give the sizes, or a budget in seconds")
        machine = self.machine()
        with self.store() as store:
            grid = ScaleGrid(
                str(path),
                macro,
                self.source_options(),
                store,
                machine,
                cc=self.cc,
                repetitions=self.repetitions,
                fresh=fresh,
                loops=list(loops),
                on_run=on_run or (lambda note: None),
                args=list(self.args),
            )
            return scale_program(
                grid,
                list(sizes),
                list(threads),
                target,
                budget_s=budget_s,
                measure_target=measure_target and target[1] <= machine.cores,
                on_plan=on_plan,
                **predict,
            )

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
        from autotune.campaign.plan import CampaignPlan, load_plan
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
        with self.store(read_only=True) as store:
            return load_outcomes(store, label)

    def report(self, output: str | Path, label: str | None = None) -> Path:
        """One static HTML page of what this session's database holds."""
        from autotune.report.html import write_report

        with self.store(read_only=True) as store:
            return write_report(store, output, label)

    def export(self, fmt: str = "csv", table: str | None = None) -> str:
        """Runs, decisions and model quality as CSV (one table) or JSON text."""
        from autotune.report.export import TABLES, export_text

        if fmt not in ("csv", "json") or (table is not None and table not in TABLES):
            raise UserError(f"export: format csv or json, table one of {', '.join(TABLES)}")
        with self.store(read_only=True) as store:
            return export_text(store, fmt, table)


def _exists(path: str | Path) -> None:
    require_c_file(path)
