"""The variant space of one loop: what may change without changing the result.

Only the schedule kind, the chunk size and the thread count are varied; every
other clause stays as the user wrote it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Variant:
    """One point of a loop's variant space.

    ``schedule`` is None and ``chunk`` None and ``threads`` None for the
    original (baseline) program: "as the user wrote it".
    """

    schedule: str | None  # static | dynamic | guided | auto; None = as written
    chunk: int | None  # None = no chunk argument (the schedule's default)
    threads: int | None  # None = as written / runtime default

    @property
    def is_baseline(self) -> bool:
        return self.schedule is None and self.chunk is None and self.threads is None

    @property
    def key(self) -> str:
        """Stable text key, e.g. ``dynamic,16,t2`` or ``baseline``."""
        if self.is_baseline:
            return "baseline"
        chunk = "-" if self.chunk is None else str(self.chunk)
        threads = "-" if self.threads is None else str(self.threads)
        return f"{self.schedule or '-'},{chunk},t{threads}"

    @classmethod
    def from_key(cls, key: str) -> Variant:
        if key == "baseline":
            return BASELINE
        sched, chunk, threads = key.split(",")
        return cls(
            None if sched == "-" else sched,
            None if chunk == "-" else int(chunk),
            None if threads == "t-" else int(threads.lstrip("t")),
        )

    def to_dict(self) -> dict:
        return asdict(self)


BASELINE = Variant(None, None, None)
