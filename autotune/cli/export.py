"""``autotune export``: runs, decisions and model quality as CSV or JSON."""

from __future__ import annotations

import argparse
import sys

from autotune.api import Session
from autotune.errors import UserError
from autotune.report.export import TABLES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="PATH", help="the database (default: $AUTOTUNE_DB)")
    parser.add_argument("--format", choices=["csv", "json"], default="csv")
    parser.add_argument(
        "--table",
        choices=TABLES,
        help="which table: decisions (default for CSV), quality or runs; JSON holds all "
        "three unless one is named",
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")


def run(args: argparse.Namespace) -> int:
    text = Session(db=args.db).export(args.format, table=args.table)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        from autotune.variants.apply import write_atomic

        write_atomic(args.output, text)
    except OSError as exc:
        raise UserError(f"cannot write: {exc.strerror or exc}", args.output) from None
    print(
        f"{args.table or ('all tables' if args.format == 'json' else 'decisions')} "
        f"written to {args.output}",
        file=sys.stderr,
    )
    return 0
