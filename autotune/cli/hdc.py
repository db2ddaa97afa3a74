"""``autotune hdc``: the hypercube divide-and-conquer cost model (seed 003).

Fits the divide, combine and sequential costs by least squares from trace
tables (the paper's Tables 1 and 2 by default, or --traces), then predicts
T = sum over log2 P levels of divide + combine + 2 (l + K g), plus the
sequential leaf. Defaults are the paper's worked example (N = 1024000 nodes,
M = 2048000 edges, P = 8, l = 2.43e-4 s, g = 1.51e-7 s/word, K = N words).
"""

from __future__ import annotations

import argparse

from autotune import render
from autotune.errors import UserError
from autotune.structmodels.hdc import COMPONENTS, HypercubeDC, relative_error
from autotune.structmodels.traces import (
    TraceFormatError,
    paper_parallel_times,
    paper_traces,
    read_traces,
)

PAPER_PREDICTED = 1.916492  # the paper's own prediction for its worked example


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--nodes", type=float, default=1024000, help="graph nodes N")
    parser.add_argument("--edges", type=float, default=2048000, help="graph edges M")
    parser.add_argument("--procs", type=int, default=8, help="processors P (a power of two)")
    parser.add_argument("--latency", type=float, default=2.43e-4, help="latency l, s")
    parser.add_argument("--gap", type=float, default=1.51e-7, help="time per 32-bit word g, s")
    parser.add_argument(
        "--words",
        type=float,
        default=None,
        help="words exchanged per level K (default: N, the root vector)",
    )
    parser.add_argument(
        "--split",
        choices=("edges", "both"),
        default="edges",
        help="sizes halved per level: edges only (the example: every level "
        "merges all N nodes) or both N and M (SIZE/2^j literally)",
    )
    parser.add_argument(
        "--traces",
        action="append",
        metavar="CSV",
        help="trace table(s): component,N,M,seconds or the paper's layouts "
        "(repeatable; default: the paper's Tables 1 and 2)",
    )
    parser.add_argument(
        "--as-printed",
        action="store_true",
        help="use the paper's two out-of-trend trace values as printed",
    )
    parser.add_argument(
        "--measured",
        type=float,
        default=None,
        help="measured time to compare with (default: the paper's Table 4 "
        "when N, M, P match a row)",
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    for name in ("nodes", "edges", "latency", "gap"):
        if not getattr(args, name) >= 0:
            raise UserError(f"--{name} must be non-negative")
    if args.words is not None and args.words < 0:
        raise UserError("--words must be non-negative")
    model, pred, split = _fit_and_predict(args)
    measured, source = args.measured, "--measured"
    if measured is None and not args.traces:
        for p, n, m, t in paper_parallel_times():
            if (p, n, m) == (args.procs, args.nodes, args.edges):
                measured, source = t, "paper Table 4"
    paper = None
    if not args.traces and (args.procs, args.nodes, args.edges) == (8, 1024000, 2048000):
        paper = PAPER_PREDICTED
    err = relative_error(pred.total_s, measured) if measured else None
    if args.json:
        out = {
            "components": {c: model.components_[c].to_dict() for c in COMPONENTS},
            "split": list(split),
            "prediction": pred.to_dict(),
            "measured_s": measured,
            "measured_source": source if measured else None,
            "relative_error": err,
            "paper_predicted_s": paper,
        }
        render.dump_json(out)
        return 0
    _print_model(model)
    _print_prediction(args, pred)
    if paper is not None:
        print(f"paper predicted:  {paper:.6f} s (its coefficient table is damaged; ours refit)")
    if measured:
        print(f"measured:         {measured:.6f} s ({source}); error {100 * err:+.2f}%")
    return 0


def _fit_and_predict(args: argparse.Namespace):
    """(fitted HypercubeDC, its prediction at the command line's point, the split)."""
    try:
        if args.traces:
            traces = None
            for path in args.traces:
                traces = read_traces(path, traces, corrected=not args.as_printed)
        else:
            traces = paper_traces(corrected=not args.as_printed)
        split = ("M",) if args.split == "edges" else ("M", "N")
        model = HypercubeDC(split=split).fit(traces)
        pred = model.predict_one(
            {"N": args.nodes, "M": args.edges}, args.procs, args.latency, args.gap, args.words
        )
    except TraceFormatError as exc:
        raise UserError(exc.message, exc.location) from None
    except ValueError as exc:
        raise UserError(str(exc)) from None
    return model, pred, split


def _print_model(model) -> None:
    print("component costs (least squares on the traces)")
    rows = []
    for c in COMPONENTS:
        lc = model.components_[c]
        terms = " + ".join(f"{v:.4g} {f}" for f, v in zip(lc.features, lc.coef_, strict=True))
        rows.append([c, f"{lc.intercept_:.4g} + {terms}", lc.r2_, lc.n_samples_])
    print(render.table(["function", "seconds", "R^2", "traces"], rows))
    print()


def _print_prediction(args: argparse.Namespace, pred) -> None:
    print(
        f"hypercube D&C: N={args.nodes:g} nodes, M={args.edges:g} edges, P={args.procs}, "
        f"l={args.latency:g} s, g={args.gap:g} s/word, K={pred.words:g} words/level"
    )
    lv_rows = [
        [lv.level, lv.sizes["N"], lv.sizes["M"], lv.divide_s, lv.combine_s, lv.exchange_s]
        for lv in pred.levels
    ]
    lv_rows.append(["leaf", pred.leaf_sizes["N"], pred.leaf_sizes["M"], None, None, None])
    print(render.table(["level", "N", "M", "divide [s]", "combine [s]", "exchange [s]"], lv_rows))
    print(f"sequential leaf:  {pred.sequential_s:.6f} s")
    print(f"communication:    {pred.communication_s:.6f} s")
    print(f"computation:      {pred.computation_s:.6f} s")
    print(f"total predicted:  {pred.total_s:.6f} s")
    negative = [
        name
        for name, v in (
            ("sequential leaf", pred.sequential_s),
            ("communication", pred.communication_s),
            ("computation", pred.computation_s),
        )
        if v < 0
    ]
    if negative or pred.total_s < 0:
        print(
            f"note: negative time in {', '.join(negative) or 'the total'}: the fitted "
            "component costs extrapolate below zero at this size (a linear fit of few "
            "traces); measure traces nearer this size"
        )
