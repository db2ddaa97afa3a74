"""``autotune predict`` driven the way a user runs it."""

import json
from importlib import resources

import pytest

from autotune.cli.main import main


@pytest.fixture
def rm_csv(tmp_path):
    path = tmp_path / "rm.csv"
    path.write_text(
        (resources.files("autotune") / "data" / "lobachev_rabin_miller_table4.csv").read_text()
    )
    return path


def test_predict_json_with_known_value_choice(rm_csv, capsys):
    rc = main(
        [
            "predict",
            str(rm_csv),
            "--skeleton",
            "iteration",
            "--at",
            "n=11213,p=8",
            "--known",
            "n<=9689",
            "--select",
            "known",
            "--json",
        ]
    )
    assert rc == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["T_n"]["chosen"] == "lm(poly)" and doc["Abar"]["chosen"].startswith("mean(")
    assert doc["T_n_p"] == pytest.approx(21.78, abs=0.005)
    assert doc["measured"] == 21.78 and doc["ok"] is True
    errors = {m["method"]: m["error"] for m in doc["T_n"]["methods"]}
    assert set(errors) >= {"spline", "loess", "lm(poly)", "lm"}


def test_predict_text_and_plot(rm_csv, tmp_path, capsys):
    png = tmp_path / "fig.png"
    rc = main(
        [
            "predict",
            str(rm_csv),
            "--skeleton",
            "iteration",
            "--at",
            "n=11213,p=8",
            "--known",
            "n<=9689",
            "--select",
            "known",
            "--plot",
            str(png),
            "--penalties",
        ]
    )
    out = capsys.readouterr().out
    assert rc == 0
    assert "relative reference point" in out and "-> lm(poly)" in out
    assert "T(n,8) = W + Abar" in out and "relative error" in out
    assert "f p=8" in out and "Abar n=9689" in out  # Abar and f by p and by n
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000


def test_failed_choice_prints_evidence_and_exits_2_when_strict(rm_csv, capsys):
    rc = main(
        [
            "predict",
            str(rm_csv),
            "--skeleton",
            "iteration",
            "--at",
            "n=11213,p=8",
            "--known",
            "n<=9689",
            "--strict",
        ]
    )
    cap = capsys.readouterr()
    assert rc == 2
    assert "held-out n=9689" in cap.out and "FAILED" in cap.out
    assert cap.err.count("\n") == 1 and "take more measurements" in cap.err


def test_without_strict_the_best_estimate_is_given_marked_with_what_would_help(rm_csv, capsys):
    """Real life: the paper's failure becomes an estimate marked UNCHECKED, with the check
    errors, and the measurement that would help; the JSON says so too."""
    argv = [
        "predict",
        str(rm_csv),
        "--skeleton",
        "iteration",
        "--at",
        "n=11213,p=8",
        "--known",
        "n<=9689",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "UNCHECKED" in out and "held-out n=9689" in out and "would help: T(n)" in out
    assert main([*argv, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["unchecked"] and doc["T_n_p"] > 0 and doc["suggestions"]
    assert doc["T_n"]["unchecked"] and doc["T_n"]["methods"]


def test_long_format_harness_table(tmp_path, capsys):
    path = tmp_path / "runs.csv"
    lines = ["n,p,time"]
    for n in range(100, 900, 100):
        for p in (1, 2):
            for rep in (0.99, 1.01):  # repeated runs are averaged
                lines.append(f"{n},{p},{rep * (1e-4 * n**2 / p + 0.01 * p + 1e-3 * n):.9f}")
    path.write_text("\n".join(lines) + "\n")
    rc = main(["predict", str(path), "--at", "n=1000,p=2", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert rc == 0 and doc["direction"] == "n"
    expected = 1e-4 * 1000**2 / 2 + 0.02 + 1.0
    assert doc["T_n_p"] == pytest.approx(expected, rel=1e-6)


@pytest.mark.parametrize(
    "content, args, message",
    [
        ("n,p,time\n1,2,x\n", ["--at", "n=3,p=2"], "bad.csv:2: not a number"),
        ("n,p,time\n1,2,1\n", ["--at", "n=3"], "--at needs p"),
        ("n,p,time\n1,2,1\n", ["--at", "n=3,p=2", "--epsilon", "abc"], "--epsilon"),
        ("set,n,T_n_8\na,1,1\nb,1,2\n", ["--at", "n=3,p=8"], "--where set=VALUE"),
    ],
)
def test_bad_input_is_one_line(tmp_path, capsys, content, args, message):
    path = tmp_path / "bad.csv"
    path.write_text(content)
    rc = main(["predict", str(path), *args])
    err = capsys.readouterr().err
    assert rc == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err


def test_where_and_fixed_method(tmp_path, capsys):
    path = tmp_path / "k.csv"
    path.write_text(
        (resources.files("autotune") / "data" / "lobachev_karatsuba_table3.csv").read_text()
    )
    rc = main(
        [
            "predict",
            str(path),
            "--where",
            "set=nonuniform",
            "--skeleton",
            "dc",
            "--at",
            "n=128,p=8",
            "--known",
            "n<=64",
            "--method",
            "lmpoly",
            "--json",
        ]
    )
    doc = json.loads(capsys.readouterr().out)
    assert rc == 0 and doc["T_n_p"] == pytest.approx(36.41, abs=0.01)


def test_a_slowdown_is_not_printed_as_a_serial_fraction(tmp_path, capsys):
    """Two threads slower than one (oversubscribed): Karp-Flatt's f is above 1, and the
    estimate says what that means instead of calling 1.9 a fraction."""
    path = tmp_path / "slow.csv"
    lines = ["n,p,time"]
    for n in range(100, 900, 100):
        lines.append(f"{n},1,{1e-4 * n**2:.9f}")
        lines.append(f"{n},2,{1.9e-4 * n**2:.9f}")
    path.write_text("\n".join(lines) + "\n")
    assert main(["predict", str(path), "--at", "n=1000,p=2"]) == 0
    out = capsys.readouterr().out
    row = next(ln for ln in out.splitlines() if "serial fraction f (Karp-Flatt)" in ln)
    assert "above 1: T(n,p) is slower than the reference T(n)" in row
