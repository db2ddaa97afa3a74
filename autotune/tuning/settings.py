"""Every setting a step takes, in one object: the one place settings become stage options.

The command line parses into a ``Settings`` (``cli/buildargs.settings_of``), the API's
``Session`` is one, and a campaign's size job makes one from its plan; each then asks it
for what a stage takes (``SourceOptions`` to preprocess, ``BuildOptions`` to compile,
``SweepOptions`` to run and check, ``RankOptions`` to rank, a ``ProfileRequest`` for one
run of the original). So a flag means the same in every shell, and a new one is added
here once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from autotune.errors import UserError
from autotune.frontend.options import SourceOptions
from autotune.measure import verify
from autotune.measure.build import BuildOptions
from autotune.textfile import read_source

if TYPE_CHECKING:  # measuring's and ranking's modules load when a step needs them
    from autotune.measure.profile import ProfileRequest
    from autotune.measure.sweep import SweepOptions
    from autotune.tuning.pipeline import RankOptions


@dataclass
class Settings:
    """What every step shares: where results go, how the program is built, run and
    checked, and which model ranks."""

    db: str | Path | None = None  # SQLite file (None: $AUTOTUNE_DB or the user cache)
    cc: str = "gcc"
    defines: Mapping[str, str] = field(default_factory=dict)  # -D NAME=VALUE
    include_dirs: Sequence[str] = ()
    cflags: Sequence[str] = ()  # added to -O2 -fopenmp
    ldflags: Sequence[str] = ()
    extra_sources: Sequence[str] = ()  # other .c files of the program
    args: Sequence[str] = ()  # the program's own arguments
    stdin: str | None = None  # a file given to the program as its standard input
    cwd: str | None = None  # where the program runs (None: where autotune was started)
    repetitions: int = 3
    compile_mode: str = "runtime"  # runtime | per-variant
    model: str = "auto"  # auto | faithful | extended
    target: str = "wall"  # wall | cpu
    check: str = "stdout"  # how outputs are compared: stdout | stderr | both | none | files
    check_files: Sequence[str] = ()  # result files the program writes, compared too
    check_ignore: Sequence[str] = ()  # regexes of output lines left out of the comparison
    rtol: float = verify.DEFAULT_RTOL
    atol: float = verify.DEFAULT_ATOL
    strict_verify: bool = False  # nothing compared, or an unstable original: an error
    check_timings: bool = False  # compare the times and rates the program prints, too
    expect_status: int = 0  # the program's exit status by design (XSBench: 1)
    timeout_factor: float = 20.0  # a variant this many times slower than the original stops
    timeout_floor_s: float = 2.0  # ... but never sooner than this
    timeout_s: float = 600.0  # the original's own runs

    def replace(self, **changes: object) -> Settings:
        """A copy with some fields changed (``s.replace(defines={"N": "4000"})``)."""
        return dataclasses.replace(self, **changes)

    def source_options(self) -> SourceOptions:
        return SourceOptions(
            dict(self.defines),
            list(self.include_dirs),
            list(self.cflags),
            list(self.extra_sources),
        )

    def build_options(self) -> BuildOptions:
        for extra in self.extra_sources:
            if not Path(extra).is_file():
                raise UserError("no such file (--extra-source)", str(extra))
        return BuildOptions.of_source(
            self.source_options(), self.cc, list(self.ldflags), list(self.extra_sources)
        )

    def stdin_file(self) -> str | None:
        """The standard-input file as an absolute path (runs may start elsewhere)."""
        if self.stdin is None:
            return None
        if not Path(self.stdin).is_file():
            raise UserError("no such file (--stdin)", str(self.stdin))
        return str(Path(self.stdin).resolve())

    def sweep_options(self, fresh: bool = False) -> SweepOptions:
        from autotune.measure.sweep import SweepOptions

        opts = SweepOptions(
            repetitions=self.repetitions,
            compile_mode=self.compile_mode,
            check=self.check,
            rtol=self.rtol,
            atol=self.atol,
            ignore_lines=list(self.check_ignore),
            timeout_factor=self.timeout_factor,
            timeout_floor_s=self.timeout_floor_s,
            baseline_timeout_s=self.timeout_s,
            run_args=list(self.args),
            cwd=self.cwd,
            stdin=self.stdin_file(),
            fresh=fresh,
            expect_status=self.expect_status,
            check_files=list(self.check_files),
            strict_verify=self.strict_verify,
            check_timings=self.check_timings,
        )
        opts.validate()
        return opts

    def rank_options(self, **space: object) -> RankOptions:
        """``space``: schedules, chunks, threads, loops (what to rank, per call)."""
        from autotune.tuning.pipeline import RankOptions

        return RankOptions(cc=self.cc, model=self.model, target=self.target, **space)

    def profile_request(self, path: str | Path) -> ProfileRequest:
        """How to run the program once when a loop is sized at run time."""
        from autotune.measure.profile import ProfileRequest

        return ProfileRequest(
            Path(path),
            read_source(path),
            self.build_options(),
            list(self.args),
            cwd=self.cwd,
            timeout_s=self.timeout_s,
            stdin=self.stdin_file(),
            expect_status=self.expect_status,
        )
