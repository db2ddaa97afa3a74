"""Output helpers any stage may use: aligned tables, JSON, progress on stderr, figures."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterable, Sequence
from typing import Any, TextIO


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]], out: TextIO | None = None) -> str:
    """Render rows as an aligned plain-text table (numbers right-aligned)."""
    cells = [[_cell(v) for v in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in cells:
        for i, c in enumerate(row):
            widths[i] = max(widths[i], len(c))
    numeric = [
        all(_is_number(row[i]) for row in cells if row[i] not in ("", "-")) and bool(cells)
        for i in range(len(headers))
    ]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    for row in cells:
        parts = [
            c.rjust(w) if numeric[i] else c.ljust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(parts).rstrip())
    text = "\n".join(lines)
    if out is not None:
        print(text, file=out)
    return text


def _cell(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        if v != 0 and (abs(v) >= 1e6 or abs(v) < 1e-3):
            return f"{v:.3e}"
        return f"{v:.4g}"
    return str(v)


def _is_number(s: str) -> bool:
    try:
        float(s.replace(",", "").rstrip("x%"))
        return True
    except ValueError:
        return False


def human_bytes(n: float | None) -> str:
    if n is None:
        return "unknown"
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GiB"


def dump_json(obj: Any, out: TextIO | None = None) -> None:
    json.dump(obj, out or sys.stdout, indent=2, default=_json_default)
    (out or sys.stdout).write("\n")


def _json_default(o: Any) -> Any:
    if hasattr(o, "to_dict"):
        return o.to_dict()
    if hasattr(o, "tolist"):
        return o.tolist()
    if hasattr(o, "item"):
        return o.item()
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


class Progress:
    """Progress of long work on stderr: a bar redrawn in place on a terminal, and
    plain lines elsewhere (a log, CI), one each tenth of the work or each
    ``LINE_EVERY_S`` seconds, so a build log shows the work moving too.
    ``quiet`` (``-q``, ``--json``) silences both.
    """

    LINE_EVERY_S = 15.0

    def __init__(
        self, total: int, label: str = "", quiet: bool = False, stream: TextIO | None = None
    ) -> None:
        self.total = max(total, 1)
        self.label = label
        self.done = 0
        self.stream = stream or sys.stderr
        self.enabled = not quiet and getattr(self.stream, "isatty", lambda: False)()
        self.lines = not quiet and not self.enabled
        self.start = time.monotonic()
        self._last_line = (0, self.start)  # (tenths reported, when)

    def _line(self, note: str) -> None:
        """The terminal-less form: one self-contained line now and then."""
        now = time.monotonic()
        tenth = int(10 * min(self.done / self.total, 1.0))
        if tenth <= self._last_line[0] and now - self._last_line[1] < self.LINE_EVERY_S:
            return
        self._last_line = (tenth, now)
        elapsed = now - self.start
        frac = min(self.done / self.total, 1.0)
        eta = elapsed / frac - elapsed if frac > 0 else 0.0
        counted = (
            f"{self.done}/{self.total} ({frac:.0%}) {elapsed:.0f} s, about {eta:.0f} s left"
            if self.done <= self.total
            else f"{self.done}, past the {self.total} planned, {elapsed:.0f} s"
        )
        self.stream.write(f"{self.label}: {counted} {note[:40]}".rstrip() + "\n")
        self.stream.flush()

    def advance(self, n: int = 1, note: str = "") -> None:
        self.done += n
        if self.lines:
            self._line(note)
            return
        if not self.enabled:
            return
        frac = min(self.done / self.total, 1.0)
        width = 28
        bar = "#" * int(frac * width) + "." * (width - int(frac * width))
        elapsed = time.monotonic() - self.start
        eta = elapsed / frac - elapsed if frac > 0 else 0.0
        # past the plan (near ties re-measured): no made-up estimate of what is left
        left = f"eta {eta:5.1f}s" if self.done <= self.total else "past plan  "
        self.stream.write(
            f"\r{self.label} [{bar}] {self.done}/{self.total} "
            f"{elapsed:5.1f}s {left} {note[:30]:<30}"
        )
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def save_figure(fig, path: str, dpi: int = 120) -> None:  # a matplotlib Figure
    """Write ``fig`` to ``path`` and close it; an unwritable path is one user line."""
    import matplotlib.pyplot as plt

    from autotune.errors import UserError

    try:
        fig.savefig(path, dpi=dpi)
    except OSError as exc:
        raise UserError(f"cannot write plot: {exc.strerror}", str(path)) from None
    finally:
        plt.close(fig)


def data_frame(rows: list[dict]):  # a pandas.DataFrame
    """The rows as a pandas DataFrame; pandas is optional, so say how to get it."""
    try:
        import pandas
    except ImportError:
        from autotune.errors import UserError

        raise UserError("to_frame() needs pandas: python3 -m pip install pandas") from None
    return pandas.DataFrame(rows)


def variant_rows(loop_docs: list[dict], **where: object) -> list[dict]:
    """One flat row per loop and variant of ``to_dict()`` loop documents."""
    rows = []
    for loop in loop_docs:
        base = {"loop": loop.get("id"), "baseline_s": loop.get("baseline"), **where}
        for v in loop.get("variants", []):
            rows.append(
                base
                | {k: v.get(k) for k in ("key", "schedule", "chunk", "threads")}
                | {k: v.get(k) for k in ("predicted_s", "measured_s", "status", "runs")}
            )
    return rows
