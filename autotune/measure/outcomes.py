"""Per-loop outcomes in the database: what a tune or a campaign decided, as JSON.

The runs table holds every timing; an outcome holds what was made of them for
one loop (the ranking with predicted times, the measured ones, the decision,
the model's quality), so that ``autotune report`` and ``export`` can show
predicted against measured without re-running the model. ``label`` says who
wrote it: ``tune`` or a campaign's name.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from autotune.measure.store import Store


@dataclass
class Outcome:
    label: str  # "tune" or the campaign's name
    program: str  # the program's name (the file's path for a tune)
    size: str  # the -D set that sized it ("" when none)
    source_hash: str
    flags_key: str
    machine: str
    loop_id: str
    doc: dict  # LoopTuneResult.to_dict() and where it came from
    created: float = 0.0


def save_outcome(store: Store, outcome: Outcome) -> None:
    """Store (or replace) one loop's outcome."""
    outcome.created = outcome.created or time.time()
    with store.transaction() as c:
        c.execute(
            "INSERT OR REPLACE INTO outcomes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                outcome.label,
                outcome.program,
                outcome.size,
                outcome.source_hash,
                outcome.flags_key,
                outcome.machine,
                outcome.loop_id,
                json.dumps(outcome.doc, sort_keys=True),
                outcome.created,
            ),
        )


def load_outcomes(store: Store, label: str | None = None) -> list[Outcome]:
    """Every stored outcome (of one label), oldest first."""
    sql = "SELECT * FROM outcomes"
    args: list = []
    if label is not None:
        sql += " WHERE label = ?"
        args.append(label)
    rows = store.conn.execute(sql + " ORDER BY created, program, size, loop_id", args)
    return [Outcome(r[0], r[1], r[2], r[3], r[4], r[5], r[6], json.loads(r[7]), r[8]) for r in rows]


def drop_failure(store: Store, label: str, source_hash: str, flags_key: str, loop_id: str) -> None:
    """Forget a recorded failure of a loop (or of its program) once it has been measured."""
    with store.transaction() as c:
        c.execute(
            "DELETE FROM outcomes WHERE label = ? AND source_hash = ? AND flags_key = ? "
            "AND machine = '' AND loop_id IN (?, '')",
            (label, source_hash, flags_key, loop_id),
        )
