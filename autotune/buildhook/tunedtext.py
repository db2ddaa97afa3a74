"""The tuned text of one source: parse it, decide each loop, rewrite the chosen ones.

The slow path of ``lookup.decide`` (no kept decision answered): a stored measurement
decides a loop first, then the model's pick in rank mode; the legality gate of the
analysis has the last word (``apply_variants`` refuses a variant the loop cannot take,
as when a header changed a size since the measurement). The entry it returns is what
``cache`` keeps, with the manifest of the headers the analysis read.
"""

from __future__ import annotations

import os

from autotune.buildhook import cache, keys
from autotune.buildhook.cmdline import Command, Source
from autotune.buildhook.report import LoopDecision


class HookFailure(RuntimeError):
    """A failure inside autotune: compile the original and warn (``warn`` False: the
    compiler rejects the file itself, and its own message is the one to read)."""

    def __init__(self, message: str, warn: bool = True) -> None:
        super().__init__(message)
        self.warn = warn


def line_directive(path: str) -> str:
    quoted = path.replace("\\", "\\\\").replace('"', '\\"')
    return f'#line 1 "{quoted}"\n'


def build_tuned(
    cmd: Command,
    src: Source,
    data: bytes,
    rows: dict[str, dict],
    machine: dict,
    ranker=None,  # a rank.Ranker
    extra_sources: list[str] | None = None,
) -> dict:
    """Parse the file, apply the chosen variants; the cache entry (text None: original).
    ``extra_sources``: the command's other C files (the proof follows calls into them)."""
    from autotune.analysis import analyze_file
    from autotune.errors import CompilerRejects, UserError
    from autotune.variants.apply import apply_variants

    exact = keys.text_of(data)
    cflags = [f"-U{u}" for u in cmd.undefined] + list(cmd.cpp_flags)
    if src.forced:
        cflags += ["-x", "c"]
    try:
        unit = analyze_file(
            src.path,
            defines=dict(cmd.defines),
            include_dirs=cmd.include_dirs,
            cflags=cflags,
            threads=int(machine.get("cores") or 1),
            cc=cmd.compiler,
            profiles=_measured_sizes(rows),
            extra_sources=extra_sources,
        )
    except CompilerRejects as exc:
        raise HookFailure(f"the compiler rejects the file: {exc}", warn=False) from None
    except UserError as exc:
        raise HookFailure(f"autotune cannot analyse the file: {exc}") from None
    loops, choices = _decide_loops(unit.loops, src.path, rows, ranker)
    accepted = []
    for rec, variant, ld in choices:
        try:
            apply_variants(exact, [(r, v) for r, v, _ in accepted] + [(rec, variant)])
        except (UserError, ValueError) as exc:
            ld.reason = f"cannot rewrite the directive: {exc}"
            continue
        accepted.append((rec, variant, ld))
        ld.used, ld.variant = "tuned", variant.key
    text = None
    if accepted:
        text = line_directive(src.path) + apply_variants(exact, [(r, v) for r, v, _ in accepted])
    n_loops = sum(1 for ld in loops if ld.line and ld.loop_id in {r.id for r in unit.loops})
    reason = (
        f"{len(accepted)} of {n_loops} loop(s) compiled tuned"
        if accepted
        else "no loop has a tuned variant to apply"
    )
    return {
        "text": text,
        "used": "tuned" if accepted else "original",
        "reason": reason,
        "loops": [ld.to_dict() for ld in loops],
        "headers": cache.header_manifest(unit.headers),
    }


def _measured_sizes(rows: dict[str, dict]) -> dict[str, dict] | None:
    """The sizes stored with tuned choices, as the analysis takes a profile's: a loop
    tuned at them is proven at them again, and its variant written behind a test of
    them (the build runs nothing; the test decides at run time)."""
    out = {
        key: {"values": dict(row["sizes"]), "ranges": {t: [v, v] for t, v in row["sizes"].items()}}
        for key, row in rows.items()
        if row.get("sizes")
    }
    return out or None


def _decide_loops(records: list, path: str, rows: dict[str, dict], ranker) -> tuple[list, list]:
    """Each loop of this file: its decision, and the (record, variant, decision) to apply.

    A stored measurement decides first, then the model's pick (``ranker``); stored rows
    that name no loop found are reported.
    """
    from autotune.variants.space import Variant

    here = os.path.realpath(path)
    loops: list[LoopDecision] = []
    choices = []
    found = set()
    for rec in records:
        try:
            if os.path.realpath(rec.file) != here:
                continue  # a loop in a header: not in this file's text
        except (OSError, ValueError):
            continue
        key = keys.loop_key(rec.line, rec.column)
        found.add(key)
        ld = LoopDecision(loop_id=rec.id, line=rec.line, used="original", function=rec.function)
        row = rows.get(key)
        if row is not None and row["variant_key"] != "baseline":
            try:
                variant = Variant.from_key(row["variant_key"])
            except (ValueError, TypeError):
                ld.reason = f"unreadable stored variant {row['variant_key']!r}"
            else:
                illegal = _illegal(rec, variant)
                if illegal:  # e.g. a header changed a size since it was measured
                    ld.reason = (
                        f"measured {variant.label}, which the loop cannot take as it is "
                        f"compiled now: {illegal}"
                    )
                else:
                    choices.append((rec, variant, ld))
                    ld.reason = "measured: " + _gain(row) + _when(row)
        elif row is not None:
            ld.reason = "measured: no variant was confirmed faster than the original" + _when(row)
        elif ranker is not None and ranker.chosen is not None:
            variant, why = ranker.pick(rec)
            ld.reason = why
            if variant is not None:
                choices.append((rec, variant, ld))
        elif not rec.tunable:
            ld.reason = f"not tunable: {rec.reason}"
        else:
            ld.reason = "not tuned"
        loops.append(ld)
    for key in sorted(set(rows) - found):
        loops.append(
            LoopDecision(
                loop_id=key,
                line=int(key.split(":")[0]),
                used="original",
                reason="stored result names a loop the analysis did not find",
            )
        )
    return loops, choices


def _illegal(rec, variant) -> str:  # a LoopRecord, a Variant
    """Why the legality gate, run on the file as compiled now, refuses ``variant``."""
    from autotune.variants.emit import check_variant
    from autotune.variants.errors import EmitError

    try:
        check_variant(rec, variant)
    except EmitError as exc:
        return exc.message
    return ""


def _when(row: dict) -> str:
    """When ``autotune tune`` stored the decision (the build measures nothing itself)."""
    import time

    created = row.get("created")
    if not isinstance(created, int | float):
        return ""
    return time.strftime(" (tune of %Y-%m-%d %H:%M)", time.localtime(created))


def _gain(row: dict) -> str:
    base, best = row.get("baseline_s"), row.get("best_s")
    if base and best:  # loop times; what shipped was also confirmed on the whole program
        return f"loop {base / best:.2f}x faster than the original's (program confirmed)"
    return "fastest verified variant"
