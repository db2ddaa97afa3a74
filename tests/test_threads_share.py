"""A tuned thread count written as a share of the cores: the same program on the
machine that tuned it, and a proportionally larger team on a machine with more cores."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from autotune.analysis import analyze_file
from autotune.cli.main import main
from autotune.variants.apply import apply_variants
from autotune.variants.space import Variant

PROBE = r"""#include <stdio.h>
#define N 64
static int team[N];
int main(void)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++)
        team[i] = 1;
    int s = 0;
    for (int i = 0; i < N; i++)
        s += team[i];
    printf("%d\n", s);
    return 0;
}
"""


def build(tmp: Path, name: str, text: str) -> Path:
    (tmp / f"{name}.c").write_text(text)
    subprocess.run(
        [
            "gcc",
            "-O1",
            "-fopenmp",
            "-Wall",
            "-Werror",
            str(tmp / f"{name}.c"),
            "-o",
            str(tmp / name),
        ],
        check=True,
    )
    return tmp / name


def test_share_keeps_line_numbers_and_scales_with_the_cores(tmp_path):
    src = tmp_path / "p.c"
    src.write_text(PROBE)
    (loop,) = analyze_file(str(src)).loops
    text = apply_variants(PROBE, [(loop, Variant("static", None, 3))], share_of=2)
    head, marker, rest = text.split("\n", 2)
    assert head.startswith("int omp_get_num_procs(void);") and marker == "#line 1"
    assert rest.splitlines()[loop.parallel.line - 1].endswith(
        "num_threads((3 * omp_get_num_procs() + 1) / 2)"
    )
    exe = build(
        tmp_path,
        "share",
        text.replace("team[i] = 1;", "team[i] = omp_get_num_threads();").replace(
            "#include <stdio.h>", "#include <stdio.h>\n#include <omp.h>", 1
        ),
    )
    for cpus, expected in (("0", 2), ("0-1", 3)):  # ceil(3 * procs / 2) threads
        if len(os.sched_getaffinity(0)) < int(cpus[-1]) + 1:
            continue
        out = subprocess.run(
            ["taskset", "-c", cpus, str(exe)], capture_output=True, text=True, check=True
        ).stdout
        assert int(out) == 64 * expected


def test_tune_threads_as_share_writes_the_share(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "r.db"))
    src = tmp_path / "p.c"
    src.write_text(PROBE)
    out = tmp_path / "t.c"
    assert (
        main(
            [
                "tune",
                str(src),
                "--allow-busy",
                "--top",
                "1",
                "--repetitions",
                "1",
                "--confirm-runs",
                "1",
                "--threads",
                "1",
                "--threads-as",
                "share",
                "--apply",
                str(out),
                "-q",
            ]
        )
        == 0
    )
    text = out.read_text()
    if "num_threads" in text:
        assert "omp_get_num_procs()" in text
    exe = build(tmp_path, "t", text)
    assert subprocess.run([str(exe)], capture_output=True, text=True).stdout == "64\n"
