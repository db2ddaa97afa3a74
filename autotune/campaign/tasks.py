"""What a campaign's workers run: rank one program at one size, measure one loop.

Workers never open the campaign's database. A measuring task gets the runs
already stored for its loop (so an interrupted loop resumes), measures in a
private scratch database, and returns only the runs it made; the client
writes them. Everything here is plain data in and out (pickled by Dask).
"""

from __future__ import annotations

import os
import socket
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from autotune.campaign.environ import openmp_environment, thread_settings
from autotune.campaign.plan import ProgramPlan, size_label
from autotune.frontend.options import SourceOptions
from autotune.measure.build import BuildOptions
from autotune.measure.machine import Machine, detect_machine
from autotune.measure.scratch import scratch_dir
from autotune.measure.store import RunRow, Store
from autotune.measure.sweep import Sweep, SweepOptions, run_flags
from autotune.textfile import content_hash, read_bytes_text
from autotune.tuning.confirm import ProgramCheck
from autotune.tuning.modelchoice import ChosenModel
from autotune.tuning.pipeline import FileRanking, rank_file
from autotune.tuning.program_choice import confirm_results
from autotune.tuning.ranking import LoopRanking
from autotune.tuning.settings import Settings
from autotune.tuning.tune import tune_loop


@dataclass
class SizeJob:
    """One program at one size: how it is built, run and ranked."""

    program: ProgramPlan
    size: dict[str, str]
    repetitions: int = 3
    model: str = "auto"
    cwd: str | None = None  # where the program runs (the plan's folder)
    space: dict[str, str] = field(default_factory=dict)  # schedules/chunks/threads lists
    confirm_runs: int = 5  # whole-program runs confirming a loop's choice

    @property
    def defines(self) -> dict[str, str]:
        return self.program.size_defines(self.size)

    @property
    def label(self) -> str:
        return size_label(self.defines)

    def settings(self) -> Settings:
        """The plan's program at this size, as the settings every shell shares."""
        p = self.program
        return Settings(
            cc=p.cc,
            defines=self.defines,
            include_dirs=list(p.include_dirs),
            cflags=list(p.cflags),
            ldflags=list(p.ldflags),
            extra_sources=list(p.extra_sources),
            args=list(p.args),
            stdin=p.stdin,
            cwd=self.cwd,
            repetitions=self.repetitions,
            model=self.model,
            check=p.check,
        )

    def source_options(self) -> SourceOptions:
        return self.settings().source_options()

    def build_options(self) -> BuildOptions:
        return self.settings().build_options()

    def sweep_options(self) -> SweepOptions:
        return self.settings().sweep_options()

    def where(self) -> tuple[str, str]:
        """(source hash, flags key): with the machine and loop, what names its runs."""
        text = read_bytes_text(self.program.source)
        return content_hash(text), run_flags(self.build_options(), self.sweep_options())[1]


def machine_of(cc: str = "gcc") -> Machine:
    """This worker's machine (its fingerprint keeps node types apart)."""
    return detect_machine(cc)


def rank_job(job: SizeJob, chosen: dict[str, ChosenModel]) -> FileRanking:
    """Analyse and rank one program at one size (a profile run when sized at run time).

    ``chosen``: the model for each machine fingerprint, loaded by the client
    from the database; a machine it does not know ranks with the shipped model.
    """
    p = job.program
    machine = detect_machine(p.cc)
    settings = job.settings()
    request = settings.profile_request(p.source)
    options = settings.rank_options(loops=list(p.loops), **job.space)
    return rank_file(
        str(p.source),
        settings.source_options(),
        options,
        None,
        request,
        chosen=chosen.get(machine.fingerprint),
    )


@dataclass
class LoopOutcome:
    """What one measuring task returns: its new runs and the loop's decision."""

    program: str
    size: str
    loop_id: str
    loop_key: str
    machine: Machine
    source_hash: str
    flags_key: str
    doc: dict  # LoopTuneResult.to_dict()
    rows: list[RunRow] = field(default_factory=list)  # runs made by this task only
    outputs: dict[str, str] = field(default_factory=dict)  # sha -> text of those runs
    host: str = ""
    pid: int = 0
    started: float = 0.0
    finished: float = 0.0


# Over 60 lines: seed the scratch database, measure, collect the new runs: one worker task.
def measure_job(
    job: SizeJob,
    ranking: LoopRanking,
    *,
    top: int,
    exhaustive: bool,
    search: str,
    target: str,
    seed_rows: list[RunRow],
    seed_outputs: dict[str, str],
    environment: dict[str, str] | None = None,
) -> LoopOutcome:
    """Measure one loop (the original and the budget's variants) on this node.

    ``environment``: the OpenMP variables the programs must see (the client's);
    a worker that has others was not set up by the campaign and refuses.
    """
    if environment is not None:
        here, wanted = thread_settings(openmp_environment()), thread_settings(environment)
        if here != wanted:
            raise RuntimeError(
                f"this worker's OpenMP settings {here} are not the campaign's {wanted}: "
                "its measurements would not be the original's"
            )
    started = time.time()
    # in this worker process's own scratch folder: a worker killed with the cluster leaves
    # its database where the next autotune of this user sweeps it away
    with tempfile.TemporaryDirectory(prefix="worker-", dir=scratch_dir()) as scratch:
        store = Store(Path(scratch) / "runs.db")
        try:
            for text in seed_outputs.values():
                store.put_output(text)
            for row in seed_rows:
                store.add_run(row)
            sweep = Sweep(
                job.program.source, job.build_options(), job.sweep_options(), store, target=target
            )
            # an experiment measures every loop, however small its share of the run
            result = tune_loop(sweep, ranking, top, exhaustive, search, min_share=0.0)
            program = _confirm(job, sweep, result)
            seeded = {_row_key(r) for r in seed_rows}
            rows = [
                r
                for r in store.runs(source_hash=sweep.source_hash, loop_id=ranking.record.key)
                if _row_key(r) not in seeded
            ]
            shas = {s for r in rows for s in (r.stdout_sha, r.stderr_sha) if s}
            outputs = {s: store.get_output(s) for s in shas}
        finally:
            store.close()
    return LoopOutcome(
        program=job.program.name,
        size=job.label,
        loop_id=ranking.id,
        loop_key=ranking.record.key,
        machine=sweep.machine,
        source_hash=sweep.source_hash,
        flags_key=sweep.flags_key,
        doc=result.to_dict() | {"whole_program": program},
        rows=rows,
        outputs={k: v for k, v in outputs.items() if v is not None},
        host=socket.gethostname(),
        pid=os.getpid(),
        started=started,
        finished=time.time(),
    )


def _confirm(job: SizeJob, sweep: Sweep, result) -> dict | None:
    """A loop's choice confirmed on the whole program, as the tune command confirms
    it: interleaved runs, an interval beyond the margin, a quiet machine; otherwise
    the original is kept and the loop's decision says why."""
    if result.best is None:
        return None
    check = ProgramCheck(
        job.program.source, sweep.source, job.build_options(), job.sweep_options(), job.confirm_runs
    )
    confirmation, _ = confirm_results(check, [result], sweep.machine.cores)
    return confirmation.summary() if confirmation is not None else None


def _row_key(r: RunRow) -> tuple:
    return (r.machine, r.flags_key, r.variant_key, r.mode, r.repetition)
