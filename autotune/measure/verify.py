"""Is a variant's output the original's output? Exactly, unless the loop reassociates.

A schedule or thread count that the legality proof allows changes nothing a
program computes, except the order of floating-point reductions (a reduction
clause, a per-thread partial sum). So text and integers must always be equal,
and numbers printed with a fraction or exponent too, unless the comparison is
``tolerant`` (a loop flagged as reassociating); then they match when

    |a - b| <= max(rtol * max(|a|, |b|), atol)

(defaults rtol = 1e-6, atol = 1e-9), or, for two numbers printed with a
fraction or exponent and the same number of digits, when they differ by one
unit in the last printed digit (a rounding flip of a value printed with few
digits). Integers printed without a fraction are compared exactly either way.
Everything that is not a number must be equal; runs of whitespace are
treated as one separator.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

FILE_MARK = "\x00autotune-file"  # where a result file's section starts (measure.outfiles)
DEFAULT_RTOL = 1e-6
DEFAULT_ATOL = 1e-9
CHECK_MODES = ("stdout", "stderr", "both", "files", "none")
HIDDEN = "\x01"  # a number left out of the comparison (measure.outputmask), on both sides

NUMBER = re.compile(
    r"[-+]?(?:(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|inf(?:inity)?|nan)(?![A-Za-z_])",
    re.IGNORECASE,
)


def tokens(text: str) -> list[str | float]:
    """Whitespace-separated words, each split into number and non-number pieces."""
    out: list[str | float] = []
    for word in text.split():
        pos = 0
        for m in NUMBER.finditer(word):
            if m.start() > pos:
                out.append(word[pos : m.start()])
            out.append(_Num(m.group()))
            pos = m.end()
        if pos < len(word):
            out.append(word[pos:])
    return out


class _Num(float):
    """A float that remembers how it was printed (for the last-digit allowance)."""

    text: str

    def __new__(cls, text: str) -> _Num:
        obj = super().__new__(cls, float(text))
        obj.text = text
        return obj

    def last_digit_unit(self) -> float | None:
        t = self.text.lower().lstrip("+-")
        if "inf" in t or "nan" in t:
            return None
        mant, _, exp = t.partition("e")
        if "." not in mant and not exp:
            return None  # an integer: counts must match
        decimals = len(mant.split(".", 1)[1]) if "." in mant else 0
        try:
            return 10.0 ** (-decimals + (int(exp) if exp else 0))
        except OverflowError:  # "3e859" in a hexadecimal digest: no unit to speak of
            return None


def numbers_close(
    a: float, b: float, rtol: float = DEFAULT_RTOL, atol: float = DEFAULT_ATOL
) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    diff = abs(a - b)
    if diff <= max(rtol * max(abs(a), abs(b)), atol):
        return True
    if isinstance(a, _Num) and isinstance(b, _Num):
        ua, ub = a.last_digit_unit(), b.last_digit_unit()
        if ua is not None and ua == ub:
            return diff <= ua * (1 + 1e-9)
    return False


def compare_outputs(
    expected: str,
    actual: str,
    rtol: float = DEFAULT_RTOL,
    atol: float = DEFAULT_ATOL,
    tolerant: bool = False,
) -> tuple[bool, str]:
    """(True, "") when ``actual`` matches ``expected``; else (False, first difference).

    ``tolerant``: floating-point numbers may differ within rtol/atol (the loops compared
    reassociate a floating-point reduction); integers never may. Equal texts, or texts
    whose lines match pair by pair, are settled without tokenising the whole: a result
    file of a million values is compared in a fraction of a second, not in seconds per
    run."""
    if expected == actual:
        return True, ""
    if _lines_match(expected, actual, rtol, atol, tolerant):
        return True, ""
    exp, act = tokens(expected), tokens(actual)
    for i, (e, a) in enumerate(zip(exp, act, strict=False)):
        e_num, a_num = isinstance(e, float), isinstance(a, float)
        if e_num and a_num:
            if not _numbers_match(e, a, rtol, atol, tolerant):
                return False, f"{_where(expected, i)}: expected {e.text}, got {a.text}"
        elif e_num or a_num or e != a:
            return False, f"{_where(expected, i)}: expected {_show(e)!r}, got {_show(a)!r}"
    if len(exp) != len(act):
        return False, f"expected {len(exp)} tokens, got {len(act)}"
    return True, ""


def _lines_match(expected: str, actual: str, rtol: float, atol: float, tolerant: bool) -> bool:
    """Every line matches its counterpart (then the token streams, their concatenations,
    match too); False also when the line counts differ or a pair does not match, which
    the whole comparison then decides (tokens may move between lines)."""
    exp, act = expected.splitlines(), actual.splitlines()
    if len(exp) != len(act):
        return False
    return all(
        e == a or line_matches(e, a, rtol, atol, tolerant) for e, a in zip(exp, act, strict=True)
    )


def line_matches(expected: str, actual: str, rtol: float, atol: float, tolerant: bool) -> bool:
    """One line against another, as ``compare_outputs`` compares their tokens."""
    exp, act = tokens(expected), tokens(actual)
    if len(exp) != len(act):
        return False
    for e, a in zip(exp, act, strict=True):
        if isinstance(e, float) and isinstance(a, float):
            if not _numbers_match(e, a, rtol, atol, tolerant):
                return False
        elif isinstance(e, float) or isinstance(a, float) or e != a:
            return False
    return True


def _where(text: str, index: int) -> str:
    """Token ``index`` of ``text`` as a reader finds it: its line, and the line's words."""
    seen = 0
    for number, line in enumerate(text.splitlines(), 1):
        count = len(tokens(line))
        if index < seen + count:
            words = " ".join(line.split()).replace(HIDDEN, "…")
            shown = words if len(words) <= 60 else words[:57] + "..."
            return f"line {number} ({shown!r})"
        seen += count
    return f"token {index + 1}"


def _numbers_match(e: _Num, a: _Num, rtol: float, atol: float, tolerant: bool) -> bool:
    if not tolerant and _negative(e) != _negative(a):
        return False  # -0 and 0: a max that kept another zero, or 1/x of one, tells them apart
    if _integer(e) or _integer(a):  # counts and checksums: exactly, always
        return _integer(e) and _integer(a) and int(e.text.lstrip("+")) == int(a.text.lstrip("+"))
    if not tolerant:
        return e.text == a.text or float(e) == float(a)
    return numbers_close(e, a, rtol, atol)


def _negative(n: _Num) -> bool:
    return n.text.startswith("-")


def _integer(n: _Num) -> bool:
    t = n.text.lower()
    return not any(c in t for c in ".e") and "inf" not in t and "nan" not in t


def _show(t: str | float) -> str:
    return t.text if isinstance(t, _Num) else str(t).replace(HIDDEN, "…")


def select_output(stdout: str, stderr: str, check: str) -> str:
    """The text compared for ``--check MODE``."""
    if check == "stdout":
        return stdout
    files = stdout.find("\n" + FILE_MARK)  # the result files (--check-file), after stdout
    if check == "stderr":
        return stderr + (stdout[files:] if files >= 0 else "")
    if check == "files":  # only the result files: the program prints timings alone
        return stdout[files:] if files >= 0 else ""
    if check == "both":
        return stdout + "\n\x00autotune-stderr\x00\n" + stderr
    return ""


def checked_output(
    stdout: str, stderr: str, check: str, patterns: Iterable[re.Pattern[str]]
) -> str:
    """The output as compared: the part ``--check`` names, less the ``--check-ignore``
    lines."""
    return drop_lines(select_output(stdout, stderr, check), patterns)


def drop_lines(text: str, patterns: Iterable[re.Pattern[str]]) -> str:
    """Remove lines matching any pattern (e.g. a program printing its own timing)."""
    pats = list(patterns)
    if not pats:
        return text
    return "\n".join(ln for ln in text.splitlines() if not any(p.search(ln) for p in pats))
