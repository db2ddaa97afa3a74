"""The structure tree for people: an indented table, and an optional bar plot.

The tree is drawn in the first column of ``render.table`` (box-drawing
prefixes), so every number still sits in an aligned column.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from autotune.render import table
from autotune.structure.nodes import ProgramTree, StructNode

SKELETON_NAMES = {
    "parmap": "parMap",
    "farm": "farm",
    "iteration": "iteration",
    "composition": "composition",
    "task": "task",
    "dc": "dc",
    "sequence": "sequence",
}


def skel(node: StructNode) -> str:
    return SKELETON_NAMES.get(node.skeleton, node.skeleton)


def where(node: StructNode) -> str:
    return f"{os.path.basename(node.file)}:{node.line}"


def size_text(node: StructNode) -> str:
    if node.kind == "iteration":
        return f"k={node.trip_count}" if node.trip_count is not None else "k=?"
    if node.kind == "loop":
        return f"{node.trip_count} it." if node.trip_count is not None else "? it."
    if node.kind == "dc":
        r, d = node.facts.get("branching"), node.facts.get("depth")
        return f"r={r},d={d if d is not None else '?'}"
    return ""


def tree_lines(root: StructNode) -> list[tuple[StructNode, str]]:
    """(node, label with tree prefix) in pre-order."""
    out: list[tuple[StructNode, str]] = []

    def walk(node: StructNode, prefix: str, last: bool, top: bool) -> None:
        head = "" if top else prefix + ("└─ " if last else "├─ ")
        out.append((node, f"{head}{node.kind} {node.label}"))
        inner = "" if top else prefix + ("   " if last else "│  ")
        for i, child in enumerate(node.children):
            walk(child, inner, i == len(node.children) - 1, False)

    walk(root, "", True, True)
    return out


def render_tree(
    tree: ProgramTree,
    headers: Sequence[str],
    cells: Callable[[StructNode], Sequence[Any]],
    extra_rows: Callable[[StructNode, str], list[Sequence[Any]]] | None = None,
) -> str:
    """A table whose first column is the tree; ``cells`` gives the other columns."""
    rows: list[Sequence[Any]] = []
    for node, label in tree_lines(tree.root):
        rows.append([label, *cells(node)])
        if extra_rows:
            rows.extend(extra_rows(node, label))
    return table(["node", *headers], rows)


def node_notes(tree: ProgramTree) -> list[str]:
    lines = []
    for node in tree.nodes():
        for note in node.notes:
            lines.append(f"  {where(node)} {node.kind}: {note}")
    return lines


def plot_measured(path: str, tree: ProgramTree, per_threads: dict, title: str) -> None:
    """Horizontal bars: measured time per timed node, one bar per thread count."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    from autotune.render import save_figure

    lines = [(n, lab) for n, lab in tree_lines(tree.root) if n.timed and n.duplicate_of is None]
    labels = [f"{lab.strip()[:40]} ({where(n)})" for n, lab in lines]
    y = np.arange(len(lines))
    height = 0.8 / max(1, len(per_threads))
    fig, ax = plt.subplots(figsize=(9, 1.2 + 0.45 * max(1, len(lines))))
    for k, (p, point) in enumerate(per_threads.items()):
        times = [point.total(n.id) or 0.0 for n, _ in lines]
        ax.barh(y - 0.4 + (k + 0.5) * height, times, height=height, label=f"{p} thread(s)")
    ax.set_yticks(y, labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("measured time, seconds per program run")
    ax.set_ylabel("program node")
    ax.set_title(title, fontsize=10)
    ax.legend()
    fig.tight_layout()
    save_figure(fig, path)


def plot_prediction(path: str, tree: ProgramTree, estimates: dict, title: str) -> None:
    """Horizontal bars: predicted (and measured, when the target ran) time per node."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    lines = [
        (n, lab)
        for n, lab in tree_lines(tree.root)
        if n.id in estimates and estimates[n.id].predicted is not None and n.duplicate_of is None
    ]
    labels = [f"{lab.strip()[:40]} ({where(n)})" for n, lab in lines]
    pred = [estimates[n.id].predicted for n, _ in lines]
    meas = [estimates[n.id].measured or 0.0 for n, _ in lines]
    y = np.arange(len(lines))
    fig, ax = plt.subplots(figsize=(9, 1.2 + 0.45 * len(lines)))
    ax.barh(y - 0.2, pred, height=0.4, label="predicted")
    if any(meas):
        ax.barh(y + 0.2, meas, height=0.4, label="measured")
    ax.set_yticks(y, labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("time, seconds per program run")
    ax.set_ylabel("program node")
    ax.set_title(title, fontsize=10)
    ax.legend()
    fig.tight_layout()
    from autotune.render import save_figure

    save_figure(fig, path)
