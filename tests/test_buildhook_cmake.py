"""A real CMake project: plain build, and autotune_enable() through the shipped module."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from buildhook_support import (
    by_source,
    copy_project,
    hook_env,
    report,
    run,
    save_choices,
    symbols,
    warnings_in,
)

pytestmark = [
    pytest.mark.slow,  # real builds and many runs: the long suite (-m slow)
    pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake not installed"),
]
DYNAMIC = re.compile(r"GOMP_loop_(nonmonotonic_)?dynamic")


def _configure_and_build(proj: Path, build: Path, env: dict, *flags: str):
    run(["cmake", "-S", str(proj), "-B", str(build), *flags], proj, env)
    return run(["cmake", "--build", str(build), "-j4"], proj, env)


def test_cmake_project_with_autotune_enable(tmp_path, capsys):
    proj = copy_project("cmake_project", tmp_path)
    env = hook_env(tmp_path)
    db = Path(env["AUTOTUNE_DB"])

    _configure_and_build(proj, tmp_path / "plain", env)
    expected = run([str(tmp_path / "plain" / "saxpy")], proj).stdout
    assert expected.startswith("sum ")
    plain_obj = tmp_path / "plain" / "CMakeFiles" / "saxpy.dir" / "src" / "saxpy.c.o"
    assert not DYNAMIC.search(symbols(plain_obj))

    # Stored as 'autotune tune --cc gcc' stores it; CMake compiles with its own
    # compiler path (cc): the wrapper must still find the choice.
    save_choices(db, proj / "src" / "saxpy.c", {"N": "20000", "REPS": "3"}, "dynamic,64,t-")
    build = _configure_and_build(proj, tmp_path / "tuned", env, "-DUSE_AUTOTUNE=ON")
    assert warnings_in(build.stderr) == []
    assert run([str(tmp_path / "tuned" / "saxpy")], proj).stdout == expected

    obj_dir = tmp_path / "tuned" / "CMakeFiles" / "saxpy.dir" / "src"
    assert DYNAMIC.search(symbols(obj_dir / "saxpy.c.o"))
    assert not DYNAMIC.search(symbols(obj_dir / "main.c.o"))
    # CMake's compiler-written depfiles (-MD -MT -MF) are exactly the plain build's
    plain_dep = (plain_obj.parent / "saxpy.c.o.d").read_text()
    assert (obj_dir / "saxpy.c.o.d").read_text() == plain_dep

    rep = by_source(report(db, capsys))
    assert rep["saxpy.c"]["used"] == "tuned"
    assert rep["saxpy.c"]["loops"][0]["variant"] == "dynamic,64,t-"
    assert rep["main.c"]["used"] == "original"

    # the module also defines the tuning target, with the target's definitions
    targets = run(["cmake", "--build", str(tmp_path / "tuned"), "--target", "help"], proj, env)
    assert "autotune-tune-saxpy" in targets.stdout
    flags = tmp_path / "tuned" / "CMakeFiles" / "autotune-tune-saxpy.dir" / "build.make"
    rules = flags.read_text()
    assert "tune" in rules and "--extra-source" in rules and "-DN=20000" in rules
