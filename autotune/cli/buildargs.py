"""Build, run and check options shared by every command that measures programs
(``measure``, ``tune``): one set of flags, one meaning."""

from __future__ import annotations

import argparse
import contextlib
import shlex
import signal
from collections.abc import Iterator
from typing import TYPE_CHECKING

from autotune.cli.common import source_options
from autotune.errors import UserError
from autotune.frontend.options import SourceOptions
from autotune.measure import verify
from autotune.measure.build import COMPILE_MODES, DEFAULT_CFLAGS

if TYPE_CHECKING:
    from autotune.tuning.settings import Settings

_CHECK_HELP = (
    "verification: the original program runs first and each variant's output must match "
    "it: non-number text exactly (whitespace runs count as one), numbers within "
    "|a-b| <= max(RTOL*max(|a|,|b|), ATOL) (defaults 1e-6 and 1e-9), or one unit of the "
    "last printed digit for numbers printed with a fraction or exponent; the times and "
    "rates the program reports are left out (see --check-timings); only variants "
    "that pass in every run can be chosen"
)


_EXPECT_HELP = (
    "the exit status of a good run of the original (default 0): some programs exit "
    "non-zero by design (XSBench: 1 for a non-default lookup count); every variant "
    "must exit with it too"
)


# Over 60 lines: one declaration per option; --help reads them in this order.
def add_build_arguments(parser: argparse.ArgumentParser, with_cc: bool = True) -> None:
    """The building, running and checking option groups."""
    b = parser.add_argument_group("building")
    if with_cc:
        b.add_argument("--cc", default="gcc", help="compiler (default gcc)")
    b.add_argument(
        "--ldflags",
        default="",
        metavar='"FLAGS"',
        help="extra link flags (-lm is "
        f"always added); compile flags are {' '.join(DEFAULT_CFLAGS)} then --cflags",
    )
    b.add_argument(
        "--extra-source",
        action="append",
        default=[],
        metavar="FILE",
        help="another C file linked in, e.g. polybench.c (repeatable)",
    )
    b.add_argument(
        "--compile-mode",
        choices=COMPILE_MODES,
        default="runtime",
        help="runtime: one binary for all variants (schedule(runtime), threads from "
        "the environment); per-variant: one binary each (default runtime)",
    )
    r = parser.add_argument_group("running")
    r.add_argument(
        "--repetitions",
        type=int,
        default=3,
        metavar="R",
        help="runs per variant, interleaved round-robin (default 3)",
    )
    r.add_argument("--args", default="", metavar='"ARGS"', help="the program's own arguments")
    r.add_argument("--stdin", metavar="FILE", help="a file the program reads as standard input")
    r.add_argument(
        "--expect-status",
        type=int,
        default=0,
        metavar="N",
        help=_EXPECT_HELP,
    )
    r.add_argument(
        "--timeout-factor",
        type=float,
        default=20.0,
        metavar="F",
        help="stop a variant F times slower than the original (default 20)",
    )
    r.add_argument(
        "--timeout-floor",
        type=float,
        default=2.0,
        metavar="S",
        help="never stop a variant before S seconds (default 2)",
    )
    r.add_argument(
        "--timeout",
        type=float,
        default=600.0,
        metavar="S",
        help="time limit of the original program's runs (default 600)",
    )
    c = parser.add_argument_group("checking", description=_CHECK_HELP)
    c.add_argument(
        "--check",
        choices=verify.CHECK_MODES,
        default="stdout",
        help="which output is compared (default stdout; files: only the --check-file "
        "results, for a program that prints nothing else worth comparing)",
    )
    c.add_argument("--rtol", type=float, default=verify.DEFAULT_RTOL, help="default 1e-6")
    c.add_argument("--atol", type=float, default=verify.DEFAULT_ATOL, help="default 1e-9")
    c.add_argument(
        "--check-ignore",
        action="append",
        default=[],
        metavar="REGEX",
        help="ignore output lines matching REGEX (e.g. the program's own timing)",
    )
    c.add_argument(
        "--check-file",
        action="append",
        default=[],
        metavar="PATH",
        help="a result file the program writes (relative to where it runs), compared "
        "like its output with the same tolerances and --check-ignore (repeatable)",
    )
    c.add_argument(
        "--check-timings",
        action="store_true",
        help="compare every number, also on lines that report times or rates ('took', "
        "'seconds', 'MB/s'; by default their numbers, and those of lines about time that "
        "change between runs of the original, are left out and listed)",
    )
    c.add_argument(
        "--strict-verify",
        action="store_true",
        help="stop with an error when verification compares nothing (empty output, no "
        "--check-file) or the original's output changes between runs (default: warn)",
    )


def split_flags(text: str, what: str) -> list[str]:
    try:
        return shlex.split(text or "")
    except ValueError as exc:
        raise UserError(f"cannot split {what}: {exc}") from None


def settings_of(args: argparse.Namespace, opts: SourceOptions | None = None) -> Settings:
    """The command line as the settings every shell shares (``tuning.settings``): the
    one translation from flags; what each stage takes is built from the settings.
    ``opts``: the preprocessing options already read from the line (-D, -I, --cflags)."""
    from autotune.tuning.settings import Settings

    opts = opts if opts is not None else source_options(args)
    base = Settings()

    def given(name: str, default):
        value = getattr(args, name, None)
        return default if value is None else value

    return Settings(
        db=getattr(args, "db", None),
        cc=given("cc", base.cc),
        defines=dict(opts.defines),
        include_dirs=list(opts.include_dirs),
        cflags=list(opts.cflags),
        ldflags=split_flags(getattr(args, "ldflags", "") or "", "--ldflags"),
        extra_sources=list(given("extra_source", [])),
        args=split_flags(getattr(args, "args", "") or "", "--args"),
        stdin=getattr(args, "stdin", None),
        repetitions=given("repetitions", base.repetitions),
        compile_mode=given("compile_mode", base.compile_mode),
        model=given("model", base.model),
        target=given("target", base.target),
        check=given("check", base.check),
        check_files=list(given("check_file", [])),
        check_ignore=list(given("check_ignore", [])),
        rtol=given("rtol", base.rtol),
        atol=given("atol", base.atol),
        strict_verify=bool(getattr(args, "strict_verify", False)),
        check_timings=bool(getattr(args, "check_timings", False)),
        expect_status=given("expect_status", base.expect_status),
        timeout_factor=given("timeout_factor", base.timeout_factor),
        timeout_floor_s=given("timeout_floor", base.timeout_floor_s),
        timeout_s=given("timeout", base.timeout_s) or base.timeout_s,
    )


@contextlib.contextmanager
def term_as_interrupt() -> Iterator[None]:
    """SIGTERM (a killed ``make``) stops like Ctrl-C: the running program's group is killed."""

    def handler(signum, frame):
        raise KeyboardInterrupt

    try:
        old = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def add_program_arguments(parser: argparse.ArgumentParser) -> None:
    """For commands that only read C (analyze, rank): how to run the program once when
    its loops are sized at run time (a profile run)."""
    g = parser.add_argument_group("run-time sizes (one profile run of the original)")
    g.add_argument(
        "--args",
        default=None,
        metavar='"ARGS"',
        help="the program's own arguments: loops sized at run time (argv, input "
        "files, structs) are measured by one instrumented run with them",
    )
    g.add_argument(
        "--profile", action="store_true", help="make the profile run even without --args"
    )
    g.add_argument("--stdin", metavar="FILE", help="a file the program reads as standard input")
    g.add_argument("--expect-status", type=int, default=0, metavar="N", help=_EXPECT_HELP)
    g.add_argument("--ldflags", default="", metavar='"FLAGS"', help="link flags for that run")
    g.add_argument(
        "--extra-source",
        action="append",
        default=[],
        metavar="FILE",
        help="another C file of the program (repeatable)",
    )


def profile_request(args: argparse.Namespace, path: str, opts: SourceOptions, always: bool = False):
    """The profile run to make when a loop needs one (None: do not run the program)."""
    if not (
        always
        or getattr(args, "args", None) is not None
        or getattr(args, "profile", False)
        or getattr(args, "stdin", None)
    ):
        return None
    if not hasattr(args, "extra_source"):
        return None
    return settings_of(args, opts).profile_request(path)
