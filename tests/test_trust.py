"""Trust boundaries on a shared machine: another user's config never steers the build, the
scratch folder is this process's alone, and the sweep of stale folders removes only ours."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from buildhook_support import copy_project, hook_env, run, wrapper_exe

from autotune.buildhook import config
from autotune.measure import scratch

NOBODY = 65534
as_root = pytest.mark.skipif(os.getuid() != 0, reason="giving a file to another user needs root")


def _config_dirs(tmp_path: Path) -> tuple[Path, Path]:
    """A world-writable parent (as /tmp or a shared project folder is) and a project in it."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    proj = shared / "proj"
    proj.mkdir()
    return shared, proj


def _clean_config_env(monkeypatch) -> None:
    for k in ("AUTOTUNE_MODE", "AUTOTUNE_CONFIG", "AUTOTUNE_QUIET"):
        monkeypatch.delenv(k, raising=False)


@as_root
def test_a_config_owned_by_another_user_is_ignored_and_said(tmp_path, monkeypatch):
    _clean_config_env(monkeypatch)
    shared, proj = _config_dirs(tmp_path)
    foreign = shared / ".autotune.toml"
    foreign.write_text('mode = "off"\n')
    os.chown(foreign, NOBODY, NOBODY)
    cfg = config.load_config(str(proj))
    assert cfg.mode == "apply" and cfg.source == ""
    (line,) = cfg.ignored
    assert str(foreign) in line and "owned by" in line and "not by" in line, line


def test_a_config_others_may_write_is_ignored_and_a_trusted_one_further_up_is_read(
    tmp_path, monkeypatch
):
    _clean_config_env(monkeypatch)
    (tmp_path / ".autotune.toml").write_text('mode = "rank"\n')
    shared, proj = _config_dirs(tmp_path)
    open_to_all = proj / "autotune.cfg"
    open_to_all.write_text("[build]\nmode = off\n")
    open_to_all.chmod(0o666)
    cfg = config.load_config(str(proj))
    assert cfg.mode == "rank" and cfg.source == str(tmp_path / ".autotune.toml")
    assert cfg.ignored == [
        f"ignored {open_to_all}: writable by other users (a config can name commands to run)"
    ]
    open_to_all.chmod(0o644)  # the user's own, closed to others: read again
    assert config.load_config(str(proj)).mode == "off"


def test_a_config_named_by_the_users_own_environment_is_read(tmp_path, monkeypatch):
    _clean_config_env(monkeypatch)
    named = tmp_path / "team.toml"
    named.write_text('mode = "off"\n')
    named.chmod(0o664)  # a group's shared config, chosen on purpose
    monkeypatch.setenv("AUTOTUNE_CONFIG", str(named))
    assert config.load_config(str(tmp_path)).mode == "off"


@as_root
def test_another_users_tune_command_never_runs_in_the_build(tmp_path):
    """The attack as it was seen: root's build under a world-writable folder where
    another user left a config that names a command; the command never runs, the build
    compiles as written, and one line says why the config was not read."""
    shared, _ = _config_dirs(tmp_path)
    proj = copy_project("two_files", shared / "proj")
    pwned = tmp_path / "PWNED"
    foreign = shared / ".autotune.toml"
    tool = json.dumps(["/bin/sh", "-c", f"id > {pwned}"])
    foreign.write_text(f'mode = "tune"\ntune_command = {tool}\n')
    os.chown(foreign, NOBODY, NOBODY)
    env = hook_env(tmp_path)
    proc = run(
        [wrapper_exe(), "gcc", "-fopenmp", "-O2", "main.c", "fill.c", "-o", "prog"], proj, env
    )
    assert not pwned.exists()
    assert (proj / "prog").is_file()
    notes = [ln for ln in proc.stderr.splitlines() if str(foreign) in ln]
    assert len(notes) == 1 and notes[0].startswith("autotune-cc: warning: ignored "), proc.stderr


def test_the_scratch_folder_is_new_private_and_never_one_made_before(tmp_path, monkeypatch):
    """A folder another user made first under the old predictable name, with a link where
    a timing file would go, is never used: the runs' side files go to a folder made by
    mkdtemp, closed to everyone else."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(scratch, "_mine", None)
    monkeypatch.setattr(scratch.tempfile, "tempdir", None)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    planted = tmp_path / f"autotune-{os.getpid()}"
    planted.mkdir(mode=0o777)
    (planted / "timing-x.txt").symlink_to(victim)
    mine = scratch.scratch_dir()
    assert mine.parent == tmp_path and mine.name.startswith(f"{scratch.PREFIX}{os.getpid()}-")
    st = os.lstat(mine)
    assert st.st_uid == os.getuid() and (st.st_mode & 0o777) == 0o700
    assert mine != planted and victim.read_text() == "precious\n"


def test_a_measured_run_writes_only_into_its_own_folder(tmp_path):
    """``autotune measure`` of a real program, with a folder of the old predictable name
    planted in its TMPDIR and links in it where timing files would go: the runs are timed,
    and nothing is written through a link."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    src = tmp_path / "sum.c"
    src.write_text(
        "#include <stdio.h>\n#define N 100000\nstatic double a[N];\n"
        "int main(void) {\n  double s = 0;\n#pragma omp parallel for reduction(+:s)\n"
        "  for (int i = 0; i < N; i++) { a[i] = i; s += a[i]; }\n"
        '  printf("%.1f\\n", s);\n  return 0;\n}\n'
    )
    env = dict(os.environ, TMPDIR=str(tmp), AUTOTUNE_DB=str(tmp_path / "r.db"))
    cmd = [sys.executable, "-m", "autotune", "measure", str(src), "--variants", "dynamic,-,t2"]
    proc = subprocess.Popen(
        [*cmd, "--repetitions", "2", "--json", "--quiet"],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    planted = tmp / f"autotune-{proc.pid}"  # the name the old code would have used
    planted.mkdir(mode=0o777)
    for i in range(50):
        (planted / f"timing-{i}.txt").symlink_to(victim)
    out, _ = proc.communicate(timeout=300)
    assert proc.returncode == 0, out
    (lp,) = json.loads(out)["loops"]
    assert {v["status"] for v in lp["variants"]} == {"ok"}, lp["variants"]
    assert victim.read_text() == "precious\n"
    assert sorted(p.name for p in planted.iterdir()) == sorted(f"timing-{i}.txt" for i in range(50))
    assert not list(tmp.glob(f"{scratch.PREFIX}*")), "the private folder was not removed"


def test_the_sweep_removes_only_this_users_stale_folders(tmp_path):
    """Stale: named as scratch_dir names them, ours, closed to others, its process gone.
    Left alone: the build hook's server folder, an old-style name, one open to others,
    one of a live process, and (as root) one owned by another user."""
    dead = _dead_pid()
    stale = tmp_path / f"{scratch.PREFIX}{dead}-abc123"
    stale.mkdir(mode=0o700)
    server = tmp_path / f"autotune-{os.getuid()}"
    server.mkdir(mode=0o700)
    old_style = tmp_path / f"autotune-{dead}"
    old_style.mkdir(mode=0o700)
    open_one = tmp_path / f"{scratch.PREFIX}{dead}-open"
    open_one.mkdir()
    open_one.chmod(0o777)
    live = tmp_path / f"{scratch.PREFIX}{os.getpid()}-live"
    live.mkdir(mode=0o700)
    kept = [server, old_style, open_one, live]
    if os.getuid() == 0:
        foreign = tmp_path / f"{scratch.PREFIX}{dead}-theirs"
        foreign.mkdir(mode=0o700)
        os.chown(foreign, NOBODY, NOBODY)
        kept.append(foreign)
    assert scratch.sweep_stale(tmp_path) == [stale]
    assert not stale.exists() and all(p.is_dir() for p in kept)


def _dead_pid() -> int:
    proc = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(proc.stdout)
