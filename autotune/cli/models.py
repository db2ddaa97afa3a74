"""``autotune models``: every performance model by name; fit one and predict with it.

Without a name: the models and the paper tables shipped with autotune. With a name: the
model's card (its paper, what it predicts from what); with ``--fit ROWS.csv`` or
``--paper TABLE`` and ``--at``: one prediction with its interval and what the interval is.
"""

from __future__ import annotations

import argparse
import csv

from autotune import render
from autotune.errors import UserError
from autotune.modelshape import RowError
from autotune.textfile import read_source

EXAMPLES = """examples:
  autotune models                                   the models and the paper tables
  autotune models hdc                               one model's card
  autotune models --paper saez-traces --at N=1024000,M=2048000,P=8,latency=2.43e-4,gap=1.51e-7
  autotune models skeleton --param skeleton=farm --fit times.csv --at n=120,p=7
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = EXAMPLES
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("name", nargs="?", help="a model (default with --paper: the table's model)")
    parser.add_argument(
        "--fit", metavar="ROWS.csv", help="fit on this CSV (a header row; '#' lines skipped)"
    )
    parser.add_argument(
        "--paper", metavar="TABLE", help="fit on a paper table shipped with autotune"
    )
    parser.add_argument(
        "--at",
        metavar="K=V,...",
        help="predict here, e.g. n=120,p=7 (the names are the model card's query)",
    )
    parser.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="K=V",
        help="a model parameter, e.g. skeleton=farm or known=n<=100 (one per flag, repeatable)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")


def _pairs(text: str, what: str) -> dict[str, str]:
    out = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UserError(f"{what}: write NAME=VALUE, got {item!r}")
        out[key.strip()] = value.strip()
    return out


def _params(items: list[str]) -> dict[str, object]:
    """``--param`` values: integers where they are integers, else text."""
    out: dict[str, object] = {}
    for item in items:  # one parameter a flag: a value may hold commas (known=n<=100,p!=8)
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UserError(f"--param: write NAME=VALUE, got {item!r}")
        value = value.strip()
        out[key.strip()] = int(value) if value.lstrip("-").isdigit() else value
    return out


def read_rows(path: str) -> tuple[list[dict[str, str]], list[int]]:
    """A CSV of rows: one header line, comment lines (``#``) and blank lines skipped;
    also the file's line number of the header and of each row (for messages)."""
    text = read_source(path)
    numbered = [
        (n, ln)
        for n, ln in enumerate(text.splitlines(), 1)
        if ln.strip() and not ln.lstrip().startswith("#")
    ]
    if len(numbered) < 2:
        raise UserError("no rows: a header line and at least one row are needed", path)
    rows = csv.DictReader([ln for _, ln in numbered])
    out = [{k.strip(): (v or "").strip() for k, v in r.items() if k} for r in rows]
    return out, [n for n, _ in numbered]


def _fit_file(model, path: str):
    """Fit on the file's rows; a bad row is named by the file's line."""
    rows, lines = read_rows(path)
    try:
        return model.fit(rows)
    except RowError as exc:
        at = lines[exc.row] if 0 <= exc.row < len(lines) else None
        raise UserError(exc.message, f"{path}:{at}" if at else path) from None


def run(args: argparse.Namespace) -> int:
    from autotune import api

    if args.fit and args.paper:
        raise UserError("give --fit or --paper, not both")
    if args.at and not (args.fit or args.paper):
        raise UserError("--at needs a fitted model: give --fit ROWS.csv or --paper TABLE")
    name = args.name
    if args.paper:
        table_model = api.paper_tables_models().get(args.paper)
        if table_model is None:
            raise UserError(
                f"unknown paper table {args.paper!r}; choose from {', '.join(api.paper_tables())}"
            )
        if name and name != table_model:
            raise UserError(f"paper table {args.paper} belongs to model {table_model}, not {name}")
        name = table_model
    if name is None:
        return _list(args)
    if not (args.fit or args.paper):
        return _card(api.model(name, **_params(args.param)).describe(), args)
    model = api.paper_model(args.paper) if args.paper else api.model(name, **_params(args.param))
    if args.fit:
        model = _fit_file(model, args.fit)
    card = model.describe()
    if not args.at:
        raise UserError(f"give --at {','.join(f'{q}=VALUE' for q in card.query)}")
    est = model.predict({k: float(_number(v, k)) for k, v in _pairs(args.at, "--at").items()})
    if args.json:
        render.dump_json({"model": card.to_dict(), "at": args.at, "estimate": est.to_dict()})
        return 0
    interval = "-" if est.low is None else f"[{est.low:.6g}, {est.high:.6g}]"
    print(f"{card.title}: {card.predicts}")
    print(
        render.table(
            ["at", "estimate", "unit", "interval"],
            [[args.at, f"{est.value:.6g}", est.unit, interval]],
        )
    )
    print(f"interval: {est.basis}")
    return 0


def _number(text: str, name: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise UserError(f"--at {name}={text!r} is not a number") from None


def _list(args: argparse.Namespace) -> int:
    from autotune import api

    cards = api.model_cards()
    tables = api.paper_tables()
    models_of = api.paper_tables_models()
    if args.json:
        render.dump_json(
            {
                "models": [c.to_dict() for c in cards],
                "paper_tables": [
                    {"name": t, "model": models_of[t], "caption": cap} for t, cap in tables.items()
                ],
            }
        )
        return 0
    print(
        render.table(
            ["model", "predicts", "from the paper", "predict at"],
            [[c.name, c.predicts, c.source, _query(c.query)] for c in cards],
        )
    )
    print()
    print(
        render.table(
            ["paper table", "model", "what"],
            [[t, models_of[t], cap] for t, cap in tables.items()],
        )
    )
    print("\n'autotune models NAME' describes one; add --paper TABLE or --fit ROWS.csv and --at")
    return 0


def _query(names: tuple[str, ...]) -> str:
    """The query names, or how many there are where a row could not hold them."""
    return ", ".join(names) if len(names) <= 5 else f"{len(names)} loop features"


def _card(card, args: argparse.Namespace) -> int:
    if args.json:
        render.dump_json(card.to_dict())
        return 0
    print(
        render.table(
            ["field", "value"],
            [
                ["model", card.name],
                ["what", card.title],
                ["from the paper", card.source],
                ["predicts", card.predicts],
                ["fitted from rows of", ", ".join(card.fit_columns)],
                ["predicts at", ", ".join(card.query)],
                ["paper tables", ", ".join(card.paper_tables) or "-"],
                ["notes", card.notes or "-"],
            ],
        )
    )
    return 0
