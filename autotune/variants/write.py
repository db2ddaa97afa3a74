"""Write every variant of a file's loops as C files, with a manifest.

Each file is the user's file with only the loop's directive line(s) changed
(timing code added only when ``instrument``), so ``diff`` against the original
shows exactly what a variant is. ``manifest.json`` lists every loop, its
variants, their files and directives, and any loop that could not be written.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from autotune.errors import UserError
from autotune.frontend.records import LoopRecord
from autotune.variants.apply import write_atomic
from autotune.variants.cscan import line_starts
from autotune.variants.directive import flat_text, parse_pragma
from autotune.variants.emit import EmitError, emit_variant, rewrite_source
from autotune.variants.space import BASELINE, Variant


@dataclass
class WrittenVariants:
    manifest: dict
    rows: list[list] = field(default_factory=list)  # loop, variant, file, directive(s)
    written: int = 0
    errors: list[str] = field(default_factory=list)


def file_name(stem: str, record: LoopRecord, key: str) -> str:
    where = f"L{record.line}"
    if record.column and record.id.endswith(f":{record.line}:{record.column}"):
        where += f"c{record.column}"  # two loops on one line
    return f"{stem}.{where}.{key.replace(',', '-')}.c"


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def _directives(source: str, record: LoopRecord, variant: Variant) -> tuple[str, str | None]:
    """The variant's worksharing directive as written, and its parallel one if separate.
    Read from the text without its run-time guard, whose ``if`` line would stand where
    the directive's line is."""
    plain = rewrite_source(source, [(replace(record, guard=""), variant)])
    starts = line_starts(plain)
    ws = parse_pragma(plain, starts, record.directive.line, record.id)
    par = None
    if record.parallel is not None and record.parallel.line != record.directive.line:
        p = parse_pragma(plain, starts, record.parallel.line, record.id)
        par = flat_text(plain[p.start : p.statement_from])
    return flat_text(plain[ws.start : ws.statement_from]), par


DEFAULT_MAX_BYTES = 1 << 30  # 1 GiB: 2,000 loops of a 20 MB file would be 76 GB


def planned_output(
    source: str, records: list[LoopRecord], path: str, space: Callable[[LoopRecord], list[Variant]]
) -> tuple[int, int]:
    """(files, bytes) ``write_variants`` would write: the original and each variant of
    every tunable loop of ``path``, each a copy of the source, and the manifest."""
    files = sum(1 + len(space(r)) for r in records if r.tunable and _same_file(r.file, path))
    return files, files * (len(source) + 200)


def human_bytes(n: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} B"


# Over 60 lines: one manifest entry per loop and variant, written as they are emitted.
def write_variants(
    path: str,
    source: str,
    records: list[LoopRecord],
    out_dir: Path,
    space: Callable[[LoopRecord], list[Variant]],
    *,
    instrument: bool = False,
    defines: dict | None = None,
    max_bytes: int | None = DEFAULT_MAX_BYTES,
) -> WrittenVariants:
    """Write the original (as a variant) and ``space(record)`` for every tunable loop;
    refused before anything is written when that would pass ``max_bytes`` (None: no
    limit): each variant is a whole copy of the file."""
    planned = planned_output(source, records, path, space)
    if max_bytes is not None and planned[1] > max_bytes:
        raise UserError(
            f"would write {planned[0]} variant file(s) of {len(source):,} bytes each, about "
            f"{human_bytes(planned[1])}, over the limit of {human_bytes(max_bytes)}: "
            "choose loops with --loop, a smaller space, or raise --max-bytes",
            path,
        )
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(
            f"cannot create the output directory: {exc.strerror}", str(out_dir)
        ) from None
    out = WrittenVariants(
        {
            "source": os.path.abspath(path),
            "instrumented": bool(instrument),
            "defines": defines or {},
            "loops": [],
        }
    )
    stem = Path(path).stem
    for record in records:
        entry: dict = {
            "id": record.id,
            "line": record.line,
            "function": record.function,
            "tunable": record.tunable,
            "reason": record.reason,
            "variants": [],
        }
        out.manifest["loops"].append(entry)
        if not _same_file(record.file, path):
            entry["error"] = f"the loop is in {record.file}, not in {path}"
            out.errors.append(f"{record.id}: {entry['error']}")
            continue
        if not record.tunable:
            out.rows.append([record.id, "-", "-", f"not tunable: {record.reason}"])
            continue
        try:
            for variant in [BASELINE, *space(record)]:
                text = emit_variant(source, record, variant, instrument=instrument)
                shown, par_shown = _directives(source, record, variant)
                name = file_name(stem, record, variant.key)
                write_atomic(out_dir / name, text)
                out.written += 1
                entry["variants"].append(
                    {
                        "key": variant.key,
                        "file": name,
                        "schedule": variant.schedule,
                        "chunk": variant.chunk,
                        "threads": variant.threads,
                        "directive": shown,
                        "parallel_directive": par_shown,
                    }
                )
                both = par_shown + " / " + shown if par_shown else shown
                out.rows.append([record.id, variant.key, name, both])
        except EmitError as exc:
            entry["error"] = str(exc)
            out.errors.append(str(exc))
            out.rows.append([record.id, "-", "-", f"error: {exc}"])
    write_atomic(out_dir / "manifest.json", json.dumps(out.manifest, indent=2) + "\n")
    return out
