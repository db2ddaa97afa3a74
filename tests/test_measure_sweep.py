"""Sweeps of real programs: outcomes, one compile for many variants, resume."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from measure_support import (
    INFINITE_LOOP,
    REDUCTION_C,
    SEGFAULT,
    SYNTAX_ERROR,
    WRONG_RESULT,
    InjectingEmitter,
    make_record,
    write_program,
)

from autotune.analysis import analyze_file
from autotune.errors import UserError
from autotune.measure.build import BuildOptions
from autotune.measure.store import RunContext, RunRow, Store
from autotune.measure.sweep import Sweep, SweepOptions
from autotune.variants import emit
from autotune.variants.space import Variant

KERNEL = Path(__file__).resolve().parent.parent / "kernels" / "dot.c"
SMALL = {"N": "20000", "REPS": "3"}
GOOD = [Variant("static", None, 2), Variant("dynamic", 1, 2), Variant("guided", 8, 1)]


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture()
def kernel(tmp_path) -> Path:
    path = tmp_path / "dot.c"
    shutil.copy(KERNEL, path)
    return path


def _kernel_record(path: Path):
    (record,) = analyze_file(str(path), defines=dict(SMALL)).loops
    assert record.tunable, record.reason
    return record


def _sweep(path, store, emitter=emit, **opts) -> Sweep:
    opts.setdefault("timeout_floor_s", 1.0)
    return Sweep(
        path, BuildOptions(defines=dict(SMALL)), SweepOptions(**opts), store, emitter=emitter
    )


def test_each_failure_is_an_outcome_and_the_sweep_carries_on(kernel, tmp_path):
    faults = {
        "dynamic,4,t2": WRONG_RESULT,
        "guided,-,t2": INFINITE_LOOP,
        "static,16,t1": SEGFAULT,
        "dynamic,-,t1": SYNTAX_ERROR,
    }
    bad = [Variant.from_key(k) for k in faults]
    variants = [bad[0], GOOD[0], bad[1], GOOD[1], bad[2], bad[3], GOOD[2]]
    with Store(tmp_path / "m.db") as store:
        res = _sweep(
            kernel,
            store,
            InjectingEmitter(emit, faults),
            compile_mode="per-variant",
            timeout_floor_s=0.5,
        ).measure_loop(_kernel_record(kernel), variants)
        by = {v.key: v for v in res.variants}
        assert res.baseline.ok and len(res.baseline.times_s) == 3
        assert by["dynamic,4,t2"].status == "wrong-output"
        assert "differs" in by["dynamic,4,t2"].message
        assert by["guided,-,t2"].status == "timeout"
        assert "stopped after" in by["guided,-,t2"].message
        assert "over 20x the original's" in by["guided,-,t2"].message
        assert by["static,16,t1"].status == "crash" and "SIGSEGV" in by["static,16,t1"].message
        assert by["dynamic,-,t1"].status == "compile-error"
        assert by["dynamic,-,t1"].message.startswith(f"{kernel}:")
        for v in GOOD:  # the sweep went on past every failure, all repetitions
            assert by[v.key].status == "ok", by[v.key].message
            assert len(by[v.key].times_s) == 3 and by[v.key].speedup > 0
        assert res.best() is not None and res.best().key in {v.key for v in GOOD}
        assert res.binaries == 1 + len(variants)
        rows = store.runs(loop_id=_kernel_record(kernel).key)  # stored by line:column
        failed = [r for r in rows if r.status != "ok"]
        assert sorted(r.status for r in failed) == sorted(
            ["wrong-output", "timeout", "crash", "compile-error"]
        )  # a failure is never rerun
        assert len(rows) == 3 + 3 * len(GOOD) + 4


def test_runtime_mode_needs_two_compiles_for_any_number_of_variants(kernel, tmp_path):
    variants = [
        Variant(s, c, t)
        for s in ("static", "dynamic", "guided")
        for c in (None, 64)
        for t in (1, 2)
    ]
    record = _kernel_record(kernel)
    with Store(tmp_path / "m.db") as store:
        res = _sweep(kernel, store, repetitions=2).measure_loop(record, variants)
        assert [v.status for v in res.variants] == ["ok"] * len(variants)
        assert (res.binaries, res.compiles) == (2, 2)  # baseline + the runtime program
        assert res.runs_measured == 2 * (len(variants) + 1)
        per = _sweep(kernel, store, repetitions=1, compile_mode="per-variant").measure_loop(
            record, variants[:3]
        )
        # the baseline's runs are shared by both modes: only the 3 variants are built and run
        assert (per.binaries, per.compiles, per.runs_resumed) == (3, 3, 1)
        again = _sweep(kernel, store, repetitions=2, fresh=True).measure_loop(record, variants)
        assert again.compiles == 0 and again.runs_resumed == 0
        assert again.runs_measured == 2 * (len(variants) + 1)


class _Interrupt:
    def __init__(self, after: int) -> None:
        self.after, self.calls = after, 0

    def __call__(self, note: str) -> None:
        self.calls += 1
        if self.calls == self.after:
            raise KeyboardInterrupt


def test_interrupted_sweep_measures_only_what_is_missing(kernel, tmp_path):
    record = _kernel_record(kernel)
    total = 3 * (len(GOOD) + 1)
    with Store(tmp_path / "m.db") as store:
        sweep = _sweep(kernel, store)
        sweep.on_run = _Interrupt(after=5)
        with pytest.raises(KeyboardInterrupt):
            sweep.measure_loop(record, GOOD)
        first = {(r.variant_key, r.repetition): r.created for r in store.runs()}
        assert len(first) == 5
        res = _sweep(kernel, store).measure_loop(record, GOOD)
        assert (res.runs_resumed, res.runs_measured) == (5, total - 5)
        after = {(r.variant_key, r.repetition): r.created for r in store.runs()}
        assert len(after) == total
        assert all(after[k] == t for k, t in first.items())  # stored runs were not redone
        assert all(v.status == "ok" and len(v.times_s) == 3 for v in res.variants)
        done = _sweep(kernel, store).measure_loop(record, GOOD)
        assert (done.runs_measured, done.runs_resumed, done.binaries) == (0, total, 0)


CHILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from autotune.analysis import analyze_file
    from autotune.measure.build import BuildOptions
    from autotune.measure.store import Store
    from autotune.measure.sweep import Sweep, SweepOptions
    from autotune.variants.space import Variant
    path = Path(sys.argv[1])
    small = {"N": "20000", "REPS": "3"}
    sweep = Sweep(path, BuildOptions(defines=small), SweepOptions(),
                  Store(sys.argv[2]), on_run=lambda note: time.sleep(0.3))
    sweep.measure_loop(analyze_file(str(path), defines=small).loops[0], [Variant("static", None, 2),
                       Variant("dynamic", 1, 2), Variant("guided", 8, 1)])
""")


def test_killed_sweep_process_resumes(kernel, tmp_path):
    db = tmp_path / "k.db"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(kernel), str(db)], start_new_session=True
    )
    stored = 0
    deadline = time.monotonic() + 120
    while stored < 4 and time.monotonic() < deadline and child.poll() is None:
        time.sleep(0.05)
        if db.exists():
            with Store(db) as store:
                stored = len(store.runs())
    child.kill()
    child.wait()
    assert 4 <= stored < 12, "the child finished before it could be killed"
    with Store(db) as store:
        before = len(store.runs())
        res = _sweep(kernel, store, timeout_floor_s=2.0).measure_loop(_kernel_record(kernel), GOOD)
        assert res.runs_resumed == before and res.runs_measured == 12 - before
        assert len(store.runs()) == 12


def test_original_that_fails_is_a_user_error(tmp_path):
    broken = write_program(
        tmp_path, "int main(void) { return 0 }\n#pragma omp parallel for\nfor (;;) ;\n", "broken.c"
    )
    with Store(tmp_path / "m.db") as store, pytest.raises(UserError) as err:
        _sweep(broken, store).measure_loop(make_record(broken), GOOD)
    assert "the original program does not compile: gcc" in str(err.value)
    assert f"{broken}:1:" in str(err.value) and "error" in str(err.value)
    path = write_program(tmp_path, name="crashes.c")
    with Store(tmp_path / "m.db") as store, pytest.raises(UserError, match="crashed"):
        _sweep(path, store, emitter=InjectingEmitter(emit, {"baseline": SEGFAULT})).measure_loop(
            make_record(path), GOOD
        )


def test_noisy_stored_runs_warn(kernel, tmp_path):
    """A sweep resumed entirely from the store still summarises and warns on spread."""
    record = _kernel_record(kernel)
    with Store(tmp_path / "m.db") as store:
        sweep = _sweep(kernel, store)
        ctx = RunContext(
            sweep.machine_fp, sweep.source_hash, sweep.flags_key, record.key, "runtime"
        )
        times = {"baseline": [1.0, 1.02, 1.01], "static,-,t2": [0.5, 0.9, 0.6]}
        for key, ts in times.items():
            mode = "per-variant" if key == "baseline" else "runtime"
            for rep, t in enumerate(ts):
                store.add_run(
                    RunRow(
                        ctx.machine,
                        ctx.source_hash,
                        ctx.flags_key,
                        sweep.flags_json,
                        ctx.loop_id,
                        key,
                        mode,
                        rep,
                        "ok",
                        wall_s=t,
                        loop_wall_s=t,
                    )
                )
        res = sweep.measure_loop(record, [Variant("static", None, 2)])
        assert res.runs_measured == 0 and res.binaries == 0
        v = res.variants[0]
        assert v.measured_s == 0.6 and v.spread == pytest.approx(0.4 / 0.6)
        assert v.speedup == pytest.approx(1.01 / 0.6)
        assert any("large spread" in w and "static on 2 threads" in w for w in res.warnings)
        assert "baseline" not in res.warnings[0].split("(")[1]


def test_runtime_mode_builds_alone_what_the_environment_cannot_express(tmp_path):
    text = REDUCTION_C.replace("#define N 200000", "#define N 200000\n#define CH 8").replace(
        "reduction(+:sum)", "reduction(+:sum) schedule(dynamic, CH)"
    )
    path = write_program(tmp_path, text, "chunked.c")
    record = make_record(path)
    record.directive.clauses.schedule, record.directive.clauses.chunk = "dynamic", "CH"
    keep_schedule = Variant(None, None, 2)  # "as written" chunk CH is not a number
    with Store(tmp_path / "m.db") as store:
        res = _sweep(path, store, repetitions=1).measure_loop(
            record, [keep_schedule, Variant("static", None, 2)]
        )
    assert [v.status for v in res.variants] == ["ok", "ok"]
    assert res.binaries == 3  # baseline, the runtime program, and the as-written variant


def test_runs_resume_whatever_path_names_the_file(tmp_path, monkeypatch):
    """Stored runs are keyed by content hash and line:column, not by the path typed."""
    import shutil

    from autotune.analysis import analyze_file
    from autotune.measure.build import BuildOptions
    from autotune.measure.store import Store
    from autotune.measure.sweep import Sweep, SweepOptions
    from autotune.variants.space import Variant

    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "a" / "prog.c"
    src.parent.mkdir()
    shutil.copy(Path(__file__).parent / "data" / "c" / "edge_loops.c", src)
    monkeypatch.chdir(tmp_path)
    variants = [Variant("static", 4, 2)]
    with Store(tmp_path / "r.db") as store:
        first = None
        for path in ("a/prog.c", str(src)):
            rec = next(r for r in analyze_file(path).loops if r.tunable)
            sweep = Sweep(path, BuildOptions(), SweepOptions(repetitions=1), store)
            res = sweep.measure_loop(rec, variants)
            if first is None:
                first = res
                assert res.runs_resumed == 0
            else:
                assert res.runs_resumed == 2 and res.runs_measured == 0
