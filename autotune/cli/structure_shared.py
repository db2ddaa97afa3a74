"""Helpers both modes of ``autotune structure`` use: options, builds, printing."""

from __future__ import annotations

import argparse
import os
import shlex

from autotune.errors import UserError
from autotune.render import table
from autotune.structure.nodes import ProgramTree
from autotune.structure.tree_render import node_notes, where


def _number(text: str, what: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise UserError(f"{what}: {text!r} is not a number") from None
    if not v > 0:
        raise UserError(f"{what}: {text!r} must be positive")
    return v


def parse_threads(text: str | None, default: list[int]) -> list[int]:
    if not text:
        return default
    out = []
    for t in text.split(","):
        v = _number(t.strip(), "--threads")
        if not v.is_integer():
            raise UserError(f"--threads: {t!r} is not a whole number")
        out.append(int(v))
    return sorted(set(out))


def _program_args(args: argparse.Namespace) -> list[str]:
    try:
        return shlex.split(args.args or "")
    except ValueError as exc:
        raise UserError(f"cannot split --args: {exc}") from None


def _read(path: str) -> str:
    from autotune.textfile import read_source

    return read_source(path)


def session_of(args: argparse.Namespace, options):
    """The API session of the structure command's flags."""
    from autotune.api import Session

    return Session(
        db=getattr(args, "db", None),
        cc=args.cc,
        defines=dict(options.defines),
        include_dirs=list(options.include_dirs),
        cflags=list(options.cflags),
        args=_program_args(args),
        timeout_s=args.timeout,
    )


def _run_settings(args: argparse.Namespace, options, progress):
    """How this command line builds and runs the instrumented program."""
    from autotune.structure.experiment import RunSettings

    return RunSettings(
        build=session_of(args, options).build_options(),
        repetitions=args.repetitions,
        timeout_s=args.timeout,
        statistic=args.statistic,
        args=_program_args(args),
        progress=progress,
    )


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _sd(x: float | None) -> str | None:
    return None if x is None else f"{x:.1%}"


def _pct(x: float | None) -> str | None:
    return None if x is None else f"{x:+.1%}"


def _print_checks(checks: list[dict]) -> None:
    if not checks:
        return
    print(
        "sections as binary composition (model from the sections' four moments vs the "
        "measured construct, per execution):"
    )
    rows = []
    for c in checks:
        model = c["model"]
        at = (f"n={_num(c['n'])}," if c.get("n") is not None else "") + f"p={c['p']}"
        rows.append(
            [
                os.path.basename(c["sections"]),
                at,
                "x".join(map(str, c["samples"])),
                model["exact"],
                model["lambda"],
                model["deterministic"],
                c["measured_region_per_execution"],
                c["measured_mean_of_max"],
                _pct(c["error_vs_region"]["exact"]),
            ]
        )
    print(
        table(
            [
                "sections",
                "at",
                "samples",
                "E[max] exact",
                "E[max] paper",
                "max means",
                "measured",
                "mean of max",
                "error",
            ],
            rows,
        )
    )


def _print_notes(tree: ProgramTree, est: dict | None = None) -> None:
    lines = [f"  {w}" for w in tree.warnings] + node_notes(tree)
    if est:
        for n in tree.nodes():
            e = est.get(n.id)
            for note in e.notes if e else []:
                lines.append(f"  {where(n)} {n.kind}: {note}")
    if lines:
        print("notes:")
        print("\n".join(dict.fromkeys(lines)))
