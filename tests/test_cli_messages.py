"""What a person reads: paths of what was written, plots that exist, plain notes
where a figure looks wrong, and option values read as their help says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tune_support import SMALL_BUDGET

from autotune.cli.main import main
from autotune.cli.predict import _parse_epsilon

ROOT = Path(__file__).parent.parent

NOISY = """n,p,time
100,1,1.0
200,1,2.3
300,1,2.9
400,1,4.4
100,2,0.6
200,2,1.1
300,2,1.8
400,2,2.1
100,4,0.4
200,4,0.7
300,4,1.1
400,4,1.2
"""


def test_epsilon_reads_as_the_help_says():
    assert _parse_epsilon("2%") == _parse_epsilon("2") == _parse_epsilon("0.02") == 0.02
    assert _parse_epsilon("10") == 0.10


def test_predict_plot_when_an_estimate_fails_is_no_traceback(tmp_path, capsys):
    table = tmp_path / "t.csv"
    table.write_text(NOISY)
    rc = main(
        [
            "predict",
            str(table),
            "--skeleton",
            "farm",
            "--at",
            "n=800,p=4",
            "--plot",
            str(tmp_path / "p.png"),
            "--strict",
        ]
    )
    captured = capsys.readouterr()
    assert rc == 2 and "Traceback" not in captured.err
    assert captured.err.count("\n") == 1 and "no method within epsilon" in captured.err
    assert (tmp_path / "p.png").stat().st_size > 0  # the evidence is still drawn


def test_structure_measure_plot_is_written_and_said(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    png = tmp_path / "s.png"
    rc = main(
        [
            "structure",
            str(ROOT / "kernels" / "stencil2d.c"),
            "--measure",
            "--repetitions",
            "1",
            "--plot",
            str(png),
            "--quiet",
        ]
    )
    assert rc == 0 and png.stat().st_size > 0
    assert f"plot written to {png}" in capsys.readouterr().out


@pytest.mark.slow
def test_tune_says_where_its_results_went(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    db = tmp_path / "r.db"
    tune = ["tune", str(ROOT / "kernels" / "tiny.c"), *SMALL_BUDGET, "--db", str(db)]
    tune.append("--allow-busy")  # where results go is said whatever the machine's load
    assert main([*tune, "-q"]) == 0 and db.exists()
    assert f"runs and decisions stored in {db}" in capsys.readouterr().out
    assert main([*tune, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["database"] == str(db)


def test_no_loop_files_are_one_line_errors(tmp_path, capsys):
    empty = tmp_path / "empty.c"
    empty.write_text("")
    for command in (["rank"], ["tune"], ["variants", "-o", str(tmp_path / "v")]):
        assert main([command[0], str(empty), *command[1:]]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "no OpenMP worksharing loop" in err


def test_data_files_that_are_not_utf8_are_one_line_errors(tmp_path, capsys):
    samples = tmp_path / "s.txt"
    samples.write_bytes(b"1.0\n2.\xe9\n")
    table = tmp_path / "m.csv"
    table.write_bytes(b"p,n,seconds\n1,100,1.0\n2,100,0.6\xe9\n")
    for argv in (
        ["compose", str(samples), str(samples)],
        ["isoefficiency", "--measurements", str(table)],
        ["predict", str(table), "--skeleton", "farm", "--at", "n=200,p=2"],
    ):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err and ":" in err, (argv, err)


def test_option_values_that_start_with_a_dash(capsys):
    """``--cflags "-DN=64"`` and ``--chunks -,8`` as a user types them (argparse alone
    takes such a value for an option of its own)."""
    kernel = str(Path(__file__).parent.parent / "kernels" / "triad.c")
    assert main(["analyze", kernel, "--cflags", "-DN=64 -O3", "--json"]) == 0
    (loop,) = json.loads(capsys.readouterr().out)["loops"]
    assert loop["trip_count"] == 64
    assert main(["rank", kernel, "--cflags", "-DN=64", "--chunks", "-,8", "--json"]) == 0


@pytest.mark.parametrize(
    "argv",
    [
        ["analyze"],
        ["rank"],
        ["tune"],
        ["variants", "-o", "out"],
        ["measure"],
        ["scale", "--sizes", "N=1,2"],
        ["structure"],
    ],
)
def test_a_missing_file_reads_the_same_in_every_command(argv, tmp_path, capsys, monkeypatch):
    """``FILE: no such file``, one line, exit 2, whichever command is given it."""
    monkeypatch.chdir(tmp_path)
    rc = main([argv[0], "nope.c", *argv[1:]])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and err[0].endswith("nope.c: no such file"), err


def test_every_argument_of_every_command_says_what_it_is():
    """``--help`` describes each positional and each option of every command (a bare
    ``FILE.c`` or ``--cc CC`` tells a newcomer nothing)."""
    import argparse

    from autotune.cli.main import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    bare = [
        f"{name} {action.dest}"
        for name, command in sub.choices.items()
        for action in command._actions
        if not isinstance(action, argparse._HelpAction) and not action.help
    ]
    assert bare == [], bare


def test_analyze_writes_weighted_ops_in_one_format_down_the_column(capsys):
    """Thousands separators below a million, three decimals of a power of ten above (the
    column had mixed ``1000``, ``1.1e+04`` and ``2.250e+08``)."""
    import re
    from pathlib import Path

    kernels = sorted(str(p) for p in (Path(__file__).parent.parent / "kernels").glob("*.c"))
    assert main(["analyze", *kernels]) == 0
    lines = capsys.readouterr().out.splitlines()
    cells = []
    for k, line in enumerate(lines):
        if line.startswith("loop ") and "weighted ops" in line:
            end = line.index("weighted ops") + len("weighted ops")  # right-aligned cells
            for row in lines[k + 2 :]:
                if not row.strip() or row.startswith((" ", "loop ")) or "OpenMP loop(s)" in row:
                    break
                cells.append(row[:end].split()[-1])
    assert len(cells) >= 10
    form = re.compile(r"^(-|\d{1,3}(,\d{3})*|\d+(\.\d+)?|\d\.\d{3}e\+\d\d)$")
    assert all(form.match(c) for c in cells), cells
    assert not any(re.search(r"\de\+0[0-5]$", c) for c in cells), cells
