"""Compile-time overhead of autotune-cc in apply or rank mode.

Builds the small Make project of the tests (4 C sources in two directories,
an assembly file, a link) with ``CC=gcc`` and with ``CC="autotune-cc gcc"``,
two of the four sources having tuned variants in a fresh database, after one
warm-up build that fills the wrapper's caches. Builds alternate (plain,
wrapped, plain, ...) so that machine noise hits both alike; ``make -j1`` so
that the figure is the sum of the compiles. Also times single compile
commands (a tuned source, an untuned one) directly.

Python's start-up is most of the wrapper's cost, so the script measures the
console script ``autotune-cc`` and the launcher ``autotune-cc --launcher``
(the same code started with ``python -S``, as the CMake module and
``autotune.mk`` use it), each as this environment has it
(``PYTHONDONTWRITEBYTECODE`` set means every run recompiles the modules from
source) and with a bytecode cache (what a normal installation has; kept in a
temporary ``PYTHONPYCACHEPREFIX`` so the source tree is not touched).

With ``--mode rank`` no source has measured results: every loop gets what the model
ranks first. A source's first compile ranks it (analysis, proof, ranking: the cost of
``autotune rank``); later compiles of the same text read the kept decision. Both are
timed: the "first compile" with the wrapper's kept decisions removed before each wrapped
run (barvinok's counts of the source stay: what a source pays when its decision is made
again, after ``autotune tune`` wrote the database; a source never seen pays the counts
too, as in the first build below).

The last setting adds the resident process (``AUTOTUNE_SERVER=1``): a source the
caches cannot answer is decided by a process that imported autotune once (stopped at
the end). In both modes a project's first build is also timed with the whole cache directory
emptied before each wrapped build (decisions, the machine's description, the kept
system-header parse): what a fresh checkout on a fresh machine pays once.

    python bench/wrapper_overhead.py [--reps 7] [--mode apply|rank]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ROOT / "tests" / "data" / "buildhook" / "make_project"
DEFINES = {"N": "3000", "STEPS": "4"}
# A larger translation unit (8 OpenMP loops, ~0.15 s at -O3): where the fixed
# per-compile cost of the wrapper lands for a typical kernel file.
KERNEL = ROOT / "tests" / "data" / "c" / "nas_style_cg.c"


def wrapper() -> str:
    here = Path(sys.executable).parent / "autotune-cc"
    return str(here) if here.is_file() else (shutil.which("autotune-cc") or "autotune-cc")


def timed(argv: list[str], cwd: Path, env: dict) -> tuple[float, float]:
    """(wall seconds, CPU seconds of all children) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        argv, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def tune(proj: Path, db: Path) -> None:
    sys.path.insert(0, str(ROOT))
    from autotune.analysis import analyze_file
    from autotune.measure.machine import detect_machine
    from autotune.measure.store import Store
    from autotune.tuning.persist import save_winner
    from autotune.variants.space import Variant

    with Store(db) as store:
        fp = store.add_machine(detect_machine("gcc"))
        jobs = [
            (proj / "src/stencil.c", "dynamic,4,t2", DEFINES),
            (proj / "main.c", "guided,-,t-", DEFINES),
        ]
        if (proj / "kernel.c").exists():
            jobs.append((proj / "kernel.c", "dynamic,8,t-", {}))
        for path, key, defines in jobs:
            unit = analyze_file(str(path), defines=defines, include_dirs=[str(proj / "include")])
            for rec in unit.loops:
                save_winner(
                    store,
                    source_text=path.read_text(),
                    defines=defines,
                    machine_fp=fp,
                    record=rec,
                    variant=Variant.from_key(key),
                    baseline_s=1.0,
                    best_s=0.5,
                )


def compare(
    label: str, plain_cmd, wrapped_cmd, cwd: Path, env: dict, reps: int, before=None
) -> None:
    rows = {"plain": [], "wrapped": []}
    for _ in range(reps):
        for name, cmd in (("plain", plain_cmd), ("wrapped", wrapped_cmd)):
            if before:
                before()
            rows[name].append(timed(cmd, cwd, env))
    pw = statistics.median(w for w, _ in rows["plain"])
    ww = statistics.median(w for w, _ in rows["wrapped"])
    pc = statistics.median(c for _, c in rows["plain"])
    wc = statistics.median(c for _, c in rows["wrapped"])
    print(
        f"  {label:<34} plain {pw * 1000:7.1f} ms  wrapped {ww * 1000:7.1f} ms  "
        f"wall {100 * (ww - pw) / pw:+6.1f}%   cpu {pc * 1000:6.1f} -> {wc * 1000:6.1f} ms "
        f"({100 * (wc - pc) / pc:+6.1f}%)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=7, help="builds per configuration")
    parser.add_argument(
        "--mode", choices=("apply", "rank"), default="apply", help="the build hook's mode"
    )
    args = parser.parse_args()
    if shutil.which("make") is None:
        print("make is not installed", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="autotune-bench-") as tmp_s:
        tmp = Path(tmp_s)
        proj = tmp / "project"
        shutil.copytree(PROJECT, proj)
        if KERNEL.exists():
            shutil.copy(KERNEL, proj / "kernel.c")
            shutil.copy(KERNEL, proj / "kernel_untuned.c")
            with open(proj / "kernel_untuned.c", "a") as fh:
                fh.write("/* other content: no tuned result */\n")
        base = {k: v for k, v in os.environ.items() if not k.startswith("AUTOTUNE_")}
        base.update(AUTOTUNE_DB=str(tmp / "results.db"), AUTOTUNE_CACHE_DIR=str(tmp / "cache"))
        base["AUTOTUNE_MODE"] = args.mode
        if args.mode == "apply":
            tune(proj, tmp / "results.db")
        script = wrapper()
        launcher = subprocess.run(
            [script, "--launcher"], capture_output=True, text=True, check=True
        ).stdout.split()
        print(
            f"mode {args.mode}; median of {args.reps} runs each, plain and wrapped alternating; "
            f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}"
        )
        as_is = dict(base)
        cached = {k: v for k, v in base.items() if k != "PYTHONDONTWRITEBYTECODE"}
        cached["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
        bytecode_note = (
            " (PYTHONDONTWRITEBYTECODE set: modules compiled on every run)"
            if base.get("PYTHONDONTWRITEBYTECODE")
            else ""
        )
        settings = [
            (f"console script {script}, environment as is{bytecode_note}", [script], as_is),
            ("console script, with a bytecode cache", [script], cached),
            (
                "launcher (autotune-cc --launcher: python -S launch.py), environment as is",
                launcher,
                as_is,
            ),
            ("launcher, with a bytecode cache", launcher, cached),
            (
                "launcher, bytecode cache, resident process (AUTOTUNE_SERVER=1)",
                launcher,
                dict(cached, AUTOTUNE_SERVER="1"),
            ),
        ]
        clean = ["make", "-s", "clean"]
        for label, cc, env in settings:
            wrapped_cc = " ".join(cc) + " gcc"
            subprocess.run(clean, cwd=proj, env=env, check=True, stdout=subprocess.DEVNULL)
            subprocess.run(
                ["make", "-s", f"CC={wrapped_cc}"],
                cwd=proj,
                env=env,
                check=True,
                stdout=subprocess.DEVNULL,
            )  # warm-up: fills the caches
            last = (tmp / "results.builds.jsonl").read_text().splitlines()[-4:]
            cached_n = sum('"cached": true' in ln for ln in last)
            print(f"\n{label}\n  (warm-up build: {cached_n}/4 decisions came from the cache)")

            def do_clean(env=env) -> None:
                subprocess.run(clean, cwd=proj, env=env, check=True, stdout=subprocess.DEVNULL)

            def first_build(env=env) -> None:  # a fresh checkout on a fresh machine
                do_clean(env)
                shutil.rmtree(env["AUTOTUNE_CACHE_DIR"], True)

            for row, before in (
                ("make -j1 (4 C + 1 asm + link)", do_clean),
                ("make -j1, first build (no cache)", first_build),
            ):
                compare(
                    row,
                    ["make", "-s", "CC=gcc"],
                    ["make", "-s", f"CC={wrapped_cc}"],
                    proj,
                    env,
                    args.reps,
                    before,
                )
            flags = ["-Iinclude", "-DN=3000", "-DSTEPS=4", "-O2", "-fopenmp", "-MMD", "-MP", "-c"]
            singles = (("src/stencil.c", "tuned"), ("src/reduce.c", "original"))
            if args.mode == "rank":
                singles = (("src/stencil.c", "ranked"), ("src/reduce.c", "ranked"))
            for rel, what in singles:
                one = [*flags, rel, "-o", str(tmp / "one.o")]
                compare(
                    f"one compile ({what}: {rel})",
                    ["gcc", *one],
                    [*cc, "gcc", *one],
                    proj,
                    env,
                    args.reps,
                )
            if args.mode == "rank" and (proj / "kernel.c").exists():
                one = ["-O3", "-fopenmp", "-c", "kernel.c", "-o", str(tmp / "one.o")]

                def forget(env=env) -> None:  # decided again (barvinok's counts of it kept)
                    kept = Path(env["AUTOTUNE_CACHE_DIR"]) / "buildhook"
                    for sub in ("decisions", "tuned"):
                        shutil.rmtree(kept / sub, True)

                compare(
                    "NAS-style kernel -O3, first compile",
                    ["gcc", *one],
                    [*cc, "gcc", *one],
                    proj,
                    env,
                    args.reps,
                    forget,
                )
            kernels = (("kernel.c", "tuned"), ("kernel_untuned.c", "original"))
            if args.mode == "rank":
                kernels = (("kernel.c", "ranked, decision kept"),)
            for rel, what in kernels:
                if (proj / rel).exists():
                    one = ["-O3", "-fopenmp", "-c", rel, "-o", str(tmp / "one.o")]
                    compare(
                        f"NAS-style kernel -O3 ({what})",
                        ["gcc", *one],
                        [*cc, "gcc", *one],
                        proj,
                        env,
                        args.reps,
                    )
        stop = subprocess.run([script, "--stop-server"], env=settings[-1][2], capture_output=True)
        print(f"\nresident process: {stop.stdout.decode().strip()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
