"""A kept decision holds only for the headers it was made with: the build hook's caches
name the include directories and carry the manifest of the user's headers (ccache's
direct mode), so a size changed in a generated header is decided again, as the proof
at the new size says, and never ships a variant proven at the old size."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from buildhook_support import by_source, hook_env, report, run, save_choices, wrapper_exe

from autotune.measure.machine import detect_machine
from autotune.measure.store import Store
from autotune.models.defaults import load_model
from autotune.tuning.modelchoice import PREFERENCE

pytestmark = pytest.mark.slow  # real builds through the hook: the long suite (-m slow)

DATA = Path(__file__).parent / "data" / "buildhook" / "header_sizes"
CHAIN_ENDS = {18, 28}  # the planes i = 1 and i = NX - 3: one plane at NX = 4


def _project(tmp_path: Path) -> tuple[Path, dict]:
    """The source with a generated header of 12 grid points, and a hook environment in
    rank mode whose stored rule ships every predicted gain."""
    proj = tmp_path / "proj"
    proj.mkdir()
    shutil.copy(DATA / "dissipation.c", proj / "dissipation.c")
    shutil.copy(DATA / "grid12" / "gridparams.h", proj / "gridparams.h")
    env = hook_env(tmp_path, AUTOTUNE_MODE="rank")
    doc = load_model("extended", None).to_dict()
    doc["ship_rule"] = {"min_gain": 1.0, "loops": 5, "lost": 2}
    with Store(env["AUTOTUNE_DB"]) as store:
        fp = store.add_machine(detect_machine())
        store.save_model("extended", fp, "wall", doc)
        store.save_model(PREFERENCE, fp, "wall", {"model": "extended", "reason": "test"})
    return proj, env


def _build(proj: Path, env: dict, capsys, *flags: str) -> dict[int, dict]:
    """Build through the wrapper; each loop's decision by line, and the output checked
    against the plain build's."""
    cc = ["gcc", "-fopenmp", "-O2", *flags, "dissipation.c"]
    run([*cc, "-o", "plain"], proj, env)  # the same environment (CPATH)
    run([wrapper_exe(), *cc, "-o", "hooked"], proj, env)
    assert run(["./hooked"], proj).stdout == run(["./plain"], proj).stdout
    loops = by_source(report(Path(env["AUTOTUNE_DB"]), capsys))["dissipation.c"]["loops"]
    return {ld["line"]: ld for ld in loops}


def _decision(env: dict) -> dict:
    """The last build's record of the source (the wrapper's log)."""
    import json

    log = Path(env["AUTOTUNE_DB"]).with_name("results.builds.jsonl")
    return json.loads(log.read_text().splitlines()[-1])["sources"][0]


def _tuned(loops: dict[int, dict]) -> set[int]:
    return {line for line, ld in loops.items() if ld["used"] == "tuned"}


def test_an_edited_header_is_decided_again(tmp_path, capsys):
    proj, env = _project(tmp_path)
    assert _tuned(_build(proj, env, capsys)) == {18, 23, 28}
    header = proj / "gridparams.h"
    header.write_text(header.read_text().replace("NX 12", "NX 4"))
    loops = _build(proj, env, capsys)
    assert _tuned(loops) == {23}, loops  # the kept decision would ship all three
    for line in CHAIN_ENDS:
        assert "nowait chain" in loops[line]["reason"], loops[line]
    # back to 12 points, with the old modification time: the bytes decide, not the time;
    # the decision made at 12 points is found again, kept beside the one made at 4
    stat = header.stat()
    header.write_text(header.read_text().replace("NX 4", "NX 12"))
    os.utime(header, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    loops = _build(proj, env, capsys)
    assert _tuned(loops) == {18, 23, 28}
    assert _decision(env)["cached"]


def test_the_include_directories_are_part_of_the_key(tmp_path, capsys):
    """The same source and defines, another ``-I``: another ``gridparams.h`` is found."""
    proj, env = _project(tmp_path)
    (proj / "gridparams.h").unlink()
    for grid in ("grid12", "grid4"):
        shutil.copytree(DATA / grid, proj / grid)
    assert _tuned(_build(proj, env, capsys, "-Igrid12")) == {18, 23, 28}
    assert _tuned(_build(proj, env, capsys, "-Igrid4")) == {23}


def test_the_include_path_of_the_environment_is_part_of_the_key(tmp_path, capsys):
    """``CPATH`` names another directory: another ``gridparams.h`` is found."""
    proj, env = _project(tmp_path)
    (proj / "gridparams.h").unlink()
    for grid in ("grid12", "grid4"):
        shutil.copytree(DATA / grid, proj / grid)
    assert _tuned(_build(proj, dict(env, CPATH=str(proj / "grid12")), capsys)) == {18, 23, 28}
    assert _tuned(_build(proj, dict(env, CPATH=str(proj / "grid4")), capsys)) == {23}


def test_apply_mode_checks_a_stored_winner_against_the_headers_of_today(tmp_path, capsys):
    """A winner measured at 12 grid points, the header now at 4: the chain's loops are
    compiled as written, and the log says why."""
    proj, env = _project(tmp_path)
    env["AUTOTUNE_MODE"] = "apply"
    save_choices(Path(env["AUTOTUNE_DB"]), proj / "dissipation.c", {}, "dynamic,16,t-")
    assert _tuned(_build(proj, env, capsys)) == {18, 23, 28}
    header = proj / "gridparams.h"
    header.write_text(header.read_text().replace("NX 12", "NX 4"))
    loops = _build(proj, env, capsys)
    assert _tuned(loops) == {23}
    for line in CHAIN_ENDS:
        assert "cannot take as it is compiled now" in loops[line]["reason"], loops[line]
        assert "nowait chain" in loops[line]["reason"]
