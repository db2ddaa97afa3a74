"""Read divide-and-conquer trace tables: the paper's (shipped) or the user's.

Three CSV layouts are recognised by their header (lines starting with '#'
are provenance comments and skipped):

* long form, ours: ``component,N,M,seconds`` (component is divide, combine
  or sequential; any other numeric column is a further size);
* seed 003 Table 1: ``table,size,divide_s,combine_s[,note]`` (size is edges M
  for divide, nodes N for combine);
* seed 003 Table 2: ``N,M,seq_s[,note]``.

Two printed values in the paper break the trend by a factor of ten; the
shipped CSVs keep them as printed with a note "printed X; Y fits the trend".
``corrected=True`` (the default) uses Y.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

from autotune import textfile
from autotune.structmodels.hdc import COMPONENTS, Traces

DATA = Path(__file__).resolve().parent.parent / "data"
PAPER_FILES = ("saez_hdc_traces.csv", "saez_hdc_sequential.csv")
_FIX = re.compile(r"printed\s+([0-9.eE+-]+)\s*;\s*([0-9.eE+-]+)\s+fits the trend")


class TraceFormatError(ValueError):
    """A malformed trace file; ``location`` is file:line."""

    def __init__(self, message: str, location: str) -> None:
        super().__init__(f"{location}: {message}")
        self.message = message
        self.location = location


def _rows(path: Path) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    try:
        text = textfile.read_data(path)
    except OSError as exc:
        raise TraceFormatError(f"cannot read: {exc.strerror}", str(path)) from None
    numbered = [
        (i, line)
        for i, line in enumerate(text.splitlines(), 1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    if not numbered:
        raise TraceFormatError("no header and no data", str(path))
    reader = csv.reader([line for _, line in numbered])
    header = [h.strip() for h in next(reader)]
    rows = []
    for (lineno, _), values in zip(numbered[1:], reader, strict=True):
        rows.append((lineno, dict(zip(header, (v.strip() for v in values), strict=False))))
    return header, rows


def _num(row: dict[str, str], key: str, where: str, note_fix: bool = False) -> float:
    text = row.get(key, "")
    try:
        value = float(text)
    except ValueError:
        raise TraceFormatError(f"column {key!r}: {text!r} is not a number", where) from None
    m = _FIX.search(row.get("note", "") or "") if note_fix else None
    if m and float(m.group(1)) == value:  # the note is about this cell
        return float(m.group(2))
    return value


def read_traces(path: str | Path, traces: Traces | None = None, corrected: bool = True) -> Traces:
    """Add the rows of one trace CSV (any of the three layouts) to ``traces``."""
    path = Path(path)
    traces = traces if traces is not None else Traces()
    header, rows = _rows(path)
    cols = set(header)
    for lineno, row in rows:
        where = f"{path}:{lineno}"
        if "component" in cols:
            comp = row.get("component", "")
            if comp not in COMPONENTS:
                raise TraceFormatError(f"component {comp!r} is not one of {COMPONENTS}", where)
            sizes = {
                k: _num(row, k, where)
                for k in header
                if k not in ("component", "seconds", "note") and row.get(k, "") != ""
            }
            traces.add(comp, sizes, _num(row, "seconds", where))
        elif {"size", "divide_s", "combine_s"} <= cols:
            size = _num(row, "size", where)
            traces.add("divide", {"M": size}, _num(row, "divide_s", where, corrected))
            traces.add("combine", {"N": size}, _num(row, "combine_s", where, corrected))
        elif {"N", "M", "seq_s"} <= cols:
            traces.add(
                "sequential",
                {"N": _num(row, "N", where), "M": _num(row, "M", where)},
                _num(row, "seq_s", where, corrected),
            )
        else:
            raise TraceFormatError(
                "unknown layout: expected a header component,N,M,seconds (or the paper's "
                "table,size,divide_s,combine_s / N,M,seq_s)",
                f"{path}:1",
            )
    return traces


def paper_traces(corrected: bool = True) -> Traces:
    """Seed 003 Tables 1 and 2 as shipped in autotune/data."""
    traces = Traces()
    for name in PAPER_FILES:
        read_traces(DATA / name, traces, corrected)
    return traces


def paper_parallel_times() -> list[tuple[int, float, float, float]]:
    """Seed 003 Table 4: (P, N, M, measured seconds)."""
    _, rows = _rows(DATA / "saez_hdc_parallel_table4.csv")
    return [
        (int(_num(r, "P", "")), _num(r, "N", ""), _num(r, "M", ""), _num(r, "T", ""))
        for _, r in rows
    ]
