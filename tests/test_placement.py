"""Thread placement: a result-invariant dimension tried on the whole program where the
machine has several NUMA nodes, and left out (saying so) where it has one."""

from __future__ import annotations

import subprocess
from pathlib import Path

from autotune.analysis import analyze_file
from autotune.measure.build import BuildOptions
from autotune.measure.machine import numa_nodes
from autotune.measure.sweep import SweepOptions
from autotune.tuning.confirm import ProgramCheck
from autotune.tuning.placement import tune_placement
from autotune.variants.apply import apply_variants
from autotune.variants.space import Variant

ROOT = Path(__file__).parent.parent
TRIAD = ROOT / "kernels" / "triad.c"


def test_bind_is_part_of_the_variant_key():
    v = Variant("dynamic", 8, 4, "spread")
    assert v.key == "dynamic,8,t4,bspread" and Variant.from_key(v.key) == v
    assert Variant.from_key("dynamic,8,t4") == Variant("dynamic", 8, 4)  # stored keys still read


def test_proc_bind_is_written_on_the_region_and_changes_no_result(tmp_path):
    (loop,) = analyze_file(str(TRIAD)).loops
    text = apply_variants(TRIAD.read_text(), [(loop, Variant("static", None, 2, "close"))])
    line = text.splitlines()[loop.parallel.line - 1]
    assert "proc_bind(close)" in line and "num_threads(2)" in line
    outs = []
    for name, src in (("orig", TRIAD.read_text()), ("bound", text)):
        (tmp_path / f"{name}.c").write_text(src)
        subprocess.run(
            [
                "gcc",
                "-O2",
                "-fopenmp",
                str(tmp_path / f"{name}.c"),
                "-o",
                str(tmp_path / name),
                "-lm",
            ],
            check=True,
        )
        outs.append(subprocess.run([str(tmp_path / name)], capture_output=True).stdout)
    assert outs[0] == outs[1]


def test_numa_nodes_reads_sysfs(tmp_path):
    for i, cpus in enumerate(["0-7", "8-15", ""]):  # a memory-only node does not count
        (tmp_path / f"node{i}").mkdir()
        (tmp_path / f"node{i}" / "cpulist").write_text(cpus + "\n")
    assert numa_nodes(tmp_path) == 2
    assert numa_nodes(tmp_path / "missing") == 1
    assert numa_nodes() >= 1


def _check(tmp_path, monkeypatch) -> tuple[ProgramCheck, list]:
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    (loop,) = analyze_file(str(TRIAD)).loops
    check = ProgramCheck(TRIAD, TRIAD.read_text(), BuildOptions(), SweepOptions(), runs=2)
    return check, [(loop, Variant("dynamic", 64, 2))]


def test_one_node_leaves_placement_out(tmp_path, monkeypatch):
    check, pairs = _check(tmp_path, monkeypatch)
    conf = check.confirm([])
    result = tune_placement(check, conf, pairs, conf.original, nodes=1)
    assert result.tries == [] and result.bind is None and "one NUMA node" in result.decision


def test_several_nodes_try_each_binding_on_the_whole_program(tmp_path, monkeypatch):
    check, pairs = _check(tmp_path, monkeypatch)
    conf = check.confirm([])
    result = tune_placement(check, conf, pairs, conf.original, nodes=2)
    assert [b for b, _ in result.tries] == ["close", "spread"]
    assert all(r.status == "ok" and len(r.times_s) == 2 for _, r in result.tries)
    assert result.bind in (None, "close", "spread") and result.decision
    assert len(conf.original.times_s) == 4  # the original ran interleaved with both
