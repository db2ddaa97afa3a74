"""``autotune rank``: every tunable loop's variants by predicted time, before compiling."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from autotune.cli.common import add_source_arguments
from autotune.cli.programfiles import for_file, program_note
from autotune.errors import UserError
from autotune.render import dump_json, table

if TYPE_CHECKING:  # the pipeline is imported when a command runs, not for --help
    from autotune.tuning.ranking import LoopRanking


def add_model_arguments(parser: argparse.ArgumentParser) -> None:
    """Options shared by rank and tune: the model and the variant space."""
    g = parser.add_argument_group("model and variant space")
    g.add_argument(
        "--model",
        default="auto",
        choices=["auto", "faithful", "extended"],
        help="power-law model: the published four variables (faithful: cache capacity "
        "over footprint, operations, chunk size, threads), or with "
        "schedule, dispatch and imbalance terms (extended); auto = the one "
        "calibration found to rank held-out kernels better",
    )
    g.add_argument(
        "--target",
        default="wall",
        choices=["wall", "cpu"],
        help="what the model predicts: loop wall time (default) or total CPU time "
        "of all threads (the published model's target)",
    )
    g.add_argument("--schedules", metavar="LIST", help="e.g. static,dynamic,guided,auto")
    g.add_argument("--chunks", metavar="LIST", help="e.g. none,1,8,64 ('none' = no chunk)")
    g.add_argument("--threads", metavar="LIST", help="thread counts, e.g. 1,2,4")
    g.add_argument(
        "--loop",
        action="append",
        default=[],
        metavar="ID",
        help="only this loop (id as printed by analyze, or just its line); repeatable",
    )
    g.add_argument(
        "--db",
        metavar="PATH",
        help="results database (default: $AUTOTUNE_DB, else the user cache dir; "
        "its calibrated coefficients are used whenever it exists)",
    )
    g.add_argument("--cc", default="gcc", help="C compiler (default gcc)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE.c",
        help="C source file(s): the files of one program (one defines main) are read as "
        "one, each with the others; files that each define main are ranked one by one",
    )
    add_source_arguments(parser)
    add_model_arguments(parser)
    from autotune.cli.buildargs import add_program_arguments

    add_program_arguments(parser)
    parser.add_argument(
        "--top",
        type=int,
        default=10,
        metavar="K",
        help="show the K best predicted variants per loop (default 10)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")


def rank_file(path: str, args: argparse.Namespace, store=None, always_profile: bool = False):
    """``Session.rank`` with this command line's settings."""
    from autotune.api import Session
    from autotune.cli.buildargs import settings_of

    args = for_file(args, path)
    session = Session.of(settings_of(args))
    wants = always_profile or args.args is not None or args.profile or bool(args.stdin)
    return session.rank(
        path,
        loops=list(args.loop),
        schedules=args.schedules,
        chunks=args.chunks,
        threads=args.threads,
        profile=wants and hasattr(args, "extra_source"),
        store=store,
    )


def run(args: argparse.Namespace) -> int:
    from autotune.api import Session
    from autotune.cli.buildargs import settings_of

    if args.top < 1:
        raise UserError("--top must be at least 1")
    wants_profile = args.args is not None or args.profile or bool(args.stdin)
    session = Session.of(settings_of(args))
    results, skipped = [], []
    with session.reading_store(create=wants_profile) as (store, note):
        if note:
            print(f"autotune: note: {note}", file=sys.stderr)
        if (one := program_note(args)) and not args.json:
            print(one, file=sys.stderr)
        for f in args.files:  # one file without a loop does not stop the others (as analyze)
            try:
                results.append(rank_file(f, args, store))
            except UserError as exc:
                if len(args.files) == 1:
                    raise
                skipped.append({"file": f, "error": str(exc)})
    if not results:
        raise UserError(f"nothing ranked in {len(args.files)} files: {skipped[0]['error']}")
    if args.json:
        dump_json({"files": [fr.to_dict(args.top) for fr in results], "skipped": skipped})
        return 0
    for s in skipped:
        print(f"autotune: skipped: {s['error']}", file=sys.stderr)
    for fr in results:
        chosen = fr.chosen
        print(
            f"{fr.path}: model {chosen.name} ({chosen.why}), target {chosen.target} time, "
            f"coefficients: {chosen.source}"
        )
        if fr.profile_note:
            print(fr.profile_note + " (no variant was compiled)")
        for r in fr.rankings:
            print_ranking(r, args.top)
    return 0


def print_ranking(r: LoopRanking, top: int, out=None) -> None:
    out = out or sys.stdout
    if r.error:
        print(f"\n{r.id}: not ranked: {r.error}", file=out)
        return
    print(
        f"\n{r.id} ({r.record.function}): {len(r.variants)} variants, "
        f"as written predicted {r.baseline_predicted_s:.3e} s",
        file=out,
    )
    print_gate_notes(r, out)
    rows = []
    for i, v in enumerate(r.variants[:top], 1):
        gain = (
            r.baseline_predicted_s / v.predicted_s
            if v.predicted_s and r.baseline_predicted_s
            else None
        )
        rows.append(
            [
                i,
                v.variant.schedule,
                v.variant.chunk or "-",
                v.variant.threads,
                v.predicted_s,
                f"{gain:.2f}x" if gain else "-",
            ]
        )
    table(["rank", "schedule", "chunk", "threads", "predicted s", "vs written"], rows, out=out)
    gain = r.first_gain
    if r.variants and r.measured_only:
        print(f"  the build hook's rank mode would keep the original: {r.measured_only}", file=out)
    elif gain is not None:
        rule = r.ship_rule
        rank = r.variants.index(r.pick) + 1 if r.pick in r.variants else 1
        verdict = f"would compile rank {rank}" if rule.ships(gain) else "would keep the original"
        first = r.variants[0].variant
        if rank > 1 and rule.ships(gain) and first.threads and r.cores:
            verdict += (
                f" (rank 1 runs {first.threads} threads on {r.cores} cores: an unmeasured "
                "pick never oversubscribes them)"
            )
        side = "above" if rule.ships(gain) else "not above"
        print(
            f"  the build hook's rank mode {verdict}: predicted {gain:.2f}x, {side} the "
            f"{rule.min_gain:.2f}x an unmeasured pick needs ('autotune tune' measures)",
            file=out,
        )


def print_gate_notes(r: LoopRanking, out) -> None:
    """What the legality gate kept, reassociation notes, and runtime duplicates."""
    for dim, why in r.record.kept.items():
        print(f"  {dim} kept as written: {why}", file=out)
    if r.record.guard:
        print(
            f"  proven only where {r.record.guard}: variants run behind that test",
            file=out,
        )
    for note in r.record.reassociates:
        print(f"  note: {note}", file=out)
    if r.equivalent:
        shown = ", ".join(f"{e.variant.label} = {e.same_as.label}" for e in r.equivalent[:4])
        more = f", and {len(r.equivalent) - 4} more" if len(r.equivalent) > 4 else ""
        print(
            f"  {len(r.equivalent)} more variant(s) equivalent to one of these under "
            f"libgomp, not listed: {shown}{more}",
            file=out,
        )
