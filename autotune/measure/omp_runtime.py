"""Which OpenMP runtime a compiler links with ``-fopenmp`` (libgomp, libomp, ...).

The variant space collapses only what that runtime is known to run
identically, so the answer comes from a real link: a one-line program is
built and its dynamic dependencies are read with ``ldd``.
"""

from __future__ import annotations

import functools
import shlex
import subprocess
import tempfile
from pathlib import Path

PROBE = "#include <omp.h>\nint main(void) { return omp_get_max_threads() < 0; }\n"
KNOWN = (("libgomp", "libgomp"), ("libomp", "libomp"), ("libiomp", "libiomp5"))


@functools.lru_cache(maxsize=8)
def openmp_runtime(cc: str = "gcc") -> str:
    """``libgomp``, ``libomp``, ``libiomp5`` or ``unknown`` (never raises)."""
    try:
        with tempfile.TemporaryDirectory(prefix="autotune-rt-") as tmp:
            src, exe = Path(tmp) / "probe.c", Path(tmp) / "probe"
            src.write_text(PROBE)
            build = subprocess.run(
                [*shlex.split(cc), "-fopenmp", str(src), "-o", str(exe)],
                capture_output=True,
                text=True,
                timeout=60,
            )
            if build.returncode != 0:
                return "unknown"
            ldd = subprocess.run(["ldd", str(exe)], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError, ValueError):
        return "unknown"
    for needle, name in KNOWN:
        if needle in ldd.stdout:
            return name
    return "unknown"
