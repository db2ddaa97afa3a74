"""``autotune tune a.c b.c c.c`` as the README's recipe for several programs: a file with
nothing to tune is skipped with one line, a file that fails does not stop the others,
each result is printed as its file finishes, and the exit status says whether any failed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_several_programs_go_on_past_a_file_without_loops_and_a_broken_one(tmp_path):
    broken = tmp_path / "broken.c"
    broken.write_text("int main(void) { return 0 }\n")
    files = [str(ROOT / "kernels" / "sections.c"), str(broken), str(ROOT / "kernels" / "tiny.c")]
    argv = [sys.executable, "-m", "autotune", "tune", *files, "--top", "1"]
    argv += ["--repetitions", "1", "--confirm-runs", "1", "--allow-busy", "-q"]
    env = dict(os.environ, AUTOTUNE_DB=str(tmp_path / "r.db"))
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 2, proc.stderr
    err = proc.stderr.splitlines()
    skipped = f"autotune: skipped: {files[0]}: no OpenMP worksharing loop in the file: "
    assert err[0] == skipped + "nothing to rank or tune", err
    assert (
        err[1].startswith(f"autotune: error: {broken}:1:") and "(the other files go on)" in err[1]
    )
    assert err[-1] == f"autotune: 1 of 3 files failed: {broken}"
    assert "Traceback" not in proc.stderr
    assert f"{ROOT / 'kernels' / 'tiny.c'}:" in proc.stdout  # the tuned file's report
    assert "runs and decisions stored in" in proc.stdout


def test_a_second_tune_says_which_runs_it_read_from_the_database(tmp_path):
    """Without --fresh the runs stored by the first tune are reused: the summary says how
    many were read from the database, not measured again."""
    argv = [sys.executable, "-m", "autotune", "tune", str(ROOT / "kernels" / "tiny.c")]
    argv += ["--top", "1", "--repetitions", "1", "--confirm-runs", "1", "--allow-busy", "-q"]
    env = dict(os.environ, AUTOTUNE_DB=str(tmp_path / "r.db"))
    first = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=600)
    assert first.returncode == 0, first.stderr
    assert "read from the database" not in first.stdout
    second = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=600)
    assert second.returncode == 0, second.stderr
    (line,) = [ln for ln in second.stdout.splitlines() if ln.startswith("tuning took")]
    assert "read from the database (measured before; --fresh measures them again)" in line, line
