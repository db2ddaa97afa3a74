"""``autotune variants``: write every variant of a file's OpenMP loops, with a manifest.

Each variant file is the user's file with only the loop's directive line(s)
changed (timing code added only with ``--instrument``), so ``diff`` against
the original shows exactly what a variant is.
"""

from __future__ import annotations

import argparse
import sys

from autotune.cli.common import add_source_arguments
from autotune.render import dump_json, table


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE.c")
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="DIR",
        help="directory for the variant files and manifest.json",
    )
    parser.add_argument(
        "--loop",
        action="append",
        default=[],
        metavar="ID",
        help="only this loop (id as printed by analyze, or its line); repeatable",
    )
    add_source_arguments(parser)
    parser.add_argument(
        "--extra-source",
        action="append",
        default=[],
        metavar="FILE",
        help="another C file of the program: the legality proof follows calls into it (repeatable)",
    )
    g = parser.add_argument_group("variant space (default: the machine's default space)")
    g.add_argument("--schedules", metavar="LIST", help="e.g. static,dynamic,guided,auto")
    g.add_argument("--chunks", metavar="LIST", help="e.g. none,1,8,64 ('none' = no chunk)")
    g.add_argument("--threads", metavar="LIST", help="thread counts, e.g. 1,2,4")
    g.add_argument(
        "--cores",
        type=int,
        metavar="N",
        help="cores the default space is made for (default: this machine's)",
    )
    parser.add_argument(
        "--instrument",
        action="store_true",
        help="add the loop timing code (AUTOTUNE_TIMING_FILE side channel)",
    )
    parser.add_argument("--json", action="store_true", help="print the manifest as JSON")


def run(args: argparse.Namespace) -> int:
    from autotune.api import Session
    from autotune.cli.buildargs import settings_of

    done = Session.of(settings_of(args)).variants(
        args.file,
        args.output,
        loops=args.loop,
        schedules=args.schedules,
        chunks=args.chunks,
        threads=args.threads,
        cores=args.cores,
        instrument=args.instrument,
    )
    if args.json:
        dump_json(done.manifest)
    else:
        if done.rows:
            table(["loop", "variant", "file", "directive"], done.rows, out=sys.stdout)
        print(
            f"{done.written} file(s) and manifest.json written to {args.output}"
            + (" (instrumented)" if args.instrument else "")
        )
    for e in done.errors:
        print(f"autotune: warning: {e}", file=sys.stderr)
    return 0
