"""The fault bench: autotune stopped at random moments and run on a broken machine.

``python bench/faults.py [--repeat 10] [--json OUT]`` (as root: the disk cases mount small
file systems). For each case it prints the exit status, the last line autotune said, the
tracebacks it printed (goal 0), whether the database is intact, and what was lost:

- ``kill`` / ``int``: SIGKILL to autotune alone (as the out-of-memory killer sends it), or
  SIGINT to its whole process group (as Ctrl-C in a terminal does, Dask workers included),
  at a random moment of ``tune``, ``calibrate`` and a ``campaign``; then the same command
  runs to the end. ``remeasured``: runs stored before the stop and measured again by the
  resume (goal 0: only the runs in flight are lost); ``left``: scratch folders of the
  stopped process left behind in its TMPDIR after the resume (goal 0).
- ``full-db``, ``full-cache``, ``full-tmp``: the database, the cache or TMPDIR on a full
  file system; ``stored faults``: compile-errors stored by it (goal 0).
- ``locked-db``, ``read-only-db``: another process holds the write lock for 5 s; the
  database on a read-only file system (``said after``: seconds until the first line).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROGRAM = """#include <stdio.h>
#include <stdlib.h>
#define N 400000
static double a[N], b[N];
int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 20;
  double s = 0;
  for (int t = 0; t < steps; t++) {
#pragma omp parallel for
    for (int i = 0; i < N; i++) a[i] = 0.5 * i + t;
#pragma omp parallel for reduction(+:s)
    for (int i = 0; i < N; i++) { b[i] = a[i] * a[i]; s += b[i] / (1.0 + i % 7); }
  }
  printf("%.6e\\n", s);
  return 0;
}
"""
PLAN = """name = "faults"
repetitions = 2
budget = "top"
top = 3
[[program]]
source = "prog.c"
args = ["20"]
sizes = [{}, { N = "200000" }]
"""
COMMANDS = {
    "tune": ["tune", "prog.c", "--args", "20", "--top", "4", "--repetitions", "2", "-q"],
    "calibrate": [
        "calibrate",
        "--kernels",
        "kern",
        "--sample",
        "4",
        "--repetitions",
        "1",
        "--no-microbench",
        "--force",
        "-q",
    ],
    "campaign": ["campaign", "plan.toml", "-q"],
}


def autotune(args: list[str], env: dict, cwd: Path, timeout: float = 900):
    return subprocess.run(
        [sys.executable, "-m", "autotune", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def last_line(text: str) -> str:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return lines[-1][:160] if lines else ""


def run_ids(db: Path) -> set[int]:
    if not db.exists():
        return set()
    with contextlib.closing(sqlite3.connect(db)) as con:
        try:
            return {r[0] for r in con.execute("SELECT id FROM runs")}
        except sqlite3.OperationalError:
            return set()


def intact(db: Path) -> bool:
    if not db.exists():
        return True
    with contextlib.closing(sqlite3.connect(db)) as con:
        return con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def workdir(root: Path, name: str) -> tuple[Path, dict]:
    d = root / name
    d.mkdir()
    (d / "prog.c").write_text(PROGRAM)
    (d / "kern").mkdir()
    (d / "kern" / "prog.c").write_text(PROGRAM)
    (d / "kern" / "half.c").write_text(PROGRAM.replace("400000", "100000"))
    (d / "plan.toml").write_text(PLAN)
    (d / "tmp").mkdir()
    env = dict(os.environ, AUTOTUNE_DB=str(d / "r.db"), AUTOTUNE_CACHE_DIR=str(d / "cache"))
    env.update(TMPDIR=str(d / "tmp"), PYTHONUNBUFFERED="1")
    env.pop("AUTOTUNE_CONFIG", None)
    return d, env


def stop_once(command: str, how: str, d: Path, env: dict, within_s: float) -> dict:
    """Start the command, stop it at a random moment, then let it run to the end."""
    argv = [sys.executable, "-m", "autotune", *COMMANDS[command], "--allow-busy"]
    if command != "tune":
        argv.remove("--allow-busy")
    proc = subprocess.Popen(
        argv,
        cwd=d,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    at = random.uniform(0.5, within_s)
    time.sleep(at)
    if proc.poll() is None:
        if how == "kill":
            proc.send_signal(signal.SIGKILL)
        else:
            os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    before = run_ids(d / "r.db")
    ok = intact(d / "r.db")
    resume = autotune(COMMANDS[command] + (["--allow-busy"] if command == "tune" else []), env, d)
    after = run_ids(d / "r.db")
    left = [p.name for p in (d / "tmp").glob(f"autotune-run-{proc.pid}-*")]
    return {
        "case": f"{how} {command}",
        "at_s": round(at, 1),
        "status": proc.returncode,
        "said": last_line(err),
        "tracebacks": err.count("Traceback (most recent call last)")
        + resume.stderr.count("Traceback (most recent call last)"),
        "intact": ok,
        "stored": len(before),
        "remeasured": len(before - after),
        "resume_status": resume.returncode,
        "left": len(left),
    }


@contextlib.contextmanager
def small_fs(where: Path, size: str, fill: bool):
    where.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], check=True)
    try:
        if fill:
            fd = os.open(where / "fill", os.O_WRONLY | os.O_CREAT, 0o600)
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"\0" * 65536)
            os.close(fd)
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def disk_cases(root: Path) -> list[dict]:
    rows = []
    tune = COMMANDS["tune"] + ["--allow-busy"]
    for case in ("full-db", "full-cache", "full-tmp", "locked-db", "read-only-db"):
        d, env = workdir(root, case)
        holder = None
        with contextlib.ExitStack() as stack:
            if case.startswith("full"):
                fs = stack.enter_context(small_fs(d / "fs", "256k", True))
                key = {"full-db": "AUTOTUNE_DB", "full-cache": "AUTOTUNE_CACHE_DIR"}.get(
                    case, "TMPDIR"
                )
                env[key] = str(fs / "r.db") if key == "AUTOTUNE_DB" else str(fs)
            if case == "read-only-db":
                fs = stack.enter_context(small_fs(d / "fs", "8m", False))
                autotune(
                    ["measure", "prog.c", "--variants", "dynamic,-,t2", "--quiet"],
                    dict(env, AUTOTUNE_DB=str(fs / "r.db")),
                    d,
                )
                subprocess.run(["mount", "-o", "remount,ro", str(fs)], check=True)
                env["AUTOTUNE_DB"] = str(fs / "r.db")
            if case == "locked-db":
                holder = subprocess.Popen(
                    [
                        sys.executable,
                        "-c",
                        "import sqlite3,sys,time;"
                        "c=sqlite3.connect(sys.argv[1],isolation_level=None);"
                        "c.execute('PRAGMA journal_mode=WAL');c.execute('BEGIN EXCLUSIVE');"
                        "print('held',flush=True);time.sleep(5);c.execute('COMMIT')",
                        env["AUTOTUNE_DB"],
                    ],
                    stdout=subprocess.PIPE,
                    text=True,
                )
                holder.stdout.readline()
            start = time.monotonic()
            proc = subprocess.Popen(
                [sys.executable, "-m", "autotune", *tune],
                cwd=d,
                env=env,
                stderr=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                text=True,
            )
            first = proc.stderr.readline()
            said_after = time.monotonic() - start
            rest = proc.stderr.read()
            proc.wait(900)
            err = first + rest
            stored_faults = 0
            db = Path(env["AUTOTUNE_DB"])
            if db.exists():
                with (
                    contextlib.closing(sqlite3.connect(db)) as con,
                    contextlib.suppress(sqlite3.OperationalError),
                ):
                    stored_faults = con.execute(
                        "SELECT COUNT(*) FROM runs WHERE status = 'compile-error'"
                    ).fetchone()[0]
            rows.append(
                {
                    "case": case,
                    "status": proc.returncode,
                    "said": (first.strip() or last_line(err))[:160],
                    "said_after_s": round(said_after, 1),
                    "tracebacks": err.count("Traceback (most recent call last)"),
                    "stored_faults": stored_faults,
                }
            )
            if holder is not None:
                holder.wait(30)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10, help="stops per command and signal")
    parser.add_argument("--commands", default="tune,calibrate,campaign")
    parser.add_argument("--json", metavar="OUT", help="also write the rows as JSON")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    random.seed(args.seed)
    rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="autotune-faults-") as tmp:
        root = Path(tmp)
        for command in args.commands.split(","):
            d, env = workdir(root, command)
            start = time.monotonic()
            first = autotune(
                COMMANDS[command] + (["--allow-busy"] if command == "tune" else []), env, d
            )
            whole = time.monotonic() - start
            print(
                f"{command}: a whole run takes {whole:.0f} s (exit {first.returncode})", flush=True
            )
            for how in ("kill", "int"):
                for i in range(args.repeat):
                    d2, env2 = workdir(root, f"{command}-{how}-{i}")
                    row = stop_once(command, how, d2, env2, max(1.0, whole))
                    rows.append(row)
                    print(json.dumps(row), flush=True)
        if os.getuid() == 0:
            for row in disk_cases(root):
                rows.append(row)
                print(json.dumps(row), flush=True)
    tracebacks = sum(r["tracebacks"] for r in rows)
    remeasured = sum(r.get("remeasured", 0) for r in rows)
    print(
        f"{len(rows)} cases: {tracebacks} traceback(s), {remeasured} run(s) measured twice, "
        f"{sum(not r.get('intact', True) for r in rows)} damaged database(s)"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
        print(f"rows written to {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
