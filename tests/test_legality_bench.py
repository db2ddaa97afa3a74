"""bench/legality.py's rows say what may vary: a loop the front end's own rules keep
(a declared reduction) varies nothing, though the proof kept no dimension of it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _bench():
    spec = importlib.util.spec_from_file_location("legality_bench", ROOT / "bench" / "legality.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_declared_reduction_varies_nothing_in_the_bench_rows():
    rows, _ = _bench().loops_of(ROOT / "tests/data/c/legality/declared_reduction.c", [], [], [])
    assert [r["line"] for r in rows] == [33, 39]
    for r in rows:
        assert not r["schedule"] and not r["threads"] and not r["region"]
        assert "operator the program declares" in r["why"]
