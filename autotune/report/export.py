"""``autotune export``: runs, decisions and model quality as CSV or JSON.

Three tables, flat and stable enough for pandas or a spreadsheet: every run
(the runs table as stored), one decision per loop outcome, and one model
quality row per loop outcome. JSON holds all three; CSV one at a time.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict
from datetime import UTC, datetime

from autotune.errors import UserError
from autotune.measure.outcomes import load_outcomes
from autotune.measure.store import Store

TABLES = ("decisions", "quality", "runs")


def _where(o) -> dict:  # an outcomes.Outcome
    return {
        "label": o.label,
        "program": o.program,
        "size": o.size,
        "loop": o.loop_id,
        "machine": o.machine,
        "source_hash": o.source_hash,
        "flags_key": o.flags_key,
    }


def decisions(store: Store) -> list[dict]:
    rows = []
    for o in load_outcomes(store):
        d = o.doc
        if d.get("kind") == "scale":
            continue  # a prediction, not a decision: in the report and the JSON of runs
        rows.append(
            _where(o)
            | {
                "chosen": (d.get("best") or {}).get("key") or ("" if "failed" in d else "original"),
                "speedup": d.get("speedup"),
                "baseline_s": d.get("baseline"),
                "baseline_predicted_s": d.get("baseline_predicted_s"),
                "measured_variants": d.get("measured_programs"),
                "decision": d.get("decision") or d.get("failed", ""),
            }
        )
    return rows


def quality(store: Store) -> list[dict]:
    rows = []
    for o in load_outcomes(store):
        q = o.doc.get("quality")
        if not q:
            continue
        regret = q.get("regret") or {}
        rows.append(
            _where(o)
            | {
                "target": q.get("target"),
                "variants": q.get("n_variants"),
                "measured": q.get("n_measured"),
                "k": q.get("k"),
                "kendall_tau": q.get("kendall_tau"),
                "mean_abs_rel_error": q.get("mean_abs_rel_error"),
                "mean_abs_rel_error_anchored": q.get("mean_abs_rel_error_anchored"),
                "regret_at_1": regret.get("1"),
                "regret_at_k": regret.get(str(q.get("k"))),
                "best_pruned": q.get("best_pruned"),
            }
        )
    return rows


def runs(store: Store) -> list[dict]:
    """Every stored run, named as the decisions name loops (``file:line``: the store keys
    runs by the source's content, ``line:column``, so the file comes from the outcomes of
    that content), with its time in ISO 8601 beside the stored seconds."""
    programs: dict[str, str] = {}
    for o in load_outcomes(store):
        programs.setdefault(o.source_hash, o.program)
    out = []
    for r in store.runs():
        row = asdict(r)
        program = programs.get(r.source_hash, "")
        line = r.loop_id.split(":")[0]
        created = row.pop("created", None)
        out.append(
            {"program": program, "loop": f"{program}:{line}" if program else r.loop_id}
            | row
            | {"created": _iso(created), "created_s": created}
        )
    return out


def _iso(seconds: float | None) -> str:
    if seconds is None:
        return ""
    return datetime.fromtimestamp(float(seconds), tz=UTC).isoformat(timespec="seconds")


def export_text(store: Store, fmt: str, table: str | None = None) -> str:
    """The export as text: JSON of the chosen tables (all by default), or CSV of one."""
    readers = {"decisions": decisions, "quality": quality, "runs": runs}
    chosen = [table] if table else (list(TABLES) if fmt == "json" else ["decisions"])
    data = {t: readers[t](store) for t in chosen}
    if not any(data.values()):  # an empty export is said, not printed as nothing
        raise UserError(
            f"nothing to export: the database holds no {' or '.join(chosen)} "
            "(run 'autotune tune' or a campaign first)",
            str(store.path),
        )
    if fmt == "json":
        return json.dumps(data, indent=2) + "\n"
    rows = data[chosen[0]]
    out = io.StringIO()
    if rows:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return out.getvalue()
