"""Helpers for the build-hook tests: real projects, the real wrapper executable, a store."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data" / "buildhook"
WARNING = "autotune-cc: warning:"


def wrapper_exe() -> str:
    """The installed console script (next to this Python; PATH otherwise)."""
    here = Path(sys.executable).parent / "autotune-cc"
    if here.is_file():
        return str(here)
    found = shutil.which("autotune-cc")
    if not found:
        pytest.fail("the autotune-cc console script is not installed: run 'pip install -e .'")
    return found


def hook_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """A clean environment: own database, cache and temp dir; wrapper first on PATH."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("AUTOTUNE_") and k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")
    }
    tmp = tmp_path / "tmp"
    tmp.mkdir(exist_ok=True)
    env.update(
        AUTOTUNE_DB=str(tmp_path / "results.db"),
        AUTOTUNE_CACHE_DIR=str(tmp_path / "cache"),
        TMPDIR=str(tmp),
        PATH=str(Path(wrapper_exe()).parent) + os.pathsep + env.get("PATH", ""),
    )
    env.update(extra)
    return env


def copy_project(name: str, dest: Path) -> Path:
    target = dest / name
    shutil.copytree(DATA / name, target)
    return target


def run(
    argv: list[str], cwd: Path, env: dict[str, str] | None = None, check: bool = True
) -> subprocess.CompletedProcess:
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    if check and proc.returncode != 0:
        raise AssertionError(f"{argv} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc


def warnings_in(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.startswith(WARNING)]


def symbols(obj: Path) -> str:
    return run(["nm", str(obj)], obj.parent).stdout


def save_choices(
    db: Path,
    source: Path,
    defines: dict[str, str],
    variant_key: str,
    include_dirs: list[str] | None = None,
    cc: str = "gcc",
) -> list[str]:
    """Store ``variant_key`` as the tuned winner of every loop of ``source``, as tune does.

    Goes through the tuner's own persistence code (``save_winner``) and the
    machine fingerprint ``autotune tune --cc gcc`` uses.
    """
    from autotune.analysis import analyze_file
    from autotune.measure.machine import detect_machine
    from autotune.measure.store import Store
    from autotune.tuning.persist import save_winner
    from autotune.variants.space import Variant

    unit = analyze_file(str(source), defines=defines, include_dirs=include_dirs or [])
    with Store(db) as store:
        fp = store.add_machine(detect_machine(cc))
        for rec in unit.loops:
            save_winner(
                store,
                source_text=source.read_text(),
                defines=defines,
                machine_fp=fp,
                record=rec,
                variant=Variant.from_key(variant_key),
                baseline_s=0.02,
                best_s=0.01,
            )
    return [r.id for r in unit.loops]


def report(db: Path, capsys, *extra: str) -> dict:
    """``autotune report-build --json`` in-process, for the log next to ``db``."""
    import json

    from autotune.cli.main import main

    capsys.readouterr()
    rc = main(["report-build", "--db", str(db), "--json", *extra])
    out = capsys.readouterr().out
    assert rc == 0, out
    return json.loads(out)


def by_source(rep: dict) -> dict[str, dict]:
    return {Path(s["path"]).name: s for s in rep["sources"]}
