"""The ``autotune`` command: one subcommand module per job, imported lazily.

Each module in ``COMMANDS`` provides ``add_arguments(parser)`` and
``run(args) -> int``; importing lazily keeps ``autotune --help`` and the
build hook fast (numpy/scipy are only loaded by the commands that need them).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from autotune import __version__
from autotune.errors import UserError
from autotune.numpyload import load_numpy_single_threaded

# name -> (module, one-line help). Order is the order shown in --help.
COMMANDS: dict[str, tuple[str, str]] = {
    "analyze": ("autotune.cli.analyze", "find OpenMP loops; trip counts, weighted ops, footprint"),
    "variants": ("autotune.cli.variants", "write the equivalent variants of a file's OpenMP loops"),
    "measure": ("autotune.cli.measure", "build, run, verify and time variants; store every run"),
    "rank": ("autotune.cli.rank", "rank variants by predicted time, no compile and no run"),
    "tune": ("autotune.cli.tune", "rank, measure the top few, apply the fastest verified"),
    "calibrate": ("autotune.cli.calibrate", "fit the power-law models on this machine"),
    "predict": ("autotune.cli.predict", "skeleton runtime prediction from a table of times"),
    "scale": ("autotune.cli.scale", "measure a program over sizes/threads and extrapolate"),
    "structure": ("autotune.cli.structure", "the program's parallel structure as a skeleton tree"),
    "compose": ("autotune.cli.compose", "max of two stochastic task times (lambda distributions)"),
    "isoefficiency": ("autotune.cli.isoefficiency", "isoefficiency functions and curves"),
    "hdc": ("autotune.cli.hdc", "hypercube divide-and-conquer cost model"),
    "models": ("autotune.cli.models", "every performance model by name: fit one, predict"),
    "campaign": ("autotune.cli.campaign", "measure many programs and sizes on a Dask cluster"),
    "report": ("autotune.cli.report", "one HTML page of the stored tunes and campaigns"),
    "export": ("autotune.cli.export", "runs, decisions and model quality as CSV or JSON"),
    "report-build": ("autotune.cli.report_build", "which loops the last build compiled tuned"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="autotune",
        description="Compiler-side autotuning of OpenMP loops in C.",
        epilog="Run 'autotune COMMAND --help' for the options of one command.",
    )
    parser.add_argument("--version", action="version", version=f"autotune {__version__}")
    parser.add_argument(
        "--cmake-dir",
        action="store_true",
        help="print the directory holding autotune.cmake and autotune.mk, and exit",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(_module=module_name)
        # Arguments are added lazily only for the chosen command (see main).
    return parser


def attach_dash_values(argv: list[str], parser: argparse.ArgumentParser) -> list[str]:
    """``--cflags "-O3"`` as ``--cflags=-O3``: argparse takes a value that starts with a
    dash for an option of its own; an option that needs one value gets the next word
    whatever it starts with, unless that word is one of the command's options."""
    takes_value = {
        s
        for a in parser._actions
        if a.option_strings and a.nargs is None and not isinstance(a, argparse._StoreConstAction)
        for s in a.option_strings
        if s.startswith("--")
    }
    known = {s for a in parser._actions for s in a.option_strings}
    out: list[str] = []
    i = 0
    while i < len(argv):
        word = argv[i]
        nxt = argv[i + 1] if i + 1 < len(argv) else None
        if word in takes_value and nxt is not None and nxt.startswith("-") and nxt not in known:
            out.append(f"{word}={nxt}")
            i += 2
            continue
        out.append(word)
        i += 1
    return out


def main(argv: list[str] | None = None) -> int:
    """The command line; an interrupt at any moment (imports included) is one line."""
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print("autotune: interrupted", file=sys.stderr)
        return 130


def _main(argv: list[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    # Find the command word first so only its module is imported.
    command = next((a for a in argv if not a.startswith("-")), None)
    chosen = None
    if command in COMMANDS:
        if not {"-h", "--help"} & set(argv):  # tune and calibrate import numpy with their module
            load_numpy_single_threaded()
        module = importlib.import_module(COMMANDS[command][0])
        sub_action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        chosen = sub_action.choices[command]
        module.add_arguments(chosen)
        argv = attach_dash_values(argv, chosen)
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # said with the command's own usage, not the top-level one
        (chosen or parser).error(f"unrecognized arguments: {' '.join(unknown)}")
    if args.cmake_dir:
        from autotune.buildhook.wrapper import cmake_dir

        print(cmake_dir())
        return 0
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    module = importlib.import_module(args._module)
    try:
        return int(module.run(args) or 0)
    except UserError as exc:
        print(f"autotune: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("autotune: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # the machine, where no stage said more: a full or read-only disk
        print(f"autotune: error: {os_error_line(exc)}", file=sys.stderr)
        return 2
    except RecursionError:
        print(
            "autotune: error: the input is nested too deeply for autotune to read "
            "(a very long expression or a deep macro expansion)",
            file=sys.stderr,
        )
        return 2


def os_error_line(exc: OSError) -> str:
    """One line for an OSError: what failed and where, in the system's own words."""
    what = exc.strerror or str(exc) or type(exc).__name__
    where = exc.filename or ""
    if exc.filename2:
        where = f"{where} -> {exc.filename2}"
    return f"{where}: {what}" if where else what


if __name__ == "__main__":
    raise SystemExit(main())
