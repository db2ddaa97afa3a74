"""Variants the OpenMP runtime executes identically: measure one, report the rest.

Each rule below follows libgomp's own code (``libgomp/iter.c``, ``loop.c``),
and ``tests/test_runtime_equivalence.py`` checks them on the installed
runtime by recording which thread runs which iteration:

- ``auto`` is run as ``static`` with no chunk (loop.c: "For now map to
  schedule(static)").
- ``dynamic`` and ``guided`` without a chunk use chunk 1 (the OpenMP default).
- More threads than iterations only add idle threads: every schedule hands
  out the same chunks as with one thread per iteration.
- A chunk of at least the trip count is one chunk: every such chunk is alike.
- ``static`` with no chunk gives thread i the block [i*q, (i+1)*q) when the
  trip count n is a multiple of the thread count T (q = n/T): the same as
  ``static,q``.
- ``guided,c`` hands out max(ceil(remaining/T), c) iterations: when c >=
  ceil(n/T), every hand-out is c, which is ``dynamic,c``.
- A loop with no schedule clause runs ``static`` (libgomp's def-sched-var), so
  a variant equal to the loop as written is the original itself.
- One thread runs every iteration, in order, under every schedule: ``dynamic`` and
  ``guided`` only add the cost of handing the chunks out, so ``static`` stands for
  them (the team the profile run measured counts: Rodinia lud runs on one thread).

Nothing is collapsed for another runtime (LLVM's libomp deals differently),
or for a thread count left as written; the rules that use the trip count are not
applied to an unknown one, nor to one that differs between the loop's runs.
"""

from __future__ import annotations

from dataclasses import dataclass

from autotune.frontend.constants import int_constant
from autotune.frontend.records import LoopRecord
from autotune.variants.space import BASELINE, Variant

LIBGOMP = "libgomp"
ONE_THREAD = (
    "one thread runs the iterations in order under every schedule (a hand-out only adds its cost)"
)


@dataclass(frozen=True)
class Equivalent:
    """A variant not measured because ``same_as`` runs identically."""

    variant: Variant
    same_as: Variant
    rule: str

    def to_dict(self) -> dict:
        return {"key": self.variant.key, "equivalent_to": self.same_as.key, "rule": self.rule}


def canonical(variant: Variant, trips: int | None) -> tuple[Variant, str]:
    """The simplest variant libgomp runs identically to ``variant``, and the rule used."""
    sched, chunk, threads = variant.schedule, variant.chunk, variant.threads
    rules: list[str] = []
    if sched == "auto":
        sched, chunk = "static", None
        rules.append("auto runs as static")
    if threads == 1 and sched is not None and (sched, chunk) != ("static", None):
        sched, chunk = "static", None
        rules.append(ONE_THREAD)
    if sched in ("dynamic", "guided") and chunk is None:
        chunk = 1
        rules.append(f"{sched} without a chunk uses chunk 1")
    if trips is not None and trips >= 1 and sched is not None:
        if threads is not None and threads > trips:
            threads = trips
            rules.append("threads beyond the trip count stay idle")
        if chunk is not None and chunk > trips:
            chunk = trips
            rules.append("a chunk of at least the trip count is one chunk")
        if threads is not None and threads > 1:
            if sched == "guided" and chunk is not None and chunk >= -(-trips // threads):
                sched = "dynamic"
                rules.append("guided with chunk >= ceil(trips/threads) hands out fixed chunks")
            if (
                sched == "static"
                and chunk is not None
                and trips % threads == 0
                and chunk == trips // threads
            ):
                chunk = None
                rules.append("static with chunk trips/threads is static's own blocks")
    return Variant(sched, chunk, threads, variant.bind), "; ".join(rules)


def collapse(
    record: LoopRecord, variants: list[Variant], runtime: str
) -> tuple[list[Variant], list[Equivalent]]:
    """Split ``variants`` into those to measure and those equivalent to one of them.

    The representative of a class is its first member in the given order.
    """
    if runtime != LIBGOMP:
        return list(variants), []
    keep: list[Variant] = []
    same: list[Equivalent] = []
    first: dict[Variant, Variant] = {}
    written = as_written(record)
    # no num_threads clause, or one whose count only the run knows: the team the profile
    # run measured is the count as written (omp_set_num_threads, num_threads(nthreads))
    team = record.team if written is not None and written.threads in (None, -1) else None
    trips = constant_trips(record)
    for v in variants:
        probe = v
        if written is not None:
            threads = v.threads
            if threads is not None and threads in (written.threads, team):
                threads = None  # num_threads(N) as written, or the team it runs with
            alone = threads is None and 1 in (written.threads, team)
            mine = canonical(Variant(v.schedule, v.chunk, 1 if alone else None), trips)[0]
            if threads is None and (mine.schedule, mine.chunk) == (written.schedule, written.chunk):
                plain = canonical(Variant(v.schedule, v.chunk, None), trips)[0]
                alike = (plain.schedule, plain.chunk) == (written.schedule, written.chunk)
                rule = "the loop as written" + ("" if alike else f": {ONE_THREAD}")
                same.append(Equivalent(v, BASELINE, rule))
                continue
            if alone:  # the team of one as written: the schedules of one thread
                probe = Variant(v.schedule, v.chunk, 1, v.bind)
        canon, rule = canonical(probe, trips)
        if canon in first:
            same.append(Equivalent(v, first[canon], rule or "identical clauses"))
        else:
            first[canon] = v
            keep.append(v)
    return keep, same


def as_written(record: LoopRecord) -> Variant | None:
    """The loop's own clauses as a canonical variant (threads: the literal num_threads, if
    any); None when they are not plain (a runtime schedule, a chunk expression)."""
    c = record.directive.clauses
    sched = c.schedule or "static"
    if sched not in ("static", "dynamic", "guided", "auto"):
        return None
    chunk = int_constant(c.chunk)
    if c.chunk is not None and chunk is None:
        return None
    threads = None
    written = record.parallel.clauses.num_threads if record.parallel is not None else None
    if written is not None:
        value = int_constant(written)
        threads = value if value is not None else -1  # a variable: no count matches it
    canon, _ = canonical(Variant(sched, chunk, None), constant_trips(record))
    return Variant(canon.schedule, canon.chunk, threads)


def constant_trips(record: LoopRecord) -> int | None:
    """The trip count every run of the loop has, or None: a loop whose bounds read an
    enclosing loop's variable (LU's ``j = i .. n``, a wavefront's diagonal) runs other
    counts than the one analysed, and a rule that holds at one count (a chunk of at least
    the trip count) need not hold at the others."""
    return None if record.trip_varies else record.trip_count
