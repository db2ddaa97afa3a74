"""Tables of measured times: long ``n,p,time`` and the paper's wide forms.

Accepted layouts (``#`` lines are comments; header names are case-insensitive):

* long:  ``n,p,time`` - one row per run or per mean of runs; p = ``seq`` (or 0)
  marks a true sequential time (absolute reference point); repeated (n, p) rows
  are averaged, as the paper averages five runs;
* wide:  ``n,T_n_1,T_n_7,...`` - the paper's Tables 1 and 4; ``T_n`` or
  ``T_n_seq`` is a sequential column; the size column may be named ``n_<unit>``
  (Karatsuba's ``n_thousands``);
* by p:  ``p,T_n_p`` - one fixed problem size over PE counts (the paper's
  Table 2); then n is left unnamed.

Any other text column (Karatsuba's ``set``) is a selector: choose its rows with
``where={"set": "uniform"}``; other numeric columns are ignored.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from autotune import textfile
from autotune.errors import UserError

SEQ = 0  # the p of a sequential (non-parallel) run
TIME_NAMES = ("time", "t", "time_s", "seconds", "wall", "wall_s", "t_n_p")
_WIDE_TIME = re.compile(r"^t_n(?:_(\d+|seq))?$")


@dataclass(frozen=True)
class Measurement:
    n: float
    p: int  # SEQ (0) for a sequential run
    time: float
    noise: float = 0.0  # absolute: the repetitions' spread (0 = unknown)


@dataclass
class TimeTable:
    """Mean measured time per (n, p)."""

    rows: list[Measurement]
    source: str = "<rows>"
    fixed_n: bool = False  # a by-p table: one unnamed problem size
    n_label: str = "n"
    notes: list[str] = field(default_factory=list)

    def time(self, n: float, p: int) -> float | None:
        for r in self.rows:
            if r.n == n and r.p == p:
                return r.time
        return None

    def noise(self, n: float, p: int) -> float:
        for r in self.rows:
            if r.n == n and r.p == p:
                return r.noise
        return 0.0

    def sizes(self) -> list[float]:
        return sorted({r.n for r in self.rows})

    def pes(self) -> list[int]:
        return sorted({r.p for r in self.rows if r.p != SEQ})

    def filtered(self, keep: Callable[[Measurement], bool]) -> TimeTable:
        return TimeTable(
            [r for r in self.rows if keep(r)],
            self.source,
            self.fixed_n,
            self.n_label,
            list(self.notes),
        )


def from_rows(rows: Iterable[object], source: str = "<rows>") -> TimeTable:
    """Build a table from (n, p, time[, noise]) tuples, dicts or Measurements.

    Repeated (n, p) rows are averaged, and their standard deviation becomes the
    point's noise unless a noise was given.
    """
    acc: dict[tuple[float, int], list[float]] = {}
    given: dict[tuple[float, int], float] = {}
    for i, row in enumerate(rows):
        noise = 0.0
        if isinstance(row, Measurement):
            n, p, t, noise = row.n, row.p, row.time, row.noise
        elif isinstance(row, dict):
            n, p, t, noise = row["n"], row["p"], row["time"], row.get("noise", 0.0)
        elif len(row) == 4:  # type: ignore[arg-type]
            n, p, t, noise = row  # type: ignore[misc]
        else:
            n, p, t = row  # type: ignore[misc]
        n, p, t = _number(n, source, i), _pe(p, source, i), _number(t, source, i)
        if t < 0:
            raise UserError(f"negative time {t:g} at n={n:g}, p={p}", location=f"{source}:{i}")
        acc.setdefault((n, p), []).append(t)
        if noise:
            given[(n, p)] = max(given.get((n, p), 0.0), abs(float(noise)))
    if not acc:
        raise UserError("the table has no measurements", location=source)
    out = [
        Measurement(n, p, sum(v) / len(v), given.get((n, p)) or _std(v))
        for (n, p), v in sorted(acc.items())
    ]
    table = TimeTable(out, source)
    repeats = sum(1 for v in acc.values() if len(v) > 1)
    if repeats:
        table.notes.append(f"{repeats} (n, p) points had repeated rows; their mean is used")
    return table


def _std(values: list[float]) -> float:
    if len(values) < 2:
        return 0.0
    m = sum(values) / len(values)
    return (sum((v - m) ** 2 for v in values) / (len(values) - 1)) ** 0.5


def read_table(path: str | Path, where: dict[str, str] | None = None) -> TimeTable:
    """Read a CSV table in any accepted layout; errors name the file and line."""
    path = Path(path)
    try:
        text = textfile.read_data(path)
    except OSError as exc:
        raise UserError(f"cannot read table: {exc.strerror}", location=str(path)) from None
    return parse_table(text, str(path), where)


# Over 60 lines: one error message per way a table file can be wrong.
def parse_table(text: str, source: str, where: dict[str, str] | None = None) -> TimeTable:
    lines = [
        (i + 1, ln)
        for i, ln in enumerate(text.splitlines())
        if ln.strip() and not ln.lstrip().startswith("#")
    ]
    if not lines:
        raise UserError("empty table (only comments or blank lines)", location=source)
    records = list(csv.reader(io.StringIO("\n".join(ln for _, ln in lines))))
    header = [h.strip().lower() for h in records[0]]
    body = [(lines[k][0], rec) for k, rec in enumerate(records[1:], start=1) if any(rec)]
    loc0 = f"{source}:{lines[0][0]}"
    where = {k.lower(): v for k, v in (where or {}).items()}
    for key in where:
        if key not in header:
            raise UserError(f"--where column {key!r} is not in the header", location=loc0)
    body = _select(header, body, where, source)

    n_col = next((i for i, h in enumerate(header) if h == "n" or h.startswith("n_")), None)
    p_col = header.index("p") if "p" in header else None
    time_col = next((i for i, h in enumerate(header) if h in TIME_NAMES), None)
    wide = {i: m.group(1) for i, h in enumerate(header) if (m := _WIDE_TIME.match(h))}

    triples: list[tuple[float, int, float, int]] = []  # n, p, time, line
    if n_col is not None and p_col is not None and time_col is not None:
        layout, fixed = "long", False
        for ln, rec in body:
            t = _cell(rec, time_col, source, ln)
            if t is not None:
                triples.append(
                    (_num(rec, n_col, source, ln), _pe_cell(rec, p_col, source, ln), t, ln)
                )
    elif n_col is not None and wide:
        layout, fixed = "wide", False
        for ln, rec in body:
            n = _num(rec, n_col, source, ln)
            for i, pname in wide.items():
                t = _cell(rec, i, source, ln)
                if t is not None:
                    p = SEQ if pname in (None, "seq") else int(pname)
                    triples.append((n, p, t, ln))
    elif p_col is not None and time_col is not None:
        layout, fixed = "by-p", True
        for ln, rec in body:
            t = _cell(rec, time_col, source, ln)
            if t is not None:
                triples.append((0.0, _pe_cell(rec, p_col, source, ln), t, ln))
    else:
        raise UserError(
            "unrecognised header: expected n,p,time (long), n,T_n_1,T_n_7,... (wide) "
            f"or p,T_n_p (one size); got {','.join(records[0])}",
            location=loc0,
        )
    for _n, p, t, ln in triples:
        if t < 0:
            raise UserError(f"negative time {t:g}", location=f"{source}:{ln}")
        if p == SEQ and layout == "by-p":
            raise UserError("p must be at least 1 in a by-p table", location=f"{source}:{ln}")
    table = from_rows([(n, p, t) for n, p, t, _ in triples], source)
    table.fixed_n = fixed
    if n_col is not None:
        table.n_label = header[n_col]
    return table


def _select(
    header: list[str], body: list[tuple[int, list[str]]], where: dict[str, str], source: str
) -> list[tuple[int, list[str]]]:
    """Apply ``where`` and insist on it when a text column mixes several data sets."""
    for key, value in where.items():
        col = header.index(key)
        body = [(ln, rec) for ln, rec in body if col < len(rec) and rec[col].strip() == value]
        if not body:
            raise UserError(f"no rows with {key}={value}", location=source)
    for i, h in enumerate(header):
        if (
            h in where
            or h in ("n", "p")
            or h.startswith("n_")
            or h in TIME_NAMES
            or _WIDE_TIME.match(h)
        ):
            continue
        values = {rec[i].strip() for _, rec in body if i < len(rec) and rec[i].strip()}
        if values and not all(_is_float(v) for v in values) and len(values) > 1:
            shown = ", ".join(sorted(values)[:4])
            raise UserError(
                f"column {h!r} holds several data sets ({shown}); choose one with "
                f"--where {h}=VALUE",
                location=source,
            )
    return body


def _is_float(s: str) -> bool:
    try:
        float(s)
        return True
    except ValueError:
        return False


def _cell(rec: list[str], i: int, source: str, ln: int) -> float | None:
    if i >= len(rec) or not rec[i].strip():
        return None
    return _num(rec, i, source, ln)


def _num(rec: list[str], i: int, source: str, ln: int) -> float:
    if i >= len(rec) or not rec[i].strip():
        raise UserError(f"missing value in column {i + 1}", location=f"{source}:{ln}")
    return _number(rec[i].strip(), source, ln)


def _number(v: object, source: str, ln: int) -> float:
    try:
        x = float(v)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise UserError(f"not a number: {v!r}", location=f"{source}:{ln}") from None
    if not math.isfinite(x):
        raise UserError(f"not a finite number: {v!r}", location=f"{source}:{ln}")
    return x


def _pe_cell(rec: list[str], i: int, source: str, ln: int) -> int:
    if i >= len(rec):
        raise UserError("missing p", location=f"{source}:{ln}")
    return _pe(rec[i].strip(), source, ln)


def _pe(v: object, source: str, ln: int) -> int:
    if isinstance(v, str) and v.strip().lower() in ("seq", "sequential"):
        return SEQ
    x = _number(v, source, ln)
    if x != int(x) or x < 0:
        raise UserError(
            f"p must be a whole number of PEs (or 'seq'), got {v!r}", location=f"{source}:{ln}"
        )
    return int(x)
