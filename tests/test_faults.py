"""Faults of the input and of the machine: each is one line and a non-zero exit, never a
traceback, and a fault of the machine is never stored as a variant's result."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from autotune.campaign.runner import scheduler_warning
from autotune.cli.main import main

SUM = (
    "#include <stdio.h>\n#define N 200000\nstatic double a[N];\n"
    "int main(void) {\n  double s = 0;\n#pragma omp parallel for reduction(+:s)\n"
    "  for (int i = 0; i < N; i++) { a[i] = 0.5 * i; s += a[i]; }\n"
    '  printf("%.1f\\n", s);\n  return 0;\n}\n'
)


def autotune(*args: str, env: dict | None = None, cwd: Path | None = None):
    """The command as a user runs it, in a process of its own."""
    cmd = [sys.executable, "-m", "autotune", *args]
    return subprocess.run(
        cmd, env=env or dict(os.environ), cwd=cwd, capture_output=True, text=True, timeout=600
    )


def one_error_line(proc) -> str:
    assert "Traceback" not in proc.stderr, proc.stderr
    errors = [ln for ln in proc.stderr.splitlines() if ln.startswith("autotune: error:")]
    assert len(errors) == 1, proc.stderr
    return errors[0]


def stored_statuses(db: Path) -> list[str]:
    if not db.exists():
        return []
    with contextlib.closing(sqlite3.connect(db)) as con:
        try:
            return [r[0] for r in con.execute("SELECT status FROM runs")]
        except sqlite3.OperationalError:  # no table yet: nothing stored
            return []


@contextlib.contextmanager
def full_disk(where: Path, size: str = "64k", fill: bool = True):
    """A small file system at ``where``, filled to the last byte (root only)."""
    where.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip("cannot mount a small file system here (needs root)")
    try:
        fd = os.open(where / "fill", os.O_WRONLY | os.O_CREAT, 0o600)
        with contextlib.suppress(OSError):
            while fill:
                os.write(fd, b"\0" * 4096)
        os.close(fd)
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)  # lazy: a file still open


def test_no_temporary_space_is_one_line_and_not_stored_as_the_variants(tmp_path):
    """TMPDIR on a full disk: gcc cannot write its temporary files. The tune stops with
    one line naming the fault, stores no compile-error, and the same tune on a healthy
    machine measures the variants."""
    src = tmp_path / "sum.c"
    src.write_text(SUM)
    db = tmp_path / "r.db"
    env = dict(os.environ, AUTOTUNE_DB=str(db), AUTOTUNE_CACHE_DIR=str(tmp_path / "cache"))
    args = ["tune", str(src), "--top", "1", "--repetitions", "1", "--allow-busy", "-q"]
    with full_disk(tmp_path / "full") as full:
        proc = autotune(*args, env=dict(env, TMPDIR=str(full)))
    assert proc.returncode == 2
    line = one_error_line(proc)
    assert "no space left" in line and "nothing was recorded" in line, line
    assert "compile-error" not in stored_statuses(db)
    again = autotune(*args, env=env)
    assert again.returncode == 0, again.stderr
    assert "ok" in stored_statuses(db) and "compile-error" not in stored_statuses(db)


def test_a_full_cache_folder_is_one_line(tmp_path):
    src = tmp_path / "sum.c"
    src.write_text(SUM)
    with full_disk(tmp_path / "full") as full:
        env = dict(os.environ, AUTOTUNE_DB=str(tmp_path / "r.db"))
        env["AUTOTUNE_CACHE_DIR"] = str(full / "cache")
        proc = autotune("tune", str(src), "--top", "1", "--repetitions", "1", "-q", env=env)
    assert proc.returncode == 2
    line = one_error_line(proc)
    assert "cannot write the build cache" in line and "No space left" in line, line
    assert "compile-error" not in stored_statuses(tmp_path / "r.db")


def test_compiler_output_that_is_not_utf8_is_read(tmp_path, capsys):
    """A Latin-1 comment gcc quotes in a warning (as older codes have): measured as usual."""
    src = tmp_path / "latin.c"
    text = SUM.replace("int main(void) {", '#warning "r\xe9sultat"\nint main(void) {')
    src.write_bytes(text.encode("latin-1"))
    rc = main(["measure", str(src), "--variants", "dynamic,-,t2", "--repetitions", "1", "--quiet"])
    assert rc == 0
    assert "Traceback" not in capsys.readouterr().err


def _sum_of(terms: int) -> str:
    big = " + ".join(f"w[{i % 7}]" for i in range(terms))
    return SUM.replace("s += a[i];", "s += a[i] + TERMS;").replace(
        "static double a[N];",
        "static double a[N];\nstatic const double w[7] = {1, 2, 3, 4, 5, 6, 7};\n"
        f"#define TERMS ({big})",
    )


def test_a_long_expression_from_a_macro_is_analysed(tmp_path, capsys):
    """A 1,500-term sum a macro expands to (generated codes have them) is deeper than
    Python's default recursion limit allows: it is analysed all the same."""
    src = tmp_path / "long.c"
    src.write_text(_sum_of(1500))
    assert main(["analyze", str(src), "--json"]) == 0
    assert '"tunable": true' in capsys.readouterr().out


def test_an_expression_too_deep_to_read_is_one_line_at_its_place(tmp_path, capsys):
    src = tmp_path / "deep.c"
    src.write_text(_sum_of(5000))
    for command in ("analyze", "rank", "variants"):
        extra = ["-o", str(tmp_path / "v")] if command == "variants" else []
        assert main([command, str(src), *extra]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith(f"autotune: error: {src}:9: an expression nested over"), err
        assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_a_byte_order_mark_is_read_and_kept(tmp_path, capsys):
    """gcc reads a UTF-8 byte-order mark; so does tune, and the tuned file keeps it."""
    src = tmp_path / "bom.c"
    src.write_bytes(b"\xef\xbb\xbf" + SUM.encode())
    out = tmp_path / "tuned.c"
    args = ["tune", str(src), "--top", "1", "--repetitions", "1", "--allow-busy", "-q"]
    assert main([*args, "--apply", str(out)]) == 0, capsys.readouterr().err
    assert out.read_bytes().startswith(b"\xef\xbb\xbf#include <stdio.h>")


@pytest.mark.parametrize(
    "make, says",
    [
        (
            lambda d: (d / "a.c").symlink_to(d / "b.c") or (d / "b.c").symlink_to(d / "a.c"),
            "a loop of symbolic links",
        ),
        (lambda d: (d / "a.c").symlink_to(d / "gone.c"), "a symbolic link to nothing"),
        (lambda d: (d / "a.c").symlink_to("/dev/null"), "not a regular file"),
    ],
)
def test_files_that_are_not_sources_are_named_for_what_they_are(tmp_path, capsys, make, says):
    make(tmp_path)
    assert main(["analyze", str(tmp_path / "a.c")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"autotune: error: {tmp_path / 'a.c'}: {says}" or says in err, err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize(
    "address, warned",
    [
        ("tcp://127.0.0.1:8786", False),
        ("tcp://localhost:8786", False),
        ("tcp://192.0.2.7:8786", True),  # TEST-NET: another machine (nothing is sent)
        ("192.0.2.7:8786", True),
        ("tls://192.0.2.7:8786", False),
    ],
)
def test_a_remote_scheduler_without_tls_is_warned_about(address, warned):
    said = scheduler_warning(address)
    assert bool(said) == warned, said
    if warned:
        assert "without TLS" in said and "tls://" in said


def test_campaign_says_the_warning_before_anything_else(tmp_path):
    """The warning comes first, before the plan is read (here it is missing, so nothing
    connects to the address)."""
    proc = autotune("campaign", str(tmp_path / "none.toml"), "--scheduler", "tcp://192.0.2.7:8786")
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert lines[0].startswith("autotune: warning: the Dask scheduler tcp://192.0.2.7:8786")
    assert one_error_line(proc)


def test_variants_says_what_it_would_write_and_refuses_past_the_limit(tmp_path, capsys):
    """Each variant is a whole copy of the file: past --max-bytes nothing is written."""
    kernel = str(Path(__file__).parent.parent / "kernels" / "triad.c")
    out = tmp_path / "v"
    assert main(["variants", kernel, "-o", str(out), "--max-bytes", "10k"]) == 2
    err = capsys.readouterr().err.strip()
    assert "would write" in err and "over the limit of 10.0 KiB" in err, err
    assert len(err.splitlines()) == 1 and not out.exists()
    assert main(["variants", kernel, "-o", str(out), "--max-bytes", "0"]) == 0
    assert (out / "manifest.json").is_file()


def test_a_read_only_database_is_said_at_once(tmp_path):
    """A database on a read-only file system: one line that says so (it waited 60 s for a
    lock that would never come), and export still reads it."""
    from autotune.measure.store import Store

    src = tmp_path / "sum.c"
    src.write_text(SUM)
    with full_disk(tmp_path / "ro", size="4m", fill=False) as ro:
        Store(ro / "r.db").conn.close()
        subprocess.run(["mount", "-o", "remount,ro", str(ro)], check=True)
        env = dict(os.environ, AUTOTUNE_DB=str(ro / "r.db"))
        proc = autotune("measure", str(src), "--variants", "dynamic,-,t2", "--quiet", env=env)
        report = autotune("export", "--format", "csv", env=env)
    assert proc.returncode == 2
    line = one_error_line(proc)
    assert "the file is read-only" in line and "locked" not in proc.stderr, line
    assert "nothing to export" in report.stderr and "read-only" not in report.stderr


def test_a_locked_database_is_said_with_how_long_autotune_waits(tmp_path):
    """Another process holds the write lock for a few seconds: a line says so and how
    long autotune will wait, and the measurement goes on once the lock is released."""
    db = tmp_path / "r.db"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys, time\n"
            "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "c.execute('PRAGMA journal_mode=WAL'); c.execute('BEGIN EXCLUSIVE')\n"
            "print('held', flush=True); time.sleep(4); c.execute('COMMIT')\n",
            str(db),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline().strip() == "held"
    src = tmp_path / "sum.c"
    src.write_text(SUM)
    env = dict(os.environ, AUTOTUNE_DB=str(db))
    proc = autotune("measure", str(src), "--variants", "dynamic,-,t2", "--quiet", env=env)
    holder.wait(30)
    assert proc.returncode == 0, proc.stderr
    assert f"the measurement database {db} is locked by another process; waiting up to 60 s" in (
        proc.stderr
    )


@pytest.mark.parametrize("command", ["analyze", "rank", "variants"])
def test_a_clause_the_compiler_rejects_is_its_error(tmp_path, capsys, command):
    """schedule(bogus): gcc rejects the file, so autotune says gcc's words and exits 2
    (rank crashed on it with a traceback, analyze called the loop tunable)."""
    src = tmp_path / "bad.c"
    src.write_text(SUM.replace("reduction(+:s)", "reduction(+:s) schedule(bogus)"))
    extra = ["-o", str(tmp_path / "v")] if command == "variants" else []
    assert main([command, str(src), *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"autotune: error: {src}:6:") and "bogus" in err, err
    assert len(err.splitlines()) == 1


def test_a_clause_omp_does_not_define_is_the_compilers_error(tmp_path, capsys):
    src = tmp_path / "bad.c"
    src.write_text(SUM.replace("reduction(+:s)", "reduction(+:s) bogus_clause(3)"))
    assert main(["analyze", str(src)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"autotune: error: {src}:6:") and "bogus_clause" in err, err
