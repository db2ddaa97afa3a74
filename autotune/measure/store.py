"""The measurement database: every run, on which machine, with which flags.

SQLite in WAL mode with a busy timeout and one short ``BEGIN IMMEDIATE``
transaction per write, so several processes (a parallel ``make`` through the
build hook, two sweeps) can write the same file at once without losing rows.
A run is identified by (machine, source hash, flags key, loop, variant,
compile mode, repetition): a resumed sweep asks which of those exist and
measures only the rest.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import time
import urllib.parse
import zlib
from collections.abc import Iterator
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from autotune.errors import UserError
from autotune.measure.dbfile import is_lock, not_writable, note
from autotune.measure.paths import default_db_path
from autotune.measure.schema import SCHEMA, SCHEMA_VERSION

BUSY_TIMEOUT_S = 60.0
NOTE_AFTER_S = 1.0  # a lock held longer than this is said, with how long autotune waits


@dataclass(frozen=True)
class RunContext:
    """Everything that makes two runs of the same variant comparable."""

    machine: str  # Machine.fingerprint
    source_hash: str
    flags_key: str
    loop_id: str
    mode: str  # "runtime" | "per-variant"


@dataclass
class RunRow:
    machine: str
    source_hash: str
    flags_key: str
    flags: str  # JSON of BuildOptions.to_dict()
    loop_id: str
    variant_key: str
    mode: str
    repetition: int
    status: str  # ok | compile-error | crash | timeout | wrong-output | not-verified
    message: str = ""
    wall_s: float | None = None
    loop_wall_s: float | None = None
    loop_cpu_s: float | None = None
    executions: int | None = None
    returncode: int | None = None
    stdout_sha: str | None = None
    stderr_sha: str | None = None
    created: float = 0.0

    @property
    def measured_s(self) -> float | None:
        """The loop's wall time; the process time when the loop reported none."""
        return self.loop_wall_s if self.loop_wall_s is not None else self.wall_s


_RUN_COLS = [f.name for f in fields(RunRow)]


def text_sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()


class Store:
    """One connection to the database; open one per process (not shared over fork)."""

    def __init__(self, path: str | Path | None = None, read_only: bool = False) -> None:
        """``read_only``: open an existing database without writing anything (no schema,
        no journal mode, no file made): what a report or an export of it needs, also on
        a read-only filesystem."""
        self.path = Path(path) if path else default_db_path()
        if read_only:
            self.conn = _connect_read_only(self.path)
            return
        read_only_why = not_writable(self.path)
        if read_only_why:
            raise UserError(
                f"cannot write the measurement database {self.path}: {read_only_why} "
                "(use --db or AUTOTUNE_DB for another file; report and export read it as it is)"
            )
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(
                str(self.path), timeout=BUSY_TIMEOUT_S, isolation_level=None
            )
            self.conn.execute(f"PRAGMA busy_timeout = {int(NOTE_AFTER_S * 1000)}")
            self._set_wal()
            self._waiting_said(self._create_schema)
            self.conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        except (sqlite3.Error, OSError) as exc:
            raise UserError(f"cannot open the measurement database {self.path}: {exc}") from exc
        self._check_version()

    def _create_schema(self) -> None:
        # executescript commits any open transaction first, so the script holds its own.
        try:
            self.conn.executescript(f"BEGIN IMMEDIATE;\n{SCHEMA}\nCOMMIT;")
        except sqlite3.Error:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise

    def _set_wal(self) -> None:
        """WAL mode, waiting for another process's lock but for nothing else (a read-only
        file fails at once)."""
        self._waiting_said(lambda: self.conn.execute("PRAGMA journal_mode = WAL"))

    def _waiting_said(self, step) -> None:  # step: Callable[[], object]
        """``step()``, retried while another process holds the lock: after NOTE_AFTER_S
        a line says so and how long it will wait, then up to BUSY_TIMEOUT_S."""
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        said = False
        while True:
            try:
                step()
                return
            except sqlite3.OperationalError as exc:
                if not is_lock(exc) or time.monotonic() > deadline:
                    raise
                if not said:
                    said = True
                    note(
                        f"the measurement database {self.path} is locked by another process; "
                        f"waiting up to {BUSY_TIMEOUT_S:.0f} s"
                    )
                time.sleep(0.05)

    def _check_version(self) -> None:
        with self._write():
            row = self.conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
            if row[0] is None:
                self.conn.execute("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION,))
            elif row[0] > SCHEMA_VERSION:
                raise UserError(
                    f"{self.path}: database schema {row[0]} is newer than this autotune "
                    f"({SCHEMA_VERSION}); use another --db"
                )

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """A short write transaction that takes the write lock up front (no upgrade deadlock)."""
        if self.conn.in_transaction:  # nested: the outer transaction commits
            yield self.conn
            return
        try:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")
        except sqlite3.Error as exc:  # a full disk, a lock held past the timeout: one line
            with contextlib.suppress(sqlite3.Error):
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
            raise UserError(f"cannot write to the measurement database {self.path}: {exc}") from exc

    def transaction(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        """A short write transaction for modules that keep their own tables."""
        return self._write()

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- identities -------------------------------------------------------
    def add_machine(self, machine) -> str:  # a measure.machine.Machine
        fp = machine.fingerprint
        with self._write() as c:
            c.execute(
                "INSERT OR IGNORE INTO machines VALUES (?, ?, ?)",
                (fp, json.dumps(machine.to_dict(), sort_keys=True), time.time()),
            )
        return fp

    def machine_info(self, fingerprint: str) -> dict | None:
        row = self.conn.execute(
            "SELECT info FROM machines WHERE fingerprint = ?", (fingerprint,)
        ).fetchone()
        return json.loads(row[0]) if row else None

    def add_source(self, source_hash: str, path: str) -> None:
        with self._write() as c:
            c.execute(
                "INSERT OR IGNORE INTO sources VALUES (?, ?, ?)",
                (source_hash, str(path), time.time()),
            )

    def add_loop(self, source_hash: str, record) -> None:  # a LoopRecord
        with self._write() as c:
            c.execute(
                "INSERT OR REPLACE INTO loops VALUES (?, ?, ?)",
                (source_hash, record.key, json.dumps(record.to_dict(), default=str)),
            )

    def add_variants(self, source_hash: str, loop_id: str, variants) -> None:
        with self._write() as c:
            c.executemany(
                "INSERT OR IGNORE INTO variants VALUES (?, ?, ?, ?, ?, ?)",
                [(source_hash, loop_id, v.key, v.schedule, v.chunk, v.threads) for v in variants],
            )

    # -- runs -------------------------------------------------------------
    def add_run(self, row: RunRow, replace: bool = False) -> None:
        if not row.created:
            row.created = time.time()
        verb = "INSERT OR REPLACE" if replace else "INSERT OR IGNORE"
        values = asdict(row)
        with self._write() as c:
            c.execute(
                f"{verb} INTO runs ({', '.join(_RUN_COLS)}) "
                f"VALUES ({', '.join('?' * len(_RUN_COLS))})",
                [values[k] for k in _RUN_COLS],
            )

    def stored_runs(
        self, ctx: RunContext, variant_keys: list[str] | None = None, mode: str | None = None
    ) -> dict[tuple[str, int], RunRow]:
        """Runs already measured in this context, by (variant key, repetition)."""
        rows = self.conn.execute(
            f"SELECT {', '.join(_RUN_COLS)} FROM runs WHERE machine = ? AND source_hash = ? "
            "AND flags_key = ? AND loop_id = ? AND mode = ?",
            (ctx.machine, ctx.source_hash, ctx.flags_key, ctx.loop_id, mode or ctx.mode),
        ).fetchall()
        out = {}
        for r in rows:
            run = RunRow(*r)
            if variant_keys is None or run.variant_key in variant_keys:
                out[(run.variant_key, run.repetition)] = run
        return out

    def delete_runs(self, ctx: RunContext, variant_keys: list[str], mode: str) -> int:
        with self._write() as c:
            cur = c.executemany(
                "DELETE FROM runs WHERE machine = ? AND source_hash = ? AND flags_key = ? "
                "AND loop_id = ? AND mode = ? AND variant_key = ?",
                [
                    (ctx.machine, ctx.source_hash, ctx.flags_key, ctx.loop_id, mode, k)
                    for k in variant_keys
                ],
            )
            return cur.rowcount

    def runs(
        self,
        *,
        machine: str | None = None,
        source_hash: str | None = None,
        loop_id: str | None = None,
        status: str | None = None,
    ) -> list[RunRow]:
        """Runs filtered by any of the given fields (for calibration and reports)."""
        where, args = [], []
        for col, val in (
            ("machine", machine),
            ("source_hash", source_hash),
            ("loop_id", loop_id),
            ("status", status),
        ):
            if val is not None:
                where.append(f"{col} = ?")
                args.append(val)
        sql = f"SELECT {', '.join(_RUN_COLS)} FROM runs"
        if where:
            sql += " WHERE " + " AND ".join(where)
        return [RunRow(*r) for r in self.conn.execute(sql + " ORDER BY id", args)]

    # -- outputs (the baseline's reference output, for resumed verification) --
    def put_output(self, text: str) -> str:
        sha = text_sha(text)
        with self._write() as c:
            c.execute(
                "INSERT OR IGNORE INTO outputs VALUES (?, ?)",
                (sha, zlib.compress(text.encode("utf-8", "replace"))),
            )
        return sha

    def get_output(self, sha: str | None) -> str | None:
        if sha is None:
            return None
        row = self.conn.execute("SELECT data FROM outputs WHERE sha = ?", (sha,)).fetchone()
        return zlib.decompress(row[0]).decode("utf-8", "replace") if row else None

    # -- profile runs (run-time sizes) ----------------------------------------
    def save_profile(self, key: str, doc: dict) -> None:
        with self._write() as c:
            c.execute(
                "INSERT OR REPLACE INTO profiles (key, doc, created) VALUES (?, ?, ?)",
                (key, json.dumps(doc, sort_keys=True), time.time()),
            )

    def load_profile(self, key: str) -> dict | None:
        row = self.conn.execute("SELECT doc FROM profiles WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    # -- calibrated models ---------------------------------------------------
    def save_model(self, name: str, machine: str, target: str, params: dict) -> int:
        with self._write() as c:
            cur = c.execute(
                "INSERT INTO models (name, machine, target, params, created) "
                "VALUES (?, ?, ?, ?, ?)",
                (name, machine, target, json.dumps(params, sort_keys=True), time.time()),
            )
            return int(cur.lastrowid)

    def delete_models(self, machine: str) -> int:
        """Forget every model calibrated for ``machine``; the number of rows removed."""
        with self._write() as c:
            return c.execute("DELETE FROM models WHERE machine = ?", (machine,)).rowcount

    def load_model(self, name: str, machine: str, target: str | None = None) -> dict | None:
        """The newest parameters saved for (name, machine[, target]), or None."""
        sql = "SELECT params, target, created FROM models WHERE name = ? AND machine = ?"
        args: list = [name, machine]
        if target is not None:
            sql += " AND target = ?"
            args.append(target)
        row = self.conn.execute(sql + " ORDER BY created DESC, id DESC LIMIT 1", args).fetchone()
        if row is None:
            return None
        return {"params": json.loads(row[0]), "target": row[1], "created": row[2]}

    # -- tuned choices (build hook, tune --apply) ----------------------------
    def save_tuned(
        self,
        *,
        source_hash: str,
        flags_key: str,
        machine: str,
        loop_id: str,
        variant_key: str,
        baseline_s: float | None,
        best_s: float | None,
        sizes: dict[str, int] | None = None,
    ) -> None:
        """``sizes``: the values the loop was proven at (its variant runs behind a test
        of them), kept beside the choice; None or empty for a loop proven for any size."""
        key = (source_hash, flags_key, machine, loop_id)
        with self._write() as c:
            c.execute(
                "DELETE FROM tuned_sizes WHERE source_hash = ? AND flags_key = ? "
                "AND machine = ? AND loop_id = ?",
                key,
            )
            if sizes:
                c.execute(
                    "INSERT INTO tuned_sizes (source_hash, flags_key, machine, loop_id, sizes) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (*key, json.dumps(sizes, sort_keys=True)),
                )
            c.execute(
                "INSERT OR REPLACE INTO tuned (source_hash, flags_key, machine, loop_id, "
                "variant_key, baseline_s, best_s, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    source_hash,
                    flags_key,
                    machine,
                    loop_id,
                    variant_key,
                    baseline_s,
                    best_s,
                    time.time(),
                ),
            )

    def tuned(self, *, source_hash: str, flags_key: str, machine: str) -> dict[str, dict]:
        """Chosen variant per loop id for one source + flags + machine."""
        rows = self.conn.execute(
            "SELECT loop_id, variant_key, baseline_s, best_s, created FROM tuned "
            "WHERE source_hash = ? AND flags_key = ? AND machine = ?",
            (source_hash, flags_key, machine),
        ).fetchall()
        out = {
            r[0]: {"variant_key": r[1], "baseline_s": r[2], "best_s": r[3], "created": r[4]}
            for r in rows
        }
        try:
            sized = self.conn.execute(
                "SELECT loop_id, sizes FROM tuned_sizes "
                "WHERE source_hash = ? AND flags_key = ? AND machine = ?",
                (source_hash, flags_key, machine),
            ).fetchall()
        except sqlite3.OperationalError:  # a database of before the table, read only
            sized = []
        for loop_id, sizes in sized:
            if loop_id in out:
                out[loop_id]["sizes"] = json.loads(sizes)
        return out


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """A connection that writes nothing, not even next to the file. With no ``-wal``
    file beside it no connection has the database open for writing, and it is read as
    immutable (no shared-memory or journal file is made: a read-only filesystem, an
    archived experiment); while a writer has it open (a campaign running), ``mode=ro``
    reads it through the writer's journal."""
    if not path.is_file():
        raise UserError(f"no measurement database at {path}")
    base = "file:" + urllib.parse.quote(str(path.resolve()))
    in_use = path.with_name(path.name + "-wal").exists()
    error: Exception | None = None
    order = ("mode=ro", "mode=ro&immutable=1") if in_use else ("mode=ro&immutable=1",)
    for flags in order:
        try:
            conn = sqlite3.connect(f"{base}?{flags}", uri=True, timeout=BUSY_TIMEOUT_S)
            row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
        except sqlite3.Error as exc:
            error = exc
            continue
        if row[0] is not None and row[0] > SCHEMA_VERSION:
            conn.close()
            raise UserError(f"{path}: written by a newer autotune (schema {row[0]})")
        return conn
    raise UserError(f"cannot read the measurement database {path}: {error}")


def open_for_reading(db: str | Path | None, create: bool = False) -> tuple[Store | None, str]:
    """(database, note): the database to read adopted coefficients and kept profiles from,
    so that rank, tune and the build hook rank alike. Opened when named (``db``,
    ``$AUTOTUNE_DB``), when ``create``, or when the default one exists; else None
    (ranking then uses the shipped coefficients, and no file is made). A default database
    that cannot be opened is no error here: None, and the note says why."""
    if db or os.environ.get("AUTOTUNE_DB") or create:
        return Store(db), ""
    if not default_db_path().exists():
        return None, ""
    try:
        return Store(None), ""
    except UserError as exc:
        return None, f"{exc}; ranking with the shipped coefficients"
