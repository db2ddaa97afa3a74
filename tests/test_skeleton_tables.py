"""Reading long, wide and by-p tables; one-line errors for bad input."""

import pytest

from autotune.errors import UserError
from autotune.skeletons.tables import SEQ, from_rows, parse_table, read_table


def test_long_format_with_sequential_rows_and_repeats():
    t = parse_table(
        "# runs\nn,p,time\n100,seq,4.0\n100,1,4.2\n100,2,2.3\n100,2,2.5\n200,1,16.4\n", "t.csv"
    )
    assert t.time(100.0, SEQ) == 4.0
    assert t.time(100.0, 2) == pytest.approx(2.4)  # mean of the two runs
    assert t.pes() == [1, 2] and t.sizes() == [100.0, 200.0]
    assert any("repeated" in note for note in t.notes)


def test_wide_format_like_the_paper():
    t = parse_table("n,T_n,T_n_1,T_n_7\n40,0.7,0.7368,0.2772\n50,,1.3365,0.4833\n", "w.csv")
    assert t.time(40.0, SEQ) == 0.7 and t.time(50.0, SEQ) is None
    assert t.time(50.0, 7) == 0.4833


def test_by_p_table_and_ignored_columns(tmp_path):
    f = tmp_path / "lbm.csv"
    f.write_text("# fixed size\np,T_n_p,Abar_printed\n32768,16.285,0\n65536,9.99,\n")
    t = read_table(f)
    assert t.fixed_n and t.pes() == [32768, 65536] and t.time(0.0, 65536) == 9.99


def test_text_column_needs_where():
    text = "set,n_thousands,T_n_8\nuniform,16,1.29\nnonuniform,16,1.28\n"
    with pytest.raises(UserError, match="--where set=VALUE"):
        parse_table(text, "k.csv")
    t = parse_table(text, "k.csv", {"set": "nonuniform"})
    assert t.time(16.0, 8) == 1.28 and t.n_label == "n_thousands"


@pytest.mark.parametrize(
    "text, message",
    [
        ("n,p,time\n1,2,abc\n", "k.csv:2: not a number"),
        ("n,p,time\n1,2.5,1\n", "k.csv:2: p must be a whole number"),
        ("n,p,time\n1,2,-1\n", "k.csv:2: negative time"),
        ("x,y\n1,2\n", "unrecognised header"),
        ("# nothing\n", "empty table"),
    ],
)
def test_bad_tables_are_user_errors_with_location(text, message):
    with pytest.raises(UserError) as exc:
        parse_table(text, "k.csv")
    assert message in str(exc.value)


def test_missing_file():
    with pytest.raises(UserError, match="cannot read table"):
        read_table("/nonexistent/x.csv")


def test_rows_from_a_harness():
    t = from_rows([(200, 1, 0.5), {"n": 200, "p": 2, "time": 0.3}])
    assert t.time(200.0, 2) == 0.3
