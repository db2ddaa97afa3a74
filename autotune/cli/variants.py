"""``autotune variants``: write every variant of a file's OpenMP loops, with a manifest.

Each variant file is the user's file with only the loop's directive line(s)
changed (timing code added only with ``--instrument``), so ``diff`` against
the original shows exactly what a variant is.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from autotune.cli.common import add_source_arguments, source_options
from autotune.errors import UserError
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


def _space(record, args: argparse.Namespace, cores: int) -> list:  # noqa: ANN001
    from autotune.variants import space

    return space.space_from_strings(record, args.schedules, args.chunks, args.threads, cores)


def _file_name(stem: str, record, key: str) -> str:  # noqa: ANN001
    where = f"L{record.line}"
    if record.column and record.id.endswith(f":{record.line}:{record.column}"):
        where += f"c{record.column}"  # two loops on one line
    return f"{stem}.{where}.{key.replace(',', '-')}.c"


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def run(args: argparse.Namespace) -> int:
    from autotune.analysis import analyze_options
    from autotune.variants.apply import read_source, write_atomic
    from autotune.variants.directive import flat_text, parse_pragma
    from autotune.variants.emit import EmitError, emit_variant, rewrite_source
    from autotune.variants.space import BASELINE

    path = args.file
    if not os.path.isfile(path):
        raise UserError("no such file", path)
    if args.cores is not None and args.cores < 1:
        raise UserError(f"--cores {args.cores}: must be at least 1")
    cores = args.cores or os.cpu_count() or 1
    options = source_options(args)
    source = read_source(path)
    unit = analyze_options(path, options, threads=cores)
    if not unit.loops:
        raise UserError("no OpenMP worksharing loop in the file: no variant to write", path)
    records = select_loops(unit.loops, args.loop)
    out_dir = Path(args.output)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(
            f"cannot create the output directory: {exc.strerror}", str(out_dir)
        ) from None

    stem = Path(path).stem
    manifest: dict = {
        "source": os.path.abspath(path),
        "instrumented": bool(args.instrument),
        "defines": options.defines,
        "loops": [],
    }
    rows: list[list] = []
    written = 0
    errors: list[str] = []
    for record in records:
        entry: dict = {
            "id": record.id,
            "line": record.line,
            "function": record.function,
            "tunable": record.tunable,
            "reason": record.reason,
            "variants": [],
        }
        manifest["loops"].append(entry)
        if not _same_file(record.file, path):
            entry["error"] = f"the loop is in {record.file}, not in {path}"
            errors.append(f"{record.id}: {entry['error']}")
            continue
        variants = [BASELINE, *_space(record, args, cores)] if record.tunable else []
        if not record.tunable:
            rows.append([record.id, "-", "-", f"not tunable: {record.reason}"])
        try:
            for variant in variants:
                text = emit_variant(source, record, variant, instrument=args.instrument)
                plain = rewrite_source(source, [(record, variant)])
                starts = _starts(plain)
                ws = parse_pragma(plain, starts, record.directive.line, record.id)
                shown = flat_text(plain[ws.start : ws.end])
                par_shown = None
                if record.parallel is not None and record.parallel.line != record.directive.line:
                    par = parse_pragma(plain, starts, record.parallel.line, record.id)
                    par_shown = flat_text(plain[par.start : par.end])
                name = _file_name(stem, record, variant.key)
                write_atomic(out_dir / name, text)
                written += 1
                entry["variants"].append(
                    {
                        "key": variant.key,
                        "file": name,
                        "schedule": variant.schedule,
                        "chunk": variant.chunk,
                        "threads": variant.threads,
                        "directive": shown,
                        "parallel_directive": par_shown,
                    }
                )
                rows.append(
                    [
                        record.id,
                        variant.key,
                        name,
                        par_shown + " / " + shown if par_shown else shown,
                    ]
                )
        except EmitError as exc:
            entry["error"] = str(exc)
            errors.append(str(exc))
            rows.append([record.id, "-", "-", f"error: {exc}"])
    write_atomic(out_dir / "manifest.json", json.dumps(manifest, indent=2) + "\n")
    if errors and not written:
        raise UserError(errors[0])
    if args.json:
        dump_json(manifest)
    else:
        if rows:
            table(["loop", "variant", "file", "directive"], rows, out=sys.stdout)
        print(
            f"{written} file(s) and manifest.json written to {out_dir}"
            + (" (instrumented)" if args.instrument else "")
        )
    for e in errors:
        print(f"autotune: warning: {e}", file=sys.stderr)
    return 0


def _starts(text: str) -> list[int]:
    from autotune.variants.cscan import line_starts

    return line_starts(text)
