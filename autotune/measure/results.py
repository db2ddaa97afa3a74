"""What a sweep returns: per-variant summaries of stored runs, per loop."""

from __future__ import annotations

from dataclasses import dataclass, field

from autotune.measure import stats
from autotune.measure.store import RunRow
from autotune.variants.space import Variant

# not-verified: the output differs from the original's, whose own runs differ too
STATUSES = ("ok", "compile-error", "crash", "timeout", "wrong-output", "not-verified")


@dataclass
class VariantResult:
    variant: Variant
    status: str  # ok | compile-error | crash | timeout | wrong-output | not-verified | not-run
    message: str = ""
    times_s: list[float] = field(default_factory=list)  # loop wall time per ok run
    cpu_s: list[float] = field(default_factory=list)  # loop CPU time per ok run (if reported)
    process_s: list[float] = field(default_factory=list)  # whole-process wall per ok run
    measured_s: float | None = None  # median of times_s
    spread: float | None = None  # (max - min) / median of times_s
    speedup: float | None = None  # baseline median / this median
    resumed: int = 0  # runs taken from the store instead of measured now

    @property
    def key(self) -> str:
        return self.variant.key

    @property
    def label(self) -> str:
        """The variant in words (``dynamic,16 on 2 threads``; the original as such)."""
        return "the original" if self.variant.is_baseline else self.variant.label

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @classmethod
    def from_rows(cls, variant: Variant, rows: list[RunRow], resumed: int) -> VariantResult:
        rows = sorted(rows, key=lambda r: r.repetition)
        bad = next((r for r in rows if r.status != "ok"), None)
        good = [r for r in rows if r.status == "ok"]
        res = cls(
            variant,
            bad.status if bad else ("ok" if good else "not-run"),
            bad.message if bad else "",
            resumed=resumed,
        )
        res.times_s = [r.measured_s for r in good if r.measured_s is not None]
        res.cpu_s = [r.loop_cpu_s for r in good if r.loop_cpu_s is not None]
        res.process_s = [r.wall_s for r in good if r.wall_s is not None]
        if not bad:
            notes = sorted({r.message for r in good if r.message})
            res.message = "; ".join(notes)
        res.measured_s = stats.median(res.times_s)
        res.spread = stats.spread(res.times_s)
        return res

    def to_dict(self) -> dict:
        return {
            "key": self.key,
            "schedule": self.variant.schedule,
            "chunk": self.variant.chunk,
            "threads": self.variant.threads,
            "measured_s": self.measured_s,
            "spread": self.spread,
            "speedup": self.speedup,
            "runs": len(self.times_s),
            "times_s": self.times_s,
            "cpu_s": self.cpu_s,
            "process_s": self.process_s,
            "status": self.status,
            "message": self.message,
            "resumed_runs": self.resumed,
        }


@dataclass
class LoopResult:
    loop_id: str
    baseline: VariantResult | None
    variants: list[VariantResult] = field(default_factory=list)
    mode: str = "runtime"
    binaries: int = 0  # distinct binaries the sweep needed
    compiles: int = 0  # of those, how many were compiled now (not found in the cache)
    runs_measured: int = 0
    runs_resumed: int = 0
    warnings: list[str] = field(default_factory=list)
    skipped: str = ""  # why the loop was not measured; empty when it was

    def best(self) -> VariantResult | None:
        """The fastest verified variant (never one that failed in any run)."""
        ok = [v for v in self.variants if v.ok and v.measured_s is not None]
        return min(ok, key=lambda v: v.measured_s) if ok else None

    def to_dict(self) -> dict:
        best = self.best()
        return {
            "loop": self.loop_id,
            "compile_mode": self.mode,
            "baseline": self.baseline.to_dict() if self.baseline else None,
            "variants": [v.to_dict() for v in self.variants],
            "best": best.key if best else None,
            "binaries": self.binaries,
            "compiles": self.compiles,
            "runs_measured": self.runs_measured,
            "runs_resumed": self.runs_resumed,
            "warnings": self.warnings,
            "skipped": self.skipped or None,
        }
