"""Output comparison: text and integers exactly; floating-point numbers exactly, or
within the stated tolerance when the loop reassociates a reduction (``tolerant``)."""

from __future__ import annotations

from autotune.measure.verify import compare_outputs, drop_lines, select_output


def ok(a: str, b: str, **kw) -> bool:
    """Compared as for a loop that reassociates a floating-point reduction."""
    return compare_outputs(a, b, tolerant=True, **kw)[0]


def exact(a: str, b: str) -> bool:
    """Compared as for a loop that reassociates nothing (the default)."""
    return compare_outputs(a, b)[0]


def test_without_reassociation_every_number_must_be_equal():
    assert exact("sum = 1.644929066861e+00", "sum = 1.644929066861e+00")
    assert not exact("sum = 1.644929066861e+00\n", "sum = 1.644929066862e+00\n")
    assert not exact("avg 0.12", "avg 0.13")
    assert exact("r 0.50", "r 0.5")  # the same value printed another way
    assert exact("nan inf", "nan inf")


def test_the_sign_of_a_zero_is_part_of_an_exact_result():
    """-0.0 and 0.0 compare equal in C, but printf tells them apart and 1/x of them is
    -inf or inf: only a reassociating loop (a floating-point max may keep either) may
    print the other."""
    assert not exact("largest climb -0", "largest climb 0")
    assert not exact("x -0.000000", "x 0.000000")
    assert exact("x -0.000000", "x -0.000000")
    assert ok("largest climb -0", "largest climb 0")
    assert not ok("x -1", "x 1")


def test_integers_are_exact_even_with_a_tolerance():
    assert not ok("checksum 1000000", "checksum 1000001")  # 1e-6 relative: still wrong
    assert not exact("checksum 1000000", "checksum 1000001")
    assert not ok("n 3", "n 3.0")


def test_reordered_sums_pass_real_errors_fail():
    assert ok("sum = 1.644929066861e+00\n", "sum = 1.644929066862e+00\n")
    assert ok("x 1000000.0", "x 1000000.5")  # 5e-7 relative
    assert not ok("x 1000000.0", "x 1000002.0")  # 2e-6 relative
    assert not ok("sum = 1.644929066861e+00", "sum = 1.646573995928e+00")
    ok_, msg = compare_outputs("a 1.5 b", "a 1.5 c")
    assert not ok_ and "'b'" in msg and "'c'" in msg


def test_absolute_tolerance_near_zero_and_special_values():
    assert ok("r 1.2e-17", "r -3.4e-17")
    assert not ok("r 1.2e-17", "r 2.0e-8")
    assert ok("r -0.000000", "r 0.000000")
    assert ok("nan inf -inf", "nan inf -inf")
    assert not ok("inf", "-inf") and not ok("nan", "1.0")
    assert not ok("r 1.00", "r 1.10", atol=0.01)
    assert ok("r 1.000", "r 1.005", rtol=0.01)
    assert not ok("r 1.000", "r 1.005")


def test_last_printed_digit_flip_is_accepted_for_fractions_only():
    assert ok("avg 0.12", "avg 0.13")  # a rounding flip at 2 decimals
    assert not ok("avg 0.12", "avg 0.14")
    assert ok("v 1.5e+03", "v 1.6e+03")
    assert not ok("count 10", "count 11")  # integers must match exactly
    assert not ok("avg 0.12", "avg 0.130")  # different printed precision


def test_token_structure_and_whitespace():
    assert ok("a  b\n\n1 2\n", "a b 1\t2")
    ok_, msg = compare_outputs("1 2 3", "1 2")
    assert not ok_ and "3 tokens" in msg
    assert not ok("x1", "x2") and ok("x1y", "x1y")


def test_a_result_file_compared_line_by_line_gives_the_whole_comparisons_verdict():
    """Long outputs are compared line by line first (tokens only of lines that differ);
    the verdict and the place named are those of the token-by-token comparison."""
    rows = "".join(f"{i}\t{0.5 * i:g}\n" for i in range(20000))
    assert exact(rows, rows.replace("\t", "   "))
    wrong = rows.replace("\n1234\t617\n", "\n1234\t617.5\n")
    same, msg = compare_outputs(rows, wrong)
    assert not same and msg.startswith("line 1235 ('1234 617'): expected 617, got 617.5"), msg
    # tokens that move to another line are still the same tokens
    assert exact("1 2\n3\n", "1\n2 3\n")
    assert not exact("1 2\n3\n", "1\n2 4\n")
    # a reassociated sum on one line of many: within the tolerance only when tolerant
    summed = rows + "sum 1.000000001e+08\n"
    other = rows + "sum 1.000000002e+08\n"
    assert not exact(summed, other) and ok(summed, other)


def test_selection_and_ignored_lines():
    assert select_output("o", "e", "stdout") == "o"
    assert select_output("o", "e", "stderr") == "e"
    assert "o" in select_output("o", "e", "both") and "e" in select_output("o", "e", "both")
    assert select_output("o", "e", "none") == ""
    import re

    text = "result 3\ntime 0.51 s\n"
    assert drop_lines(text, [re.compile(r"^time")]) == "result 3"
    assert ok(
        drop_lines(text, [re.compile("^time")]),
        drop_lines("result 3\ntime 9.9 s\n", [re.compile("^time")]),
    )


def test_a_digest_that_reads_as_a_huge_number_compares_as_text():
    digest = "image_out.pgm 3e859a0c41"
    assert exact(digest, digest) and ok(digest, digest)
    assert not exact(digest, "image_out.pgm 3e859a0c42")
