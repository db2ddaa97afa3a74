"""``autotune analyze``: every OpenMP loop of a C file with its trip counts,
weighted operations and data footprint."""

from __future__ import annotations

import argparse
import os
import sys

from autotune.cli.buildargs import add_program_arguments, settings_of
from autotune.cli.common import add_source_arguments
from autotune.cli.programfiles import for_file, program_note
from autotune.errors import UserError
from autotune.measure.profile import needs_profile
from autotune.render import dump_json, human_bytes, table


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE.c", help="C source file(s)")
    add_source_arguments(parser)
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        metavar="P",
        help="thread count for per-thread figures (default: cores)",
    )
    parser.add_argument("--cc", default="gcc", help="compiler used to preprocess (default gcc)")
    parser.add_argument(
        "--db",
        metavar="PATH",
        help="database keeping profile runs (default: $AUTOTUNE_DB, else "
        "~/.cache/autotune/autotune.db)",
    )
    parser.epilog = (
        "columns: trips (the parallel loop's iterations), iterations (innermost bodies per "
        "run), weighted ops (per run), footprint (bytes touched, total and per thread), "
        "facts (where the sizes came from: static = the source and its defines, profile = "
        "one run with --args, unknown = neither), tunable (yes, schedule only, or no with "
        "the reason below the table)"
    )
    add_program_arguments(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    parser.add_argument(
        "--thread-formulas",
        action="store_true",
        help="with --json or -v: also the first and last thread's footprint under a static "
        "schedule as formulas in the sizes (seconds for deep nests: NPB BT, about 7 s more)",
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="also print the loop nest, per-array footprint and warnings",
    )


def run(args: argparse.Namespace) -> int:
    from autotune.api import Session

    if args.threads is not None and args.threads < 1:
        raise UserError("--threads must be at least 1")
    threads = args.threads or os.cpu_count() or 1
    session = Session.of(settings_of(args))
    profile = args.args is not None or args.profile or bool(args.stdin)
    shown = args.json or args.verbose
    formulas = ("threads" if args.thread_formulas else "counts") if shown else ""
    note = program_note(args)
    if note and not args.json:
        print(note, file=sys.stderr)
    units = [
        Session.of(settings_of(for_file(args, f))).analyze(
            f, threads=threads, profile=profile, formulas=formulas
        )
        for f in args.files
    ]
    for unit in units if profile else []:
        if not unit.profile_note and not needs_profile(unit.loops):
            unit.profile_note = (
                f"{unit.path}: no profile run needed: every loop's sizes are known from the "
                "source and its defines"
            )
    if args.json:
        dump_json(
            {
                "threads": threads,
                "defines": dict(session.defines),
                "files": [u.path for u in units],
                "loops": [r.to_dict() for u in units for r in u.loops],
                "warnings": [w for u in units for w in u.warnings],
                "profile": [u.profile_note for u in units if u.profile_note],
            }
        )
        return 0
    for unit in units:
        if unit.profile_note:
            print(unit.profile_note)
        print_unit(unit, threads, args.verbose)
    if not profile and any(needs_profile(u.loops) for u in units):
        print(
            "hint: some loops are sized at run time; give the program's own arguments "
            'with --args "..." (or --profile) and one run of the original measures them',
            file=sys.stderr,
        )
    return 0


def _print_formulas(formulas: dict, out) -> None:
    """The counts as formulas in the sizes (``analysis.symbolic``), one per line."""
    for key in ("trip_count", "iterations", "weighted_ops", "footprint_bytes"):
        if key in formulas:
            print(f"    {key.replace('_', ' ')} = {formulas[key]}", file=out)
    thread = formulas.get("footprint_bytes_per_thread") or {}
    for which in ("first", "last"):
        if which in thread:
            print(
                f"    footprint bytes of the {which} of {thread['threads']} threads "
                f"({thread['schedule']}) = {thread[which]}",
                file=out,
            )


def _trip_text(r) -> str:
    if r.trip_count is None:
        return "symbolic"
    text = str(r.trip_count)
    if r.executions and r.executions > 1:
        text += f" x{r.executions}"
    return text


def _tunable_text(r) -> str:
    """``yes``, ``schedule only`` / ``threads only`` (the gate kept the other), or ``no``."""
    if not r.tunable:
        return "no (see below)"
    free = [d for d in ("schedule", "threads") if d not in r.kept]
    return "yes" if len(free) == 2 else f"{free[0]} only"


# Over 60 lines: one table column per field of a loop record.
def print_unit(unit, threads: int, verbose: bool = False, out=None) -> None:
    out = out or sys.stdout
    print(
        f"{unit.path}: {len(unit.loops)} OpenMP loop(s); per-thread figures for "
        f"{threads} thread(s), static schedule",
        file=out,
    )
    if not unit.loops:
        for w in unit.warnings:
            print(f"  warning: {w}", file=out)
        return
    rows = []
    for r in unit.loops:
        clauses = r.directive.text.split(r.directive.kind, 1)[-1].strip() or "-"
        rows.append(
            [
                r.id,
                r.function,
                r.directive.kind,
                clauses,
                _trip_text(r),
                r.iterations,
                ops_text(r.weighted_ops),
                human_bytes(r.footprint_bytes),
                human_bytes(r.footprint_bytes_per_thread),
                r.facts,
                _tunable_text(r),
            ]
        )
    table(
        [
            "loop",
            "function",
            "directive",
            "clauses",
            "trips",
            "iterations",
            "weighted ops",
            "footprint",
            "per thread",
            "facts",
            "tunable",
        ],
        rows,
        out=out,
    )
    for r in unit.loops:
        notes = list(r.symbolic) + list(r.warnings)
        if verbose:
            nest = " > ".join(
                f"{lv.var}[{lv.lower}..{lv.op}{lv.upper} step {lv.step}]" for lv in r.nest
            )
            print(f"  {r.id}: nest {nest or '-'}", file=out)
            if r.ops_per_iteration.counts:
                ops = ", ".join(f"{k}={v:g}" for k, v in sorted(r.ops_per_iteration.counts.items()))
                print(f"    ops per iteration: {ops}", file=out)
            for a in r.arrays:
                size = human_bytes(a.get("distinct_bytes"))
                how = {
                    "barvinok": " (exact, counted by barvinok)",
                    "enumerated": " (exact, enumerated)",
                    "upper bound": " (upper bound)",
                }.get(a.get("counted"), "")
                print(f"    array {a.get('name')}: {size}{how}", file=out)
            _print_formulas(r.formulas, out)
        said = [n for n in notes if n.startswith("proven only")]  # the guard, with why
        for n in said + [n for n in notes if n not in said][: None if verbose else 2]:
            print(f"  {r.id}: {n}", file=out)
        if r.guard and not said:
            print(
                f"  {r.id}: proven only where {r.guard}: variants run behind that test, "
                "the loop as written otherwise",
                file=out,
            )
        if not r.tunable:
            print(f"  {r.id}: not tunable: {r.reason}", file=out)
            continue
        for dim, why in r.kept.items():
            print(f"  {r.id}: {dim} kept as written: {why}", file=out)
        for note in r.reassociates:
            print(f"  {r.id}: {note}", file=out)
    for w in unit.warnings:
        print(f"  warning: {w}", file=out)


def ops_text(v: float | None) -> str:
    """Weighted operations in one format down the column: whole numbers with thousands
    separators below a million (``11,000``, ``648``), three decimals of a power of ten
    above (``2.250e+08``); below 100, as they are (``7.5``)."""
    if v is None:
        return "-"
    if abs(v) >= 1e6:
        return f"{v:.3e}"
    return f"{v:,.0f}" if abs(v) >= 100 else f"{v:.4g}"
