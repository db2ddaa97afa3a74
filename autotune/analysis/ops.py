"""Operation kinds and the weight table that turns op counts into one number.

Unit: the reciprocal throughput of one scalar double add (ADDSD, 0.5 cycle
on Skylake and Zen), so add = 1 and a weight is "cycles per op x 2".

* Instructions, from Agner Fog's "Instruction tables" (www.agner.org/optimize,
  Skylake and Zen rows, reciprocal throughput): ADDSD/SUBSD/MULSD, compares
  and logic 0.5 cycle -> 1; DIVSD 4 cycles -> 8; 32-bit IDIV (``%``) about
  6 cycles -> 12.  Integer and floating operations share one weight per kind
  (the analysis does not type every expression).
* Math-library calls, timed on the development machine (glibc 2.36, gcc 12
  -O2 -fno-tree-vectorize, AMD EPYC VM): a throughput loop of independent
  calls over 4096 doubles, minimum ns per call over 4 runs, converted to
  cycles with the clock implied by the same loop doing DIVSD (4 cycles per
  element, 1.3 ns), times 2.  ``sqrt`` is measured the same way (an inlined
  SQRTSD plus the errno check).  Entries marked "est." in docs/analysis.md
  were not timed and copy a related function.  ``f``/``l`` variants use the
  double weight unless listed (``expf``, ``sinf`` are).

These are estimates for ranking variants, not cycle-accurate costs; a
calibration on the target machine replaces them with ``WeightTable.from_json``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from autotune.frontend.inlineasm import ASM_CALL

ARITH_WEIGHTS = {
    "add": 1.0,
    "sub": 1.0,
    "mul": 1.0,
    "div": 8.0,
    "mod": 12.0,
    "cmp": 1.0,
    "logic": 1.0,
    "bit": 1.0,
    "neg": 1.0,
    "atomic": 20.0,  # a locked read-modify-write, uncontended (x86: about 20 cycles)
}
MATH_WEIGHTS = {
    "sqrt": 15.0,
    "cbrt": 71.0,
    "fabs": 1.0,
    "abs": 1.0,
    "labs": 1.0,
    "floor": 8.0,
    "ceil": 8.0,
    "trunc": 8.0,
    "round": 8.0,
    "rint": 8.0,
    "nearbyint": 8.0,
    "fmin": 2.0,
    "fmax": 2.0,
    "copysign": 2.0,
    "fma": 2.0,
    "fdim": 2.0,
    "exp": 34.0,
    "exp2": 21.0,
    "expm1": 40.0,
    "log": 29.0,
    "log2": 29.0,
    "log10": 39.0,
    "log1p": 35.0,
    "pow": 66.0,
    "hypot": 35.0,
    "fmod": 32.0,
    "remainder": 32.0,
    "sin": 51.0,
    "cos": 52.0,
    "tan": 56.0,
    "asin": 28.0,
    "acos": 28.0,
    "atan": 49.0,
    "atan2": 78.0,
    "sinh": 58.0,
    "cosh": 58.0,
    "tanh": 64.0,
    "asinh": 60.0,
    "acosh": 60.0,
    "atanh": 60.0,
    "erf": 27.0,
    "erfc": 27.0,
    "lgamma": 100.0,
    "tgamma": 100.0,
    "ldexp": 8.0,
    "frexp": 8.0,
    "modf": 8.0,
    "scalbn": 8.0,
    "logb": 8.0,
    "lround": 8.0,
    "lrint": 8.0,
    "llround": 8.0,
    "llrint": 8.0,
    "expf": 23.0,
    "sinf": 21.0,
    # <complex.h>: the parts cost nothing; the others are weighed as the real functions
    # they evaluate (cabs: hypot; carg: atan2; cexp: exp, sin and cos; clog: log, hypot
    # and atan2; csqrt: hypot and two sqrt; cpow: clog, a complex multiply and cexp;
    # the trigonometric ones: a sin, cos, sinh and cosh each)
    "creal": 0.0,
    "cimag": 0.0,
    "conj": 1.0,
    "cproj": 2.0,
    "cabs": 35.0,
    "carg": 78.0,
    "cexp": 137.0,
    "clog": 142.0,
    "csqrt": 65.0,
    "cpow": 285.0,
    "csin": 219.0,
    "ccos": 219.0,
    "ctan": 230.0,
    "csinh": 219.0,
    "ccosh": 219.0,
    "ctanh": 230.0,
    "casin": 250.0,
    "cacos": 250.0,
    "catan": 250.0,
    "casinh": 250.0,
    "cacosh": 250.0,
    "catanh": 250.0,
}
# gcc's atomic builtins (``__sync_fetch_and_add``, ``__atomic_fetch_add`` under C11's
# ``atomic_fetch_add``): a shared counter handed out in the order threads arrive
ATOMIC_PREFIXES = ("__sync_", "__atomic_", "__c11_atomic_")

# gcc builtins that are hints to the compiler: no instruction of their own
# (``likely(x)`` is ``__builtin_expect(!!(x), 1)``); their arguments are counted
HINT_BUILTINS = frozenset(
    "__builtin_expect __builtin_expect_with_probability __builtin_assume_aligned "
    "__builtin_constant_p __builtin_prefetch __builtin_unreachable __builtin_assume".split()
)

BINOP_KIND = {
    "+": "add",
    "-": "sub",
    "*": "mul",
    "/": "div",
    "%": "mod",
    "<": "cmp",
    "<=": "cmp",
    ">": "cmp",
    ">=": "cmp",
    "==": "cmp",
    "!=": "cmp",
    "&&": "logic",
    "||": "logic",
    "&": "bit",
    "|": "bit",
    "^": "bit",
    "<<": "bit",
    ">>": "bit",
}
SOURCE = (
    "instructions: Agner Fog's instruction tables (Skylake/Zen reciprocal throughput, "
    "ADDSD = 1); libm: glibc 2.36 throughput loops on the development machine, "
    "cycles x 2 (docs/analysis.md)"
)


# pow(x, c) for the exponents gcc folds exactly at -O1 and above: x * x, 1 / x, x and 1.
# Any other constant stays a library call unless -ffast-math is given (Rodinia's
# particle filter squares with pow(v, 2): 66 weighted ops each counted, one multiply run).
POW_FOLDED: dict[float, dict[str, float]] = {
    2.0: {"mul": 1.0},
    -1.0: {"div": 1.0},
    1.0: {},
    0.0: {},
}


def literal_value(text: str) -> float | None:
    """The value of a C integer or floating literal (``2``, ``2.0``, ``2.f``, ``0x2``)."""
    digits = text.rstrip("uUlLfF") if not text.lower().startswith("0x") else text.rstrip("uUlL")
    try:
        return (
            float(int(digits, 0))
            if digits.isdigit() or digits.lower().startswith("0x")
            else float(digits)
        )
    except ValueError:
        return None


def math_ops(base: str, exponent: float | None = None) -> dict[str, float]:
    """The operations one call of math function ``base`` costs; ``exponent``: a
    ``pow`` call's constant second argument, when it has one."""
    if base == "pow" and exponent is not None and exponent in POW_FOLDED:
        return POW_FOLDED[exponent]
    return {base: 1.0}


def math_name(name: str) -> str | None:
    """The math-library base name of a call (``sqrtf`` -> ``sqrt``), else None."""
    if name.startswith("__builtin_"):
        name = name[len("__builtin_") :]
    if name in MATH_WEIGHTS:
        return name
    if name[-1:] in ("f", "l") and name[:-1] in MATH_WEIGHTS:
        return name[:-1]
    if name.startswith("f") and name[1:] in ("abs", "absf", "absl"):
        return "fabs"
    return None


def call_ops(name: str, exponent: float | None = None) -> tuple[dict[str, float], str] | None:
    """(operations, a note or '') of one call whose cost is known without the program's
    body: the OpenMP runtime and compiler hints cost nothing, an atomic builtin is one
    ``atomic``, inline assembly one ``call`` (said), a math function its weight; None for
    any other callee. ``exponent``: a ``pow`` call's constant second argument."""
    if name.startswith("omp_") or name in HINT_BUILTINS:
        return {}, ""
    if name.startswith(ATOMIC_PREFIXES):
        return {"atomic": 1.0}, ""
    if name == ASM_CALL:
        return {"call": 1.0}, "inline assembly: counted as one 'call' op"
    base = math_name(name)
    return (math_ops(base, exponent), "") if base is not None else None


@dataclass
class WeightTable:
    """Relative cost of each operation kind; ``weighted`` applies it to counts."""

    weights: dict[str, float] = field(default_factory=lambda: {**ARITH_WEIGHTS, **MATH_WEIGHTS})
    call: float = 30.0  # any kind the table does not list (an external call)
    source: str = SOURCE

    def weight(self, kind: str) -> float:
        if kind in self.weights:
            return self.weights[kind]
        base = math_name(kind)
        if base is not None and base in self.weights:
            return self.weights[base]
        return self.call

    def weighted(self, counts: dict[str, float]) -> float:
        return float(sum(n * self.weight(k) for k, n in counts.items()))

    def to_json(self) -> str:
        return json.dumps(
            {"weights": self.weights, "call": self.call, "source": self.source},
            indent=2,
            sort_keys=True,
        )

    @classmethod
    def from_json(cls, text: str) -> WeightTable:
        """Parse a table (e.g. a calibration's output); unknown kinds keep the defaults."""
        data = json.loads(text)
        if not isinstance(data, dict) or not isinstance(data.get("weights", {}), dict):
            raise ValueError("a weight table is a JSON object with a 'weights' object")
        weights = {**ARITH_WEIGHTS, **MATH_WEIGHTS}
        for k, v in data.get("weights", {}).items():
            weights[str(k)] = float(v)
        return cls(
            weights=weights,
            call=float(data.get("call", 30.0)),
            source=str(data.get("source", "user table")),
        )

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n")

    @classmethod
    def load(cls, path: str | Path) -> WeightTable:
        return cls.from_json(Path(path).read_text())


DEFAULT_WEIGHTS = WeightTable()
