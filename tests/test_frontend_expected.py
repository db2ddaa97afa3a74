"""The front end against independently computed expectations (brute force, see
tests/data/c/make_expected.py): every OpenMP loop of every kernel and of the
third-party-style programs, with exact trip counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autotune.analysis import analyze_file
from autotune.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
KERNELS = json.loads((DATA / "kernels_expected.json").read_text())
THIRD = json.loads((DATA / "c" / "expected.json").read_text())


def cases(doc: dict, base: Path):
    for name, entry in doc["files"].items():
        if entry.get("loops"):
            yield pytest.param(base / name, entry["loops"], id=name)


def check(path: Path, expected: list[dict]) -> None:
    unit = analyze_file(str(path), threads=2)
    got = {r.line: r for r in unit.loops}
    assert sorted(got) == sorted(e["line"] for e in expected), "loops found"
    for e in expected:
        r = got[e["line"]]
        where = f"{path.name}:{e['line']}"
        assert r.directive.line == e["pragma_line"], where
        assert r.directive.kind == e["directive"], where
        assert r.function == e["function"], where
        # issue 2: an unknown trip count also makes a loop not tunable (nothing to rank)
        tunable = e["tunable"] and e["trip_count"] is not None
        assert r.tunable == tunable, f"{where}: {r.reason}"
        if not tunable:
            assert r.reason, where
        assert r.trip_count == e["trip_count"], where
        if e.get("iterations") is not None:
            assert r.iterations == e["iterations"], where
        if e.get("executions") is not None and r.trip_count is not None:
            assert (r.executions or 1) == e["executions"], where


@pytest.mark.parametrize("path,expected", list(cases(KERNELS, ROOT / "kernels")))
def test_kernel_loops_match_brute_force(path, expected):
    check(path, expected)


@pytest.mark.parametrize("path,expected", list(cases(THIRD, DATA / "c")))
def test_third_party_style_loops(path, expected):
    check(path, expected)


def test_every_kernel_is_covered():
    assert {p.name for p in (ROOT / "kernels").glob("*.c")} == set(KERNELS["files"])


def test_syntax_error_file_line(capsys):
    path = DATA / "c" / "syntax_error.c"
    assert main(["analyze", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert f"{path}:{THIRD['files']['syntax_error.c']['syntax_error_line']}:" in err
    assert len(err.splitlines()) == 1


def test_file_without_openmp(capsys):
    assert main(["analyze", str(DATA / "c" / "no_omp.c")]) == 0
    assert "0 OpenMP loop(s)" in capsys.readouterr().out
