"""A real multi-directory Make project built with gcc and with autotune-cc."""

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

DEFINES = {"N": "3000", "STEPS": "4"}
# A dynamic or guided schedule makes gcc call libgomp's loop API; the static
# schedules the sources are written with never do: proof of what was compiled.
DYNAMIC = re.compile(r"GOMP_loop_(nonmonotonic_)?dynamic")
GUIDED = re.compile(r"GOMP_(parallel_)?loop_(nonmonotonic_)?guided")

pytestmark = [
    pytest.mark.slow,  # real Makefiles: the long suite (-m slow)
    pytest.mark.skipif(shutil.which("make") is None, reason="make not installed"),
]


@pytest.fixture(scope="module")
def plain(tmp_path_factory) -> dict:
    """The project built once with the plain compiler: its output and objects."""
    root = tmp_path_factory.mktemp("plain")
    proj = copy_project("make_project", root)
    run(["make", "-s", "CC=gcc"], proj, hook_env(root))
    return {"out": run(["./prog"], proj).stdout, "dir": proj}


def _tune(proj: Path, db: Path) -> None:
    save_choices(db, proj / "src" / "stencil.c", DEFINES, "dynamic,4,t2", [str(proj / "include")])
    save_choices(db, proj / "main.c", DEFINES, "guided,-,t-", [str(proj / "include")])


def test_plain_build_uses_static_schedules(plain):
    assert not DYNAMIC.search(symbols(plain["dir"] / "build" / "stencil.o"))
    assert not GUIDED.search(symbols(plain["dir"] / "build" / "main.o"))
    assert "checksum" in plain["out"] and "marker 42" in plain["out"]


def test_parallel_build_compiles_tuned_loops(tmp_path, plain, capsys):
    proj = copy_project("make_project", tmp_path)
    env = hook_env(tmp_path)
    db = Path(env["AUTOTUNE_DB"])
    _tune(proj, db)
    from autotune.buildhook.wrapper import cmake_dir

    fragment = str(Path(cmake_dir()) / "autotune.mk")
    build = run(["make", "-j4", "-f", "Makefile", "-f", fragment, "CC=gcc"], proj, env)
    # the fragment's launcher wraps gcc, and make echoes it by its name
    assert "autotune-cc gcc -Iinclude" in build.stdout and "launch.py" not in build.stdout
    assert warnings_in(build.stderr) == []
    assert run(["./prog"], proj).stdout == plain["out"]
    assert DYNAMIC.search(symbols(proj / "build" / "stencil.o"))
    assert GUIDED.search(symbols(proj / "build" / "main.o"))

    rep = by_source(report(db, capsys))
    assert rep["stencil.c"]["used"] == "tuned"
    assert [(ld["used"], ld["variant"]) for ld in rep["stencil.c"]["loops"]] == [
        ("tuned", "dynamic,4,t2")
    ]
    assert rep["main.c"]["loops"][0]["variant"] == "guided,-,t-"
    assert rep["reduce.c"]["used"] == "original" and "no tuned result" in rep["reduce.c"]["reason"]
    assert set(rep) == {"main.c", "stencil.c", "reduce.c", "gnu_ext.c"}  # not the .s, not the link

    # dependency files come out byte for byte as with gcc, and make tracks the quoted header
    deps = {p.name: p.read_text() for p in (proj / "build").glob("*.d")}
    plain_deps = {p.name: p.read_text() for p in (plain["dir"] / "build").glob("*.d")}
    assert deps == plain_deps and len(deps) == 4
    assert deps["stencil.d"].startswith("build/stencil.o: src/stencil.c ")
    assert list((tmp_path / "tmp").iterdir()) == []  # temporary sources removed
    (proj / "src" / "local.h").write_text((proj / "src" / "local.h").read_text() + "\n")
    dry = run(["make", "-n", "CC=autotune-cc gcc"], proj, env).stdout
    assert "src/stencil.c" in dry and "src/reduce.c" not in dry

    # the header stencil.c includes was edited: decided again (the kept decision read the
    # old one); then a warm rebuild decides from the cache: no parse, same result
    run(["make", "clean"], proj, env)
    run(["make", "-j4", "CC=autotune-cc gcc"], proj, env)
    again = by_source(report(db, capsys))
    assert not again["stencil.c"]["cached"] and again["stencil.c"]["used"] == "tuned"
    assert again["reduce.c"]["cached"]  # it includes no edited header
    run(["make", "clean"], proj, env)
    run(["make", "-j4", "CC=autotune-cc gcc"], proj, env)
    warm = by_source(report(db, capsys))
    assert warm["stencil.c"]["cached"] and warm["stencil.c"]["used"] == "tuned"
    assert run(["./prog"], proj).stdout == plain["out"]


@pytest.mark.parametrize("case", ["corrupt-db", "fail-switch"])
def test_build_never_breaks(tmp_path, plain, case, capsys):
    proj = copy_project("make_project", tmp_path)
    env = hook_env(tmp_path)
    db = Path(env["AUTOTUNE_DB"])
    _tune(proj, db)
    if case == "corrupt-db":
        for p in db.parent.glob(db.name + "*"):
            p.unlink()
        db.write_bytes(b"this is not an SQLite database\n" * 200)
    else:
        env["AUTOTUNE_CC_FAIL"] = "1"
    build = run(["make", "-j4", "CC=autotune-cc gcc"], proj, env)
    assert run(["./prog"], proj).stdout == plain["out"]
    assert not DYNAMIC.search(symbols(proj / "build" / "stencil.o"))  # the original compiled
    lines = warnings_in(build.stderr)
    # the same failure in all 4 compiles with OpenMP is said once per build, and never
    # for the assembly or the link; the build report still lists every source
    assert len(lines) == 1, build.stderr
    assert lines[0].endswith("unchanged")
    if case == "fail-switch":
        assert "AUTOTUNE_CC_FAIL" in lines[0]
        rep = by_source(report(db, capsys))
        assert rep["stencil.c"]["used"] == "original" and rep["stencil.c"]["warning"]
        assert all(rep[s]["warning"] for s in ("main.c", "reduce.c", "stencil.c"))
    else:
        assert "database" in lines[0]
    again = run(["make", "-B", "-j4", "CC=autotune-cc gcc"], proj, env)  # a new build says it
    assert len(warnings_in(again.stderr)) == 1


def test_unparseable_source_compiles_original(tmp_path, plain, capsys):
    """gnu_ext.c uses a statement expression and __auto_type: gcc yes, pycparser no."""
    proj = copy_project("make_project", tmp_path)
    env = hook_env(tmp_path)
    db = Path(env["AUTOTUNE_DB"])
    _tune(proj, db)
    # A stored choice for gnu_ext.c makes the wrapper parse it (tune itself cannot).
    from autotune.buildhook import keys
    from autotune.measure.store import Store

    text = (proj / "src" / "gnu_ext.c").read_text()
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.lstrip().startswith("for"))
    col = text.splitlines()[line - 1].index("for") + 1
    with Store(db) as store:
        fp = store.conn.execute("SELECT fingerprint FROM machines").fetchone()[0]
        store.save_tuned(
            source_hash=keys.content_hash(text),
            flags_key=keys.defines_key(DEFINES),
            machine=fp,
            loop_id=keys.loop_key(line, col),
            variant_key="dynamic,8,t-",
            baseline_s=1.0,
            best_s=0.5,
        )
    build = run(["make", "-j4", "CC=autotune-cc gcc"], proj, env)
    assert run(["./prog"], proj).stdout == plain["out"]
    lines = warnings_in(build.stderr)
    assert len(lines) == 1 and "src/gnu_ext.c" in lines[0] and "cannot parse" in lines[0]
    rep = by_source(report(db, capsys))
    assert rep["gnu_ext.c"]["used"] == "original" and "cannot parse" in rep["gnu_ext.c"]["reason"]
    assert rep["stencil.c"]["used"] == "tuned"  # the other sources are unaffected
    assert not DYNAMIC.search(symbols(proj / "build" / "gnu_ext.o"))
