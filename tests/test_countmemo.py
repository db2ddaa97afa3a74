"""barvinok's counts kept between runs: the next ``autotune rank`` reads them back and
ranks exactly as the first did; a damaged file is counted again, not believed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from autotune.analysis.countmemo import FORMAT

ROOT = Path(__file__).resolve().parents[1]
KERNEL = ROOT / "kernels" / "triangular.c"


def _rank(cache: Path) -> str:
    env = dict(os.environ, AUTOTUNE_CACHE_DIR=str(cache))
    proc = subprocess.run(
        [sys.executable, "-m", "autotune", "rank", str(KERNEL), "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_counts_are_kept_and_read_back_exactly(tmp_path):
    first = _rank(tmp_path)
    kept = tmp_path / "counts.json"
    counts = json.loads(kept.read_text())["counts"]
    assert counts  # the first run kept what it counted
    assert _rank(tmp_path) == first  # read back: the same ranking, to the last digit
    # what is read is used: a count replaced by another changes the footprints
    texts = {k: v for k, v in counts.items() if isinstance(v, str) and "_t" in v}
    assert texts, "no per-thread count of a cyclic hand-out was kept"
    poisoned = {k: (v if k not in texts else "[_t] -> { 1 }") for k, v in counts.items()}
    kept.write_text(json.dumps({"format": FORMAT, "counts": poisoned}))
    assert _rank(tmp_path) != first
    kept.write_text("{not json")
    assert _rank(tmp_path) == first  # unreadable: counted again
    assert json.loads(kept.read_text())["counts"]  # and kept again
