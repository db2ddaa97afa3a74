"""Run a campaign on Dask: rank freely, measure one loop per node at a time, store.

The client (this process) owns the database. It asks every worker for its
machine, loads the model calibrated for it, submits one ranking task per
program and size, and, as rankings arrive, one measuring task per loop that
has no stored outcome yet. Measuring tasks ask for the worker resource
``measure`` (each worker offers one; run one worker per node), so two never
share a node's cores; ranking tasks ask for nothing. Each finished loop's
runs and decision are written at once, so an interrupted campaign loses only
the loops in flight, and running it again measures only what is missing.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from autotune.campaign.environ import PLUGIN_NAME, OpenMPEnvironment, adopt, openmp_environment
from autotune.campaign.plan import CampaignPlan, size_label
from autotune.campaign.progress import CampaignProgress
from autotune.campaign.tasks import LoopOutcome, SizeJob, machine_of, measure_job, rank_job
from autotune.errors import UserError
from autotune.measure.outcomes import Outcome, drop_failure, load_outcomes, save_outcome
from autotune.measure.store import Store
from autotune.render import data_frame, variant_rows
from autotune.tuning.modelchoice import choose_model
from autotune.tuning.pipeline import FileRanking
from autotune.tuning.ranking import LoopRanking

RESOURCE = "measure"


@dataclass
class CampaignResult:
    plan: CampaignPlan
    database: str
    loops_measured: int = 0  # loops measured by this invocation
    loops_stored: int = 0  # loops found done in the database and skipped
    runs_measured: int = 0  # program runs made by this invocation
    # loops left unmeasured because the plan's time budget was spent (the next run
    # measures them)
    loops_left: int = 0
    failures: list[str] = field(default_factory=list)
    outcomes: list[LoopOutcome] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def to_frame(self):  # a pandas.DataFrame, one row per loop and variant
        rows = []
        for o in self.outcomes:
            rows += variant_rows([o.doc], program=o.program, size=o.size, host=o.host)
        return data_frame(rows)

    def to_dict(self) -> dict:
        return {
            "campaign": self.plan.name,
            "database": self.database,
            "loops_measured": self.loops_measured,
            "loops_stored": self.loops_stored,
            "runs_measured": self.runs_measured,
            "loops_left": self.loops_left,
            "failures": self.failures,
            "warnings": self.warnings,
            "loops": [
                {"program": o.program, "size": o.size, "host": o.host} | o.doc
                for o in self.outcomes
            ],
        }


def plan_order(plan: CampaignPlan):  # a sort key for LoopOutcome
    """Outcomes as the plan lists them: by program, then size as listed (not as text:
    -DN=1000000 after -DN=400000), then loop line; workers finish in any order."""
    programs = {p.name: i for i, p in enumerate(plan.programs)}
    sizes = {
        (p.name, size_label(p.size_defines(s))): k
        for p in plan.programs
        for k, s in enumerate(p.sizes)
    }

    def line(loop_id: str) -> int:
        tail = loop_id.rsplit(":", 1)[-1]
        return int(tail) if tail.isdigit() else 0

    return lambda o: (
        programs.get(o.program, len(programs)),
        sizes.get((o.program, o.size), len(sizes)),
        o.size,
        line(o.loop_id),
    )


def check_cluster(client) -> list[str]:  # a distributed.Client
    """Refuse a cluster that cannot measure; warn where measurements would share a node."""
    workers = client.scheduler_info(n_workers=-1)["workers"].values()
    measuring = [w for w in workers if w.get("resources", {}).get(RESOURCE, 0) >= 1]
    if not measuring:
        raise UserError(
            f"no worker offers the '{RESOURCE}' resource: start one worker per node with "
            f"'dask worker SCHEDULER --nworkers 1 --resources {RESOURCE}=1'"
        )
    hosts = [w["host"] for w in measuring]
    return [
        f"{h} runs {hosts.count(h)} measuring workers: their measurements share its cores"
        for h in sorted(set(hosts))
        if hosts.count(h) > 1
    ]


class CampaignRunner:
    """One invocation of a plan against one database and one Dask client."""

    def __init__(
        self,
        plan: CampaignPlan,
        store: Store,
        client,  # a distributed.Client
        on_loop: Callable[[LoopOutcome], None] | None = None,
        progress: CampaignProgress | None = None,
        environment: dict[str, str] | None = None,
    ) -> None:
        """``environment``: the OpenMP variables programs run with (default: this
        process's, read before any Dask cluster was started here)."""
        self.plan = plan
        self.store = store
        self.over_budget = False  # the plan's time budget is spent
        self.client = client
        self.on_loop = on_loop or (lambda outcome: None)
        self.progress = progress or CampaignProgress(quiet=True)
        self.result = CampaignResult(plan, str(store.path))
        self.fingerprints: set[str] = set()
        self.environment = environment if environment is not None else openmp_environment()
        self.meta: dict[str, tuple[SizeJob, LoopRanking | None]] = {}  # future key -> work
        self.done = {
            (o.source_hash, o.flags_key, o.machine, o.loop_id)
            for o in load_outcomes(store, plan.name)
            if "failed" not in o.doc
        }

    def run(self) -> CampaignResult:
        from distributed import as_completed

        plan = self.plan
        self.result.warnings += check_cluster(self.client)
        self.client.register_plugin(OpenMPEnvironment(self.environment), name=PLUGIN_NAME)
        chosen = self._models()
        jobs = [
            SizeJob(
                p,
                size,
                plan.repetitions,
                plan.model,
                str(plan.path.parent),
                plan.space,
                plan.confirm_runs,
            )
            for p in self.plan.programs
            for size in p.sizes
        ]
        self.progress.start(len(jobs))
        pending = as_completed()
        for job in jobs:
            future = self.client.submit(rank_job, job, chosen, pure=False)
            self.meta[future.key] = (job, None)
            pending.add(future)
        deadline = None if plan.time_budget is None else time.monotonic() + plan.time_budget
        try:
            for future in pending:
                self._finished(future, pending)
                if deadline is not None and time.monotonic() > deadline:
                    self._stop_measuring(pending)
        except BaseException:
            self.client.cancel(list(pending.futures))
            raise
        finally:
            self.progress.close()
        self.result.outcomes.sort(key=plan_order(self.plan))
        return self.result

    def _models(self) -> dict:
        """The model for each worker machine (calibrated coefficients when stored)."""
        machines = self.client.run(machine_of, self.plan.programs[0].cc)
        chosen = {}
        for machine in machines.values():
            self.store.add_machine(machine)
            self.fingerprints.add(machine.fingerprint)
            chosen[machine.fingerprint] = choose_model(machine, self.store, self.plan.model)
        return chosen

    def _stop_measuring(self, pending) -> None:
        """The time budget is spent: measuring tasks not started yet are cancelled (the
        loops they hold stay unmeasured, for the next run), those running finish."""
        if not self.over_budget:
            self.progress.note(
                f"time budget ({self.plan.time_budget:g} s) spent: no new loop is measured; "
                "the loops left are measured by the next run of the plan"
            )
        self.over_budget = True
        queued = [
            f
            for f in pending.futures
            if f.key in self.meta and self.meta[f.key][1] is not None and f.status == "pending"
        ]
        processing = self.client.processing()
        running = {key for keys in processing.values() for key in keys}
        queued = [f for f in queued if f.key not in running]
        if queued:
            self.client.cancel(queued)

    def _finished(self, future, pending) -> None:
        job, ranking = self.meta.pop(future.key)
        if future.cancelled() and self.over_budget:
            self.result.loops_left += 1  # left for the next run: no outcome stored
            self.progress.loop_skipped()
            return
        try:
            value = future.result()
        except Exception as exc:  # a worker's error or a lost worker: recorded, go on
            self._failed(job, ranking, exc)
            return
        if isinstance(value, FileRanking):
            self._ranked(job, value, pending)
        else:
            self._measured(job, value)

    def _ranked(self, job: SizeJob, ranked: FileRanking, pending) -> None:
        source_hash, flags_key = job.where()
        if self.over_budget:  # ranked late: its loops wait for a next run
            self.result.loops_left += len(ranked.rankings)
            for _ in ranked.rankings:
                self.progress.loop_skipped()
            return
        self.store.add_source(source_hash, str(job.program.source))
        todo = [r for r in ranked.rankings if not self._stored(source_hash, flags_key, r)]
        self.progress.ranked(len(ranked.rankings), sum(self._expected_runs(r) for r in todo))
        for ranking in ranked.rankings:
            if self._stored(source_hash, flags_key, ranking):
                self.result.loops_stored += 1
                self.progress.loop_skipped()
                continue
            seeds = [
                r
                for r in self.store.runs(source_hash=source_hash, loop_id=ranking.record.key)
                if r.flags_key == flags_key
            ]
            shas = {s for r in seeds for s in (r.stdout_sha, r.stderr_sha) if s}
            future = self.client.submit(
                measure_job,
                job,
                ranking,
                top=self.plan.top,
                exhaustive=self.plan.exhaustive,
                search=self.plan.search,
                target=ranked.chosen.target,
                seed_rows=seeds,
                seed_outputs={s: self.store.get_output(s) for s in shas},
                environment=self.environment,
                resources={RESOURCE: 1},
                pure=False,
            )
            self.meta[future.key] = (job, ranking)
            pending.add(future)

    def _stored(self, source_hash: str, flags_key: str, ranking: LoopRanking) -> bool:
        """The loop has an outcome on one of the cluster's machines: nothing to measure."""
        keys = {(source_hash, flags_key, fp, ranking.id) for fp in self.fingerprints}
        return bool(keys & self.done)

    def _expected_runs(self, ranking: LoopRanking) -> int:
        """Runs the budget asks for: the original and the variants, times repetitions."""
        if ranking.error:
            return 0
        variants = len(ranking.variants) if self.plan.exhaustive else self.plan.top
        return (1 + variants) * self.plan.repetitions

    def _measured(self, job: SizeJob, out: LoopOutcome) -> None:
        store = self.store
        store.add_machine(out.machine)
        for text in out.outputs.values():
            store.put_output(text)
        for row in out.rows:
            store.add_run(row)
        doc = out.doc | {"file": str(job.program.source), "host": out.host}
        where = (out.source_hash, out.flags_key, out.machine.fingerprint)
        save_outcome(
            store, Outcome(self.plan.name, out.program, out.size, *where, out.loop_id, doc)
        )
        drop_failure(store, self.plan.name, out.source_hash, out.flags_key, out.loop_id)
        self.result.loops_measured += 1
        self.result.runs_measured += len(out.rows)
        self.result.outcomes.append(out)
        self.progress.loop_done(out, len(out.rows))
        self.on_loop(out)

    def _failed(self, job: SizeJob, ranking: LoopRanking | None, exc: BaseException) -> None:
        what = f"{job.program.name} {job.label}".strip()
        loop_id = ranking.id if ranking is not None else ""
        message = f"{what}{' ' + loop_id if loop_id else ''}: {type(exc).__name__}: {exc}"
        self.result.failures.append(message)
        self.progress.failed(message, loop=ranking is not None)
        try:
            source_hash, flags_key = job.where()
        except OSError:
            return
        doc = {"id": loop_id, "failed": message, "file": str(job.program.source)}
        where = (source_hash, flags_key, "")  # no machine: retried by the next run
        save_outcome(
            self.store, Outcome(self.plan.name, job.program.name, job.label, *where, loop_id, doc)
        )


def local_client(threads: int = 4):
    """A Dask cluster on this machine: one worker, so one measuring task at a time
    (this is one node), with threads for the ranking tasks beside it."""
    from distributed import Client, LocalCluster

    users = openmp_environment()  # LocalCluster sets OMP_NUM_THREADS=1 in this process too
    try:
        with _workers_ignore_interrupts():
            cluster = LocalCluster(
                n_workers=1,
                threads_per_worker=threads,
                processes=True,
                resources={RESOURCE: 1},
                dashboard_address=":0",  # any free port: never clash with a running cluster
                silence_logs=logging.CRITICAL,  # a failed task is recorded, not logged
            )
    finally:
        adopt(users)
    return Client(cluster)


@contextlib.contextmanager
def _workers_ignore_interrupts() -> Iterator[None]:
    """Start the local workers with SIGINT ignored (a process started so keeps it, and
    Python then installs no KeyboardInterrupt handler): Ctrl-C in the terminal reaches
    the whole process group, and only this process should answer it, by closing the
    cluster, not each worker with a traceback. (An interrupt during the second the
    cluster takes to start is not seen; only the main thread can set handlers.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def scheduler_warning(scheduler: str) -> str:
    """A line for a scheduler on another machine reached without TLS ('' otherwise):
    Dask then sends pickled tasks and results both ways in the clear, and anyone who can
    reach the scheduler can run code on the workers."""
    from urllib.parse import urlsplit

    address = scheduler if "://" in scheduler else f"tcp://{scheduler}"
    parts = urlsplit(address)
    if parts.scheme in ("tls", "inproc", "ucx+tls") or _encryption_required():
        return ""
    host = parts.hostname or ""
    if not host or _is_this_machine(host):
        return ""
    return (
        f"the Dask scheduler {scheduler} is on another machine and is reached without TLS: "
        "tasks and results travel unencrypted and unauthenticated; use a tls:// address "
        "with Dask's security settings (docs/api.md, 'Campaigns on a cluster')"
    )


def _encryption_required() -> bool:
    try:
        import dask

        return bool(dask.config.get("distributed.comm.require-encryption", False))
    except Exception:  # an unreadable Dask config: warn as if none
        return False


def _is_this_machine(host: str) -> bool:
    """Whether every address ``host`` names is one of this machine's: each can be bound
    here (no packet is sent)."""
    import socket

    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except OSError:
        return False  # cannot tell: connecting will say more
    for family, _, _, _, sockaddr in infos:
        try:
            with socket.socket(family, socket.SOCK_STREAM) as sock:
                sock.bind((sockaddr[0], 0))
        except OSError:
            return False
    return bool(infos)


@contextlib.contextmanager
def connect(scheduler: str | None = None) -> Iterator:
    """A client of the cluster at ``scheduler``, or of a local cluster made for it."""
    from distributed import Client

    if scheduler is None:
        client = local_client()
    else:
        try:
            client = Client(scheduler, timeout="20s")
        except (OSError, TimeoutError) as exc:
            raise UserError(f"cannot reach the Dask scheduler {scheduler}: {exc}") from None
    try:
        yield client
    finally:
        cluster = client.cluster if scheduler is None else None
        client.close()
        if cluster is not None:
            cluster.close()
