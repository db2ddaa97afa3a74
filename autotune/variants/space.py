"""The variant space of one loop: what may change without changing the result.

Only the schedule kind, the chunk size and the thread count are varied; every
other clause stays as the user wrote it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

from autotune.errors import UserError
from autotune.frontend.records import LoopRecord


@dataclass(frozen=True)
class Variant:
    """One point of a loop's variant space.

    ``schedule`` is None and ``chunk`` None and ``threads`` None for the
    original (baseline) program: "as the user wrote it".
    """

    schedule: str | None  # static | dynamic | guided | auto; None = as written
    chunk: int | None  # None = no chunk argument (the schedule's default)
    threads: int | None  # None = as written / runtime default
    bind: str | None = None  # proc_bind(close|spread) of the region; None = as written

    @property
    def is_baseline(self) -> bool:
        return (
            self.schedule is None
            and self.chunk is None
            and self.threads is None
            and self.bind is None
        )

    @property
    def key(self) -> str:
        """Stable text key, e.g. ``dynamic,16,t2``, ``static,-,t8,bspread`` or ``baseline``."""
        if self.is_baseline:
            return "baseline"
        chunk = "-" if self.chunk is None else str(self.chunk)
        threads = "-" if self.threads is None else str(self.threads)
        bind = f",b{self.bind}" if self.bind else ""
        return f"{self.schedule or '-'},{chunk},t{threads}{bind}"

    @property
    def label(self) -> str:
        """The variant in words for messages: ``dynamic,16 on 2 threads``, ``2 threads``,
        ``static``, ``as written`` (``key`` is the form options take)."""
        if self.is_baseline:
            return "as written"
        parts = []
        if self.schedule:
            parts.append(self.schedule + ("" if self.chunk is None else f",{self.chunk}"))
        if self.threads is not None:
            counted = f"{self.threads} thread{'s' if self.threads != 1 else ''}"
            parts.append(f"on {counted}" if parts else counted)
        text = " ".join(parts)
        if self.bind:
            text = f"{text}, bound {self.bind}" if text else f"bound {self.bind}"
        return text

    @classmethod
    def from_key(cls, key: str) -> Variant:
        if key == "baseline":
            return BASELINE
        sched, chunk, threads, *rest = key.split(",")
        return cls(
            None if sched == "-" else sched,
            None if chunk == "-" else int(chunk),
            None if threads == "t-" else int(threads.lstrip("t")),
            rest[0][1:] if rest else None,
        )

    def to_dict(self) -> dict:
        return asdict(self)


BASELINE = Variant(None, None, None)


SCHEDULES = ("static", "dynamic", "guided", "auto")
BINDINGS = ("close", "spread")
DEFAULT_SCHEDULES = ("static", "dynamic", "guided")
MAX_SPACE = 80  # default spaces stay below this many variants (each costs real runs)
MAX_CHUNKS = 6  # chunk values per (schedule, threads) before thinning
UNKNOWN_TRIP = 4096  # chunk bound assumed when the trip count is not a constant


def default_thread_counts(cores: int) -> list[int]:
    """1..cores plus one oversubscribed count (2*cores); thinned above 8 cores."""
    cores = max(1, int(cores))
    if cores <= 8:
        counts = list(range(1, cores + 1))
    else:
        counts = sorted({1 << k for k in range(cores.bit_length()) if 1 << k <= cores} | {cores})
    return counts + [2 * cores]


def chunk_sizes(trip_count: int | None, threads: int, limit: int = MAX_CHUNKS) -> list[int]:
    """Powers of two up to the iterations per thread, at most ``limit`` of them.

    A chunk larger than trip_count/threads leaves threads idle, so it is never
    worth measuring. When there are more powers than ``limit`` the exponents
    are spread evenly from 1 to the bound (both ends kept).
    """
    per_thread = (trip_count if trip_count is not None else UNKNOWN_TRIP) // max(1, threads)
    if per_thread < 1:
        return []
    top = per_thread.bit_length() - 1  # largest k with 2**k <= per_thread
    if top + 1 <= limit:
        exps = list(range(top + 1))
    elif limit <= 1:
        exps = [0]
    else:
        exps = sorted({round(i * top / (limit - 1)) for i in range(limit)})
    return [1 << k for k in exps]


def _can_vary_threads(record: LoopRecord) -> bool:
    """An orphaned ``omp for`` has no parallel directive in reach to carry num_threads;
    the legality gate may keep the thread count as written (``record.kept``)."""
    return record.parallel is not None and "threads" not in record.kept


def _can_vary_schedule(record: LoopRecord) -> bool:
    return "schedule" not in record.kept


def _kept_schedule_space(record: LoopRecord, counts: list[int | None]) -> list[Variant]:
    """The schedule is kept as written: only the thread count varies (the gate allows it)."""
    return [Variant(None, None, t) for t in counts if t is not None]


def default_space(record: LoopRecord, cores: int) -> list[Variant]:
    """The variants worth measuring for one loop on a machine with ``cores`` cores.

    One thread runs every schedule alike, so it gets a single variant
    (static); every other thread count gets static/dynamic/guided with "no
    chunk" and powers-of-two chunks; ``auto`` appears once (at ``cores``
    threads). The chunk list is thinned so the space stays under
    ``MAX_SPACE``. Not-tunable loops get nothing; the baseline is not part of
    the space (the measurement runs it first anyway).
    """
    if not record.tunable:
        return []
    cores = max(1, int(cores))
    if not _can_vary_threads(record):
        thread_counts: list[int | None] = [None]
    else:
        thread_counts = list(default_thread_counts(cores))
    if not _can_vary_schedule(record):
        return _kept_schedule_space(record, thread_counts)
    multi = [t for t in thread_counts if t != 1]
    per_t = max(1, (MAX_SPACE - 2) // max(1, len(multi)) // len(DEFAULT_SCHEDULES) - 1)
    limit = min(MAX_CHUNKS, per_t)
    out: list[Variant] = []
    for t in thread_counts:
        if t == 1:
            out.append(Variant("static", None, 1))
            continue
        chunks: list[int | None] = [None, *chunk_sizes(record.trip_count, t or cores, limit)]
        for sched in DEFAULT_SCHEDULES:
            out.extend(Variant(sched, c, t) for c in chunks)
    out.append(Variant("auto", None, cores if _can_vary_threads(record) else None))
    return out


def space_from_options(
    record: LoopRecord,
    schedules: list[str] | None,
    chunks: list[int | None] | None,
    threads: list[int] | None,
    cores: int,
) -> list[Variant]:
    """The cross product of the given lists; an omitted list takes the default.

    Omitted chunks mean "no chunk plus powers of two bounded by the trip
    count per thread"; given chunks are used as given. A dimension the
    legality gate keeps as written (``record.kept``: an orphaned loop, a
    region's shared thread count, a nowait chain) is not varied whatever is
    asked; the loop's reasons say why. ``auto`` takes no
    chunk, so it appears once per thread count.
    """
    if not record.tunable:
        return []
    # Callers may hand over the raw option strings; parse them here rather than
    # iterate over their characters.
    if isinstance(schedules, str):
        schedules = parse_schedules(schedules)
    if isinstance(chunks, str):
        chunks = parse_chunks(chunks)
    if isinstance(threads, str):
        threads = parse_threads(threads)
    if schedules is None and chunks is None and threads is None:
        return default_space(record, cores)
    scheds = list(schedules) if schedules is not None else list(DEFAULT_SCHEDULES)
    if threads is not None and _can_vary_threads(record):
        counts: list[int | None] = list(threads)
    elif _can_vary_threads(record):
        counts = list(default_thread_counts(cores))
    else:
        counts = [None]
    if not _can_vary_schedule(record):
        return _kept_schedule_space(record, counts)
    seen: set[Variant] = set()
    out: list[Variant] = []
    for t in counts:
        if chunks is not None:
            chunk_list: list[int | None] = list(chunks)
        else:
            chunk_list = [None, *chunk_sizes(record.trip_count, t or cores)]
        for sched in scheds:
            for c in [None] if sched == "auto" else chunk_list:
                v = Variant(sched, c, t)
                if v not in seen:
                    seen.add(v)
                    out.append(v)
    return out


def _split(text: str | Sequence[object], what: str) -> list[str]:
    """``"1,2"`` from the command line, or ``[1, 2]`` / ``("static", None)`` from the API."""
    if not isinstance(text, str):
        items = ["none" if s is None else str(s).strip() for s in text]
        if not items or any(not s for s in items):
            raise UserError(f"{what}: expected a non-empty list, got {list(text)!r}")
        return items
    items = [s.strip() for s in text.split(",")]
    if not text.strip() or any(not s for s in items):
        raise UserError(f"--{what}: expected a comma-separated list, got {text!r}")
    return items


def parse_schedules(text: str) -> list[str]:
    """``"static,dynamic"`` -> ["static", "dynamic"]."""
    out = []
    for s in _split(text, "schedules"):
        s = s.lower()
        if s not in SCHEDULES:
            raise UserError(f"--schedules: unknown schedule {s!r} (use {', '.join(SCHEDULES)})")
        out.append(s)
    return list(dict.fromkeys(out))


def _positive(s: str, what: str) -> int:
    try:
        v = int(s, 10)
    except ValueError:
        raise UserError(f"--{what}: {s!r} is not a whole number") from None
    if v < 1:
        raise UserError(f"--{what}: {v} must be at least 1")
    return v


def parse_chunks(text: str) -> list[int | None]:
    """``"none,1,8,64"`` -> [None, 1, 8, 64]; ``none`` (or ``-``) means no chunk argument."""
    out: list[int | None] = []
    for s in _split(text, "chunks"):
        out.append(None if s.lower() in ("none", "-") else _positive(s, "chunks"))
    return list(dict.fromkeys(out))


def parse_threads(text: str) -> list[int]:
    """``"1,2,4"`` -> [1, 2, 4]."""
    return list(dict.fromkeys(_positive(s, "threads") for s in _split(text, "threads")))


def space_from_strings(
    record: LoopRecord,
    schedules: str | Sequence[str] | None,
    chunks: str | Sequence[int | None] | None,
    threads: str | Sequence[int] | None,
    cores: int,
) -> list[Variant]:
    """The space the command-line lists describe (``--schedules static,dynamic``
    ``--chunks none,8`` ``--threads 1,2``); the default space when none is given."""
    return space_from_options(
        record,
        parse_schedules(schedules) if schedules is not None else None,
        parse_chunks(chunks) if chunks is not None else None,
        parse_threads(threads) if threads is not None else None,
        cores,
    )
