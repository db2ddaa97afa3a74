"""Model features of one (loop, variant) pair, from the analysis alone: no compile, no run.

Every quantity is for the *whole* loop as the program runs it: a worksharing
loop inside sequential outer loops runs ``executions`` times, and the model's
target is the time summed over all those runs. So work-like quantities (X2,
dispatches) are multiplied by ``executions``, while per-run properties (the
per-thread footprint Df behind X1, the chunk size X3, the thread count X4, the
load imbalance) are not: each run touches the same data and deals iterations
the same way. Precise definitions are in ``docs/model.md``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field

import numpy as np

from autotune.analysis.loop import per_thread_footprint
from autotune.frontend.constants import int_constant
from autotune.frontend.records import LoopRecord, UniformWork
from autotune.measure.machine import Machine
from autotune.measure.microbench import RuntimeProfile
from autotune.models import contention, teams
from autotune.models.schedule_sim import ScheduleResult, normalize_schedule, simulate
from autotune.variants.space import Variant

FAITHFUL_FEATURES: tuple[str, ...] = (
    "x1_cache",  # (sL1*aL1 + sL2*aL2) / Df
    "x2_ops_per_thread",  # executions * weighted ops / threads
    "x3_max_chunk_iters",  # largest chunk (iterations) a thread receives
    "x4_threads",
)
# Loop-level features: constant over a loop's variants, they carry the loop's
# size for absolute predictions; the within-loop fit leaves variant effects to
# the others (see powerlaw.py).
LOOP_LEVEL_FEATURES = frozenset({"loop_work", "loop_bytes"})
EXTENDED_FEATURES: tuple[str, ...] = FAITHFUL_FEATURES + (
    "imbalance",  # makespan / balanced time on min(threads, cores) cores, simulated
    "dispatch_overhead",  # 1 + nominal runtime cost (chunk dispatches, fork/join) / work
    "oversubscription",  # max(1, threads / cores)
    "sched_dynamic",  # 0/1 indicator (linear in log space: a multiplicative factor)
    "sched_guided",  # 0/1 indicator; static (and auto) is the reference
    "false_sharing",  # 1 + share of a written cache line other threads' chunks write
    "bandwidth",  # p_eff ** memory-boundness: speedup memory bandwidth does not give
    "loop_work",  # executions * weighted ops of one run (loop level)
    "loop_bytes",  # executions * footprint of one run (loop level)
)
INDICATOR_FEATURES = frozenset({"sched_dynamic", "sched_guided"})

# Nominal costs in weighted-op units (an add = 1) used only to turn dispatch
# counts and parallel regions into a dimensionless overhead ratio; the fitted
# exponent absorbs the scale. static,c chunks are open-coded by GCC (a few
# instructions). A dynamic or guided chunk is a libgomp call with an atomic on
# the shared iteration counter: cheap for one thread, a cache-line transfer
# between cores when several threads contend for it, and a queue behind the other
# running threads when many do (``overhead_cost_ops``: the cost grows with the
# threads running at once; leave one program out on the recorded 16-core sweeps,
# the default search's regret@1 6.4% -> 3.8%). A fork/join with its
# implied barrier costs microseconds, and far more when threads outnumber cores
# (every barrier then waits for descheduled threads).
DISPATCH_COST_OPS = {"static": 4.0, "dynamic": 150.0, "guided": 150.0}  # > 1 thread
DISPATCH_COST_SERIAL_OPS = {"static": 4.0, "dynamic": 15.0, "guided": 15.0}  # 1 thread
REGION_COST_OPS = 3000.0  # one run with 1 < threads <= cores
REGION_COST_OVERSUBSCRIBED_OPS = 60000.0  # one run with threads > cores

MODEL_KINDS = {
    "faithful": FAITHFUL_FEATURES,
    "powerlaw": FAITHFUL_FEATURES,
    "extended": EXTENDED_FEATURES,
}


class FeatureError(ValueError):
    """The analysis lacks a number the model needs (e.g. a symbolic trip count)."""


@dataclass
class LoopFeatures:
    """All model inputs for one variant of one loop, plus the numbers behind them."""

    loop_id: str
    variant: str  # Variant.key
    schedule: str  # resolved: static | dynamic | guided
    chunk: int | None  # resolved chunk (None = schedule default)
    threads: int  # resolved
    n: int  # distributed iterations per run
    executions: int
    footprint_per_thread: int  # Df, bytes
    footprint_source: str  # analysis | record | proportional | partial | bound (_footprint)
    x1_cache: float
    x2_ops_per_thread: float
    x3_max_chunk_iters: float
    x4_threads: float
    imbalance: float
    dispatches: int  # chunk hand-outs per run, all threads
    dispatch_overhead: float
    oversubscription: float
    sched_dynamic: float
    sched_guided: float
    false_sharing: float = 1.0
    bandwidth: float = 1.0
    loop_work: float = 1.0
    loop_bytes: float = 1.0
    approximate: bool = False
    notes: list[str] = field(default_factory=list)

    def vector(self, names: Iterable[str]) -> list[float]:
        return [float(getattr(self, n)) for n in names]

    def to_dict(self) -> dict:
        return asdict(self)


def resolve_variant(
    record: LoopRecord, variant: Variant, machine: Machine
) -> tuple[str, int | None, int, list[str]]:
    """(schedule, chunk, threads, notes) the variant actually runs with.

    A None field means "as written": the schedule clause (default static), its
    chunk (baseline only: a non-baseline variant with chunk None has no chunk
    argument), and num_threads (else the team the profile run measured, else libgomp's
    default, one thread per CPU).
    """
    notes: list[str] = []
    clauses = record.directive.clauses
    sched_text = variant.schedule if variant.schedule is not None else clauses.schedule
    schedule = normalize_schedule(sched_text)
    if sched_text and sched_text.strip().lower().split(":")[-1] == "runtime":
        notes.append("schedule(runtime) assumed libgomp default dynamic,1")
    if variant.is_baseline or variant.schedule is None:
        chunk = int_constant(clauses.chunk)
        if clauses.chunk is not None and chunk is None:
            notes.append(f"chunk {clauses.chunk!r} not a constant; schedule default assumed")
    else:
        chunk = variant.chunk
    if chunk is not None and chunk < 1:
        chunk = None
    threads = variant.threads
    if threads is None:
        written = clauses.num_threads
        if written is None and record.parallel is not None:
            written = record.parallel.clauses.num_threads
        threads = int_constant(written)
        if (threads is None or threads < 1) and record.team is not None:
            threads = record.team  # measured: the program may set its own count
        elif threads is None or threads < 1:
            if written is not None:
                notes.append(f"num_threads({written}) not a constant; {machine.cores} assumed")
            threads = machine.cores
    return schedule, chunk, int(threads), notes


def _team_sizes(record: LoopRecord, machine: Machine) -> list[int]:
    """Threads of each team of the loop's step as written: its constant num_threads,
    else the loop's own team as the profile run measured it, else the default."""
    values = [int_constant(text) for text in record.team_cycle]
    own = record.team if record.team is not None and len(values) == 1 else None
    fallback = own or machine.cores
    return [v if v is not None and v >= 1 else fallback for v in values]


def _work_array(record: LoopRecord, n: int) -> np.ndarray | None:
    """Per-iteration work as an array, or None when uniform/unknown (treated uniform)."""
    w = record.work_per_iteration
    if not w or len(w) != n or isinstance(w, UniformWork):
        return None
    arr = np.asarray(w, dtype=float)
    if arr.size and np.all(arr == arr[0]):
        return None
    return arr


def _footprint(
    record: LoopRecord, threads: int, schedule: str, chunk: int | None, sim: ScheduleResult
) -> tuple[int, str]:
    """Df: distinct bytes the busiest thread touches in one run, and where it came from."""
    cache = record.footprint_cache  # calibration asks again per held-out fold
    key: tuple = (threads, schedule, chunk)
    if schedule in ("static", "dynamic") and (chunk or schedule == "dynamic"):
        # the analysis deals fixed-size chunks round-robin for both kinds
        key = (threads, "round-robin", chunk or 1)
    if key not in cache:
        cache[key] = per_thread_footprint(record, threads, schedule, chunk)
    value = cache[key]
    if value is not None:
        return int(value), "analysis"
    if (
        record.footprint_bytes_per_thread is not None
        and record.threads == threads
        and schedule == "static"
        and chunk is None
    ):
        return int(record.footprint_bytes_per_thread), "record"
    total, source = record.footprint_bytes, "proportional"
    if total is None:
        # Some arrays could not be sized (indirect or data-dependent indices):
        # the known arrays give a lower bound, which still ranks the variants.
        known = [a.get("distinct_bytes") for a in record.arrays]
        known = [int(b) for b in known if b]
        if known:
            total, source = sum(known), "partial"
        else:
            total, source = _touched_bound(record), "bound"
            if total is None:
                raise FeatureError(f"{record.id}: data footprint unknown")
    share = float(sim.thread_iters.max()) / sim.n if sim.n else 1.0
    return int(math.ceil(total * share)), source


def _touched_bound(record: LoopRecord) -> int | None:
    """No array could be sized (MG's comm3 over run-time extents): at most one element per
    access per iteration, so analyze's "tunable" and tune's ranking agree."""
    iterations = record.iterations or record.trip_count
    per_iteration = sum(
        int(a.get("elem_size") or 8) * len(a.get("accesses") or [1]) for a in record.arrays
    )
    if not iterations or not per_iteration:
        return None
    return int(iterations) * per_iteration


# An atomic update or critical section: a few cycles alone, a cache-line
# transfer (or a lock hand-over) per update once threads contend for it.
SYNC_COST_OPS = 20.0
SYNC_CONTENDED_COST_OPS = 200.0


def overhead_cost_ops(
    schedule: str,
    threads: int,
    dispatches: int,
    cores: int,
    sync_ops: float = 0.0,
    profile: RuntimeProfile | None = None,
) -> float:
    """OpenMP runtime cost per thread of one run, in weighted-op units.

    Nominal figures, or this machine's measured ones when ``profile`` is given
    (a static chunk stays open-coded: a few ops).
    """
    per_dispatch = (DISPATCH_COST_OPS if threads > 1 else DISPATCH_COST_SERIAL_OPS)[schedule]
    region = (
        REGION_COST_OVERSUBSCRIBED_OPS
        if threads > cores
        else REGION_COST_OPS
        if threads > 1
        else 0.0
    )
    if profile is not None:
        op = max(profile.figure("op_s", 1), 1e-12)
        if schedule != "static":
            per_dispatch = max(profile.figure("dispatch_s", threads), 0.0) / op
        region = max(profile.figure("forkjoin_s", threads), 0.0) / op if threads > 1 else 0.0
    if profile is None and threads > 1 and schedule != "static":
        # one shared iteration counter: a hand-out waits for the others running beside it
        # (half of them ahead, on average); the nominal figure is the 2-thread cost
        per_dispatch *= max(1.0, min(threads, cores) / 2)
    cost = per_dispatch * dispatches / threads
    sync = SYNC_CONTENDED_COST_OPS if threads > 1 else SYNC_COST_OPS
    cost += sync * sync_ops / threads
    return cost + region


_FROM_RECORD = object()


# Over 60 lines: one model feature per line of the returned record.
def loop_features(
    record: LoopRecord,
    variant: Variant,
    machine: Machine,
    work: object = _FROM_RECORD,
    profile: RuntimeProfile | None = None,
) -> LoopFeatures:
    """Features of ``variant`` of ``record`` on ``machine``.

    ``work`` lets a caller pass the record's per-iteration work array once for
    many variants (None = uniform); by default it is read from the record.
    ``profile`` (the machine's measured runtime costs) replaces the nominal
    overhead figures, scales a static schedule's imbalance by the measured
    slow-core penalty, and damps thread speedup by the measured bandwidth curve.
    """
    schedule, chunk, p, notes = resolve_variant(record, variant, machine)
    n = record.trip_count
    if n is None and record.work_per_iteration:
        n = len(record.work_per_iteration)
    if n is None:
        raise FeatureError(f"{record.id}: trip count unknown (symbolic bounds)")
    n = int(n)
    executions = record.executions if record.executions else 1
    if work is _FROM_RECORD:
        work = _work_array(record, n)
    sim = simulate(n, p, schedule, chunk, work)

    total = _total_ops(record, n)

    df, source = _footprint(record, p, schedule, chunk, sim)
    df = max(df, machine.line_bytes)
    share = min(1.0, machine.cores / p)  # threads beyond the cores share a core's caches
    capacity = share * (machine.l1d_bytes * machine.l1d_assoc + machine.l2_bytes * machine.l2_assoc)

    ops_per_thread_run = total / p
    overhead_ops = overhead_cost_ops(
        schedule, p, sim.dispatches, machine.cores, record.sync_ops or 0.0, profile
    ) + teams.start_cost_ops(record, _team_sizes(record, machine), p, machine.cores)
    imbalance = sim.core_imbalance(machine.cores)
    bw_speedup = 1.0
    if profile is not None:
        if schedule == "static" and p > 1:
            imbalance *= max(1.0, profile.figure("static_penalty", p))
        bw_speedup = profile.bandwidth_speedup(min(p, machine.cores))
    return LoopFeatures(
        loop_id=record.id,
        variant=variant.key,
        schedule=schedule,
        chunk=chunk,
        threads=p,
        n=n,
        executions=int(executions),
        footprint_per_thread=int(df),
        footprint_source=source,
        x1_cache=capacity / df,
        x2_ops_per_thread=executions * ops_per_thread_run,
        x3_max_chunk_iters=float(max(sim.max_chunk_iters, 1)),
        x4_threads=float(p),
        imbalance=imbalance,
        dispatches=int(sim.dispatches),
        dispatch_overhead=1.0 + overhead_ops / ops_per_thread_run,
        oversubscription=max(1.0, p / max(machine.cores, 1)),
        sched_dynamic=1.0 if schedule == "dynamic" else 0.0,
        sched_guided=1.0 if schedule == "guided" else 0.0,
        false_sharing=contention.false_sharing(record, schedule, chunk, p, machine),
        bandwidth=contention.bandwidth_factor(
            p, machine, contention.memory_boundness(record, machine, total), bw_speedup
        ),
        loop_work=executions * total,
        loop_bytes=executions * float(max(record.footprint_bytes or df * p, machine.line_bytes)),
        approximate=sim.approximate,
        notes=notes,
    )


def _total_ops(record: LoopRecord, n: int) -> float:
    """Weighted ops of one execution of the loop; loop control costs at least 1 op/iter."""
    iterations = record.iterations if record.iterations is not None else n
    total = record.weighted_ops
    if total is None and record.work_per_iteration:
        total = float(np.sum(np.asarray(record.work_per_iteration)))
    if total is None and record.ops_per_iteration.weighted:
        total = record.ops_per_iteration.weighted * iterations
    if total is None:
        raise FeatureError(f"{record.id}: weighted operation count unknown")
    return max(float(total), float(iterations), 1.0)


def feature_names(model_kind: str | Sequence[str]) -> list[str]:
    """Column names for a model kind, or a validated explicit list (for ablations)."""
    if isinstance(model_kind, str):
        try:
            return list(MODEL_KINDS[model_kind])
        except KeyError:
            raise ValueError(
                f"unknown model kind {model_kind!r}; choose from {sorted(MODEL_KINDS)}"
            ) from None
    names = list(model_kind)
    unknown = [n for n in names if n not in EXTENDED_FEATURES]
    if unknown:
        raise ValueError(f"unknown feature(s) {unknown}; known: {list(EXTENDED_FEATURES)}")
    return names


def feature_matrix(
    records_and_variants: Iterable[tuple[LoopRecord, Variant]],
    machine: Machine,
    model_kind: str | Sequence[str] = "faithful",
    profile: RuntimeProfile | None = None,
) -> tuple[np.ndarray, list[str]]:
    """Rows of model features for (record, variant) pairs; names in column order."""
    names = feature_names(model_kind)
    work_cache: dict[int, tuple[LoopRecord, np.ndarray | None]] = {}
    rows = []
    for record, variant in records_and_variants:
        key = id(record)
        if key not in work_cache:
            n = record.trip_count or len(record.work_per_iteration or [])
            work_cache[key] = (record, _work_array(record, int(n)))
        feats = loop_features(record, variant, machine, work_cache[key][1], profile)
        rows.append(feats.vector(names))
    X = np.asarray(rows, dtype=float).reshape(len(rows), len(names))
    return X, names
