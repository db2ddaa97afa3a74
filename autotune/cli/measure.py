"""``autotune measure``: build, run, verify and time a loop's variants; store every run."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from autotune.cli.buildargs import (
    add_build_arguments,
    settings_of,
    term_as_interrupt,
)
from autotune.cli.common import add_source_arguments, finding_label
from autotune.errors import UserError, require_c_file
from autotune.measure import stats
from autotune.measure.spaces import exhaustive_space, parse_variant_list
from autotune.render import Progress, dump_json, table

if TYPE_CHECKING:
    from autotune.measure.results import LoopResult


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE.c", help="C source file")
    parser.add_argument(
        "--loop",
        action="append",
        default=[],
        metavar="ID",
        help="loop to measure: its id (FILE:LINE), or the line of its for "
        "(repeatable; default: every tunable loop)",
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--exhaustive",
        action="store_true",
        help="every schedule, every power-of-two chunk, every thread count",
    )
    which.add_argument(
        "--variants",
        action="append",
        default=[],
        metavar="LIST",
        help='variants as keys, e.g. "static,-,t2 dynamic,16,t2 guided,8" '
        "(SCHEDULE[,CHUNK[,tTHREADS]], '-' = as written)",
    )
    parser.add_argument(
        "--schedules",
        metavar="LIST",
        help="space from lists, e.g. static,dynamic (an omitted list takes "
        "the default; no list at all: the default space)",
    )
    parser.add_argument("--chunks", metavar="LIST", help="e.g. none,1,16,256")
    parser.add_argument("--threads", metavar="LIST", help="e.g. 1,2,4")
    add_source_arguments(parser)
    add_build_arguments(parser)
    s = parser.add_argument_group("store and output")
    s.add_argument(
        "--db",
        metavar="PATH",
        help="measurement database (default: $AUTOTUNE_DB or "
        "<cache dir>/autotune.db; cache dir: $AUTOTUNE_CACHE_DIR, "
        "$XDG_CACHE_HOME/autotune or ~/.cache/autotune)",
    )
    s.add_argument(
        "--fresh",
        action="store_true",
        help="forget stored runs of these variants and measure them again "
        "(default: resume, measuring only runs not stored yet)",
    )
    s.add_argument("--json", action="store_true", help="one JSON object on stdout")
    s.add_argument("--quiet", action="store_true", help="no progress bar")


def _variants_for(record, args, cores: int, explicit) -> list:
    from autotune.variants import space

    if explicit is not None:
        return explicit
    if args.exhaustive:
        return exhaustive_space(record, cores)
    return space.space_from_strings(record, args.schedules, args.chunks, args.threads, cores)


# Over 60 lines: argument checks, one library call, then the JSON or the printed tables.
def run(args: argparse.Namespace) -> int:
    if args.repetitions < 1:
        raise UserError("--repetitions must be at least 1")
    if args.exhaustive and (args.schedules or args.chunks or args.threads):
        raise UserError("--exhaustive cannot be combined with --schedules/--chunks/--threads")
    if args.variants and (args.schedules or args.chunks or args.threads):
        raise UserError("--variants cannot be combined with --schedules/--chunks/--threads")
    path = Path(args.file)
    require_c_file(path)
    from autotune.api import Session

    explicit = parse_variant_list(args.variants) if args.variants else None
    session = Session.of(settings_of(args))
    build = session.build_options()
    machine = session.machine()
    with (
        term_as_interrupt(),
        Progress(1, label="measure", quiet=args.quiet or args.json) as bar,
    ):
        done = session.measure_file(
            path,
            lambda r: _variants_for(r, args, machine.cores, explicit),
            loops=args.loop,
            strict=bool(args.loop),
            fresh=getattr(args, "fresh", False),
            machine=machine,
            on_plan=lambda n: setattr(bar, "total", max(n, 1)),
            on_run=lambda note: bar.advance(note=note),
        )
    results, db = done.results, done.database
    if done.profile_note and not args.json:
        print(done.profile_note)
    if all(r.skipped for r in results):
        reasons = "; ".join(f"{r.loop_id}: {r.skipped}" for r in results)
        raise UserError(f"no loop could be measured ({reasons})", str(path))
    if args.json:
        dump_json(
            {
                "file": str(path),
                "database": db,
                "machine": machine.to_dict(),
                "flags": build.to_dict(),
                "compile_mode": args.compile_mode,
                "repetitions": args.repetitions,
                "check": args.check,
                "rtol": args.rtol,
                "atol": args.atol,
                "spread": "(max - min) / median of the loop times",
                "compiles": sum(r.compiles for r in results),
                "binaries": sum(r.binaries for r in results),
                "loops": [r.to_dict() for r in results],
            }
        )
        return 0
    for res in results:
        _print_loop(res, args.repetitions)
    print(f"runs stored in {db}")
    return 0


def _short(msg: str, width: int = 70) -> str:
    line = msg.splitlines()[0] if msg else ""
    return line if len(line) <= width else line[: width - 3] + "..."


# Over 60 lines: one table row per variant plus the loop's notes.
def _print_loop(res: LoopResult, reps: int, out=None) -> None:
    out = out or sys.stdout
    if res.skipped:
        print(f"{res.loop_id}: not measured: {res.skipped}\n", file=out)
        return
    base = res.baseline
    print(
        f"{res.loop_id}: {len(res.variants)} variant(s) x {reps} repetition(s), "
        f"{res.mode} compile mode: {res.binaries} binary(ies) needed, {res.compiles} "
        f"compiled now; {res.runs_measured} run(s) measured, {res.runs_resumed} "
        f"taken from the store",
        file=out,
    )
    ok = sorted(
        (v for v in res.variants if v.ok and v.measured_s is not None), key=lambda v: v.measured_s
    )
    bad = [v for v in res.variants if v not in ok]
    best = res.best()
    rows = [
        [
            "baseline (original)",
            base.measured_s,
            _pct(base.spread),
            1.0 if base.ok else None,
            len(base.times_s),
            base.status,
            _short(base.message),
        ]
    ]
    for v in [*ok, *bad]:
        mark = " *" if best is not None and v is best else ""
        rows.append(
            [
                v.key + mark,
                v.measured_s,
                _pct(v.spread),
                None if v.speedup is None else round(v.speedup, 3),
                len(v.times_s),
                v.status,
                _short(v.message),
            ]
        )
    table(
        ["variant", "median loop s", "spread", "speedup", "runs", "status", "message"],
        rows,
        out=out,
    )
    if best is not None:
        if best.speedup and best.speedup < 1.0:
            line = (
                f"no variant beat the original: the fastest verified, {best.variant.label}, took "
                f"{1 / best.speedup:.3g}x the original's time"
            )
        elif best.speedup:
            line = f"best verified: {best.variant.label} ({best.speedup:.3g}x the original's speed)"
        else:
            line = f"best verified: {best.variant.label}"
        print(line, file=out)
    for w in res.warnings:
        print(f"{finding_label(w)}: {w}", file=out)
    print(
        "(variant = schedule,chunk,tTHREADS as --variants takes it, '-' where as written; "
        f"spread = (max - min) / median of the loop times; above "
        f"{stats.SPREAD_WARN:.0%} is noisy)\n",
        file=out,
    )


def _pct(x: float | None) -> str | None:
    return None if x is None else f"{100 * x:.1f}%"
