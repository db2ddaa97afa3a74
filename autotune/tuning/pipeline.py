"""Rank and tune whole files: the orchestration the CLI and scripts share.

``rank_file`` analyses a file (with a profile run when a loop is sized at run
time), chooses the model and ranks every selected loop. ``tune_file`` then
measures each loop (``tune_loop``), confirms the winners as one program,
chooses shared regions' thread counts and the thread placement, and stores
every decision. Nothing here parses arguments or prints; the CLI does.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from autotune.errors import NoLoops
from autotune.frontend.options import SourceOptions
from autotune.frontend.records import LoopRecord, select_loops
from autotune.measure.machine import Machine, detect_machine, numa_nodes
from autotune.measure.omp_runtime import openmp_runtime
from autotune.measure.profile import ProfileRequest, analyze_with_profile
from autotune.render import data_frame, variant_rows
from autotune.tuning.modelchoice import ChosenModel, choose_model
from autotune.tuning.ranking import LoopRanking, rank_loop
from autotune.variants.space import BASELINE, Variant, default_thread_counts, space_from_strings

if TYPE_CHECKING:  # the tuning half is imported when a tune runs: ranking starts faster
    from autotune.measure.build import BuildOptions
    from autotune.measure.sweep import Sweep, SweepOptions
    from autotune.tuning.confirm import Confirmation
    from autotune.tuning.region_threads import RegionResult
    from autotune.tuning.tune import LoopTuneResult


@dataclass
class RankOptions:
    """Which model ranks which variants of which loops."""

    cc: str = "gcc"
    model: str = "auto"  # auto | faithful | extended
    target: str = "wall"  # wall | cpu
    schedules: str | Sequence[str] | None = None  # "static,dynamic" or a list (None: default)
    chunks: str | Sequence[int | None] | None = None
    threads: str | Sequence[int] | None = None
    loops: Sequence[str] = ()


@dataclass
class FileRanking:
    path: str
    rankings: list[LoopRanking]
    chosen: ChosenModel
    machine: Machine
    profile_note: str = ""  # whether a profile run was made or reused

    def to_dict(self, top: int | None = None) -> dict:
        chosen = self.chosen
        return {
            "file": self.path,
            "model": chosen.name,
            "target": chosen.target,
            "coefficients": chosen.source,
            "profile": self.profile_note or None,
            "loops": [r.to_dict(top) for r in self.rankings],
        }

    def to_frame(self):  # a pandas.DataFrame, one row per loop and variant
        return data_frame(variant_rows(self.to_dict()["loops"], file=self.path))


def rank_file(
    path: str,
    source: SourceOptions,
    options: RankOptions,
    store=None,  # a measure.store.Store (profiles, calibrated models)
    profile: ProfileRequest | None = None,
    chosen: ChosenModel | None = None,
) -> FileRanking:
    """Rank every selected loop of ``path``; nothing is compiled except a profile run.

    ``chosen``: the model to rank with (a campaign's worker has no database);
    by default the one ``store`` holds for this machine, else the shipped one.
    """
    machine = detect_machine(options.cc)
    unit, note = analyze_with_profile(
        path, source, profile, store, threads=machine.cores, cc=options.cc
    )
    if not unit.loops:
        raise NoLoops("no OpenMP worksharing loop in the file: nothing to rank or tune", path)
    chosen = chosen or choose_model(machine, store, options.model, options.target)
    runtime = openmp_runtime(options.cc)
    rankings = []
    for r in select_loops(unit.loops, options.loops):
        space = (
            space_from_strings(r, options.schedules, options.chunks, options.threads, machine.cores)
            if r.tunable
            else []
        )
        rankings.append(rank_loop(r, space, chosen, machine, runtime))
    return FileRanking(path, rankings, chosen, machine, note)


@dataclass
class TuneOptions:
    top: int = 5  # variants measured per loop besides the original
    search: str = "sequential"  # sequential | top
    exhaustive: bool = False
    confirm_runs: int = 5  # whole-program runs of the original and of the tuned program
    allow_busy: bool = False  # keep a decision taken while other processes loaded the machine
    # measure no variant of a loop below this share of the run (None: what the margin needs)
    min_share: float | None = None
    # stop measuring variants after this many seconds and decide on what was measured
    # (the original of every loop is still measured, and the whole program confirmed)
    time_budget_s: float | None = None
    deadline: float | None = None  # time.monotonic() past which no variant is measured


@dataclass
class FileTuneResult:
    ranked: FileRanking
    source_text: str
    results: list[LoopTuneResult]
    confirmation: Confirmation | None = None
    regions: list[RegionResult] = field(default_factory=list)
    placement: object | None = None  # tuning.placement.PlacementResult
    final: list[tuple[LoopRecord, Variant]] = field(default_factory=list)  # what ships

    @property
    def path(self) -> str:
        return self.ranked.path

    def to_dict(self, written: str | None = None) -> dict:
        """JSON-ready; ``written``: where the tuned source was written, if it was."""
        chosen = self.ranked.chosen
        return {
            "file": self.path,
            "model": chosen.name,
            "target": chosen.target,
            "coefficients": chosen.source,
            "profile": self.ranked.profile_note or None,
            "written": written,
            "program": self.confirmation.to_dict() if self.confirmation else None,
            "regions": [r.to_dict() for r in self.regions],
            "placement": self.placement.to_dict() if self.placement else None,
            "loops": [r.to_dict() for r in self.results],
        }

    def to_frame(self):  # a pandas.DataFrame, one row per loop and variant
        return data_frame(variant_rows(self.to_dict()["loops"], file=self.path))


def planned_runs(ranked: FileRanking, sweep: Sweep, options: TuneOptions) -> int:
    """An upper bound of program runs, for a progress bar."""
    from autotune.tuning.region_threads import step_groups, tunable_regions

    runs = sum(
        sweep.planned_runs(
            [v.variant for v in (r.variants if options.exhaustive else r.variants[: options.top])]
        )
        for r in ranked.rankings
        if not r.error
    )
    records = [r.record for r in ranked.rankings]
    regions = len(tunable_regions(records)) + len(step_groups(records))
    counts = len(default_thread_counts(sweep.machine.cores))
    return runs + 2 * options.confirm_runs * (1 + counts * regions)


def tune_file(
    ranked: FileRanking,
    build: BuildOptions,
    sweep_options: SweepOptions,
    store,  # a measure.store.Store
    options: TuneOptions,
    on_plan: Callable[[int], None] | None = None,
    on_run: Callable[[str], None] | None = None,
) -> FileTuneResult:
    """Measure, decide, confirm as one program, and store every decision.

    ``on_plan`` gets the planned number of runs before anything runs; ``on_run``
    a note after each run.
    """
    from autotune.measure.outcomes import Outcome, save_outcome
    from autotune.measure.sweep import Sweep
    from autotune.tuning.confirm import ProgramCheck
    from autotune.tuning.placement import tune_placement, with_bind
    from autotune.tuning.program_choice import confirm_results
    from autotune.tuning.region_threads import best_runs, final_pairs
    from autotune.tuning.tune import SHARE_FLOOR, tune_loop

    sweep = Sweep(
        ranked.path, build, sweep_options, store, on_run=on_run, target=ranked.chosen.target
    )
    if on_plan is not None:
        on_plan(planned_runs(ranked, sweep, options))
    deadline = options.deadline
    if deadline is None and options.time_budget_s is not None:
        deadline = time.monotonic() + options.time_budget_s
    results = [
        tune_loop(
            sweep,
            r,
            options.top,
            options.exhaustive,
            options.search,
            SHARE_FLOOR if options.min_share is None else options.min_share,
            deadline=deadline,
            budget_s=options.time_budget_s,
        )
        for r in ranked.rankings
    ]
    out = FileTuneResult(ranked, sweep.source, results)
    check = ProgramCheck(
        ranked.path,
        sweep.source,
        build,
        sweep_options,
        options.confirm_runs,
        on_run=on_run,
        allow_busy=options.allow_busy,
    )
    out.confirmation, out.regions = confirm_results(check, results, sweep.machine.cores)
    out.final = final_pairs(out.confirmation, out.regions) if out.confirmation else []
    if out.confirmation is not None and out.final:
        out.placement = tune_placement(
            check,
            out.confirmation,
            out.final,
            best_runs(out.confirmation, out.regions),
            numa_nodes(),
        )
        if out.placement.bind:
            out.final = with_bind(out.final, out.placement.bind)
    _store_decisions(out, store, build.defines, sweep.machine_fp)
    size = " ".join(f"-D{k}={v}" for k, v in sorted(build.defines.items()))
    program = _program_summary(out)
    for res in out.results:
        doc = res.to_dict() | {"file": out.path, "size": size, "model": ranked.chosen.name}
        doc["whole_program"] = program
        outcome = Outcome(
            "tune",
            out.path,
            size,
            sweep.source_hash,
            sweep.flags_key,
            sweep.machine_fp,
            res.id,
            doc,
        )
        save_outcome(store, outcome)
    return out


def _program_summary(out: FileTuneResult) -> dict | None:
    """The whole-program check as the report shows it: decision, interval, load."""
    c = out.confirmation
    return c.summary([r.decision for r in out.regions]) if c is not None else None


def _store_decisions(out: FileTuneResult, store, defines: dict, machine_fp: str) -> None:
    """Every measured loop's decision, keeping the original included: the build hook then
    knows the loop was tuned and need not tune it again."""
    from autotune.tuning.confirm import BUSY_WHY
    from autotune.tuning.persist import save_winner

    shipped = {record.id: variant for record, variant in out.final}
    c = out.confirmation
    held = {lid for lid, why in (c.backed_off if c is not None else []) if why.startswith(BUSY_WHY)}
    for res in out.results:
        if res.baseline is None or res.speedup is None:
            continue  # not measured: nothing decided
        if res.id in held:
            continue  # its gain held back for the load: undecided, a later tune decides
        save_winner(
            store,
            source_text=out.source_text,
            defines=defines,
            machine_fp=machine_fp,
            record=res.ranking.record,
            variant=shipped.get(res.id, BASELINE),
            baseline_s=res.baseline.measured_s,
            best_s=res.best.measured_s if res.best else res.baseline.measured_s,
        )
