"""``autotune report``: one static HTML page of the stored tunes and campaigns."""

from __future__ import annotations

import argparse

from autotune.api import Session


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="PATH", help="the database (default: $AUTOTUNE_DB)")
    parser.add_argument(
        "-o",
        "--output",
        default="autotune-report.html",
        metavar="FILE.html",
        help="where to write the page (default autotune-report.html)",
    )
    parser.add_argument("--label", metavar="NAME", help="only this campaign ('tune' for the tunes)")


def run(args: argparse.Namespace) -> int:
    path = Session(db=args.db).report(args.output, label=args.label)
    print(f"report written to {path}")
    return 0
