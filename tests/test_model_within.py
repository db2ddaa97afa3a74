"""The extended model's within-loop fit and its contention features."""

from __future__ import annotations

import numpy as np

from autotune.frontend.records import Clauses, Directive, LoopLevel, LoopRecord
from autotune.measure.machine import Machine
from autotune.models import contention
from autotune.models.powerlaw import ExtendedPowerLawModel, PowerLawModel

MACHINE = Machine("test", 2, 32768, 8, 1 << 20, 8, 32 << 20, 16, 64)


def test_within_fit_recovers_variant_exponent_that_pooling_confounds():
    """Big loops run few threads in this data set, small loops many: a pooled fit
    mixes loop size into the thread exponent; the within fit does not."""
    rng = np.random.default_rng(1)
    names = ["x4_threads", "loop_work"]
    X, y, groups = [], [], []
    for g in range(12):
        work = 10.0 ** rng.uniform(5, 9)
        threads = [1, 2] if work > 1e7 else [4, 8]
        for p in threads:
            for _ in range(3):
                X.append([p, work])
                y.append(1e-8 * work * p**-0.8 * np.exp(rng.normal(0, 0.01)))
                groups.append(g)
    X, y = np.array(X), np.array(y)
    within = ExtendedPowerLawModel(features=names, loss="ols").fit(X, y, groups=groups)
    assert within.fit_mode_ == "within" and within.n_groups_ == 12
    assert abs(within.coef_[0] + 0.8) < 0.05 and abs(within.coef_[1] - 1.0) < 0.05
    rel = np.abs(within.predict(X) - y) / y
    assert rel.max() < 0.1  # absolute predictions work too (loop level from loop_work)
    pooled = ExtendedPowerLawModel(features=["x4_threads"], loss="ols").fit(X[:, :1], y)
    assert pooled.fit_mode_ == "pooled" and abs(pooled.coef_[0] + 0.8) > 0.3
    faithful = PowerLawModel(features=names, loss="ols").fit(X, y, groups=groups)
    assert faithful.fit_mode_ == "pooled"  # the seed's regression stays as it was


def _record(write_index: str, dims: list[int]) -> LoopRecord:
    d = Directive("omp parallel for", "parallel for", "f.c", 1, Clauses())
    r = LoopRecord("f.c:2", "f.c", 2, "f", d, d, trip_count=1000)
    r.nest = [LoopLevel("i", "0", "1000", "<", 1, 1000)]
    r.arrays = [
        {
            "name": "a",
            "elem_size": 8,
            "dims": dims,
            "accesses": [{"mode": "w", "flat": write_index}],
        }
    ]
    r.footprint_bytes = 8000
    return r


def test_false_sharing_only_for_chunks_smaller_than_a_line_of_written_data():
    vec = _record("i", [1000])
    assert contention.false_sharing(vec, "static", 1, 2, MACHINE) == 1.0 + (1 - 8 / 64)
    assert contention.false_sharing(vec, "dynamic", 8, 2, MACHINE) == 1.0  # 64 bytes
    assert contention.false_sharing(vec, "static", None, 2, MACHINE) == 1.0  # blocks
    assert contention.false_sharing(vec, "static", 1, 1, MACHINE) == 1.0  # one thread
    rows = _record("i*640 + j", [1000, 640])  # each thread writes whole rows
    assert contention.false_sharing(rows, "static", 1, 2, MACHINE) == 1.0


COLUMNS = """\
#define N 400
#define M 640
double a[N][M], b[N][M];

void scale_columns(double s)
{
#pragma omp parallel for
    for (int j = 0; j < M; j++)
        for (int i = 0; i < N; i++)
            a[i][j] = s * b[i][j];
}

void scale_rows(double s)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            a[i][j] = s * b[i][j];
}
"""


def test_false_sharing_seen_in_two_dimensional_arrays_as_the_analysis_writes_them(tmp_path):
    """The analysis linearises a[i][j] to an expression tree: a parallel loop over the
    columns writes neighbouring elements of one line from different threads under small
    chunks; one over the rows does not."""
    from autotune.analysis import analyze_file

    src = tmp_path / "columns.c"
    src.write_text(COLUMNS)
    columns, rows = analyze_file(str(src)).loops
    assert not isinstance(columns.arrays[0]["accesses"][0]["flat"], str)
    assert contention.written_unit_stride_elem(columns) == 8
    assert contention.false_sharing(columns, "static", 1, 2, MACHINE) == 1.0 + (1 - 8 / 64)
    assert contention.false_sharing(columns, "static", 8, 2, MACHINE) == 1.0
    assert contention.written_unit_stride_elem(rows) is None
    assert contention.false_sharing(rows, "static", 1, 2, MACHINE) == 1.0


def test_memory_boundness_grows_with_footprint_and_falls_with_intensity():
    r = _record("i", [1000])
    r.footprint_bytes = 64 << 20  # far beyond the private caches
    streaming = contention.memory_boundness(r, MACHINE, total_ops=r.footprint_bytes / 10)
    dense = contention.memory_boundness(r, MACHINE, total_ops=r.footprint_bytes * 100)
    r.footprint_bytes = 16 << 10  # fits in L1
    cached = contention.memory_boundness(r, MACHINE, total_ops=1.0)
    assert streaming > 0.8 and dense < 0.02 and cached < 0.01
    assert contention.bandwidth_factor(2, MACHINE, 1.0) == 2.0
    assert contention.bandwidth_factor(8, MACHINE, 0.0) == 1.0
