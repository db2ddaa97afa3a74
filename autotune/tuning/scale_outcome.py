"""Store a ``scale`` prediction as a loop outcome, with its figures, for the report.

The report reads only the database; a skeleton prediction's figures (the
estimated series, and Abar and the Karp-Flatt fraction over p, one line per
size) are drawn here from the live ``Prediction`` and kept in the outcome as
PNG data URIs, so the page can show them without re-running anything.
"""

from __future__ import annotations

import base64
import tempfile
from pathlib import Path

from autotune import textfile
from autotune.errors import UserError
from autotune.measure.outcomes import Outcome, save_outcome
from autotune.skeletons.plot import plot_prediction, plot_scalability

LABEL = "scale"


def _png_uri(draw) -> str | None:  # draw(path) writes a PNG
    with tempfile.TemporaryDirectory(prefix="autotune-fig-") as tmp:
        path = Path(tmp) / "figure.png"
        try:
            draw(path)
        except UserError:  # nothing to draw (no estimated series)
            return None
        return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode()


def save_scale_outcome(grid, result, target: tuple[int, int]) -> None:
    """One outcome per scaled loop: the grid's points, the prediction, the figures."""
    pred = result.prediction
    n_t, p_t = target
    sizes = sorted({int(n) for n, *_ in result.points})
    threads = sorted({int(p) for _, p, *_ in result.points})
    doc = {
        "kind": "scale",
        "id": result.loop,
        "file": grid.path,
        "macro": grid.macro,
        "target": {grid.macro: n_t, "p": p_t},
        "points": [{"n": n, "p": p, "time_s": t, "noise_s": e} for n, p, t, e in result.points],
        "prediction": pred.to_dict(),
        "figures": {
            "estimate": _png_uri(lambda path: plot_prediction(pred, path)),
            "grid": _png_uri(lambda path: plot_scalability(result.points, pred, path, grid.macro)),
        },
    }
    size = f"{grid.macro}={','.join(map(str, sizes))} p={','.join(map(str, threads))}"
    source_hash = textfile.content_hash(textfile.read_bytes_text(Path(grid.path)))
    machine = grid.store.add_machine(grid.machine)
    outcome = Outcome(
        LABEL, grid.path, size, source_hash, grid.source.key(), machine, result.loop, doc
    )
    save_outcome(grid.store, outcome)
