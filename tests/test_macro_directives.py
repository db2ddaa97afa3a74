"""Directives written through macros, as graph500 writes them: ``OMP("omp for")`` with
``#define OMP(x) _Pragma(x)``, a bare ``_Pragma("omp parallel for")``, and a stringizing
``PRAGMA(omp parallel for)``, rewritten at its use site as the ``_Pragma`` it expands to.
Through the CLI, with gcc."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from autotune.cli.main import main

PROGRAM = r"""#include <stdio.h>
#define OMP(x) _Pragma(x)
#define PRAGMA(x) _Pragma(#x)
#define N 200000
static double a[N], b[N], c[N];
int main(void)
{
    OMP("omp parallel")
    {
        OMP("omp for")
        for (int i = 0; i < N; i++)
            b[i] = i * 0.5;
    }
    PRAGMA(omp parallel for)
    for (int i = 0; i < N; i++)
        c[i] = b[i] + 1.0;
    _Pragma("omp parallel for")
    for (int i = 0; i < N; i++)
        a[i] = b[i] * 2.0 + c[i];
    long s = 0;
    for (int i = 0; i < N; i++)
        s += (long)a[i];
    printf("%ld\n", s);
    return 0;
}
"""


def _run(src: Path, exe: Path) -> str:
    subprocess.run(["gcc", "-O2", "-fopenmp", str(src), "-o", str(exe)], check=True)
    return subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout


def test_pragma_macros_are_rewritten_in_their_string_literals(tmp_path, capsys):
    src = tmp_path / "graph.c"
    src.write_text(PROGRAM)
    assert main(["analyze", str(src), "--json"]) == 0
    loops = {lp["line"]: lp for lp in json.loads(capsys.readouterr().out)["loops"]}
    assert loops[11]["tunable"] and loops[18]["tunable"] and loops[15]["tunable"]
    out = tmp_path / "variants"
    args = ["variants", str(src), "-o", str(out), "--schedules", "dynamic", "--threads", "2"]
    assert main([*args, "--chunks", "64"]) == 0
    capsys.readouterr()
    manifest = json.loads((out / "manifest.json").read_text())
    files = {v["file"] for lp in manifest["loops"] for v in lp["variants"]}
    expected = _run(src, tmp_path / "orig")
    seen = set()
    for name in sorted(files):
        text = (out / name).read_text()
        if ".L11." in name and "baseline" not in name:
            assert 'OMP("omp for schedule(dynamic, 64)")' in text
            seen.add(11)
        if ".L18." in name and "baseline" not in name:
            assert '_Pragma("omp parallel for schedule(dynamic, 64) num_threads(2)")' in text
            seen.add(18)
        if ".L15." in name and "baseline" not in name:  # the invocation, not the macro
            line = text.splitlines()[13]
            assert line == '    _Pragma("omp parallel for schedule(dynamic, 64) num_threads(2)")'
            seen.add(15)
        elif ".L15." in name:  # the loop as written: the _Pragma its invocation makes
            assert text.splitlines()[13] == '    _Pragma("omp parallel for")'
        else:
            assert "    PRAGMA(omp parallel for)\n" in text  # untouched
        assert "#define PRAGMA(x) _Pragma(#x)\n" in text
        assert _run(out / name, tmp_path / "v") == expected
    assert seen == {11, 15, 18}
