"""A/A tests of autotune's decisions: programs whose variants cannot differ measurably,
tuned again and again. Nothing may be claimed.

Two programs: ``negligible`` (the parallel loop is a thousandth of a run dominated by
sequential work) and ``equivalent`` (a loop whose every variant does the same work per
thread: one iteration per thread, each the same). Each is tuned ``--runs`` times with
``tune --apply`` (fresh database each time):

- idle: a false claim is an applied change, or a whole-program gain reported;
- ``--load N``: N spinning processes run during each tune (a passing load); a change
  shipped without naming the load is counted.

    python bench/aa.py [--runs 20] [--load 2] [--json OUT]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NEGLIGIBLE = r"""#include <stdio.h>
#define N 2000
static double a[N];
int main(void)
{
    double s = 0.0;
    for (long k = 0; k < 60000000L; k++)   /* the run: sequential work */
        s += (double)(k % 7) * 1e-9;
#pragma omp parallel for
    for (int i = 0; i < N; i++)            /* a thousandth of it */
        a[i] = i * 0.5;
    for (int i = 0; i < N; i++)
        s += a[i];
    printf("%.6e\n", s);
    return 0;
}
"""

EQUIVALENT = r"""#include <stdio.h>
#include <math.h>
#define T 2
static double r[T];
int main(void)
{
    double s = 0.0;
#pragma omp parallel for num_threads(T)
    for (int t = 0; t < T; t++) {          /* one equal iteration per thread */
        double v = 0.0;
        for (long k = 0; k < 20000000L; k++)
            v += sin(k * 1e-7);
        r[t] = v;
    }
    for (int t = 0; t < T; t++)
        s += r[t];
    printf("%.9e\n", s);
    return 0;
}
"""

PROGRAMS = {"negligible": NEGLIGIBLE, "equivalent": EQUIVALENT}


def tune_once(src: Path, work: Path) -> dict:
    """One ``tune --apply`` on a fresh database: what it shipped and what it claimed."""
    from autotune.cli.main import main

    out = work / f"tuned_{src.name}"
    db = work / f"aa-{time.monotonic_ns()}.db"
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
        rc = main(
            [
                "tune",
                str(src),
                "--apply",
                str(out),
                "--db",
                str(db),
                "--json",
                "-q",
                "--threads",
                "1,2",
                "--confirm-runs",
                "5",
            ]
        )
    doc = json.loads(buf.getvalue())["files"][0]
    program = doc.get("program") or {}
    changed = out.is_file() and out.read_text() != src.read_text()
    return {
        "rc": rc,
        "changed": changed,
        "claimed": program.get("speedup") is not None,
        "speedup": program.get("speedup"),
        "interval": program.get("speedup_interval"),
        "busy": program.get("busy") or "",
        "load": program.get("load"),
        "regions": [r.get("decision") for r in doc.get("regions", [])],
    }


def spinners(n: int) -> list[subprocess.Popen]:
    code = "while True: pass"
    return [subprocess.Popen([sys.executable, "-c", code]) for _ in range(n)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=20, help="tunes per program and state")
    ap.add_argument("--load", type=int, default=2, help="spinning processes under load")
    ap.add_argument("--json", metavar="OUT", help="every tune's figures as JSON")
    a = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="aa-"))
    rows = []
    for state in ("idle", "loaded"):
        for name, text in PROGRAMS.items():
            src = work / f"{name}.c"
            src.write_text(text)
            for k in range(a.runs):
                procs = spinners(a.load) if state == "loaded" else []
                try:
                    r = tune_once(src, work)
                finally:
                    for p in procs:
                        p.kill()
                        p.wait()
                r.update(program=name, state=state, run=k)
                rows.append(r)
                print(
                    f"{state} {name} {k}: changed={r['changed']} claimed={r['claimed']} "
                    f"busy={bool(r['busy'])}",
                    file=sys.stderr,
                )
    print(
        "| state | program | tunes | changes shipped | gains claimed | "
        "shipped without naming the load |"
    )
    print("|---|---|---|---|---|---|")
    for state in ("idle", "loaded"):
        for name in PROGRAMS:
            rs = [r for r in rows if r["state"] == state and r["program"] == name]
            silent = sum(r["changed"] and not r["busy"] for r in rs)
            print(
                f"| {state} | {name} | {len(rs)} | {sum(r['changed'] for r in rs)} | "
                f"{sum(r['claimed'] for r in rs)} | {silent if state == 'loaded' else '-'} |"
            )
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1))
        print(f"written: {a.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
