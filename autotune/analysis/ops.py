"""Operation kinds and the weight table that turns op counts into one number.

The default weights are relative costs with a double-precision add = 1.

* Arithmetic instructions: reciprocal throughputs of the scalar SSE2
  instructions in Agner Fog's "Instruction tables" (Skylake and Zen rows,
  www.agner.org/optimize), divided by ADDSD's 0.5 cycles: ADDSD/SUBSD/MULSD
  and compares 0.5 -> 1; DIVSD about 4 -> 8; SQRTSD 4 to 6 -> 10; a 32-bit
  IDIV (our ``%``) about 6 -> 12.  Integer and floating operations share
  one weight per kind: the front end does not type every expression.
* Math-library calls: glibc 2.36 (Debian 12) timed on the development machine
  (AMD EPYC, gcc 12 -O2 -fno-tree-vectorize) with a throughput loop of
  independent calls over 4096 doubles, as a multiple of the same loop doing
  one multiply (~0.5 ns per element), rounded.  The method is in
  docs/analysis.md.  ``f``/``l`` variants (``sqrtf``, ``expl``) use the
  double weight unless the table names them.

These are estimates for ranking, not cycle-accurate costs; a calibration on
the target machine replaces them through ``WeightTable.from_json``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

ARITH_WEIGHTS = {
    "add": 1.0, "sub": 1.0, "mul": 1.0, "div": 8.0, "mod": 12.0,
    "cmp": 1.0, "logic": 1.0, "bit": 1.0, "neg": 1.0,
}
MATH_WEIGHTS = {
    "sqrt": 10.0, "cbrt": 35.0, "fabs": 1.0, "abs": 1.0, "labs": 1.0,
    "floor": 2.0, "ceil": 2.0, "trunc": 2.0, "round": 2.0, "rint": 2.0, "nearbyint": 2.0,
    "fmin": 1.0, "fmax": 1.0, "copysign": 1.0, "fma": 1.0, "fdim": 1.0,
    "exp": 12.0, "exp2": 8.0, "expm1": 14.0, "log": 11.0, "log2": 11.0, "log10": 16.0,
    "log1p": 14.0, "pow": 33.0, "hypot": 16.0, "fmod": 16.0, "remainder": 16.0,
    "sin": 18.0, "cos": 18.0, "tan": 27.0, "asin": 10.0, "acos": 10.0, "atan": 17.0,
    "atan2": 41.0, "sinh": 25.0, "cosh": 25.0, "tanh": 28.0, "asinh": 25.0, "acosh": 25.0,
    "atanh": 25.0, "erf": 10.0, "erfc": 10.0, "lgamma": 40.0, "tgamma": 40.0,
    "ldexp": 2.0, "frexp": 2.0, "modf": 2.0, "scalbn": 2.0, "logb": 2.0,
    "lround": 2.0, "lrint": 2.0, "llround": 2.0, "llrint": 2.0,
}
BINOP_KIND = {
    "+": "add", "-": "sub", "*": "mul", "/": "div", "%": "mod",
    "<": "cmp", "<=": "cmp", ">": "cmp", ">=": "cmp", "==": "cmp", "!=": "cmp",
    "&&": "logic", "||": "logic",
    "&": "bit", "|": "bit", "^": "bit", "<<": "bit", ">>": "bit",
}
SOURCE = ("arithmetic: Agner Fog instruction tables (Skylake/Zen reciprocal throughput, "
          "ADDSD=1); libm: glibc throughput loop on the development machine, multiply=1")


def math_name(name: str) -> str | None:
    """The math-library base name of a call (``sqrtf`` -> ``sqrt``), else None."""
    if name.startswith("__builtin_"):
        name = name[len("__builtin_"):]
    if name in MATH_WEIGHTS:
        return name
    if name[-1:] in ("f", "l") and name[:-1] in MATH_WEIGHTS:
        return name[:-1]
    if name.startswith("f") and name[1:] in ("abs", "absf", "absl"):
        return "fabs"
    return None


@dataclass
class WeightTable:
    """Relative cost of each operation kind; ``weighted`` applies it to counts."""

    weights: dict[str, float] = field(default_factory=lambda: {**ARITH_WEIGHTS, **MATH_WEIGHTS})
    call: float = 10.0  # any kind the table does not list (unknown library call)
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
        return json.dumps({"weights": self.weights, "call": self.call, "source": self.source},
                          indent=2, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> WeightTable:
        """Parse a table (e.g. a calibration's output); unknown kinds keep the defaults."""
        data = json.loads(text)
        if not isinstance(data, dict) or not isinstance(data.get("weights", {}), dict):
            raise ValueError("a weight table is a JSON object with a 'weights' object")
        weights = {**ARITH_WEIGHTS, **MATH_WEIGHTS}
        for k, v in data.get("weights", {}).items():
            weights[str(k)] = float(v)
        return cls(weights=weights, call=float(data.get("call", 10.0)),
                   source=str(data.get("source", "user table")))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n")

    @classmethod
    def load(cls, path: str | Path) -> WeightTable:
        return cls.from_json(Path(path).read_text())


DEFAULT_WEIGHTS = WeightTable()
