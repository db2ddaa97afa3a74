"""Kernels that reach their arrays through a struct's pointer members (``p->vx[i]``, as
miniMD and CoMD pass their particle set), compiled on their own: each varies behind a
run-time test that the ranges reached through every two members, and the struct itself
(whose members give the pointers and the trip count), do not overlap. The test is
compiled and evaluated on separate, touching and overlapping layouts, the struct inside
an array included; the variants print the original's output in every layout the driver
builds. Where the loop's header does not read through the struct but every iteration
does, the test reads the members only when the loop runs. A member read one place
ahead of where it is written, and members read only under a test that the struct is
there (a caller passes NULL), are kept."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import autotune
from autotune.cli.main import main
from autotune.textfile import read_source
from autotune.variants.apply import apply_variants
from autotune.variants.space import Variant

DATA = Path(__file__).parent / "data" / "c" / "proof" / "overlap"
KERNELS = DATA / "particles.c"
DRIVER = DATA / "particles_driver.c"
pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")

# loop line -> (its function's parameter, the names its warning gives)
GUARDED = {
    12: ("Particles *p", {"*p", "p->vx", "p->fx", "p->x", "p->z"}),
    25: ("Particles *p", {"*p", "p->fx", "p->fy", "p->fz"}),
    41: ("Field *f", {"*f", "f->rho"}),
    50: ("Particles *p, int n", {"*p", "p->y", "p->z"}),
}
KEPT = {59: "p->x[i + 1]", 66: "p->x (line 67: p->x[i]) and out"}

# C set-ups over ``double buf[]`` and ``Particles q`` / ``Field g``, with each test's
# expected value: (set-up, push, zero_forces)
LAYOUTS = [
    ("slices(n, 0)", 1, 1),  # nine slices of one block, each right after the last
    ("slices(n, 1); q.fx = q.vx + 1", 0, 1),  # a force one element into a velocity
    ("slices(n, 1); q.fy = q.fx + n - 1", 1, 0),  # forces meet: push only reads them
    ("slices(n, 1); q.vy = q.fz + n - 1", 0, 1),  # a velocity push writes on a force
    ("slices(n, 1); q.fy = q.fx + n", 1, 1),  # touching is apart
    ("slices(n, 1); on_x = 1", 0, 1),  # the struct lies inside x, which push writes
]
FIELDS = [("g.rho = buf; g.cells = 100", 1), ("g.rho = buf + 8; g.cells = 100", 1)]
FIELDS_INSIDE = [("100", 0), ("16", 1)]  # the struct at buf + 16: inside 100 cells, not 16


def _loops(capsys) -> dict[int, dict]:
    assert main(["analyze", str(KERNELS), "--json"]) == 0
    return {lp["line"]: lp for lp in json.loads(capsys.readouterr().out)["loops"]}


def test_member_pointers_vary_behind_a_test_of_their_ranges_and_the_struct(env, capsys):
    loops = _loops(capsys)
    for line, (_param, names) in GUARDED.items():
        lp = loops[line]
        assert lp["kept"] == {}, (line, lp["kept"])
        assert "sizeof(*" in lp["guard"] and "__INTPTR_TYPE__" in lp["guard"], line
        said = " ".join(w for w in lp["warnings"] if "does not overlap" in w)
        assert all(f" {n}," in said or f" {n} " in said for n in names), (line, said)
    assert loops[33]["guard"] == ""  # a reduction that only reads: no test needed
    assert loops[50]["guard"].startswith("!((0) < (n)) || (")  # read only when it runs
    assert all("!(" not in loops[line]["guard"] for line in (12, 25, 41))
    for line, words in KEPT.items():
        lp = loops[line]
        assert set(lp["kept"]) == {"schedule", "threads"} and lp["guard"] == "", line
        assert words in " ".join(lp["kept"].values()), (line, lp["kept"])


def test_the_member_test_holds_exactly_where_ranges_and_struct_are_apart(env, capsys, tmp_path):
    loops = _loops(capsys)
    lines = [
        "#include <stdio.h>",
        '#include "particles.h"',
        "static double buf[16384];",
        "static Particles q;",
        "static Field g;",
        "static int on_x;",
        "static void slices(int n, int gap) {",
        "    double **m[] = {&q.x, &q.y, &q.z, &q.vx, &q.vy, &q.vz, &q.fx, &q.fy, &q.fz};",
        "    q.n = n;",
        "    for (int k = 0; k < 9; k++) *m[k] = buf + 64 + k * (n + gap);",
        "}",
    ]
    for line in (12, 25, 41, 50):
        param = GUARDED[line][0]
        lines.append(f"static int apart_{line}({param}) {{ return {loops[line]['guard']}; }}")
    lines += ["int main(void) {", "    int n = 100;"]
    for setup, _push, _zero in LAYOUTS:
        lines += [
            "    {",
            f"        on_x = 0; {setup};",
            "        Particles *p = &q;",
            "        if (on_x) { p = (Particles *)(q.x + 10); *p = q; }",
            '        printf("%d %d\\n", apart_12(p), apart_25(p));',
            "    }",
        ]
    for setup, _want in FIELDS:
        lines.append(f'    {setup}; printf("%d\\n", apart_41(&g));')
    for cells, _want in FIELDS_INSIDE:
        lines += [
            "    {",
            "        Field *f = (Field *)(buf + 16);",
            f"        f->rho = buf; f->cells = {cells};",
            '        printf("%d\\n", apart_41(f));',
            "    }",
        ]
    lines += [  # scale_count: no iteration reads nothing, NULL included
        '    printf("%d\\n", apart_50((Particles *)0, 0));',
        '    slices(n, 0); printf("%d\\n", apart_50(&q, n));',
        '    q.z = q.y + 1; printf("%d\\n", apart_50(&q, n));',
        '    q.z = q.y + 50; printf("%d\\n", apart_50(&q, 50));',
    ]
    lines += ["    return 0;", "}"]
    src = tmp_path / "apart.c"
    src.write_text("\n".join(lines) + "\n")
    exe = tmp_path / "apart"
    cmd = ["gcc", "-O2", "-Wall", "-Werror", f"-I{DATA}", str(src), "-o", str(exe)]
    subprocess.run(cmd, check=True)
    got = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()
    want = [str(w) for _s, push, zero in LAYOUTS for w in (push, zero)]
    want += [str(w) for _s, w in FIELDS + FIELDS_INSIDE]
    want += ["1", "1", "0", "1"]
    assert got == want


def _outputs(kernels: Path, work: Path, name: str) -> list[str]:
    """The driver's output in each layout, at one thread: the original is then
    deterministic, and a variant that runs where its test fails would print otherwise."""
    exe = work / name
    cmd = ["gcc", "-O2", "-fopenmp", f"-I{DATA}", str(kernels), str(DRIVER), "-o", str(exe)]
    subprocess.run(cmd, check=True)
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    return [
        subprocess.run(
            [str(exe), "4096", layout], capture_output=True, text=True, env=env, check=True
        ).stdout
        for layout in ("apart", "block", "shared", "inside")
    ]


@pytest.mark.slow
def test_their_variants_print_the_original_output_in_every_layout(capsys, tmp_path):
    session = autotune.Session(db=tmp_path / "s.db", args=["4096"], extra_sources=[str(DRIVER)])
    records = {r.line: r for r in session.analyze(KERNELS).loops}
    assert all(records[line].tunable and records[line].guard for line in GUARDED)
    want = _outputs(KERNELS, tmp_path, "orig")
    numbers = [w.split()[1:] for w in want]  # the shared layout changes the physics
    assert numbers[0] == numbers[1] != numbers[2]
    source = read_source(KERNELS)
    for schedule, chunk, threads in (("dynamic", 1, 4), ("static", 1, 3)):
        chosen = [(records[line], Variant(schedule, chunk, threads)) for line in GUARDED]
        path = tmp_path / f"particles_{schedule}.c"
        path.write_text(apply_variants(source, chosen))
        assert _outputs(path, tmp_path, schedule) == want, schedule


def test_the_profile_run_says_where_each_test_held(env, capsys, tmp_path):
    """The profile run evaluates each loop's test where its variants would: with the
    forces laid over the velocities the particle loops' tests fail at every step, and
    those loops are kept as written (nothing behind them would run); the field, apart
    in that layout, held its one time. With the field inside its own cells, the other
    way round."""
    seen = {}
    for layout in ("shared", "inside"):
        argv = ["analyze", str(KERNELS), "--extra-source", str(DRIVER), "--json"]
        argv += ["--args", f"4096 {layout}", "--db", str(tmp_path / "p.db")]
        assert main(argv) == 0
        seen[layout] = {lp["line"]: lp for lp in json.loads(capsys.readouterr().out)["loops"]}
    failed = "its run-time test failed at all 4 execution(s) of the profile run"
    for line in (12, 25):
        lp = seen["shared"][line]
        assert not lp["tunable"] and failed in lp["reason"], (line, lp["reason"])
        assert set(lp["kept"]) == {"schedule", "threads"}
        assert seen["inside"][line]["tunable"], line  # apart there: the test held
    held = "its run-time test held at every one of its 1 execution(s) in the profile run"
    assert seen["shared"][41]["tunable"] and held in seen["shared"][41]["warnings"]
    lp = seen["inside"][41]
    assert not lp["tunable"] and "failed at all 1 execution(s)" in lp["reason"]
