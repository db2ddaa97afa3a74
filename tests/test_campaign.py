"""Campaigns on a real Dask LocalCluster: interrupted, resumed, nothing measured twice.

Two programs in the style of real codes (a STREAM-style kernel at one size and a
PolyBench-style gemm), real gcc, real runs, a real SQLite file. A third program
that does not parse must be recorded as a failure while the others go on.
"""

from __future__ import annotations

import io
import json
import shutil
import sqlite3
import statistics
from pathlib import Path

import pytest
from tune_support import CONTENDED

from autotune.api import Session
from autotune.campaign import load_plan
from autotune.campaign.environ import adopt, openmp_environment
from autotune.campaign.progress import CampaignProgress
from autotune.cli.main import main
from autotune.errors import UserError

pytestmark = pytest.mark.slow  # a real Dask cluster: the long suite (-m slow)

distributed = pytest.importorskip("distributed")

DATA = Path(__file__).parent / "data" / "c"

PLAN = """
name = "exp"
repetitions = 2
budget = "top"
search = "top"
top = 2

[[program]]
name = "stream"
source = "stream_style.c"
defines = { NTIMES = "2" }
sizes = [{ STREAM_ARRAY_SIZE = "30000" }]
loops = ["35", "41"]

[[program]]
name = "gemm"
source = "polybench_style_gemm.c"
sizes = [{ NI = "24", NJ = "24", NK = "24" }]

[[program]]
name = "broken"
source = "syntax_error.c"
"""


@pytest.fixture(scope="module")
def cluster():
    users = openmp_environment()
    cluster = distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=4,
        resources={"measure": 1},
        dashboard_address=":0",  # any free port: never clash with a running cluster
        processes=True,
    )
    adopt(users)  # LocalCluster leaves OMP_NUM_THREADS=1 in this process: not for later tests
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.fixture
def plan_dir(tmp_path: Path) -> Path:
    for name in ("polybench_style_gemm.c", "polybench_style.h", "syntax_error.c"):
        shutil.copy(DATA / name, tmp_path / name)
    shutil.copy(
        Path(__file__).parents[1] / "examples" / "experiment" / "stream.c",
        tmp_path / "stream_style.c",
    )
    (tmp_path / "plan.toml").write_text(PLAN)
    return tmp_path


def _rows(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as c:
        return c.execute(
            "SELECT loop_id, variant_key, mode, repetition, status, loop_wall_s, wall_s, "
            "source_hash FROM runs"
        ).fetchall()


class Interrupt(KeyboardInterrupt):
    pass


def test_interrupted_campaign_resumes_and_measures_nothing_twice(cluster, plan_dir: Path):
    db = plan_dir / "campaign.db"
    session = Session(db=db)
    plan = plan_dir / "plan.toml"

    def stop_after_first(outcome):
        raise Interrupt

    with pytest.raises(Interrupt):
        session.campaign(plan, client=cluster, on_loop=stop_after_first)
    first = _rows(db)
    assert first, "the first loop's runs are stored before the interruption"
    loops_first = {r[0] for r in first}
    assert len(loops_first) == 1

    log = io.StringIO()  # not a terminal: one line per finished loop
    resumed = session.campaign(plan, client=cluster, progress=CampaignProgress(stream=log))
    lines = log.getvalue().splitlines()
    assert len(lines) == 3  # two loops measured, the broken program's failure
    assert all(ln.startswith("campaign: [program sizes ") for ln in lines)
    assert "program sizes 3/3, loops 3/3 (1 stored)" in lines[-1]
    assert sum("FAILED broken" in ln for ln in lines) == 1
    after = _rows(db)
    # every run this invocation made is a new row: nothing stored was measured again
    assert resumed.runs_measured == len(after) - len(first)
    assert resumed.loops_stored == 1 and resumed.loops_measured == 2
    assert any("broken" in f for f in resumed.failures)  # recorded, the others went on

    again = session.campaign(plan, client=cluster)
    assert again.runs_measured == 0 and again.loops_measured == 0 and again.loops_stored == 3
    assert _rows(db) == after

    # each measured variant has exactly repetitions 0..n-1 (raced ones more), once each
    seen: dict[tuple, list[int]] = {}
    for loop, key, mode, rep, *_ in after:
        seen.setdefault((loop, key, mode), []).append(rep)
    for reps in seen.values():
        assert sorted(reps) == list(range(len(reps))) and len(reps) >= 2

    # the stored decisions agree with the stored runs
    with sqlite3.connect(db) as c:
        docs = c.execute("SELECT loop_id, doc FROM outcomes WHERE label = 'exp'").fetchall()
    measured = [json.loads(d) for _, d in docs if "failed" not in json.loads(d)]
    assert len(measured) == 3
    assert any("failed" in json.loads(d) for _, d in docs)
    for doc in measured:
        key = doc["id"].rsplit(":", 1)[-1]
        base = [r[5] for r in after if r[0].startswith(f"{key}:") and r[1] == "baseline"]
        assert doc["baseline"] == pytest.approx(statistics.median(base))
        # a loop's choice stands only when the whole program confirmed it (interval
        # beyond the margin); otherwise the original is kept and the decision says why
        program = doc["whole_program"]
        if doc["best"] is not None:
            assert program["speedup_interval"]["low"] > 1.03, program
            assert "faster than the original as a whole" in program["decision"]
        elif program is not None:
            assert "original kept" in doc["decision"] and program["speedup"] is None

    # measuring tasks never overlapped on the node (the 'measure' resource)
    spans = sorted((o.started, o.finished) for o in resumed.outcomes)
    for (_, end), (start, _) in zip(spans, spans[1:], strict=False):
        assert start >= end - 0.05


def test_cli_campaign_on_an_existing_cluster(cluster, plan_dir: Path, capsys):
    """--scheduler: the cluster is the user's (started here by the test); the default
    model-guided sequential search; JSON on stdout, the database path in it; the table's
    sizes in the plan's order, not the text's (NI=8 before NI=20)."""
    (plan_dir / "one.toml").write_text(
        'name = "one"\nrepetitions = 1\ntop = 2\n[[program]]\nname = "gemm"\n'
        'source = "polybench_style_gemm.c"\nsizes = [{ NI = "8", NJ = "8", NK = "8" }, '
        '{ NI = "20", NJ = "20", NK = "20" }]\n'
    )
    db = plan_dir / "one.db"
    address = cluster.scheduler.address
    args = ["campaign", str(plan_dir / "one.toml"), "--db", str(db), "--scheduler", address]
    assert main([*args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["database"] == str(db) and out["loops_measured"] == 2
    assert [loop["size"] for loop in out["loops"]] == [
        "-DNI=8 -DNJ=8 -DNK=8",
        "-DNI=20 -DNJ=20 -DNK=20",
    ]
    for loop in out["loops"]:
        assert loop["program"] == "gemm" and loop["search"]["steps"]
        assert 1 <= loop["measured_programs"] <= 3  # the original and at most top=2
    assert main(args) == 0  # again: nothing left to measure, a readable summary
    text = capsys.readouterr().out
    assert "0 loop(s) measured now, 2 already stored" in text and str(db) in text


def test_cli_campaign_json_and_bad_plan(cluster, plan_dir: Path, capsys, monkeypatch):
    (plan_dir / "bad.toml").write_text("name = 'x'\n[[program]]\nsorce = 'a.c'\n")
    assert main(["campaign", str(plan_dir / "bad.toml"), "--db", str(plan_dir / "x.db")]) == 2
    err = capsys.readouterr().err
    assert "bad.toml" in err and "unknown key 'sorce'" in err and "Traceback" not in err
    with pytest.raises(UserError, match="no such source file"):
        (plan_dir / "missing.toml").write_text("[[program]]\nsource = 'nope.c'\n")
        load_plan(plan_dir / "missing.toml")


THREADS_PROGRAM = r"""#include <stdio.h>
#include <omp.h>
#define N 20000
static double a[N];
int main(void) {
#pragma omp parallel for
  for (int i = 0; i < N; i++) a[i] = i * 0.5;
  double s = 0.0;
  for (int i = 0; i < N; i++) s += a[i];
  printf("default threads %d checksum %.1f\n", omp_get_max_threads(), s);
  return 0;
}
"""


def test_programs_run_with_the_users_openmp_settings_not_dasks(cluster, tmp_path, monkeypatch):
    """Dask starts workers with OMP_NUM_THREADS=1; the original must run as the user runs it."""
    import zlib

    (tmp_path / "threads.c").write_text(THREADS_PROGRAM)
    (tmp_path / "plan.toml").write_text(
        'name = "env"\nrepetitions = 1\nsearch = "top"\ntop = 1\n'
        '[[program]]\nsource = "threads.c"\n'
    )
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    Session(db=tmp_path / "env.db").campaign(tmp_path / "plan.toml", client=cluster)
    with sqlite3.connect(tmp_path / "env.db") as c:
        (blob,) = c.execute(
            "SELECT data FROM outputs JOIN runs ON runs.stdout_sha = outputs.sha "
            "WHERE runs.variant_key = 'baseline'"
        ).fetchone()
    assert "default threads 3 " in zlib.decompress(blob).decode()


def test_a_local_campaign_runs_the_original_with_the_default_thread_count(tmp_path, monkeypatch):
    """With no OpenMP variable set, the original runs with the runtime's default thread
    count (the cores), and starting the local cluster leaves this process's settings alone."""
    import os
    import zlib

    for name in list(openmp_environment()):
        monkeypatch.delenv(name)
    (tmp_path / "threads.c").write_text(THREADS_PROGRAM)
    (tmp_path / "plan.toml").write_text(
        'name = "env"\nrepetitions = 1\nsearch = "top"\ntop = 1\n'
        '[[program]]\nsource = "threads.c"\n'
    )
    Session(db=tmp_path / "env.db").campaign(tmp_path / "plan.toml")
    assert "OMP_NUM_THREADS" not in openmp_environment()
    with sqlite3.connect(tmp_path / "env.db") as c:
        (blob,) = c.execute(
            "SELECT data FROM outputs JOIN runs ON runs.stdout_sha = outputs.sha "
            "WHERE runs.variant_key = 'baseline'"
        ).fetchone()
    cores = len(os.sched_getaffinity(0))
    assert f"default threads {cores} " in zlib.decompress(blob).decode()


def test_a_campaign_choice_is_confirmed_on_the_whole_program(cluster, tmp_path, capsys):
    """The campaign stores a loop's choice only with the whole program's interleaved
    runs behind it, and its table prints the whole-program speedup with its interval."""
    (tmp_path / "contended.c").write_text(CONTENDED)
    (tmp_path / "plan.toml").write_text(
        'name = "wp"\nrepetitions = 2\nsearch = "top"\ntop = 2\nconfirm_runs = 3\n'
        'space = { schedules = "static", threads = "2" }\n'
        '[[program]]\nsource = "contended.c"\n'
    )
    db = tmp_path / "wp.db"
    args = ["campaign", str(tmp_path / "plan.toml"), "--db", str(db)]
    assert main([*args, "--scheduler", cluster.scheduler.address, "-q"]) == 0
    text = capsys.readouterr().out
    assert "whole program" in text
    with sqlite3.connect(db) as c:
        (doc,) = [json.loads(r[0]) for r in c.execute("SELECT doc FROM outcomes")]
    program = doc["whole_program"]
    assert program is not None and program["load"] is not None  # the load was read
    if doc["best"] is not None:  # confirmed: the intervals are printed as stored
        iv = program["speedup_interval"]
        assert iv["low"] > 1.03 and f"[{iv['low']:.2f}, {iv['high']:.2f}]" in text
        best = next(v for v in doc["variants"] if v["key"] == doc["best"]["key"])
        loop_iv = best["speedup_interval"]  # the loop's own speedup, with its interval too
        assert f"{loop_iv['ratio']:.2f}x [{loop_iv['low']:.2f}, {loop_iv['high']:.2f}]" in text
    else:  # not confirmed (a busy machine, say): said, and the original kept
        assert "not confirmed" in text and "original kept" in doc["decision"]


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def test_ctrl_c_in_a_campaign_is_one_line_without_worker_tracebacks(plan_dir: Path):
    """Ctrl-C reaches the whole process group, Dask's worker processes included: the
    campaign stops with its one line and exit 130, and no worker prints a traceback."""
    import os
    import signal
    import subprocess
    import sys
    import time

    env = dict(os.environ, AUTOTUNE_DB=str(plan_dir / "c.db"), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "autotune", "campaign", str(plan_dir / "plan.toml"), "-q"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a process group of its own, as a terminal's job is
    )
    deadline = time.monotonic() + 60
    while not _children(proc.pid) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
    assert proc.poll() is None, "the campaign ended before its workers started"
    time.sleep(2.0)  # the workers are up and measuring
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err, err
    assert err.strip().splitlines()[-1].startswith("autotune: interrupted"), err


def test_a_time_budget_leaves_loops_for_the_next_run(cluster, plan_dir: Path):
    """The plan's time budget spent at once: no loop waiting to be measured is started,
    those left are counted, nothing of theirs is stored, and the next run without a budget
    measures exactly them (the ones measured are not measured again)."""
    session = Session(db=plan_dir / "budget.db")
    plan = load_plan(plan_dir / "plan.toml")
    plan.time_budget = 0.001
    first = session.campaign(plan, client=cluster)
    assert first.loops_left >= 1, first.to_dict()
    assert first.loops_measured + first.loops_left == 3
    rest = session.campaign(load_plan(plan_dir / "plan.toml"), client=cluster)
    assert rest.loops_stored == first.loops_measured
    assert rest.loops_measured == first.loops_left and rest.loops_left == 0


def test_a_plan_with_a_bad_time_budget_is_one_line(tmp_path):
    (tmp_path / "p.c").write_text("int main(void) { return 0; }\n")
    (tmp_path / "plan.toml").write_text('time_budget = -3\n[[program]]\nsource = "p.c"\n')
    with pytest.raises(UserError, match="time_budget must be a positive number of seconds"):
        load_plan(tmp_path / "plan.toml")
