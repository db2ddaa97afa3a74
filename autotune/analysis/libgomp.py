"""How libgomp (GCC 12) deals iterations, where both the footprint analysis and
the model's schedule simulator need the same answer."""

from __future__ import annotations

import numpy as np


def guided_chunk_sizes(n: int, threads: int, chunk: int | None = None) -> np.ndarray:
    """Chunk sizes, in hand-out order, of ``schedule(guided, chunk)``.

    libgomp hands out max(ceil(remaining / threads), chunk) iterations each time,
    capped at what remains (``iter.c``).
    """
    c = max(1, chunk or 1)
    p = max(1, threads)
    sizes = []
    remaining = n
    while remaining > 0:
        q = min(max(-(-remaining // p), c), remaining)
        sizes.append(q)
        remaining -= q
    return np.asarray(sizes, dtype=np.int64)
