"""``autotune variants``: write every variant of a file's OpenMP loops, with a manifest.

Each variant file is the user's file with only the loop's directive line(s)
changed (timing code added only with ``--instrument``), so ``diff`` against
the original shows exactly what a variant is.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from autotune.cli.common import add_source_arguments, source_options
from autotune.errors import UserError, require_c_file
from autotune.frontend.records import select_loops
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
    from autotune.analysis import analyze_options
    from autotune.textfile import read_source
    from autotune.variants.space import space_from_strings
    from autotune.variants.write import write_variants

    path = args.file
    require_c_file(path)
    if args.cores is not None and args.cores < 1:
        raise UserError(f"--cores {args.cores}: must be at least 1")
    cores = args.cores or os.cpu_count() or 1
    options = source_options(args)
    source = read_source(path)
    unit = analyze_options(path, options, threads=cores)
    if not unit.loops:
        raise UserError("no OpenMP worksharing loop in the file: no variant to write", path)
    done = write_variants(
        path,
        source,
        select_loops(unit.loops, args.loop),
        Path(args.output),
        lambda r: space_from_strings(r, args.schedules, args.chunks, args.threads, cores),
        instrument=args.instrument,
        defines=options.defines,
    )
    if done.errors and not done.written:
        raise UserError(done.errors[0])
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
