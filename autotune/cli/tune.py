"""``autotune tune``: rank, measure the original plus the model's top K, apply the winner."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from autotune.api import Session
from autotune.cli.buildargs import add_build_arguments, settings_of, term_as_interrupt
from autotune.cli.common import (
    add_source_arguments,
    check_writable,
    finding_label,
    source_options,
)
from autotune.cli.programfiles import for_file, program_note
from autotune.cli.rank import add_model_arguments, print_gate_notes, rank_file
from autotune.errors import NoLoops, UserError
from autotune.measure.loop_run import STORED_NOTE
from autotune.render import Progress, dump_json, table
from autotune.tuning.confirm import Confirmation
from autotune.tuning.pipeline import FileTuneResult, TuneOptions, tune_file
from autotune.tuning.tune import LoopTuneResult


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE.c",
        help="C source file(s): the files of one program (one defines main) are read as "
        "one, each with the others; files that each define main are tuned one by one",
    )
    add_source_arguments(parser)
    add_model_arguments(parser)
    g = parser.add_argument_group("tuning")
    g.add_argument(
        "--top",
        type=int,
        default=5,
        metavar="K",
        help="measure at most K variants besides the original (default 5)",
    )
    g.add_argument(
        "--search",
        choices=["sequential", "top"],
        default="sequential",
        help="how the K are chosen: one at a time, each guided by the model and "
        "by what was measured so far, stopping early when nothing left can "
        "plausibly win (sequential, default); or the model's K best "
        "predicted, measured together (top)",
    )
    g.add_argument(
        "--exhaustive",
        action="store_true",
        help="measure the whole space as well (experiments; reports model quality)",
    )
    out = g.add_mutually_exclusive_group()
    out.add_argument("--apply", metavar="OUT.c", help="write the tuned source to OUT.c")
    out.add_argument(
        "--in-place",
        action="store_true",
        help="rewrite FILE.c atomically, keeping FILE.c.orig as a backup",
    )
    g.add_argument(
        "--threads-as",
        choices=["count", "share"],
        default="count",
        help="how --apply/--in-place write a tuned thread count: the count itself "
        "(default), or the same share of the cores the program finds when it "
        "runs (all the cores tuned on become num_threads(omp_get_num_procs())), "
        "so the tuned program stays sensible on a machine with more cores; "
        "on this machine both are the same program",
    )
    g.add_argument(
        "--confirm-runs",
        type=int,
        default=5,
        metavar="N",
        help="whole-program runs of the original and of the tuned program, "
        "interleaved, before anything is applied or stored (default 5)",
    )
    g.add_argument(
        "--min-share",
        type=float,
        default=None,
        metavar="F",
        help="measure no variant of a loop that takes less than this share of the "
        "program's run time (default: about 0.029, below which no variant can make "
        "the program 3%% faster; 0 measures every loop)",
    )
    g.add_argument(
        "--time-budget",
        type=float,
        default=None,
        metavar="SECONDS",
        help="stop measuring after SECONDS and decide on what was measured: a loop "
        "reached later is not measured and stays as written, and the whole program is "
        "still confirmed, so the tune ends somewhat later (default: no limit)",
    )
    parser.add_argument(
        "--allow-busy",
        action="store_true",
        help="keep a whole-program gain measured while other processes loaded the machine "
        "(by default it is not shipped, the load is said, and the exit status is 3); "
        "the same as --busy ship",
    )
    parser.add_argument(
        "--busy",
        choices=("fail", "keep", "ship"),
        default=None,
        help="what a gain measured while other processes loaded the machine does: 'fail' "
        "(default) keeps the original and exits 3; 'keep' keeps the original and exits 0 "
        "(a script on a shared runner goes on); 'ship' applies it (--allow-busy)",
    )
    add_build_arguments(parser, with_cc=False)  # --cc comes with the model options
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="forget stored runs of the measured variants and measure again",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress output")


def run(args: argparse.Namespace) -> int:
    if args.top < 1:
        raise UserError("--top must be at least 1")
    if args.in_place and len(args.files) > 1 or args.apply and len(args.files) > 1:
        raise UserError(
            "--apply/--in-place take one FILE.c (for a program of several files: the file "
            "to rewrite, and its other files with --extra-source)"
        )
    if args.repetitions < 1:
        raise UserError("--repetitions must be at least 1")
    if args.confirm_runs < 1:
        raise UserError("--confirm-runs must be at least 1")
    if args.busy == "ship":
        args.allow_busy = True
    elif args.busy is not None and args.allow_busy:
        raise UserError(f"--allow-busy ships the gain; it contradicts --busy {args.busy}")
    if args.time_budget is not None and args.time_budget <= 0:
        raise UserError("--time-budget must be a positive number of seconds")
    if args.min_share is not None and not 0 <= args.min_share < 1:
        raise UserError("--min-share must be a share of the run time, from 0 to below 1")
    session = Session.of(settings_of(args, source_options(args)))
    sweep_opts = session.sweep_options(fresh=getattr(args, "fresh", False))
    tune_opts = TuneOptions(
        args.top,
        args.search,
        args.exhaustive,
        args.confirm_runs,
        allow_busy=args.allow_busy,
        min_share=args.min_share,
        time_budget_s=args.time_budget,
    )
    if args.time_budget is not None:  # one budget for every file named
        tune_opts.deadline = time.monotonic() + args.time_budget
    _check_writable(args)  # before minutes of measuring, not after
    report: list[tuple[FileTuneResult, str | None]] = []
    args.backup_written = None
    started, runs = time.monotonic(), [0, 0]  # measured now, read from the database
    with session.store() as store, term_as_interrupt():
        db_path = str(store.path)
        if (note := program_note(args)) and not (args.quiet or args.json):
            print(note, file=sys.stderr)
        without: list[NoLoops] = []
        failed: list[dict] = []  # separate programs: one that fails does not stop the rest
        text_out = not args.json
        for path in args.files:
            file_args = for_file(args, path)  # a program's other files build with it
            try:
                build = Session.of(
                    settings_of(file_args, source_options(file_args))
                ).build_options()
                ranked = rank_file(path, file_args, store, always_profile=True)
            except NoLoops as exc:
                if note:
                    without.append(exc)  # a program's file without a loop
                    continue
                if len(args.files) == 1:
                    raise
                failed.append({"file": path, "skipped": str(exc)})
                if text_out:
                    print(f"autotune: skipped: {exc}", file=sys.stderr)
                continue
            except UserError as exc:
                if len(args.files) == 1 or note:
                    raise
                failed.append({"file": path, "error": str(exc)})
                if text_out:
                    print(f"autotune: error: {exc} (the other files go on)", file=sys.stderr)
                continue
            with Progress(1, "tune", quiet=args.quiet or args.json) as bar:
                done = tune_file(
                    ranked,
                    build,
                    sweep_opts,
                    store,
                    tune_opts,
                    on_plan=lambda n, bar=bar: setattr(bar, "total", max(n, 1)),
                    on_run=lambda note, bar=bar: (bar.advance(1, note), _count(runs, note)),
                )
            written = _apply(path, done.source_text, done.final, args)
            report.append((done, written))
            if text_out:  # each file's result as it finishes
                if done.ranked.profile_note:
                    print(done.ranked.profile_note)
                print_report(done, written, args.top)
                sys.stdout.flush()
        if not report and without:
            raise UserError(f"none of the program's {len(args.files)} files has an OpenMP loop")
        if not report and failed:
            first = failed[0].get("error") or failed[0].get("skipped")
            raise UserError(f"nothing tuned in {len(args.files)} files: {first}")
    errors = [f for f in failed if "error" in f]
    busy = [d.confirmation.busy for d, _ in report if d.confirmation and d.confirmation.busy]
    busy += [g.held_back for d, _ in report for g in d.regions if g.held_back]
    held = bool(busy) and not args.allow_busy  # a gain kept back for the load
    deferred = 2 if errors else 3 if held and args.busy != "keep" else 0
    budget = {
        "seconds": round(time.monotonic() - started, 3),
        "program_runs": runs[0],  # measured now
        "stored_runs": runs[1],  # read from the database (--fresh measures them again)
    }
    if args.json:
        files = [done.to_dict(written) for done, written in report]
        dump_json(
            {
                "files": files,
                "skipped": failed,
                "database": db_path,
                "backup": args.backup_written,
                "budget": budget,
            }
        )
        return deferred
    if args.in_place and report and report[0][1] is None:
        print(f"\nnothing to change: {report[0][0].path} left as it is (no backup written)")
    if args.backup_written:
        print(f"backup of the original: {args.backup_written}")
    small = sum(1 for done, _ in report for r in done.results if r.small_share is not None)
    skipped = f"; {small} loop(s) too small a share of the run to measure variants" if small else ""
    print(
        f"tuning took {budget['seconds']:.0f} s and {budget['program_runs']} program runs "
        f"measured now{_stored(runs[1])}{skipped}"
    )
    print(f"runs and decisions stored in {db_path}")
    if errors:
        print(
            f"autotune: {len(errors)} of {len(args.files)} files failed: "
            + "; ".join(f"{e['file']}" for e in errors),
            file=sys.stderr,
        )
    if held:
        print(
            f"autotune: the machine was busy: {busy[0]}; the original is kept"
            + ("" if args.busy == "keep" else " (exit 3; --busy keep exits 0)"),
            file=sys.stderr,
        )
    return deferred


def _count(runs: list[int], note: str) -> None:
    runs[1 if note.endswith(STORED_NOTE) else 0] += 1


def _stored(n: int) -> str:
    if not n:
        return ""
    return f", {n} read from the database (measured before; --fresh measures them again)"


def _check_writable(args) -> None:
    """A target that cannot be written is said before anything is measured."""
    if args.apply:
        target = Path(args.apply)
        if target.resolve() == Path(args.files[0]).resolve():
            raise UserError("--apply would overwrite the input; use --in-place for that")
        check_writable(target)
    if args.in_place:
        check_writable(args.files[0], "cannot rewrite in place")


def _apply(path: str, source: str, choices: list, args) -> str | None:
    """Write the tuned source (the confirmed choices); None when nothing was written
    (in place and unchanged)."""
    if not (args.apply or args.in_place):
        return None
    from autotune.variants.apply import apply_variants, write_atomic

    share_of = len(os.sched_getaffinity(0)) if args.threads_as == "share" else None
    text = apply_variants(source, choices, share_of=share_of) if choices else source
    if args.in_place and text == source:
        return None  # nothing to change: no rewrite, no backup
    target = path if args.in_place else args.apply
    backup = write_atomic(target, text, backup=bool(args.in_place))
    args.backup_written = str(backup) if backup else None
    return target


# Over 60 lines: the tune report, one section after another (loops, program, regions, placement).
def print_report(done: FileTuneResult, written: str | None, top: int, out=None) -> None:
    out = out or sys.stdout
    path, chosen, results = done.path, done.ranked.chosen, done.results
    confirmation, regions, placement = done.confirmation, done.regions, done.placement
    print(
        f"{path}: model {chosen.name}, target {chosen.target} time; coefficients: {chosen.source}",
        file=out,
    )
    said: set[str] = set()
    for r in results:
        print(f"\n{r.id} ({r.ranking.record.function}): {r.decision}", file=out)
        if r.ranking.error or r.baseline is None:
            continue
        print_gate_notes(r.ranking, out)
        table(
            [
                "model rank",
                "step",
                "schedule",
                "chunk",
                "threads",
                "predicted s",
                "loop s (measured)",
                "speedup [95% interval]",
                "status",
            ],
            _rows(r, top),
            out=out,
        )
        if r.search is not None:
            print(
                f"sequential search: {len(r.search.steps)} step(s), stopped: {r.search.stopped}",
                file=out,
            )
        if r.runtime_build is not None:
            print(r.runtime_build.text(), file=out)
        pruned = sum(1 for v in r.ranking.variants if v.status == "pruned")
        selection = r.runtime_build is not None  # counted with the programs run
        print(
            f"measured {r.measured_programs - selection} of {len(r.ranking.variants) + 1} "
            f"programs ({pruned} pruned by the model)"
            + (" and the loop as written in the one build of every schedule" if selection else "")
            + f", {r.compiles} compile(s)",
            file=out,
        )
        q = r.quality
        if q is not None:
            tau = "-" if q.kendall_tau is None else f"{q.kendall_tau:.2f}"
            mare = "-" if q.mean_abs_rel_error is None else f"{q.mean_abs_rel_error:.1%}"
            # regret and "best pruned" say something only when every variant was measured
            regret = ", ".join(
                f"regret@{k} {v:.1%}"
                for k, v in sorted(q.regret.items())
                if v is not None and q.exhaustive
            )
            anchored = (
                ""
                if q.mean_abs_rel_error_anchored is None
                else f" ({q.mean_abs_rel_error_anchored:.1%} once anchored on the original)"
            )
            print(
                f"model quality on the measured variants: Kendall tau {tau}, mean abs "
                f"relative error {mare}{anchored}{', ' + regret if regret else ''}"
                f"{', true best pruned' if q.best_pruned and q.exhaustive else ''}",
                file=out,
            )
        for w in r.warnings or []:
            if w not in said:  # the same finding for the next loop of the file: once
                print(f"{finding_label(w)}: {w}", file=out)
                said.add(w)
    if confirmation is not None:
        print_confirmation(confirmation, out)
    for region in regions or []:
        tried = ", ".join(
            f"{t.threads}: {t.interval.text()}"
            if t.interval is not None
            else f"{t.threads}: {t.runs.status}"
            for t in region.tries
        )
        print(
            f"{region.label}: {region.decision}"
            + (
                f" [whole-program speedup over the original by thread count: {tried}]"
                if tried
                else ""
            ),
            file=out,
        )
    if placement is not None:
        print(f"thread placement: {placement.decision}", file=out)
    if written and not done.final:
        print(f"\nsource written to {written}, unchanged: no variant was confirmed", file=out)
    elif written:
        print(f"\ntuned source written to {written}", file=out)


def _rows(r: LoopTuneResult, top: int) -> list[list]:
    """The original, then the measured variants fastest first (so the chosen one, the
    fastest verified, leads them), then failures, then the model's next unmeasured picks."""
    steps = {s.variant.key: i for i, s in enumerate(r.search.steps, 1)} if r.search else {}
    base = r.baseline.measured_s
    rows = [
        [
            "original",
            "-",
            "-",
            "-",
            "-",
            r.ranking.baseline_predicted_s,
            base,
            "1.00x",
            r.baseline.status,
        ]
    ]
    ranked = list(enumerate(r.ranking.variants, 1))
    ok = sorted(
        [(i, v) for i, v in ranked if v.status == "ok" and v.measured_s],
        key=lambda iv: iv[1].measured_s,
    )
    failed = [(i, v) for i, v in ranked if v.status not in ("ok", "pruned")]
    pruned = [(i, v) for i, v in ranked if v.status == "pruned" and i <= top]
    for i, v in ok + failed + pruned:
        speed = f"{base / v.measured_s:.2f}x" if v.measured_s and base else "-"
        iv = r.interval_of(v)
        if iv is not None:
            speed = f"{iv.ratio:.2f}x [{iv.low:.2f}, {iv.high:.2f}]"
        status = "ok, chosen" if r.best is not None and v is r.best else v.status
        rows.append(
            [
                i,
                steps.get(v.variant.key, "-"),
                v.variant.schedule,
                v.variant.chunk or "-",
                v.variant.threads,
                v.predicted_s,
                v.measured_s,
                speed,
                status,
            ]
        )
    return rows


def print_confirmation(c: Confirmation, out) -> None:
    """The whole-program check: original against tuned, and what was backed off."""
    o = c.original
    print(
        f"\nwhole program (plain builds, {len(o.times_s)} run(s) of the original): {c.decision}",
        file=out,
    )
    if c.decided is not None:
        print(
            f"  original {c.decided[0]:.4g} s, tuned {c.decided[1]:.4g} s (median wall "
            "time of the whole program when it was accepted)",
            file=out,
        )
    for loop_id, why in c.backed_off:
        print(f"  backed off {loop_id}: {why}", file=out)
