"""Which numbers of a program's output are not compared, and why.

Real programs report their own run time: NPB's ``Time in seconds = 0.05`` and
``Mop/s total``, XSBench's ``Runtime`` and ``Lookups/s``, Rodinia's ``TIME TO ... TOOK``,
STREAM's table of rates. No two runs print the same figures there, and a faster
variant prints other ones by design, so comparing them rejects every variant of a
program its author wrote. Three rules, what they leave out said in the report:

* a number that the words around it make a time or a rate (followed by a unit: ``0.25 s``,
  ``MB/s``; the first number after ``took``, ``Runtime:``, ``Time in seconds =``, ``Total
  time:``) is not compared, also where the original's runs happen to agree (``0.05``
  twice, then ``0.04`` from a faster variant); a residual on the same line still is;
* a row of a table under a header of times or rates: the numbers under a header word of
  time or rate, column by column (STREAM's ``Copy: 9735.3 0.016530 ...`` under ``Best Rate
  MB/s  Avg time``; not an ``Iter  Residual  Time(s)`` table's residuals);
* a line in weaker words (``time``, ``rate``, ``clock``): only the numbers that differ
  between runs of the original as written.

A pointer a program prints (``allocated at 0x7f4fc1ff9010``) moves between runs with the
address-space randomisation: it is left out on the lines where the original's runs
differ. Every other number is compared as before, and the words of every line must match.
A result that changes between runs of the original (a clock-seeded simulation) is still
said to be unstable, and its variants are not verified. ``--check-timings`` turns this
off: every number is compared.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from autotune.measure import verify

NOT_COMPARED = "not compared: "  # how the report's note on what was left out starts
HIDDEN = verify.HIDDEN  # what a number left out of the comparison reads as

# words after which the next number is a time or a rate: "TOOK: 0.000005", "Runtime: 0.1",
# "Time in seconds = 0.05", "Mop/s total = 1234.5", "Total time: 0.05", "Time consumed(ms):"
_KEYWORD = re.compile(
    r"\b(?:took|elapsed|seconds?|secs?|msecs?|usecs?|milliseconds?|microseconds?|"
    r"nanoseconds?|runtime|run-time|wall-?time|wall-?clock|timings?|timer)\b"
    r"|[A-Za-z)]/s(?:ec(?:ond)?)?\b"  # MB/s, Mop/s/thread, Lookups/s
    r"|[(\[](?:s|ms|us|ns|sec)[)\]]"  # Time consumed(ms):, Elapsed time = 1.2 (s)
    r"|\bg?m?flops\b"
    r"|\b(?:total|elapsed|execution|exec|run|wall|cpu|compute|computation|kernel|solve|"
    r"solver|loop|processing)\s+time\b"
    r"|\btime\s+(?:taken|spent|elapsed|consumed|used|for|to)\b"  # Time for process: 1.2
    r"|\btime\s*(?:\(\w+\)\s*)?[:=]",  # Time: 0.05, time(s) = 0.05
    re.IGNORECASE,
)
# a unit right after a number: "0.25 s", "12ms", "7919 microseconds", "1234 (z/s)"
_UNIT = re.compile(
    r"\(?(?:s|ms|us|µs|ns|secs?|seconds?|msecs?|usecs?|milliseconds?|microseconds?|"
    r"nanoseconds?|\S*[A-Za-z)]/s(?:ec(?:ond)?)?)(?![A-Za-z])",
    re.IGNORECASE,
)
_WEAK = re.compile(r"\b(?:times?|clock|ticks|rate|speed)\b", re.IGNORECASE)


_LETTER = re.compile(r"[A-Za-z]")
_FEW_LINES = 1000  # lines that differ, beyond which the whole output is masked at once
# a pointer printed with %p (or in hex): where the allocator or the loader put something,
# which address-space randomisation moves from run to run; left out only where the
# original's runs differ (a hex checksum the same in every run is still compared)
_ADDRESS = re.compile(r"(?<![\w.])0[xX][0-9a-fA-F]{6,16}(?![\w.])")


def reports_time(line: str, spans: list[tuple[int, int]] | None = None) -> bool:
    """The line's words say some of its numbers are a time or a rate."""
    if not _LETTER.search(line):
        return False  # a row of bare numbers names no unit
    spans = number_spans(line) if spans is None else spans
    return bool(_KEYWORD.search(line)) or bool(_timed_by_unit(line, spans))


def _mentions_time(line: str, spans: list[tuple[int, int]] | None = None) -> bool:
    return reports_time(line, spans) or bool(_WEAK.search(line))


def _timed_by_unit(line: str, spans: list[tuple[int, int]]) -> set[int]:
    """The numbers followed by a unit of time or rate."""
    return {k for k, (_, end) in enumerate(spans) if _UNIT.match(line[end:].lstrip())}


# a time of day or a date a program stamps its log lines with: 10:35:12, 2026-11-28
_CLOCK = re.compile(r"(?<![\d.])\d{1,2}:\d{2}:\d{2}(?:\.\d+)?(?![\d.])|\b\d{4}-\d{2}-\d{2}\b")
# what a count is of, after a word of time: "Total time steps: 100" counts steps
_COUNTED = re.compile(r"\s*(?:steps?|iterations?|iters?|levels?|points?|cells?)\b", re.I)


def _timed_numbers(line: str, spans: list[tuple[int, int]]) -> set[int]:
    """The numbers of a line that are times: clock stamps, and those its words place."""
    stamped = {
        k
        for m in _CLOCK.finditer(line)
        for k, (start, end) in enumerate(spans)
        if m.start() <= start and end <= m.end()
    }
    if not _LETTER.search(line):
        return stamped
    return stamped | _placed_times(line, spans)


def _placed_times(line: str, spans: list[tuple[int, int]]) -> set[int]:
    """The numbers of a line that are times or rates: each followed by a unit, and the
    first number (with its comma or colon groups, "162,601", "00:01:23") after each word
    of time, unless what follows that word is a count ("Total time steps: 100"); the
    others (a residual beside its time) are still compared, and what the rules do not
    place on a line in such words is left out only where the original's runs differ."""
    timed = _timed_by_unit(line, spans)
    for m in _KEYWORD.finditer(line):
        first = next((k for k, (start, _) in enumerate(spans) if start >= m.end()), None)
        if first is None or _COUNTED.match(line, m.end()):
            continue
        timed.add(first)
        k = first
        while k + 1 < len(spans) and line[spans[k][1] : spans[k + 1][0]] in (",", ":"):
            k += 1
            timed.add(k)
    return timed


def number_spans(line: str) -> list[tuple[int, int]]:
    """Where the numbers of ``line`` are, as ``verify.tokens`` finds them."""
    # no number spans whitespace, so matching the whole line finds what matching each of
    # its words finds
    return [m.span() for m in verify.NUMBER.finditer(line)]


def _skeleton(line: str) -> str:
    """The line with every number hidden: its words."""
    return _hide(line, number_spans(line))


def _hide(line: str, spans: list[tuple[int, int]]) -> str:
    """``line`` with the numbers at ``spans`` hidden; numbers hidden side by side with only
    a comma or a colon between them are one (a rate of "162,601" and one of "1,026,103"
    read alike)."""
    out, pos = [], 0
    for start, end in spans:
        if out and out[-1] == HIDDEN and line[pos:start] in (",", ":"):
            pos = end
            continue
        out.append(line[pos:start])
        out.append(HIDDEN)
        pos = end
    out.append(line[pos:])
    return " ".join("".join(out).split())


@dataclass
class OutputMask:
    """The numbers left out of comparing a program's outputs (see the module's text)."""

    compare_timings: bool = False  # --check-timings: every number is compared
    varying: dict[int, set[int]] = field(default_factory=dict)  # line -> numbers that vary
    addresses: set[int] = field(default_factory=set)  # lines whose printed addresses vary
    originals_seen: int = 0  # outputs of the original learned from (two make a difference)
    # the original's own runs differ beyond what is left out: no output can be verified
    unstable: bool = False
    # (what it was made from, the reference with its numbers hidden): see compare
    _reference: tuple | None = field(default=None, repr=False, compare=False)

    def learned(self) -> tuple:
        """What the runs of the original taught, to tell whether another run added to it."""
        return {k: set(v) for k, v in self.varying.items()}, set(self.addresses)

    def learn(self, reference: str, other: str) -> None:
        """Note the numbers two runs of the original printed differently, on lines whose
        words agree (a line whose words differ is left to the comparison), and the lines
        whose printed addresses differ."""
        self.originals_seen = max(self.originals_seen, 1) + 1
        ref, got = reference.splitlines(), other.splitlines()
        if len(ref) != len(got):
            return
        for i, (a, b) in enumerate(zip(ref, got, strict=True)):
            if a != b and _ADDRESS.findall(a) != _ADDRESS.findall(b):
                self.addresses.add(i)
            if i in self.addresses:
                a, b = _ADDRESS.sub(HIDDEN, a), _ADDRESS.sub(HIDDEN, b)
            if a == b or _skeleton(a) != _skeleton(b):
                continue
            sa, sb = number_spans(a), number_spans(b)
            if len(sa) != len(sb):
                continue  # "162,601" and "1,026,103": no number stands for another
            differ = {
                k
                for k, (x, y) in enumerate(zip(sa, sb, strict=True))
                if a[x[0] : x[1]] != b[y[0] : y[1]]
            }
            if differ:
                self.varying.setdefault(i, set()).update(differ)

    def compare(
        self, expected: str, actual: str, rtol: float, atol: float, tolerant: bool
    ) -> tuple[bool, str]:
        """``verify.compare_outputs`` of the two outputs with the numbers left out hidden.
        Equal outputs are equal whatever is hidden; the reference's hidden form is kept
        until a run of the original teaches the mask more (every variant is compared
        with the same reference)."""
        if expected == actual:
            return True, ""
        if self._lines_alike(expected, actual, rtol, atol, tolerant):
            return True, ""
        key = (expected, self.originals_seen, self.compare_timings)
        if self._reference is None or self._reference[0] != key:
            self._reference = (key, self.apply(expected))
        return verify.compare_outputs(
            self._reference[1], self.apply(actual), rtol, atol, tolerant=tolerant
        )

    def _lines_alike(
        self, expected: str, actual: str, rtol: float, atol: float, tolerant: bool
    ) -> bool:
        """Every line that differs matches its counterpart once each is masked as ``apply``
        masks it (a result file beside a line of times: only that line is looked at);
        False leaves the verdict to the whole comparison. A line alike in both is masked
        alike unless a header above it differs, and a header is a line of words, which
        then differs itself."""
        ref, got = expected.splitlines(), actual.splitlines()
        if len(ref) != len(got):
            return False
        differ = [i for i, (a, b) in enumerate(zip(ref, got, strict=True)) if a != b]
        if len(differ) > _FEW_LINES:
            return False
        return all(
            verify.line_matches(
                self._masked_at(ref, i), self._masked_at(got, i), rtol, atol, tolerant
            )
            for i in differ
        )

    def _masked_at(self, lines: list[str], i: int) -> str:
        """Line ``i`` of ``lines`` as ``apply`` writes it, its header found looking up."""
        line = self._shown(lines[i], i)
        spans = number_spans(line)
        hide = set()
        if spans and not self.compare_timings:
            hide = self._left_out(i, line, spans, self._header_above(lines, i))
        if hide or HIDDEN in line:
            return _hide(line, [sp for k, sp in enumerate(spans) if k in hide])
        return line

    def _header_above(self, lines: list[str], i: int) -> str | None:
        """What ``_walk`` holds as the header when it reaches line ``i``."""
        for j in range(i - 1, -1, -1):
            line = self._shown(lines[j], j)
            if not line.strip():
                return None
            spans = number_spans(line)
            if not spans:
                return line if _mentions_time(line, spans) else None
        return None

    def _shown(self, line: str, i: int) -> str:
        """The line with its varying addresses hidden (on the lines where they vary)."""
        if i in self.addresses and not self.compare_timings:
            return _ADDRESS.sub(HIDDEN, line)
        return line

    def apply(self, text: str) -> str:
        """``text`` with the numbers left out hidden; lines keep their places."""
        if self.compare_timings:
            return text
        return "\n".join(self._lines(text))

    def _lines(self, text: str) -> list[str]:
        """Each line of ``text`` with its numbers (and varying addresses) left out hidden."""
        return [
            _hide(line, [sp for k, sp in enumerate(spans) if k in hide])
            if hide or HIDDEN in line
            else line
            for _, line, spans, hide in self._walk(text)
        ]

    def _walk(self, text: str):
        """(index, line, its number spans, the numbers left out) for each line, in one
        pass: a result file of many rows costs what it is long."""
        # the nearest line above with no number (since a blank line), when about time
        header: str | None = None
        for i, line in enumerate(text.splitlines()):
            line = self._shown(line, i)
            spans = number_spans(line)
            left = spans and not self.compare_timings
            yield i, line, spans, self._left_out(i, line, spans, header) if left else set()
            if not line.strip():
                header = None
            elif not spans:
                header = line if _mentions_time(line, spans) else None

    def _left_out(
        self, i: int, line: str, spans: list[tuple[int, int]], header: str | None
    ) -> set[int]:
        hide = _timed_numbers(line, spans)
        vary = self.varying.get(i) or set()
        if vary and _mentions_time(line, spans):
            hide |= vary
        if header is not None:  # a row of a table whose header speaks of times
            columns = _time_columns(spans, header)
            hide |= vary if columns is None else columns
        return hide

    def unstable_lines(self, text: str) -> list[str]:
        """The lines of ``text`` (the original's output) with a number that differs
        between its runs and that no rule leaves out: what makes it unverifiable."""
        return [
            " ".join(line.split())
            for i, line, _, hide in self._walk(text)
            if self.varying.get(i, set()) - hide
        ]

    def hidden_lines(self, text: str) -> list[str]:
        """The lines of ``text`` some of whose numbers are not compared, those numbers
        shown as '…' (one entry per distinct line)."""
        if self.compare_timings:
            return []
        hidden = [ln.replace(HIDDEN, "…") for ln in self._lines(text) if HIDDEN in ln]
        return list(dict.fromkeys(hidden))

    def note(self, text: str) -> str | None:
        """One line for the report: what was not compared, or None."""
        hidden = self.hidden_lines(text)
        if not hidden:
            return None
        shown = "; ".join(repr(h) for h in hidden[:3])
        more = f" and {len(hidden) - 3} more" if len(hidden) > 3 else ""
        alone = ""
        if not any(number_spans(line) for line in self.apply(text).splitlines()):
            alone = (
                "; they are every number it prints, so only its words are compared: name "
                "the file its result is in with --check-file"
            )
        kinds = []
        if any(hide for _, _, _, hide in self._walk(text)):
            kinds.append("the times and rates the program reports")
        if any(
            _ADDRESS.search(line) for i, line in enumerate(text.splitlines()) if i in self.addresses
        ):
            kinds.append("the addresses the program prints, which differ between its runs")
        what = " and ".join(kinds)
        return (
            f"{NOT_COMPARED}{what} ({len(hidden)} kind(s) of line): {shown}{more} "
            f"(--check-timings compares them){alone}"
        )


def _time_columns(spans: list[tuple[int, int]], header: str) -> set[int] | None:
    """The numbers of a row printed under a header word of time or rate (STREAM's
    ``Best Rate MB/s  Avg time``; an ``Iter  Residual  Time(s)`` table's last column and
    not its residuals); None when no number lies under any header word (a table not
    aligned by its printf widths)."""
    words = [(m.start(), m.end(), m.group()) for m in re.finditer(r"\S+", header)]
    timed, aligned = set(), False
    for k, (start, end) in enumerate(spans):
        above = [w for ws, we, w in words if start < we and end > ws]
        aligned = aligned or bool(above)
        if any(_mentions_time(w) for w in above):
            timed.add(k)
    return timed if aligned else None
