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
    parser.add_argument(
        "file", metavar="FILE.c", help="C source file; each variant is a whole copy of it"
    )
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
    parser.add_argument(
        "--max-bytes",
        type=byte_count,
        metavar="SIZE",
        help="refuse, before writing anything, when the files would pass SIZE (e.g. 500M, "
        "2G; 0 = no limit; default 1G): each variant is a whole copy of the file",
    )
    parser.add_argument("--json", action="store_true", help="print the manifest as JSON")


def byte_count(text: str) -> int:
    """``500M``, ``2G``, ``64k`` or plain bytes, for argparse."""
    units = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
    body = text.strip().lower().removesuffix("ib").removesuffix("b")
    unit = body[-1:] if body[-1:] in units else ""
    try:
        value = float(body[: len(body) - len(unit)])
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 500M, 2G)") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"not a size: {text!r}")
    return int(value * units[unit])


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
        max_bytes=args.max_bytes,
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
