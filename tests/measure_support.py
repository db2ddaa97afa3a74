"""Test helpers for the measurement tests: small C programs, hand-made loop
records (independent of the front end's analysis) and fault injection on top
of the real variant emission."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from autotune.frontend.records import Directive, LoopRecord

REDUCTION_C = r"""#include <stdio.h>
#include <omp.h>
#define N 200000
static double a[N];
int main(void)
{
    double sum = 0.0;
    int i;
    for (i = 0; i < N; i++) a[i] = 1.0 / (1.0 + i);
#pragma omp parallel for reduction(+:sum)
    for (i = 0; i < N; i++) sum += a[i] * a[i];
    printf("sum = %.12e\n", sum);
    printf("done %d\n", N);
    return 0;
}
"""


def pragma_line(text: str) -> int:
    """1-based line of the first ``#pragma omp`` in ``text``."""
    return next(i for i, ln in enumerate(text.splitlines(), 1) if "#pragma omp" in ln)


def write_program(tmp: Path, text: str = REDUCTION_C, name: str = "prog.c") -> Path:
    path = tmp / name
    path.write_text(text)
    return path


def make_record(path: Path) -> LoopRecord:
    source = path.read_text()
    line = pragma_line(source)
    text = source.splitlines()[line - 1].strip()
    d = Directive(
        text=text.removeprefix("#pragma").strip(), kind="parallel for", file=str(path), line=line
    )
    return LoopRecord(
        id=f"{path}:{line + 1}",
        file=str(path),
        line=line + 1,
        function="main",
        directive=d,
        parallel=d,
    )


class InjectingEmitter:
    """Wraps an emitter and breaks chosen variants (per-variant mode) on purpose."""

    def __init__(self, base, faults: dict[str, Callable[[str], str]]) -> None:
        self.base, self.faults = base, faults

    def emit_variant(self, source, record, variant, *, instrument=True):
        text = self.base.emit_variant(source, record, variant, instrument=instrument)
        fault = self.faults.get(variant.key)
        return fault(text) if fault else text

    def emit_runtime(self, source, record, *, instrument=True):
        return self.base.emit_runtime(source, record, instrument=instrument)

    def runtime_env(self, variant):
        return self.base.runtime_env(variant)


def inject_before_return(statement: str) -> Callable[[str], str]:
    """A fault that runs ``statement`` just before ``main`` returns 0 (after the loop)."""

    def fault(text: str) -> str:
        head, sep, tail = text.rpartition("return 0;")
        if not sep:
            raise ValueError("no 'return 0;' to inject before")
        return f"{head}{statement} {sep}{tail}"

    return fault


def _scale_printed_result(text: str) -> str:
    """Multiply the first value printed with ``%.12e`` by 1.001 (0.1% off)."""
    new, n = re.subn(r'(%\.12e\\n",\s*)([A-Za-z_]\w*)\)', r"\1\2 * 1.001)", text, count=1)
    if n != 1:
        raise ValueError("no value printed with %.12e to falsify")
    return new


# The printed result off by 0.1%: far outside the verification tolerance.
WRONG_RESULT = _scale_printed_result
INFINITE_LOOP = inject_before_return('for (;;) { __asm__ volatile(""); }')
SEGFAULT = inject_before_return("{ volatile int *p = 0; *p = 1; }")
SYNTAX_ERROR = inject_before_return("this is not C @@@;")
