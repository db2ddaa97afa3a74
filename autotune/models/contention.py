"""Two effects of sharing the machine between threads that seed 004 ignores.

- False sharing: chunks smaller than a cache line of a written array put
  neighbouring iterations of different threads on one line, which then moves
  between cores on every write (``static,1`` on a vector is the classic case).
- Memory-bound loops: once the data no longer fits in the cores' private
  caches, time is set by memory bandwidth, which more threads do not add; the
  loop's thread speedup is damped by how memory-bound it is.

Both are computed from the analysis's plain data (``LoopRecord.arrays``), so
they cost nothing at ranking time.
"""

from __future__ import annotations

from autotune.analysis import exprs
from autotune.frontend.records import LoopRecord
from autotune.measure.machine import Machine

# Operations per byte at which a loop is half memory-bound. A 2020s core does a
# few flops per cycle and one core streams a few bytes per cycle from DRAM:
# about one op per byte is the balance point; the exponent is refitted anyway.
BALANCE_OPS_PER_BYTE = 1.0


def _stride(flat: object, var: str) -> int | None:
    """Coefficient of ``var`` in the analysis's affine flattened index, an expression
    tree (``["+", ["*", "i", 640], "j"]``); None when it is not affine."""
    coefs = exprs.affine(flat)
    return None if coefs is None else coefs.get(var, 0)


def written_unit_stride_elem(record: LoopRecord) -> int | None:
    """Smallest element size of an array written with the parallel loop variable
    as its fastest index (stride 1); None when no write is laid out like that."""
    if not record.nest:
        return None
    var = record.nest[0].var
    sizes = []
    for arr in record.arrays:
        size = arr.get("elem_size")
        if not size:
            continue
        for acc in arr.get("accesses", []):
            if "w" not in str(acc.get("mode", "")) or not acc.get("flat"):
                continue
            if _stride(acc["flat"], var) in (1, -1):
                sizes.append(int(size))
    return min(sizes) if sizes else None


def false_sharing(
    record: LoopRecord, schedule: str, chunk: int | None, threads: int, machine: Machine
) -> float:
    """1 + the share of a cache line that other threads' chunks write (0 = none)."""
    if threads <= 1:
        return 1.0
    elem = written_unit_stride_elem(record)
    if elem is None:
        return 1.0
    if schedule == "static" and not chunk:
        return 1.0  # one contiguous block per thread: at most two shared lines
    c = chunk or 1
    return 1.0 + max(0.0, 1.0 - c * elem / machine.line_bytes)


def memory_boundness(record: LoopRecord, machine: Machine, total_ops: float) -> float:
    """0 (compute-bound, or fits in the private caches) .. 1 (streams from memory)."""
    footprint = record.footprint_bytes
    if not footprint:
        return 0.0
    private = machine.cores * machine.l2_bytes
    spill = min(1.0, footprint / private)
    intensity = total_ops / footprint  # ops per byte of one run
    return spill / (1.0 + intensity / BALANCE_OPS_PER_BYTE)


def bandwidth_factor(
    threads: int, machine: Machine, boundness: float, bandwidth_speedup: float = 1.0
) -> float:
    """(p_eff / bandwidth speedup) ** m: the speedup a memory-bound loop does not get
    from its threads. Without a measured bandwidth curve, memory bandwidth is taken
    not to grow with threads at all."""
    p_eff = max(1, min(threads, machine.cores))
    return max(1.0, p_eff / max(bandwidth_speedup, 1.0)) ** boundness
