"""The SQLite store: concurrent writers, resume keys, models and tuned choices."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap

import pytest

from autotune.errors import UserError
from autotune.measure.machine import detect_machine
from autotune.measure.store import SCHEMA_VERSION, RunContext, RunRow, Store

WRITER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from autotune.measure.store import RunRow, Store
    db, tag, n, go = sys.argv[1], sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
    store = Store(db)
    while not go.exists():
        time.sleep(0.01)
    for i in range(n):
        store.add_run(RunRow("m", "src", "flags", "{}", "loop:1", tag, "runtime", i, "ok",
                             loop_wall_s=i * 1e-3))
        store.put_output(f"{tag} output {i}")
    store.close()
""")


def test_two_processes_writing_at_once_lose_nothing(tmp_path):
    db, go, n = tmp_path / "shared.db", tmp_path / "go", 150
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(db), tag, str(n), str(go)])
        for tag in ("writer-a", "writer-b")
    ]
    go.touch()  # both start writing together
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    with Store(db) as store:
        rows = store.runs(source_hash="src")
        assert len(rows) == 2 * n
        for tag in ("writer-a", "writer-b"):
            assert sorted(r.repetition for r in rows if r.variant_key == tag) == list(range(n))
        count = store.conn.execute("SELECT COUNT(*) FROM outputs").fetchone()[0]
        assert count == 2 * n
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def _row(variant: str, rep: int, status: str = "ok", mode: str = "runtime") -> RunRow:
    return RunRow("fp", "h", "k", "{}", "f.c:3", variant, mode, rep, status, wall_s=1.0)


def test_stored_runs_are_keyed_for_resume(tmp_path):
    with Store(tmp_path / "a.db") as store:
        store.add_run(_row("static,-,t2", 0))
        store.add_run(_row("static,-,t2", 0, status="crash"))  # same key: not a second row
        store.add_run(_row("static,-,t2", 1, status="crash"), replace=True)
        store.add_run(_row("static,-,t2", 0, mode="per-variant"))
        ctx = RunContext("fp", "h", "k", "f.c:3", "runtime")
        got = store.stored_runs(ctx)
        assert set(got) == {("static,-,t2", 0), ("static,-,t2", 1)}
        assert got[("static,-,t2", 0)].status == "ok" and got[("static,-,t2", 1)].status == "crash"
        assert len(store.stored_runs(ctx, mode="per-variant")) == 1
        assert store.stored_runs(RunContext("other", "h", "k", "f.c:3", "runtime")) == {}
        assert store.delete_runs(ctx, ["static,-,t2"], "runtime") == 2
        assert store.stored_runs(ctx) == {}


def test_machine_models_tuned_and_outputs_round_trip(tmp_path):
    with Store(tmp_path / "b.db") as store:
        m = detect_machine()
        fp = store.add_machine(m)
        assert store.machine_info(fp)["cores"] == m.cores
        store.save_model("powerlaw", fp, "wall", {"a": [1, 2]})
        store.save_model("powerlaw", fp, "wall", {"a": [3, 4]})
        store.save_model("powerlaw", fp, "cpu", {"a": [5]})
        assert store.load_model("powerlaw", fp, "wall")["params"] == {"a": [3, 4]}
        assert store.load_model("powerlaw", "other") is None
        store.save_tuned(
            source_hash="h",
            flags_key="k",
            machine=fp,
            loop_id="f.c:3",
            variant_key="dynamic,8,t2",
            baseline_s=2.0,
            best_s=1.0,
        )
        store.save_tuned(
            source_hash="h",
            flags_key="k",
            machine=fp,
            loop_id="f.c:3",
            variant_key="guided,-,t2",
            baseline_s=2.0,
            best_s=0.9,
        )
        tuned = store.tuned(source_hash="h", flags_key="k", machine=fp)
        assert list(tuned) == ["f.c:3"] and tuned["f.c:3"]["variant_key"] == "guided,-,t2"
        sha = store.put_output("big output\n" * 1000)
        assert store.get_output(sha) == "big output\n" * 1000


def test_newer_schema_and_unwritable_path_are_user_errors(tmp_path):
    db = tmp_path / "c.db"
    Store(db).close()
    con = sqlite3.connect(db)
    con.execute("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION + 1,))
    con.commit()
    con.close()
    with pytest.raises(UserError, match="newer"):
        Store(db)
    (tmp_path / "file").write_text("x")
    with pytest.raises(UserError, match="cannot open the measurement database"):
        Store(tmp_path / "file" / "sub.db")


def test_default_path_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("AUTOTUNE_DB", raising=False)
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    with Store() as store:
        assert store.path == tmp_path / "cache" / "autotune.db"
    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "env.db"))
    with Store() as store:
        assert store.path == tmp_path / "env.db"


def test_a_full_database_is_one_line_and_keeps_what_was_stored(tmp_path):
    """SQLite's own limit makes the disk full for this connection (max_page_count): the
    write is one UserError naming the database, nothing half-written stays."""
    store = Store(tmp_path / "full.db")
    row = RunRow("m", "src", "flags", "{}", "loop:1", "v", "runtime", 0, "ok", "", 1.0)
    store.add_run(row)
    pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
    store.conn.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(UserError, match=r"cannot write to the measurement database .*full"):
        for i in range(1, 5000):
            store.put_output(f"output {i}\n" * 200)
    assert not store.conn.in_transaction
    assert [r.variant_key for r in store.runs()] == ["v"]
    store.close()
