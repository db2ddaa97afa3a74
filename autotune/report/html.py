"""``autotune report``: one static HTML page of every stored tune and campaign.

Read from the database only (the outcomes and runs tables): per label
(``tune`` or a campaign), program, size and loop, the decision and speedup,
predicted against measured time, speedup by thread count and schedule, and the
model's quality (Kendall tau, regret@k, whether the best was pruned). Images
are embedded; the page needs no server.
"""

from __future__ import annotations

import datetime
import html
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from autotune.errors import UserError
from autotune.measure.outcomes import Outcome, load_outcomes
from autotune.measure.store import Store
from autotune.modelshape import ModelCard
from autotune.report import figures
from autotune.tuning.registry import card_for_outcome
from autotune.variants.templating import template_dir


@dataclass
class LoopSection:
    outcome: Outcome
    title: str
    scatter: str | None = None
    threads: str | None = None

    @property
    def doc(self) -> dict:
        return self.outcome.doc


@dataclass
class ReportData:
    database: str
    labels: dict[str, list[LoopSection]] = field(default_factory=dict)
    failures: list[Outcome] = field(default_factory=list)
    models: dict[str, ModelCard] = field(default_factory=dict)  # the models named, by name


def collect(store: Store, label: str | None = None, plots: bool = True) -> ReportData:
    """Every outcome grouped by label, with its figures drawn."""
    data = ReportData(str(store.path))
    for o in load_outcomes(store, label):
        if "failed" in o.doc:
            data.failures.append(o)
            continue
        title = f"{o.program} {o.size} {Path(o.loop_id).name}".strip()
        section = LoopSection(o, title)
        if o.doc.get("kind") == "scale":  # figures drawn when the prediction was made
            figures_ = o.doc.get("figures") or {}
            section.scatter, section.threads = figures_.get("estimate"), figures_.get("grid")
        elif plots:
            section.scatter = figures.predicted_vs_measured(o.doc, title)
            section.threads = figures.speedup_by_threads(o.doc, title)
        data.labels.setdefault(o.label, []).append(section)
        _note_model(
            data, o.doc.get("model") or ("skeleton" if o.doc.get("kind") == "scale" else None)
        )
    if not data.labels and not data.failures:
        raise UserError(
            "nothing to report: no tune or campaign outcome is stored in this database",
            str(store.path),
        )
    return data


def _note_model(data: ReportData, name: object) -> None:
    """Keep the card of a model an outcome names (from the one registry of models)."""
    if isinstance(name, str) and name not in data.models:
        card = card_for_outcome(name)
        if card is not None:
            data.models[name] = card


def _fmt(value: object, kind: str = "") -> str:
    if value is None:
        return "-"
    if kind == "ms":
        return f"{float(value) * 1e3:.3g}"
    if kind == "x":
        return f"{float(value):.2f}x"
    if kind == "pct":
        return f"{float(value) * 100:.1f}%"
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)


def render(data: ReportData) -> str:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(template_dir())),
        autoescape=jinja2.select_autoescape(["html", "j2"]),
        undefined=jinja2.StrictUndefined,
    )
    env.filters["fmt"] = _fmt
    env.filters["file"] = lambda text: Path(str(text)).name
    template = env.get_template("report.html.j2")
    return template.render(
        data=data,
        made=datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
        escape=html.escape,
    )


def write_report(store: Store, output: str | Path, label: str | None = None) -> Path:
    """Write the page atomically; returns its path."""
    from autotune.variants.apply import write_atomic

    text = render(collect(store, label))
    write_atomic(output, text)
    return Path(output)
