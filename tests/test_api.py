"""The Python API used as a script would: real files, real gcc, a real database."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import autotune
from autotune.errors import UserError

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "experiment"

# A NAS-style kernel: the trip count is a macro a build sets, the output a checksum.
PROGRAM = r"""#include <stdio.h>
#ifndef NA
#define NA 3000
#endif
static double x[NA], y[NA];
int main(void) {
  for (int i = 0; i < NA; i++) x[i] = (i % 11) * 0.25;
#pragma omp parallel for
  for (int i = 0; i < NA; i++) {
    double s = 0.0;
    for (int k = 0; k <= i % 64; k++) s += x[(i + k) % NA];
    y[i] = s;
  }
  double c = 0.0;
  for (int i = 0; i < NA; i++) c += y[i];
  printf("checksum %.4f\n", c);
  return 0;
}
"""


@pytest.fixture
def session(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "cg.c").write_text(PROGRAM)
    return autotune.Session(db=tmp_path / "api.db", defines={"NA": "4000"}, repetitions=2)


def test_analyze_rank_tune_apply(session, tmp_path):
    src = tmp_path / "cg.c"
    unit = session.analyze(src)
    (loop,) = unit.to_dict()["loops"]
    assert loop["trip_count"] == 4000 and loop["tunable"]
    json.dumps(unit.to_dict())

    ranked = session.rank(src, schedules="static,dynamic", threads="1,2")
    (ranking,) = ranked.rankings
    preds = [v.predicted_s for v in ranking.variants]
    assert preds == sorted(preds) and len(preds) >= 4
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").rglob("*.c"))

    tuned = session.tune(src, top=2, search="top", confirm_runs=1)
    doc = tuned.to_dict()
    (lt,) = doc["loops"]
    # the two variants, the original, and the loop as written through the run-time build
    assert lt["runtime_build"]["twin"] == "static,-,t-"
    assert lt["measured_programs"] == 4 and lt["decision"]
    with sqlite3.connect(tmp_path / "api.db") as c:
        stored = c.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
        (outcome,) = c.execute("SELECT doc FROM outcomes WHERE label = 'tune'").fetchall()
    assert stored >= 3 * 2 and json.loads(outcome[0])["decision"] == lt["decision"]

    out = tmp_path / "cg_tuned.c"
    written = autotune.apply(tuned, out)
    assert written == out  # as ``tune --apply``: the tuned file, or an unchanged copy
    if tuned.final:  # something was confirmed faster: it is written, the input untouched
        assert "omp parallel for" in out.read_text() and out.read_text() != PROGRAM
    else:
        assert out.read_text() == PROGRAM
    assert src.read_text() == PROGRAM


def test_bad_input_is_one_user_error(session, tmp_path):
    with pytest.raises(UserError, match="no such file"):
        session.rank(tmp_path / "missing.c")
    with pytest.raises(UserError, match="top"):
        session.tune(tmp_path / "cg.c", top=0)


def test_to_frame_needs_pandas_or_says_so(session, tmp_path):
    unit = session.analyze(tmp_path / "cg.c")
    try:
        import pandas  # noqa: F401
    except ImportError:
        with pytest.raises(UserError, match="pandas"):
            unit.to_frame()
        return
    frame = unit.to_frame()
    assert list(frame["trip_count"]) == [4000]
    ranked = session.rank(tmp_path / "cg.c", threads="1,2").to_frame()
    assert {"key", "predicted_s", "measured_s"} <= set(ranked.columns)


@pytest.mark.slow
def test_docs_worked_example_is_the_example_and_runs(tmp_path):
    """docs/api.md shows examples/experiment/experiment.py verbatim, and it runs."""
    docs = (ROOT / "docs" / "api.md").read_text()
    script = (EXAMPLE / "experiment.py").read_text()
    blocks = re.findall(r"```python\n(.*?)```", docs, re.S)
    assert script in blocks
    work = tmp_path / "experiment"
    shutil.copytree(EXAMPLE, work, ignore=shutil.ignore_patterns("*.db*", "*.png"))
    env = os.environ | {"AUTOTUNE_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run(
        [sys.executable, str(work / "experiment.py")],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith(("stream ", "gemm "))]
    assert len(lines) == 6  # two programs, three sizes
    ratios = [float(x) for ln in lines for x in ln.split()[-2:]]
    assert all(r >= 1.0 for r in ratios)  # nothing beats the best measured time
    png = work / "model_vs_optimum.png"
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_top_level_names_are_the_api():
    """``autotune.X`` is the API's X for every API name that is not also a subpackage,
    also once every subpackage is imported (a subpackage would shadow it)."""
    import importlib
    import pkgutil

    from autotune import api

    packages = {m.name for m in pkgutil.iter_modules(autotune.__path__)} - {"__main__"}
    for m in packages:
        importlib.import_module(f"autotune.{m}")
    assert set(autotune._API) == set(api.__all__) - packages
    assert all(getattr(autotune, name) is getattr(api, name) for name in autotune._API)


def test_the_command_line_is_the_api_with_its_flags_as_settings(tmp_path, monkeypatch, capsys):
    """``autotune analyze``/``rank`` parse their flags into the settings the API's Session
    holds and call it: the same loops and the same ranking, and neither makes a database
    when nothing is to be kept (ranking then uses the shipped coefficients)."""
    import argparse

    from autotune.cli import rank as rank_command
    from autotune.cli.buildargs import settings_of
    from autotune.cli.main import main
    from autotune.measure.paths import default_db_path

    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("AUTOTUNE_DB", raising=False)
    src = tmp_path / "cg.c"
    src.write_text(PROGRAM)
    flags = ["-D", "NA=5000", "--cflags=-DUNUSED=1 -O3"]
    parser = argparse.ArgumentParser()
    rank_command.add_arguments(parser)
    args = parser.parse_args([str(src), *flags, "--target", "cpu"])
    settings = settings_of(args)
    assert dict(settings.defines) == {"NA": "5000", "UNUSED": "1"}
    assert list(settings.cflags) == ["-O3"] and settings.target == "cpu"
    session = autotune.Session.of(settings)
    assert main(["analyze", str(src), *flags, "--json", "--threads", "2"]) == 0
    cli_loops = json.loads(capsys.readouterr().out)["loops"]
    api_loops = [r.to_dict() for r in session.analyze(src, threads=2).loops]
    assert cli_loops == api_loops and cli_loops[0]["trip_count"] == 5000
    assert main(["rank", str(src), *flags, "--target", "cpu", "--json", "--top", "100"]) == 0
    (cli_rank,) = json.loads(capsys.readouterr().out)["files"]
    assert cli_rank == session.rank(src).to_dict(100)
    assert cli_rank["target"] == "cpu" and cli_rank["loops"][0]["variants"]
    assert not default_db_path().exists()


def test_variants_through_the_api_are_what_the_command_writes(session, tmp_path, capsys):
    from autotune.cli.main import main

    done = session.variants(tmp_path / "cg.c", tmp_path / "api", threads="1,2")
    assert done.written >= 3 and (tmp_path / "api" / "manifest.json").is_file()
    args = ["variants", str(tmp_path / "cg.c"), "-o", str(tmp_path / "cli"), "-D", "NA=4000"]
    assert main([*args, "--threads", "1,2"]) == 0
    capsys.readouterr()
    written = sorted(p.name for p in (tmp_path / "api").iterdir())
    assert written == sorted(p.name for p in (tmp_path / "cli").iterdir())
    for name in written:
        assert (tmp_path / "api" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes()


def test_the_example_reads_a_loop_with_no_verified_variant():
    """A loop whose variants all failed (a crash, another output) kept its original: the
    example's ratio is the original's, not an IndexError."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("experiment", EXAMPLE / "experiment.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    doc = {"baseline": 0.5, "variants": [{"status": "wrong-output", "measured_s": None}]}
    assert example.model_vs_optimum(doc) == (1.0, 1.0)
