"""Regenerate tests/data/c/expected.json and tests/data/kernels_expected.json.

Provenance of the expected values, kept independent of autotune's analyser:
- trip counts, iterations and executions come from brute force: every loop
  bound below is transcribed by hand from the C source and enumerated with a
  Python model of C ``for`` semantics, using the default macro values (each
  default is checked against the ``#define`` line in the file);
- lines come from a text scan (the ``#pragma`` holding a given anchor text,
  then the next line starting with ``for``);
- every program is also compiled with ``--coverage -O0`` and without
  ``-fopenmp`` (gcc does not instrument outlined parallel regions) and run
  once; gcov's execution count of the innermost body line must equal
  iterations x executions x calls, or the script stops.

Run from anywhere: ``python tests/data/c/make_expected.py`` (about 2 minutes:
the brute force enumerates every iteration of the big kernels).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
KERNELS = ROOT / "kernels"

CONVENTIONS = {
    "line": "1-based line of the `for` keyword of the distributed (outermost) loop",
    "pragma_line": "line of `#pragma omp` (first physical line when continued with \\)",
    "directive": "'parallel for' (combined) or 'for' (inside a separate parallel region)",
    "function": "name of the C function holding the loop",
    "trip_count": "iterations shared among threads, product over collapsed levels; "
    "null when a bound is not a compile-time constant with the default macros",
    "iterations": "executions of the body of the deepest `for` of the nest rooted at the "
    "distributed loop, for one run of the loop (summed over `for` loops at that "
    "deepest level); while/do loops are body, not levels; null when any `for` bound "
    "of the nest is not a compile-time constant",
    "executions": "runs of the loop per call of its function: product of the trip "
    "counts of the sequential `for` loops around it in the same function (1 if none)",
    "collapse": "collapse(n) as written, 1 without",
    "schedule": "schedule kind as written or null; chunk is the chunk text or null",
    "tunable": "false when the schedule or thread count may change the program's "
    "result or is not the tool's to change: omp_get_thread_num() in the body, a "
    "threadprivate variable in the body (an ordered region runs in the iterations' order)",
    "syntax_error_line": "line of the syntax error (syntax_error.c only; no loops then)",
    "other_directives": "every other omp pragma (construct name as written, e.g. "
    "'parallel', 'parallel sections', 'task', 'master', 'threadprivate')",
    "measured_iterations": "informational: gcov count of the innermost body for one "
    "run of the loop with default sizes (present where iterations is null)",
}


def cfor(start: int, cond: Callable[[int], bool], step: Callable[[int], int]) -> Iterator[int]:
    """The values a C ``for (i = start; cond(i); i = step(i))`` visits."""
    i = start
    while cond(i):
        yield i
        i = step(i)


def up(lo: int, hi: int, step: int = 1) -> Iterator[int]:
    return cfor(lo, lambda i: i < hi, lambda i: i + step)


def count(it: Iterator) -> int:
    return sum(1 for _ in it)


@dataclass
class Loop:
    anchor: str  # substring of the pragma line (with ``nth`` to disambiguate)
    function: str
    body: str  # substring of a line of the innermost body (gcov check)
    counts: Callable[[], tuple[int | None, int | None, int | None]]
    tunable: bool = True
    nth: int = 0
    calls: int = 1  # calls of the function in one program run (gcov check)
    note: str = ""


# ---------------------------------------------------------------- kernels
K = {
    "triad.c": {"N": 2000000, "REPS": 20},
    "dot.c": {"N": 4000000, "REPS": 10},
    "compute.c": {"N": 60000, "K": 128},
    "matmul.c": {"NI": 600, "NJ": 640, "NK": 560},
    "stencil2d.c": {"N": 1000, "TSTEPS": 100},
    "triangular.c": {"N": 15000},
    "spmv_csr.c": {"N": 100000, "MAXLEN": 50000, "REPS": 150},
    "mandelbrot.c": {"WIDTH": 640, "HEIGHT": 480, "MAXIT": 1000},
    "tiny.c": {"M": 16, "REPS": 100000},
    "region2.c": {"N": 200000, "REPS": 40},
    "sections.c": {"NA": 40000, "NB": 2000000, "REPS": 12},
    "mergesort_task.c": {"N": 2000000, "CUTOFF": 4, "SMALL": 32},
    "histogram.c": {"N": 16000000, "BINS": 256},
    "collapse2.c": {"NI": 6, "NJ": 500000},
}


def _flat(n: int, reps: int = 1) -> Callable:
    return lambda: (count(up(0, n)), count(up(0, n)), reps)


def _matmul() -> tuple[int, int, int]:
    m = K["matmul.c"]
    trip = count(up(0, m["NI"]))
    inner = sum(count(up(0, m["NK"])) for _i in up(0, m["NI"]) for _j in up(0, m["NJ"]))
    return trip, inner, 1


def _stencil() -> tuple[int, int, int]:
    m = K["stencil2d.c"]
    n = m["N"]
    trip = count(up(1, n - 1))
    inner = sum(count(up(1, n - 1)) for _i in up(1, n - 1))
    return trip, inner, count(up(0, m["TSTEPS"]))


def _triangular() -> tuple[int, int, int]:
    n = K["triangular.c"]["N"]
    return count(up(0, n)), sum(count(up(0, i)) for i in up(0, n)), 1


def _compute() -> tuple[int, int, int]:
    m = K["compute.c"]
    return count(up(0, m["N"])), sum(count(up(0, m["K"])) for _ in up(0, m["N"])), 1


def _mandel() -> tuple[int, int, int]:
    m = K["mandelbrot.c"]
    return count(up(0, m["HEIGHT"])), sum(count(up(0, m["WIDTH"])) for _ in up(0, m["HEIGHT"])), 1


def _collapse2() -> tuple[int, int, int]:
    m = K["collapse2.c"]
    pairs = count((i, j) for i in up(0, m["NI"]) for j in up(0, m["NJ"]))
    return pairs, pairs, 1


KERNEL_LOOPS: dict[str, list[Loop]] = {
    "triad.c": [
        Loop(
            "parallel for",
            "triad",
            "a[i] = b[i] + s * c[i];",
            _flat(K["triad.c"]["N"], count(up(0, K["triad.c"]["REPS"]))),
        )
    ],
    "dot.c": [
        Loop(
            "reduction(+:sum)",
            "dot",
            "sum += x[i] * y[i];",
            _flat(K["dot.c"]["N"]),
            calls=K["dot.c"]["REPS"],
        )
    ],
    "compute.c": [Loop("parallel for", "compute", "v = sqrt(v + 1.0)", _compute)],
    "matmul.c": [Loop("parallel for", "matmul", "C[i][j] += A[i][k] * B[k][j];", _matmul)],
    "stencil2d.c": [Loop("parallel for", "jacobi", "nxt[i][j] = 0.2", _stencil)],
    "triangular.c": [
        Loop("parallel for", "lower_solve_like", "s += x[j] * w[i - j];", _triangular)
    ],
    "spmv_csr.c": [
        Loop(
            "parallel for",
            "spmv",
            "s += val[k] * x[col[k]];",
            lambda: (
                count(up(0, K["spmv_csr.c"]["N"])),
                None,
                count(up(0, K["spmv_csr.c"]["REPS"])),
            ),
            note="inner bounds rowptr[i]..rowptr[i+1] are data",
        )
    ],
    "mandelbrot.c": [
        Loop(
            "parallel for",
            "mandelbrot",
            "counts[row][c] = it;",
            _mandel,
            note="the escape-time while loop is body work",
        )
    ],
    "tiny.c": [
        Loop(
            "parallel for",
            "relax",
            "v[i] = 0.5 * v[i] + w[i];",
            _flat(K["tiny.c"]["M"], count(up(0, K["tiny.c"]["REPS"]))),
        )
    ],
    "region2.c": [
        Loop(
            "omp for",
            "two_phase",
            "a[i] = sin(",
            _flat(K["region2.c"]["N"], count(up(0, K["region2.c"]["REPS"]))),
        ),
        Loop(
            "omp for",
            "two_phase",
            "b[i] += (a[i - 1]",
            lambda: (
                count(up(1, K["region2.c"]["N"] - 1)),
                count(up(1, K["region2.c"]["N"] - 1)),
                count(up(0, K["region2.c"]["REPS"])),
            ),
            nth=1,
        ),
    ],
    "sections.c": [],
    "mergesort_task.c": [
        Loop(
            "reduction(+:unsorted)",
            "main",
            "if (a[i - 1] > a[i])",
            lambda: (
                count(up(1, K["mergesort_task.c"]["N"])),
                count(up(1, K["mergesort_task.c"]["N"])),
                1,
            ),
        )
    ],
    "histogram.c": [
        Loop("parallel for", "histogram", "hist[bin]++;", _flat(K["histogram.c"]["N"]))
    ],
    "collapse2.c": [Loop("collapse(2)", "fill", "field[i][j] = sqrt(", _collapse2)],
}

# ---------------------------------------------------- third-party style files
GEMM = {"NI_DEFAULT": 64, "NJ_DEFAULT": 72, "NK_DEFAULT": 88}
MM2 = {"NI_DEFAULT": 44, "NJ_DEFAULT": 52, "NK_DEFAULT": 60, "NL_DEFAULT": 68}
CG = {"NA": 1400, "HALFBW": 3, "NITER": 15, "CGITMAX": 25, "BS": 50}
EDGE = {"N": 1000, "M": 37}
BLOCKS = {"N": 12}


def _blocks() -> tuple[int, int, int]:
    n = BLOCKS["N"]
    deep = count(
        (i, j, k, m) for i in up(0, n) for j in up(0, n) for k in up(1, n - 1) for m in up(0, 5)
    )
    return count(up(0, n)), deep, 1


def _gemm() -> tuple[int, int, int]:
    ni, nj, nk = GEMM["NI_DEFAULT"], GEMM["NJ_DEFAULT"], GEMM["NK_DEFAULT"]
    # deepest level is i -> k -> j (depth 3); the j loop scaling C is depth 2
    deep = sum(count(up(0, nj)) for _i in up(0, ni) for _k in up(0, nk))
    return count(up(0, ni)), deep, 1


def _mm2(outer: str, mid: str, inner: str) -> Callable:
    def f() -> tuple[int, int, int]:
        a, b, c = MM2[outer], MM2[mid], MM2[inner]
        return count(up(0, a)), sum(count(up(0, c)) for _i in up(0, a) for _j in up(0, b)), 1

    return f


def _cg(reps: int = 1, inner: bool = True) -> Callable:
    na = CG["NA"]
    return lambda: (count(up(0, na)), count(up(0, na)) if inner else None, reps)


def _cgit() -> int:
    return count(cfor(1, lambda c: c <= CG["CGITMAX"], lambda c: c + 1))


def _edge(it: Callable[[], Iterator[int]]) -> Callable:
    return lambda: (count(it()), count(it()), 1)


N, M = EDGE["N"], EDGE["M"]

C_LOOPS: dict[str, list[Loop]] = {
    "polybench_style_gemm.c": [
        Loop(
            "parallel for private(j, k)",
            "kernel_gemm",
            "C[i][j] += alpha * A[i][k] * B[k][j];",
            _gemm,
            note="imperfect nest: the depth-2 `C[i][j] *= beta` loop is not counted",
        ),
    ],
    "polybench_style_2mm.c": [
        Loop(
            "parallel for private(j, k)",
            "kernel_2mm",
            "tmp[i][j] += alpha * A[i][k] * B[k][j];",
            _mm2("NI_DEFAULT", "NJ_DEFAULT", "NK_DEFAULT"),
        ),
        Loop(
            "parallel for private(j, k)",
            "kernel_2mm",
            "D[i][j] += tmp[i][k] * C[k][j];",
            _mm2("NI_DEFAULT", "NL_DEFAULT", "NJ_DEFAULT"),
            nth=1,
        ),
    ],
    "nas_style_cg.c": [
        Loop("omp for nowait", "conj_grad", "z[j] = 0.0;", _cg(), calls=CG["NITER"]),
        Loop("omp for reduction(+:rho)", "conj_grad", "p[j] = r[j];", _cg(), calls=CG["NITER"]),
        Loop(
            "omp for schedule(static)",
            "conj_grad",
            "sum = sum + a[k] * p[colidx[k]];",
            lambda: (count(up(0, CG["NA"])), None, _cgit()),
            calls=CG["NITER"],
            note="inner bounds rowstr[j]..rowstr[j+1] are data",
        ),
        Loop(
            "reduction(+:dsum)",
            "conj_grad",
            "dsum = dsum + p[j] * q[j];",
            lambda: _cg(_cgit())(),
            calls=CG["NITER"],
        ),
        Loop(
            "omp for reduction(+:rho)",
            "conj_grad",
            "r[j] = r[j] - alpha * q[j];",
            lambda: _cg(_cgit())(),
            nth=1,
            calls=CG["NITER"],
        ),
        Loop(
            "#pragma omp for\n",
            "conj_grad",
            "p[j] = r[j] + beta * p[j];",
            lambda: _cg(_cgit())(),
            calls=CG["NITER"],
        ),
        Loop(
            "collapse(2) schedule(static)",
            "conj_grad",
            "zblk[j][k] = z[j * BS + k];",
            lambda: (
                count((j, k) for j in up(0, CG["NA"] // CG["BS"]) for k in up(0, CG["BS"])),
                count((j, k) for j in up(0, CG["NA"] // CG["BS"]) for k in up(0, CG["BS"])),
                1,
            ),
            calls=CG["NITER"],
        ),
        Loop(
            "reduction(+:norm_temp1, norm_temp2)",
            "main",
            "norm_temp2 = norm_temp2 + z[i] * z[i];",
            _cg(count(cfor(1, lambda i: i <= CG["NITER"], lambda i: i + 1))),
        ),
    ],
    "edge_loops.c": [
        Loop(
            "parallel for\n",
            "inclusive_bound",
            "a[i] = 0.5 * i;",
            _edge(lambda: cfor(1, lambda i: i <= N, lambda i: i + 1)),
        ),
        Loop(
            "parallel for\n",
            "count_down",
            "b[i] = a[i] + 1.0;",
            _edge(lambda: cfor(N - 1, lambda i: i >= 0, lambda i: i - 1)),
            nth=1,
        ),
        Loop(
            "parallel for\n",
            "stride_three",
            "a[i] = a[i] + b[i];",
            _edge(lambda: cfor(0, lambda i: i < N, lambda i: i + 3)),
            nth=2,
        ),
        Loop(
            "parallel for\n",
            "stride_two",
            "b[i] = 2.0 * b[i];",
            _edge(lambda: cfor(1, lambda i: i < N, lambda i: i + 2)),
            nth=3,
        ),
        Loop(
            "parallel for\n",
            "count_down_by_two",
            "a[i] = a[i] - 0.25;",
            _edge(lambda: cfor(N, lambda i: i > 0, lambda i: i - 2)),
            nth=4,
        ),
        Loop(
            "parallel for\n",
            "lower_triangle",
            "c[i][j % M] += 1.0e-3 * b[j];",
            lambda: (
                count(up(0, N)),
                sum(count(cfor(0, lambda j, i=i: j <= i, lambda j: j + 1)) for i in up(0, N)),
                1,
            ),
            nth=5,
        ),
        Loop(
            "collapse(2)",
            "collapsed",
            "c[i][j] = c[i][j] + (double)(i + j);",
            lambda: (
                count((i, j) for i in up(0, N) for j in up(0, M)),
                count((i, j) for i in up(0, N) for j in up(0, M)),
                1,
            ),
        ),
        Loop(
            "parallel for\n",
            "param_bound",
            "b[i] = b[i] * 0.5;",
            lambda: (count(up(0, N // 2)), count(up(0, N // 2)), 1),
            nth=6,
            note="bound n is a parameter; the only call (main) passes N/2, so the analysis "
            "resolves it",
        ),
        Loop(
            "parallel for\n",
            "who_runs",
            "owner[i] = omp_get_thread_num();",
            _edge(lambda: up(0, N)),
            nth=7,
            tunable=False,
        ),
        Loop(
            "parallel for ordered",
            "in_order",
            "ordered_sum = ordered_sum * 0.5 + v;",
            _edge(lambda: up(0, N)),
        ),
        Loop("omp for\n", "per_thread", "tp_acc += a[i];", _edge(lambda: up(0, N)), tunable=False),
        Loop(
            "schedule(dynamic, 4)",
            "continued_pragma",
            "c[i][j] = 0.5 * c[i][j] + a[i];",
            lambda: (count(up(0, N)), sum(count(up(0, M)) for _ in up(0, N)), 1),
        ),
        Loop("num_threads(2)", "two_threads", "a[i] += b[i];", _edge(lambda: up(0, N))),
        Loop("if(N > 100)", "conditional", "b[i] = b[i] - a[i] * 1.0e-3;", _edge(lambda: up(0, N))),
    ],
    "syntax_error.c": [],
    "no_omp.c": [],
    "nas_style_blocks.c": [
        Loop(
            "parallel for\n",
            "main",
            "lhs[i][j][k][1][m][m] = 1.0",
            _blocks,
            note="12 x 12 x 10 x 5 innermost iterations",
        ),
    ],
}

DEFAULTS = {
    **{name: macros for name, macros in K.items()},
    "polybench_style_gemm.c": GEMM,
    "polybench_style_2mm.c": MM2,
    "nas_style_cg.c": CG,
    "edge_loops.c": EDGE,
    "nas_style_blocks.c": BLOCKS,
}

PRAGMA = re.compile(r"^\s*#\s*pragma\s+omp\s+(.*)$")


def check_defaults(path: Path, macros: dict[str, int]) -> None:
    text = path.read_text()
    for name, value in macros.items():
        if not re.search(rf"^#\s*define\s+{name}\s+{value}\s*$", text, re.M):
            raise SystemExit(f"{path.name}: no '#define {name} {value}'")


def pragma_lines(lines: list[str]) -> list[tuple[int, str]]:
    """(line, full text) of each omp pragma, continuation lines joined."""
    out = []
    k = 0
    while k < len(lines):
        if PRAGMA.match(lines[k]):
            start, text = k + 1, lines[k]
            while text.rstrip().endswith("\\"):
                k += 1
                text = text.rstrip()[:-1] + " " + lines[k].strip()
            out.append((start, text + "\n"))
        k += 1
    return out


def directive_of(text: str) -> str:
    """Construct name: first word, or 'parallel for' / 'parallel sections'."""
    words = re.findall(r"[A-Za-z_]+", PRAGMA.match(text.rstrip("\n")).group(1))
    if words[0] == "parallel" and len(words) > 1 and words[1] in ("for", "sections"):
        return f"parallel {words[1]}"
    return words[0]


def clause_value(text: str, name: str) -> str | None:
    m = re.search(rf"\b{name}\s*\(([^)]*)\)", text)
    return m.group(1).strip() if m else None


def locate(path: Path, loop: Loop) -> dict:
    lines = path.read_text().splitlines()
    pragmas = [(ln, t) for ln, t in pragma_lines(lines) if loop.anchor in t]
    if len(pragmas) <= loop.nth:
        raise SystemExit(f"{path.name}: pragma {loop.anchor!r} #{loop.nth} not found")
    pline, ptext = pragmas[loop.nth]
    k = pline  # 0-based index of the line after the pragma's first line
    while lines[k - 1].rstrip().endswith("\\"):
        k += 1
    while not re.match(r"^\s*for\s*\(", lines[k]):
        if lines[k].strip() and not lines[k].strip().startswith("/*"):
            raise SystemExit(f"{path.name}:{k + 1}: expected a for after the pragma")
        k += 1
    body = [n + 1 for n, t in enumerate(lines) if loop.body in t]
    if len(body) != 1:
        raise SystemExit(f"{path.name}: body anchor {loop.body!r} matches {body}")
    return {"pragma_line": pline, "line": k + 1, "text": ptext, "body_line": body[0]}


def entry(path: Path, loop: Loop) -> tuple[dict, int]:
    where = locate(path, loop)
    trip, iters, execs = loop.counts()
    text = where["text"]
    directive = directive_of(text)
    sched = clause_value(text, "schedule")
    kind, _, chunk = (sched or "").partition(",")
    rec = {
        "line": where["line"],
        "pragma_line": where["pragma_line"],
        "directive": directive,
        "function": loop.function,
        "trip_count": trip,
        "iterations": iters,
        "executions": execs,
        "collapse": int(clause_value(text, "collapse") or 1),
        "schedule": kind.strip() or None,
        "chunk": chunk.strip() or None,
        "tunable": loop.tunable,
    }
    if directive not in ("parallel for", "for"):
        raise SystemExit(f"{path.name}:{where['pragma_line']}: not a loop directive")
    if loop.note:
        rec["note"] = loop.note
    return rec, where["body_line"]


def other_directives(path: Path) -> list[dict]:
    lines = path.read_text().splitlines()
    out = []
    for ln, text in pragma_lines(lines):
        d = directive_of(text)
        if d not in ("parallel for", "for"):
            out.append({"pragma_line": ln, "directive": d})
    return out


def gcov_counts(src: Path, workdir: Path) -> dict[int, int]:
    """Execution count of every line of ``src`` after one single-thread run."""
    exe, obj = workdir / src.stem, workdir / f"{src.stem}.o"
    # gcc does not instrument OpenMP outlined functions, so the check runs the
    # sequential program (pragmas ignored; omp_* calls still link to libgomp).
    flags = ["-O0", "--coverage", "-Wno-unknown-pragmas"]
    subprocess.run(
        ["gcc", *flags, "-I", str(src.parent), "-c", "-o", str(obj), str(src)],
        check=True,
        cwd=workdir,
    )
    subprocess.run(
        ["gcc", *flags, "-o", str(exe), str(obj), "-lgomp", "-lm"], check=True, cwd=workdir
    )
    env = dict(os.environ, OMP_NUM_THREADS="1")
    subprocess.run([str(exe)], check=True, cwd=workdir, env=env, stdout=subprocess.DEVNULL)
    subprocess.run(
        ["gcov", "-o", str(workdir), str(src)], check=True, cwd=workdir, stdout=subprocess.DEVNULL
    )
    counts: dict[int, int] = {}
    for row in (workdir / f"{src.name}.gcov").read_text().splitlines():
        parts = row.split(":", 2)
        if len(parts) < 3:
            continue
        c, ln = parts[0].strip().rstrip("*"), parts[1].strip()
        if c.isdigit():
            counts[int(ln)] = int(c)
        elif c == "#####":
            counts[int(ln)] = 0
    return counts


def build(directory: Path, table: dict[str, list[Loop]], check: bool) -> dict:
    files = {}
    for name, loops in table.items():
        path = directory / name
        if name in DEFAULTS:
            check_defaults(path, DEFAULTS[name])
        recs = [entry(path, lp) for lp in loops]
        info: dict = {"loops": [r for r, _ in recs], "other_directives": other_directives(path)}
        if name == "syntax_error.c":
            text = path.read_text().splitlines()
            bad = [n + 1 for n, t in enumerate(text) if "SYNTAX ERROR" in t]
            info["syntax_error_line"] = bad[0]
        if check and name != "syntax_error.c":
            with tempfile.TemporaryDirectory() as tmp:
                counts = gcov_counts(path, Path(tmp))
            for (rec, body_line), lp in zip(recs, loops, strict=True):
                got = counts.get(body_line)
                if got is None:
                    raise SystemExit(f"{name}:{body_line}: no gcov count")
                per_run = got / (lp.calls * (rec["executions"] or 1))
                if rec["iterations"] is None:
                    rec["measured_iterations"] = int(per_run)
                elif per_run != rec["iterations"]:
                    raise SystemExit(
                        f"{name}:{body_line}: gcov {got} != {rec['iterations']}"
                        f" x {rec['executions']} x {lp.calls}"
                    )
            print(f"gcov agrees: {name}", file=sys.stderr)
        files[name] = info
    return files


def main() -> None:
    c_files = build(HERE, C_LOOPS, check=True)
    kernel_files = build(KERNELS, KERNEL_LOOPS, check=True)
    header = {
        "generated_by": "tests/data/c/make_expected.py (brute force; gcov-checked)",
        "conventions": CONVENTIONS,
    }
    (HERE / "expected.json").write_text(
        json.dumps(
            {
                **header,
                "defaults": {k: DEFAULTS[k] for k in c_files if k in DEFAULTS},
                "files": c_files,
            },
            indent=1,
        )
        + "\n"
    )
    (HERE.parent / "kernels_expected.json").write_text(
        json.dumps(
            {**header, "defaults": {k: DEFAULTS[k] for k in kernel_files}, "files": kernel_files},
            indent=1,
        )
        + "\n"
    )


if __name__ == "__main__":
    main()
