"""Helpers for tests that run ``autotune tune`` as a user would and check its program."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from autotune.cli.main import main

# --min-share 0: these tests are about what tune does with what it measures, on loops that
# may be a sliver of a small program's run (the share gate has its own test)
# --allow-busy: a test asserts what was decided, never the machine's load (test_machine_state
# drives the busy path on purpose)
SMALL_BUDGET = [
    "--top",
    "2",
    "--repetitions",
    "1",
    "--confirm-runs",
    "2",
    "--min-share",
    "0",
    "--allow-busy",
]


def tune_json(capsys, src: Path, *extra: str, apply: Path | None = None) -> dict:
    """``autotune tune SRC`` with a small budget and ``--json``: the file's object."""
    argv = ["tune", str(src), *SMALL_BUDGET, *extra, "--json", "-q"]
    if apply is not None:
        argv += ["--apply", str(apply)]
    assert main(argv) == 0
    (f,) = json.loads(capsys.readouterr().out)["files"]
    return f


def output_of(src: Path, exe: Path, args: list[str] | tuple[str, ...] = ()) -> bytes:
    """Build ``src`` plainly with gcc and return what it prints with ``args``."""
    subprocess.run(["gcc", "-O2", "-fopenmp", "-w", str(src), "-o", str(exe), "-lm"], check=True)
    return subprocess.run([str(exe), *args], capture_output=True, check=True, timeout=120).stdout


# A Rodinia-style kernel written with far more threads than cores, each grabbing one
# iteration at a time: a variant with the machine's thread count is many times faster
# (so a choice reaches the whole-program confirmation).
CONTENDED = r"""#include <stdio.h>
#include <math.h>
#define N 2000000
static double x[N];
int main(void)
{
#pragma omp parallel for schedule(dynamic, 1) num_threads(64)
    for (int i = 0; i < N; i++)
        x[i] = sqrt(i + 1.0);
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += x[i];
    printf("%.6e\n", s);
    return 0;
}
"""
