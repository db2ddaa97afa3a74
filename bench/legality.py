"""The legality proof on our test programs, kernels and third-party programs.

For every OpenMP loop: whether its schedule, its own thread count and its region's
thread count may vary (the proof's verdict), and how long the proof took. With
``--run``, every variant ``autotune variants`` emits for a loop (a space of schedules,
chunks and thread counts) is compiled and run, and its output compared with the
original's: integers and text exactly, floating-point numbers exactly unless the
loop is flagged as reassociating (then within 1e-6). The count of differing
variants must be 0.

Third-party programs (``--real DIR``, e.g. ../shared/real-programs) are copied to a
scratch folder first (their builds write into the tree); nothing of them is kept.

    python bench/legality.py [--run] [--real ../shared/real-programs] [--json OUT]
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from realprogs import REAL, Program  # noqa: E402

OURS = sorted(
    [
        *ROOT.glob("kernels/*.c"),
        *ROOT.glob("tests/data/c/legality/*.c"),
        *ROOT.glob("tests/data/c/proof/*.c"),
    ]
)


def loops_of(
    path: Path,
    extra: list[Path],
    include: list[str],
    cflags: list[str],
    run: Program | None = None,
) -> tuple[list[dict], list]:
    """The proof's verdict per loop, with the time the proof took for it; and the
    analysed records (for --run). ``run``: make the profile run of the program with its
    arguments first (sizes measured at run time, proofs at those sizes)."""
    import autotune.analysis.unit as unit_module
    from autotune.analysis.gate_pass import site_of as _site
    from autotune.analysis.proof.pointsto import PointsTo
    from autotune.analysis.proof.program import build_program
    from autotune.analysis.proof.verdict import Prover
    from autotune.analysis.unit import analyze_options
    from autotune.frontend.cparse import parse_file
    from autotune.frontend.finder import OmpFinder
    from autotune.frontend.options import SourceOptions

    defines = {f[2:].split("=")[0]: f[2:].partition("=")[2] or "1" for f in cflags}
    opts = SourceOptions(defines, list(include), [], [str(e) for e in extra])
    gate = unit_module.apply_gate
    spent: list[float] = []

    def timed_gate(*args, **kw):  # the gate's own arguments
        t0 = time.perf_counter()
        try:
            return gate(*args, **kw)
        finally:
            spent.append(time.perf_counter() - t0)

    profiles = _profiles(path, opts, run) if run is not None else None
    unit_module.apply_gate = timed_gate
    try:
        unit = analyze_options(str(path), opts, threads=2, profiles=profiles)
    finally:
        unit_module.apply_gate = gate
    # the proof alone, timed per loop (parsing is the front end's cost, not the proof's)
    own = SourceOptions(defines, list(include), [])
    asts = [parse_file(str(path), own)]
    for e in extra:
        with contextlib.suppress(Exception):
            asts.append(parse_file(str(e), own))
    prog = build_program(asts)
    finder = OmpFinder()
    finder.visit(asts[0])
    sites = [_site(f, finder.regions, asts[0]) for f in finder.loops if f.for_node is not None]
    prog.uses("")  # the program's index of names, built once (a program table)
    prover = Prover(prog, PointsTo(prog), sites)
    times = _proof_times(prover, sites)
    rows = []
    for rec, t in zip(unit.loops, times + [None] * len(unit.loops), strict=False):
        # a loop the front end's own rules keep (a declared reduction, a taskloop) varies
        # nothing, though the proof kept no dimension of it
        ruled = bool(unit_module.openmp_rule(rec))
        rows.append(
            {
                "loop": rec.id,
                "line": rec.line,
                "schedule": "schedule" not in rec.kept and not ruled,
                "threads": "threads" not in rec.kept and not ruled,
                "region": rec.region_threads and not ruled,
                "reassociates": bool(rec.reassociates),
                "why": (rec.reason if ruled else "; ".join(dict.fromkeys(rec.kept.values())))[:160],
                "proof_s": t,
                "guard": rec.guard,
                # the whole gate of the file (both passes when a guard was tried), per loop
                "gate_per_loop_s": sum(spent) / max(1, len(unit.loops)),
            }
        )
    return rows, unit.loops


def _profiles(path: Path, opts, prog: Program) -> dict | None:
    """One profile run of the program as the user's ``--args`` would make it."""
    from autotune.analysis.unit import analyze_options
    from autotune.errors import UserError
    from autotune.measure.build import BuildOptions
    from autotune.measure.profile import ProfileRequest, needs_profile, run_profile
    from autotune.textfile import read_source

    records = analyze_options(str(path), opts, threads=2).loops
    if not needs_profile(records):
        return None
    build = BuildOptions.of_source(opts, ldflags=["-lm"], extra_sources=opts.extra_sources)
    req = ProfileRequest(
        path,
        read_source(path),
        build,
        list(prog.args),
        str(path.parent),
        300.0,
        expect_status=prog.expect_status,
    )
    try:
        return run_profile(req, records)
    except UserError as exc:
        print(f"  {path.name}: no profile run: {exc}", file=sys.stderr)
        return None


def _proof_times(prover, sites: list) -> list[float]:  # a Prover
    """Each loop's proof time, isl's answers not cached from the analysis before. A
    loop's walk and coverage are made once, by whichever proof needs them first (a
    chain's comparison, a later loop's check of a thread's array): they are charged to
    the loop they describe, not to the loop whose proof asked."""
    from autotune.analysis.proof import coverage, deps
    from autotune.analysis.proof.verdict import Prover

    deps._EMPTY.clear()
    coverage._SUBSET.clear()
    coverage._SETS.clear()
    gc.collect()  # the analysis before left garbage: its collection is not this proof's
    charged: dict[int, float] = {}
    nested: list[list[tuple[int, float]]] = []
    originals = {name: getattr(Prover, name) for name in ("_walks", "_covering")}

    def timing(name: str):
        original = originals[name]
        cache = "_walked" if name == "_walks" else "_covered"

        def timed(self, site):
            key = id(site.for_node)
            if key in getattr(self, cache):
                return original(self, site)
            nested.append([])
            t0 = time.perf_counter()
            try:
                return original(self, site)
            finally:
                spent = time.perf_counter() - t0
                inner = nested.pop()
                charged[key] = charged.get(key, 0.0) + spent - sum(t for _, t in inner)
                if nested:
                    nested[-1].append((key, spent))

        return timed

    for name in originals:
        setattr(Prover, name, timing(name))
    exclusive = []
    try:
        for s in sites:
            nested.append([])
            t0 = time.perf_counter()
            prover.prove(s)
            spent = time.perf_counter() - t0
            exclusive.append(spent - sum(t for _, t in nested.pop()))
    finally:
        for name, original in originals.items():
            setattr(Prover, name, original)
    return [x + charged.get(id(s.for_node), 0.0) for x, s in zip(exclusive, sites, strict=True)]


def space_of(record) -> list:  # a LoopRecord
    """Variants that change what the proof allows: other schedules and chunks, another
    thread count, both."""
    from autotune.variants.space import Variant

    out = []
    if "schedule" not in record.kept:
        out += [Variant("dynamic", 1, None), Variant("guided", 7, None), Variant("static", 3, None)]
    if "threads" not in record.kept:
        out += [Variant(None, None, 3), Variant(None, None, 1)]
    if "schedule" not in record.kept and "threads" not in record.kept:
        out += [Variant("dynamic", 5, 3)]
    return out


def run_variants(
    path: Path,
    extra: list[Path],
    include: list[str],
    cflags: list[str],
    prog: Program,
    cwd: Path,
    records: list,
    cap: int,
) -> tuple[int, int]:
    """(variants run, variants whose output differs from the original's): each proven
    loop's variants applied to the source as the build hook would, compiled, run."""
    from autotune.errors import UserError
    from autotune.measure.verify import compare_outputs
    from autotune.textfile import read_source
    from autotune.variants.apply import apply_variants

    work = Path(tempfile.mkdtemp(prefix="legality-"))
    source = read_source(path)

    env = dict(os.environ)

    def build_run(text: str, name: str) -> str | None:
        src = work / f"{name}.c"
        src.write_text(text)
        exe = work / f"{name}.out"
        cmd = [
            "gcc",
            "-O2",
            "-fopenmp",
            "-w",
            *cflags,
            f"-I{path.parent}",
            *(f"-I{d}" for d in include),
            str(src),
            *map(str, extra),
            "-o",
            str(exe),
            "-lm",
        ]
        if subprocess.run(cmd, capture_output=True, cwd=cwd).returncode != 0:
            print(f"  {path.name}: {name} does not compile", file=sys.stderr)
            return None
        try:
            res = subprocess.run(
                [str(exe), *prog.args],
                capture_output=True,
                text=True,
                cwd=cwd,
                timeout=300,
                env=env,
            )
        except subprocess.TimeoutExpired:  # oversubscribed spinning, not a wrong result
            print(f"  {path.name}: {name} ran past 300 s (left out)", file=sys.stderr)
            return None
        keep = [ln for ln in res.stdout.splitlines() if not any(w in ln for w in prog.ignore)]
        if prog.check == "files":  # stdout is timings only: the result files decide
            keep = []
        for f in prog.check_files:  # a result written to a file: its bytes, as a digest
            data = (cwd / f).read_bytes() if (cwd / f).is_file() else b"(missing)"
            keep.append(f"{f} {hashlib.sha256(data).hexdigest()}")
        return "\n".join(keep)

    expected = build_run(source, "original")
    tolerant = any(rec.reassociates for rec in records)
    team = env.get("OMP_NUM_THREADS")
    env["OMP_NUM_THREADS"] = "1"
    alone = build_run(source, "original") if expected is not None else None
    env.pop("OMP_NUM_THREADS") if team is None else env.update(OMP_NUM_THREADS=team)
    varies = alone is not None and not compare_outputs(alone, expected, tolerant=tolerant)[0]
    if expected is not None and (varies or build_run(source, "original") != expected):
        # a race as written (a trap that passes one buffer twice): its own output varies
        # from run to run, or from its one-thread order where nothing reassociates (two
        # runs of a loaded machine can agree), so compare at one thread, one program
        # order; a variant on its own thread count that should not have run still shows
        print(f"  {path.name}: the original's output varies: compared at 1 thread", file=sys.stderr)
        env["OMP_NUM_THREADS"] = "1"
        expected = build_run(source, "original")
    if expected is None:
        return 0, 0
    ran = differ = 0
    for rec in records:
        for k, v in enumerate(space_of(rec)[:cap]):
            try:
                text = apply_variants(source, [(rec, v)])
            except UserError:
                continue  # not written (e.g. a loop whose size the analysis lacks)
            got = build_run(text, f"L{rec.line}_{k}")
            if got is None:
                continue
            ran += 1
            same, diff = compare_outputs(expected, got, tolerant=bool(rec.reassociates))
            if not same:
                differ += 1
                print(f"  DIFFERS {rec.id} {v.key}: {diff}", file=sys.stderr)
    shutil.rmtree(work, ignore_errors=True)
    return ran, differ


def summary(
    name: str, rows: list[dict], ran: int | None, differ: int | None, checked: str = "stdout"
) -> dict:
    times = [r["proof_s"] for r in rows if r["proof_s"] is not None]
    return {
        "program": name,
        "loops": len(rows),
        "schedule": sum(r["schedule"] for r in rows),
        "threads": sum(r["threads"] for r in rows),
        "region": sum(r["region"] for r in rows),
        "variable": sum(r["schedule"] or r["threads"] or r["region"] for r in rows),
        "proof_median_s": statistics.median(times) if times else None,
        "proof_max_s": max(times) if times else None,
        "gate_per_loop_max_s": max((r["gate_per_loop_s"] for r in rows), default=None),
        "guarded": sum(bool(r["guard"]) for r in rows),
        "variants_run": ran,
        "variants_differ": differ,
        "checked_by": checked,
        "loops_detail": rows,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--run", action="store_true", help="compile and run the emitted variants")
    ap.add_argument("--real", metavar="DIR", help="third-party programs (copied first)")
    ap.add_argument("--cap", type=int, default=6, help="variants run per loop (default 6)")
    ap.add_argument(
        "--cap-real", type=int, default=3, help="variants run per loop of --real programs"
    )
    ap.add_argument("--json", metavar="OUT", help="write every figure as JSON")
    ap.add_argument("--only", metavar="NAME", help="only the --real program with this name")
    ap.add_argument("--skip-ours", action="store_true", help="only the --real programs")
    ap.add_argument(
        "--profile",
        action="store_true",
        help="--real programs: one profile run with their arguments first, as tune makes it",
    )
    a = ap.parse_args()
    out = []
    for path in [] if a.skip_ours else OURS:
        rows, records = loops_of(path, [], [], [])
        ran = differ = None
        if a.run:
            ran, differ = run_variants(
                path, [], [], [], Program(path.name, ""), path.parent, records, a.cap
            )
        out.append(summary(str(path.relative_to(ROOT)), rows, ran, differ))
        print(
            f"{out[-1]['program']}: {out[-1]['variable']}/{out[-1]['loops']} variable",
            file=sys.stderr,
        )
    if a.real:
        scratch = Path(tempfile.mkdtemp(prefix="real-programs-"))
        shutil.copytree(a.real, scratch / "rp")
        base = scratch / "rp"
        for p in REAL:
            if a.only and a.only != p.name:
                continue
            if not (base / p.source).is_file():
                continue
            for cmd in p.prepare:
                cwd = base / Path(p.source).parent if cmd[0] == "python3" else base
                subprocess.run(cmd, cwd=cwd, capture_output=True)
            include = [str(base / d) for d in p.include]
            rows, ran, differ = [], 0 if a.run else None, 0 if a.run else None
            everything = [p.source, *[e for e in p.extra if e != p.source]]
            for f in [p.source, *p.also]:
                src = base / f
                extra = [base / e for e in everything if e != f]
                mine, records = loops_of(src, extra, include, p.cflags, p if a.profile else None)
                rows += mine
                if a.run:
                    r, d = run_variants(
                        src, extra, include, p.cflags, p, src.parent, records, a.cap_real
                    )
                    ran, differ = ran + r, differ + d
            out.append(summary(p.name, rows, ran, differ, p.checked_by))
            print(f"{p.name}: {out[-1]['variable']}/{out[-1]['loops']} variable", file=sys.stderr)
        shutil.rmtree(scratch, ignore_errors=True)
    print(
        "| program | loops | schedule free | threads free | region | variable | "
        "proof median / max (s) | gate per loop (s) | behind a guard | variants run | "
        "differ | result checked by |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for s in out:
        t = (
            "-"
            if s["proof_median_s"] is None
            else f"{s['proof_median_s']:.3f} / {s['proof_max_s']:.3f}"
        )
        print(
            f"| {s['program']} | {s['loops']} | {s['schedule']} | {s['threads']} | "
            f"{s['region']} | {s['variable']} | {t} | {s['gate_per_loop_max_s'] or 0:.3f} | "
            f"{s['guarded']} | {s['variants_run'] or '-'} | "
            f"{s['variants_differ'] if s['variants_differ'] is not None else '-'} | "
            f"{s['checked_by']} |"
        )
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=1))
        print(f"written: {a.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
