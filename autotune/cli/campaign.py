"""``autotune campaign PLAN.toml``: many programs and sizes, measured on Dask."""

from __future__ import annotations

import argparse
import sys

from autotune.api import Session
from autotune.campaign.plan import load_plan
from autotune.campaign.progress import CampaignProgress, loop_speedup
from autotune.campaign.runner import scheduler_warning
from autotune.errors import UserError
from autotune.render import dump_json, table

EXAMPLE = """a plan (TOML; paths relative to it):

  name = "sizes"
  repetitions = 3
  budget = "top"            # or "exhaustive"
  top = 5
  [[program]]
  source = "stream.c"
  args = []
  sizes = [{ N = "100000" }, { N = "400000" }]

Run it again to resume: loops with a stored outcome are skipped. Then:
  autotune report -o report.html    and    autotune export --format csv
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EXAMPLE
    parser.add_argument(
        "plan",
        metavar="PLAN.toml",
        help="the programs, their flags, arguments and sizes, the budget (docs/api.md)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="tcp://HOST:8786",
        help="an existing Dask cluster (default: a local one, started and stopped here). "
        "Start one worker per node with '--nworkers 1 --resources measure=1'",
    )
    parser.add_argument(
        "--time-budget",
        type=float,
        default=None,
        metavar="SECONDS",
        help="measure no new loop after SECONDS (the loops being measured finish); the "
        "next run of the plan measures the rest (default: the plan's time_budget, or none)",
    )
    parser.add_argument("--db", metavar="PATH", help="the database (default: $AUTOTUNE_DB)")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress output")


def run(args: argparse.Namespace) -> int:
    session = Session(db=args.db)
    progress = CampaignProgress(quiet=args.quiet or args.json)
    warning = scheduler_warning(args.scheduler) if args.scheduler else ""
    if warning:
        print(f"autotune: warning: {warning}", file=sys.stderr)
    if args.time_budget is not None and args.time_budget <= 0:
        raise UserError("--time-budget must be a positive number of seconds")
    try:
        plan = load_plan(args.plan)
        if args.time_budget is not None:
            plan.time_budget = args.time_budget
        result = session.campaign(plan, scheduler=args.scheduler, progress=progress)
    except KeyboardInterrupt:
        print(
            "\nautotune: interrupted: the loops finished so far are stored; "
            "run the same command again to resume",
            file=sys.stderr,
        )
        return 130
    if args.json:
        dump_json(result.to_dict())
        return 0
    rows = [
        [
            o.program,
            o.size or "-",
            o.loop_id.rsplit("/", 1)[-1],
            (o.doc.get("best") or {}).get("key") or "original",
            loop_speedup(o.doc),
            _whole_program(o.doc),
            o.doc.get("measured_programs", 0),
        ]
        for o in result.outcomes  # in the plan's order
    ]
    if rows:
        head = ["program", "size", "loop", "chosen", "loop speedup", "whole program", "measured"]
        table(head, rows, out=sys.stdout)
    left = (
        f", {result.loops_left} left for the next run (the time budget was spent)"
        if result.loops_left
        else ""
    )
    print(
        f"campaign {result.plan.name}: {result.loops_measured} loop(s) measured now, "
        f"{result.loops_stored} already stored, {result.runs_measured} run(s){left}"
    )
    for w in result.warnings:
        print(f"autotune: warning: {w}", file=sys.stderr)
    for f in result.failures:
        print(f"autotune: failed: {f}", file=sys.stderr)
    print(f"results stored in {result.database}")
    return 1 if result.failures and not result.outcomes and not result.loops_stored else 0


def _whole_program(doc: dict) -> str:
    """The confirmed whole-program speedup with its interval, or why there is none."""
    program = doc.get("whole_program")
    if not program:
        return "-"
    iv = program.get("speedup_interval")
    if program.get("speedup") and iv:
        return f"{program['speedup']:.2f}x [{iv['low']:.2f}, {iv['high']:.2f}]"
    return "not confirmed"
