"""Turn the accesses of a loop tree into the plain ``record.arrays`` entries.

An entry carries everything ``footprint.per_thread`` needs (so later stages
can recompute per-thread footprints for other schedules from JSON alone):
element size, dimensions, extent, and per access the linearised index
``flat`` with its loop ``domain``.
"""

from __future__ import annotations

from autotune.analysis import exprs
from autotune.analysis.exprs import Expr
from autotune.analysis.loopnode import Access, LoopNode

VIRTUAL_STRIDE = 1 << 20  # row length assumed for pointer-to-pointer rows (see docs)


def collect(root: LoopNode) -> list[tuple[Access, list[dict]]]:
    """Every access with the domain (levels from ``root`` down to its loop)."""
    out: list[tuple[Access, list[dict]]] = []

    def visit(node: LoopNode, path: list[dict]) -> None:
        here = path + [node.plain()]
        for acc in node.accesses:
            out.append((acc, here))
        for child, _ in node.children:
            visit(child, here)

    visit(root, [])
    return out


# Over 60 lines: one JSON field per line of an array's footprint record.
def plain_arrays(root: LoopNode) -> tuple[list[dict], list[str]]:
    """``record.arrays`` entries, one per array object, and warnings."""
    arrays: dict[str, dict] = {}
    warnings: list[str] = []
    for acc, domain in collect(root):
        k = len(acc.subs)
        derivs = acc.info.derivs[:k]
        key = acc.array
        if k < len(acc.info.derivs):
            key += " (row pointers)" if acc.info.derivs[k][0] == "ptr" else " (rows)"
        dims = [n for _, n in derivs]
        contiguous = all(kind == "array" and n is not None for kind, n in derivs[1:])
        extent = None
        if contiguous and all(n is not None for n in dims):
            extent = 1
            for n in dims:
                extent *= n
        entry = arrays.setdefault(
            key,
            {
                "name": key,
                "elem_size": acc.info.sizes[k],
                "dims": dims,
                "extent": extent,
                "layout": "contiguous" if contiguous else "rows",
                "mode": "",
                "accesses": [],
                "distinct_elements": None,
                "distinct_bytes": None,
                "bytes": None,
                "exact": True,
                "notes": [],
            },
        )
        if acc.info.note and acc.info.note not in entry["notes"]:
            entry["notes"].append(acc.info.note)
        entry["mode"] = "".join(m for m in "rw" if m in entry["mode"] + acc.mode)
        vars_ok = {lv["var"] for lv in domain if lv["var"]}
        flat = None
        kind = "whole"
        if all(s is not None for s in acc.subs):
            flat = _linearise(acc.subs, dims, contiguous)
            if exprs.free_vars(flat) <= vars_ok:
                kind = "affine" if exprs.affine(flat) is not None else "enum"
            else:
                flat = None
        if kind == "whole":
            what = acc.why or "index not analysable"
            where = acc.place or f"line {acc.line}"
            text = (
                f"{where}: {acc.text}: {what}; counted as the whole array (upper bound)"
                if extent is not None
                else f"{where}: {acc.text}: {what}; array size unknown, footprint unknown"
            )
            if text not in warnings:
                warnings.append(text)
            if extent is None:
                kind = "unknown"
        entry["accesses"].append(
            {
                "text": acc.text,
                "line": acc.line,
                "mode": acc.mode,
                "kind": kind,
                "flat": flat,
                "index": [exprs.to_c(s) if s is not None else None for s in acc.subs],
                # the same subscripts as expression trees (evaluable, and counted per
                # dimension by analysis.polyfoot)
                "index_exprs": list(acc.subs),
                "domain": domain,
            }
        )
        if entry["elem_size"] is None:
            warnings.append(f"{key}: element size unknown")
    return list(arrays.values()), warnings


def _linearise(subs: list[Expr], dims: list[int | None], contiguous: bool) -> Expr:
    """Row-major flat index; rows of pointer arrays get a virtual stride."""
    flat: Expr = subs[0]
    for i in range(1, len(subs)):
        row = dims[i] if contiguous else VIRTUAL_STRIDE
        flat = exprs.substitute(["+", ["*", flat, row], subs[i]], {})
    return flat
