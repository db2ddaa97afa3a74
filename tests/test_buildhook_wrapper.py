"""autotune-cc on single compiler commands: faithful tuned compiles and exact pass-through."""

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
    wrapper_exe,
)

DYNAMIC = re.compile(r"GOMP_loop_(nonmonotonic_)?dynamic")


@pytest.fixture
def proj(tmp_path) -> Path:
    return copy_project("single", tmp_path)


@pytest.fixture
def tuned_env(tmp_path, proj) -> dict:
    env = hook_env(tmp_path)
    save_choices(Path(env["AUTOTUNE_DB"]), proj / "sub" / "kern.c", {}, "dynamic,16,t-")
    return env


def cc(*args: str) -> list[str]:
    return [wrapper_exe(), "gcc", *args]


def _dw_name(obj: Path) -> str:
    out = run(["readelf", "--debug-dump=info", str(obj)], obj.parent).stdout
    return re.search(r"DW_AT_name\s*:.*\):\s*(\S+)", out).group(1)


def _log_of(env: dict) -> str:
    """The wrapper's decision log, for assertion messages."""
    log = Path(env["AUTOTUNE_DB"]).with_suffix(".builds.jsonl")
    return log.read_text() if log.exists() else "(no log)"


def test_tuned_compile_matches_the_original_build(proj, tuned_env, capsys):
    """No -o: default object and .d names; diagnostics, __FILE__, debug name as for gcc."""
    flags = ["-Wall", "-g", "-O2", "-fopenmp", "-MD", "-c", "sub/kern.c"]
    plain = run(["gcc", *flags], proj)
    (proj / "kern.o").rename(proj / "plain.o")
    (proj / "kern.d").rename(proj / "plain.d")
    tuned = run(cc(*flags), proj, tuned_env)
    assert (proj / "kern.o").is_file() and not list((proj / "sub").glob("*.o"))
    assert tuned.stderr == plain.stderr
    assert DYNAMIC.search(symbols(proj / "kern.o")), _log_of(tuned_env)
    assert not DYNAMIC.search(symbols(proj / "plain.o"))
    assert "sub/kern.c:9:12: warning: unused variable" in tuned.stderr
    assert (proj / "kern.d").read_text() == (proj / "plain.d").read_text()
    assert _dw_name(proj / "kern.o") == _dw_name(proj / "plain.o") == "sub/kern.c"
    run(["gcc", "-fopenmp", "kern.o", "-o", "tuned"], proj)
    run(["gcc", "-fopenmp", "plain.o", "-o", "plain"], proj)
    out = run(["./tuned"], proj).stdout
    assert out == run(["./plain"], proj).stdout == "sub/kern.c:13 1999.5\n"
    rep = by_source(report(Path(tuned_env["AUTOTUNE_DB"]), capsys))
    # 'gcc -c sub/kern.c' without -o writes kern.o here: the log names it for the link step
    assert rep["kern.c"]["used"] == "tuned" and rep["kern.c"]["output"] == "kern.o"
    assert not list((Path(tuned_env["TMPDIR"])).iterdir())


def test_preprocess_and_assembly_output_pass_through(proj, tuned_env, capsys):
    assert (
        run(cc("-fopenmp", "-E", "sub/kern.c"), proj, tuned_env).stdout
        == run(["gcc", "-fopenmp", "-E", "sub/kern.c"], proj).stdout
    )
    run(cc("-fopenmp", "-O2", "-S", "sub/kern.c", "-o", "w.s"), proj, tuned_env)
    run(["gcc", "-fopenmp", "-O2", "-S", "sub/kern.c", "-o", "g.s"], proj)
    assert (proj / "w.s").read_text() == (proj / "g.s").read_text()
    rep = by_source(report(Path(tuned_env["AUTOTUNE_DB"]), capsys))
    assert rep["kern.c"]["used"] == "original" and rep["kern.c"]["reason"].startswith("-S")


def test_language_and_non_c_inputs(proj, tuned_env):
    # -x c makes any file C: the same content is found tuned under another name
    shutil.copy(proj / "sub" / "kern.c", proj / "sub" / "kern.inc")
    run(cc("-fopenmp", "-c", "-x", "c", "sub/kern.inc", "-o", "inc.o"), proj, tuned_env)
    assert DYNAMIC.search(symbols(proj / "inc.o"))
    # assembly and objects go straight to the real compiler
    run(cc("-c", "marker.s", "-o", "marker.o"), proj, tuned_env)
    run(cc("-fopenmp", "inc.o", "marker.o", "-o", "prog"), proj, tuned_env)
    assert "autotune_asm_marker" in symbols(proj / "prog")
    if shutil.which("g++"):  # g++ compiles .c as C++: passed through untouched
        run([wrapper_exe(), "g++", "-fopenmp", "-c", "sub/kern.c", "-o", "cxx.o"], proj, tuned_env)
        assert not DYNAMIC.search(symbols(proj / "cxx.o"))


def test_response_file_with_quoted_names(proj, tuned_env):
    (proj / "args.rsp").write_text("-fopenmp -O2\n-c \"sub/kern.c\" -o 'out dir/k 1.o'\n")
    (proj / "out dir").mkdir()
    proc = run([wrapper_exe(), "gcc", "@args.rsp"], proj, tuned_env)
    assert warnings_in(proc.stderr) == []
    assert DYNAMIC.search(symbols(proj / "out dir" / "k 1.o"))


@pytest.mark.parametrize("mode", ["apply", "rank"])
def test_compile_errors_keep_the_compiler_status(proj, tuned_env, mode):
    """In rank mode the hook analyses the file first and finds it broken: the compiler
    says so itself, so the hook adds no line of its own before the compiler's error."""
    plain = run(["gcc", "-fopenmp", "-c", "sub/broken.c"], proj, check=False)
    env = tuned_env | {"AUTOTUNE_MODE": mode}
    wrapped = run(cc("-fopenmp", "-c", "sub/broken.c"), proj, env, check=False)
    assert plain.returncode != 0 and wrapped.returncode == plain.returncode
    assert wrapped.stderr == plain.stderr  # the compiler's own words, nothing of ours


def test_failed_tuned_compile_falls_back_to_the_original(proj, tuned_env, tmp_path):
    run(cc("-fopenmp", "-c", "sub/kern.c"), proj, tuned_env)
    from autotune.buildhook import cache

    entries = list((tmp_path / "cache" / "buildhook" / "tuned").iterdir())
    assert len(entries) == 1
    doc = cache.read_entry(str(entries[0]))
    (kept,) = doc["versions"]
    kept["text"] = kept["text"].replace("int main", "int main(", 1)  # a broken tuned text
    cache.write_entry(str(entries[0]), doc)
    proc = run(cc("-fopenmp", "-c", "sub/kern.c"), proj, tuned_env)
    lines = warnings_in(proc.stderr)
    assert len(lines) == 1 and "tuned compile failed" in lines[0]
    assert not DYNAMIC.search(symbols(proj / "kern.o"))


def test_missing_database_warns_once_unless_quiet(proj, tmp_path):
    env = hook_env(tmp_path)
    proc = run(cc("-fopenmp", "-c", "sub/kern.c"), proj, env)
    lines = warnings_in(proc.stderr)
    assert len(lines) == 1 and "no results database" in lines[0]
    assert (proj / "kern.o").is_file()
    env["AUTOTUNE_QUIET"] = "1"
    assert warnings_in(run(cc("-fopenmp", "-c", "sub/kern.c"), proj, env).stderr) == []
    # no OpenMP flag: pragmas are ignored, nothing to warn about
    env.pop("AUTOTUNE_QUIET")
    assert warnings_in(run(cc("-c", "sub/kern.c"), proj, env).stderr) == []


def test_modes_from_environment_and_config_files(proj, tuned_env, tmp_path):
    log = Path(tuned_env["AUTOTUNE_DB"]).with_suffix(".builds.jsonl")
    run(cc("-fopenmp", "-c", "sub/kern.c"), proj, {**tuned_env, "AUTOTUNE_MODE": "off"})
    assert not DYNAMIC.search(symbols(proj / "kern.o")) and not log.exists()

    (proj / ".autotune.toml").write_text('[build]\nmode = "off"\n')
    run(cc("-fopenmp", "-c", "kern.c"), proj / "sub", tuned_env)
    assert not DYNAMIC.search(symbols(proj / "sub" / "kern.o"))  # found upward from sub/
    (proj / ".autotune.toml").unlink()

    # autotune.cfg: a database path relative to the file; the env var would win over it
    db = Path(tuned_env["AUTOTUNE_DB"])
    shutil.move(db, proj / "tuned.db")
    (proj / "autotune.cfg").write_text("[build]\nmode = apply\ndb = tuned.db\n")
    env = {k: v for k, v in tuned_env.items() if k != "AUTOTUNE_DB"}
    proc = run(cc("-fopenmp", "-c", "sub/kern.c"), proj, env)
    assert DYNAMIC.search(symbols(proj / "kern.o")), proc.stderr + _log_of(
        {"AUTOTUNE_DB": str(proj / "tuned.db")}
    )

    bad = run(cc("-fopenmp", "-c", "sub/kern.c"), proj, {**env, "AUTOTUNE_MODE": "fast"})
    lines = warnings_in(bad.stderr)
    assert len(lines) == 1 and "unknown mode 'fast'" in lines[0]
    assert not DYNAMIC.search(symbols(proj / "kern.o"))


def test_cmake_dir_and_usage(tmp_path):
    out = run([wrapper_exe(), "--cmake-dir"], tmp_path).stdout.strip()
    assert (Path(out) / "autotune.cmake").is_file() and (Path(out) / "autotune.mk").is_file()
    usage = run([wrapper_exe()], tmp_path, check=False)
    assert usage.returncode == 2 and "usage: autotune-cc COMPILER" in usage.stderr


def test_warm_path_imports_stay_light(proj, tuned_env):
    """The launcher's warm path must not import what costs more than the compile it wraps."""
    launcher = run([wrapper_exe(), "--launcher"], proj).stdout.split()
    argv = [*launcher, "gcc", "-fopenmp", "-c", "sub/kern.c"]
    run(argv, proj, tuned_env)  # cold: parses, fills the caches
    warm = run(argv, proj, {**tuned_env, "PYTHONPROFILEIMPORTTIME": "1"})
    imported = {
        ln.rsplit("|", 1)[-1].strip()
        for ln in warm.stderr.splitlines()
        if ln.startswith("import time:")
    }
    assert "autotune.buildhook.lookup" in imported and DYNAMIC.search(symbols(proj / "kern.o"))
    heavy = {
        "re",
        "json",
        "dataclasses",
        "subprocess",
        "pathlib",
        "sqlite3",
        "pycparser",
        "numpy",
        "autotune.frontend",
        "site",
    }
    assert not heavy & imported, heavy & imported


def test_the_shim_directory_holds_a_fast_autotune_cc_that_compiles_tuned(proj, tuned_env, tmp_path):
    """``--shim-dir`` writes an ``autotune-cc`` that starts the launcher (autotune.mk puts
    its directory first on PATH, so make echoes ``autotune-cc gcc``); it compiles the tuned
    variant, is rewritten only when it would differ, and an unwritable cache gives one
    line and exit 1."""
    folder = Path(run([wrapper_exe(), "--shim-dir"], proj, tuned_env).stdout.strip())
    shim = folder / "autotune-cc"
    assert "launch.py" in shim.read_text() and shim.stat().st_mode & 0o111
    run([str(shim), "gcc", "-fopenmp", "-c", "sub/kern.c"], proj, tuned_env)
    assert DYNAMIC.search(symbols(proj / "kern.o"))
    before = shim.stat().st_mtime_ns
    assert Path(run([wrapper_exe(), "--shim-dir"], proj, tuned_env).stdout.strip()) == folder
    assert shim.stat().st_mtime_ns == before
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache would be\n")
    env = {**tuned_env, "AUTOTUNE_CACHE_DIR": str(blocked)}
    out = run([wrapper_exe(), "--shim-dir"], proj, env, check=False)
    assert out.returncode == 1 and out.stdout == ""
    assert len(out.stderr.splitlines()) == 1 and "cannot write" in out.stderr
