"""``autotune report-build``: which sources and loops the last build compiled tuned, and why.

Reads the decision log that ``autotune-cc`` appends to next to the results
database. "The last build" is the newest group of compiles sharing
``$AUTOTUNE_BUILD_ID``, or else no more than ``--gap`` seconds apart.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import os

from autotune.buildhook import report
from autotune.errors import UserError
from autotune.render import dump_json, table


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        metavar="PATH",
        help="results database whose decision log to read (default: as the "
        "wrapper finds it: $AUTOTUNE_DB, project config, user cache dir)",
    )
    parser.add_argument(
        "--log", metavar="FILE", help="read this decision log instead (<db stem>.builds.jsonl)"
    )
    parser.add_argument(
        "--all", action="store_true", help="every recorded compile, not only the last build"
    )
    parser.add_argument(
        "--gap",
        type=float,
        default=report.DEFAULT_GAP_S,
        metavar="SECONDS",
        help="compiles further apart than this belong to different builds "
        f"(default {report.DEFAULT_GAP_S:.0f})",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")


def _log_path(args: argparse.Namespace) -> str:
    if args.log:
        return args.log
    if args.db:
        return report_log_for_db(args.db)
    from autotune.buildhook.config import ConfigError, load_config, log_path

    try:
        return log_path(load_config())
    except ConfigError as exc:
        raise UserError(str(exc)) from None


def report_log_for_db(db: str) -> str:
    from autotune.buildhook.config import default_log_path

    return default_log_path(os.path.expanduser(db))


def run(args: argparse.Namespace) -> int:
    if args.gap <= 0:
        raise UserError("--gap must be positive")
    path = _log_path(args)
    records = report.read_log(path)
    if not records:
        raise UserError(
            'no compile decisions recorded yet: build with CC="autotune-cc gcc" '
            "(or autotune_enable() in CMake) first",
            location=path,
        )
    chosen = records if args.all else report.last_build(records, args.gap)
    sources = report.latest_per_source(chosen)
    loops_tuned = sum(1 for s in sources for ld in s.get("loops", []) if ld["used"] == "tuned")
    loops_orig = sum(1 for s in sources for ld in s.get("loops", []) if ld["used"] != "tuned")
    summary = {
        "log": path,
        "build_id": chosen[-1].get("build") or None,
        "start": chosen[0]["time"],
        "end": chosen[-1]["time"],
        "compiles": len(chosen),
        "sources": len(sources),
        "sources_tuned": sum(1 for s in sources if s.get("used") == "tuned"),
        "loops_tuned": loops_tuned,
        "loops_original": loops_orig,
        "warnings": sum(1 for s in sources if s.get("warning")),
    }
    if args.json:
        dump_json({"build": summary, "sources": sources})
        return 0
    when = _dt.datetime.fromtimestamp(summary["start"]).strftime("%Y-%m-%d %H:%M:%S")
    scope = "all recorded compiles" if args.all else "last build"
    print(
        f"{scope}: {summary['compiles']} compile(s) of {summary['sources']} C source(s) "
        f"from {when}; {summary['sources_tuned']} source(s) and {loops_tuned} loop(s) "
        f"compiled tuned, {loops_orig} loop(s) original"
    )
    rows = []
    for s in sources:
        name = _short(s)
        loops = s.get("loops") or []
        if not loops or s.get("used") != "tuned" and s.get("warning"):
            rows.append([name, "-", s.get("used", "original"), "-", s.get("reason", "")])
            continue
        for ld in loops:
            variant = _in_words(ld.get("variant")) if ld["used"] == "tuned" else "-"
            rows.append(
                [
                    name,
                    f"{ld['line']} {ld.get('function') or ''}".strip(),
                    ld["used"],
                    variant,
                    ld.get("reason", ""),
                ]
            )
    table(["source", "loop", "compiled", "variant", "why"], rows, out=_stdout())
    print(f"log: {path}")
    return 0


def _short(s: dict) -> str:
    path = s.get("path") or s.get("source", "")
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return rel if not rel.startswith("../../") else path


def _stdout():
    import sys

    return sys.stdout


def _in_words(key: str | None) -> str:
    """``dynamic,512,t4`` as ``dynamic,512 on 4 threads`` (the log keeps the key)."""
    from autotune.variants.space import Variant

    try:
        return Variant.from_key(key).label if key else "-"
    except (ValueError, TypeError, IndexError):
        return key or "-"
