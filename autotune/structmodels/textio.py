"""Reading the small text inputs of the structure commands, with user-facing errors.

Errors are ``UserError`` with a file:line location, because these functions
exist to read what a person typed or measured.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np

from autotune import textfile
from autotune.errors import UserError


def parse_floats(text: str, option: str, count: int | None = None) -> list[float]:
    """'1,2.5,3e-6' -> [1.0, 2.5, 3e-06]; ``count`` enforces the length."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise UserError(f"{option}: expected comma-separated numbers, got {text!r}") from None
    if not values or not all(math.isfinite(v) for v in values):
        raise UserError(f"{option}: expected finite numbers, got {text!r}")
    if count is not None and len(values) != count:
        raise UserError(f"{option}: expected {count} numbers, got {len(values)} in {text!r}")
    return values


def read_samples(path: str | Path) -> np.ndarray:
    """One number per line; blank lines and '#' comments are skipped."""
    path = Path(path)
    try:
        lines = textfile.read_data(path).splitlines()
    except OSError as exc:
        raise UserError(f"cannot read samples: {exc.strerror}", str(path)) from None
    values = []
    for i, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            v = float(text)
        except ValueError:
            raise UserError(f"expected one number per line, got {text!r}", f"{path}:{i}") from None
        if not math.isfinite(v):
            raise UserError(f"sample {text!r} is not finite", f"{path}:{i}")
        values.append(v)
    if len(values) < 4:
        raise UserError(f"need at least 4 samples for four moments, found {len(values)}", str(path))
    if min(values) == max(values):
        raise UserError("all samples are equal: no variance to fit", str(path))
    return np.array(values)


def read_table(path: str | Path, required: tuple[str, ...]) -> list[dict[str, float]]:
    """A CSV with a header (after '#' comment lines) and numeric ``required`` columns."""
    path = Path(path)
    try:
        lines = textfile.read_data(path).splitlines()
    except OSError as exc:
        raise UserError(f"cannot read: {exc.strerror}", str(path)) from None
    numbered = [
        (i, ln) for i, ln in enumerate(lines, 1) if ln.strip() and not ln.lstrip().startswith("#")
    ]
    if not numbered:
        raise UserError("empty table", str(path))
    rows = list(csv.reader(ln for _, ln in numbered))
    header = [h.strip() for h in rows[0]]
    missing = [c for c in required if c not in header]
    if missing:
        raise UserError(
            f"missing column(s) {', '.join(missing)}; header is {','.join(header)}",
            f"{path}:{numbered[0][0]}",
        )
    out = []
    for (lineno, _), row in zip(numbered[1:], rows[1:], strict=True):
        rec = dict(zip(header, (c.strip() for c in row), strict=False))
        try:
            out.append({c: float(rec[c]) for c in required})
        except (KeyError, ValueError):
            raise UserError(
                f"expected numbers in columns {', '.join(required)}", f"{path}:{lineno}"
            ) from None
    return out
